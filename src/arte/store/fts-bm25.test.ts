import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { type EmailInput, type EmailScope, type EmailSearch, EmailStore } from './email-store.ts'
import { MIGRATIONS, migrate, SCHEMA_VERSION } from './schema.ts'
import { bm25AgreesWithSqlite } from './fts-bm25.ts'
import { TERM_DOCS_MIN_DOCS, TERM_DOCS_MIN_ROWS, TermCountsError } from './term-docs.ts'

/**
 * The ranking in JavaScript (`fts-bm25.ts`, from the store's term counts and FTS5's records) against SQLite's
 * `bm25()`: the same hits, order and snippets, forced on small generated stores.
 */

/** Words with shared stems (porter: contract, contracts, contracting, contracted) and a small vocabulary, so ties are common. */
const STEMS = ['contract', 'gas', 'price', 'meet', 'report', 'trade', 'power', 'deal', 'risk', 'desk', 'nu', 'a']
const SUFFIXES = ['', 's', 'ing', 'ed', 'er']

function corpus(seed: number, size: number): { emails: EmailInput[]; inboxes: string[] } {
  let state = seed
  const random = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state / 2_147_483_648
  }
  const word = (): string => {
    const stem = STEMS[Math.floor(random() ** 2 * STEMS.length)] as string
    const suffix = SUFFIXES[Math.floor(random() ** 3 * SUFFIXES.length)] as string
    const text = stem + suffix
    return random() < 0.1 ? text.toUpperCase() : random() < 0.1 ? `${text[0]?.toUpperCase()}${text.slice(1)}` : text
  }
  const words = (n: number): string => Array.from({ length: n }, word).join(random() < 0.3 ? '. ' : ' ')
  const inboxes = ['ann@corp.test', 'bob@corp.test', 'cy@corp.test']
  const emails = Array.from({ length: size }, (_, i): EmailInput => {
    const inbox = inboxes[Math.floor(random() * inboxes.length)] as string
    // A few long emails: position lists spread over several index pages.
    const bodyWords = random() < 0.01 ? 3_000 + Math.floor(random() * 3_000) : Math.floor(random() * 12)
    return {
      messageId: `<m${i}@corp.test>`,
      inbox,
      subject: words(Math.floor(random() * 4)),
      from: random() < 0.2 ? inbox : 'dan@corp.test',
      to: [random() < 0.1 ? (inboxes[Math.floor(random() * inboxes.length)] as string) : inbox],
      cc: [],
      bcc: [],
      date: new Date(Date.UTC(2000, 0, 1) + Math.floor(random() * 3 * 365) * 86_400_000).toISOString(),
      body: words(bodyWords),
    }
  })
  return { emails, inboxes }
}

const keyword = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...STEMS), fc.constantFrom(...SUFFIXES)).map(([stem, suffix]) => stem + suffix) },
  // A phrase (ranked by SQLite), a keyword with a curly quote (an OR of two one-token phrases), a word in no email.
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...STEMS), fc.constantFrom(...STEMS)).map(([a, b]) => `${a} ${b}`) },
  { weight: 1, arbitrary: fc.constantFrom(...STEMS).map((stem) => `\u201c${stem}\u201d`) },
  { weight: 1, arbitrary: fc.constant('zebra') },
)

function searchArbitrary(inboxes: string[]): fc.Arbitrary<[EmailSearch, EmailScope]> {
  const day = fc.integer({ min: 0, max: 3 * 365 }).map((offset) => new Date(Date.UTC(2000, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10))
  const sometimes = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
    fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value })
  const search: fc.Arbitrary<EmailSearch> = fc.record({
    keywords: fc.array(keyword, { minLength: 1, maxLength: 3 }),
    from: sometimes(fc.constantFrom('dan', 'ann')),
    sentAfter: sometimes(day),
    maxResults: fc.integer({ min: 1, max: 50 }),
  })
  return fc.tuple(search, fc.record({ inbox: fc.constantFrom(...inboxes), queryDate: fc.oneof(day, fc.constant('2002-12-31')) }))
}

describe('ranking in JavaScript', () => {
  const { emails, inboxes } = corpus(3, 3_000)
  const store = EmailStore.open(':memory:')
  store.insertEmails(emails)
  store.optimize()
  store.countTermDocs({ minRows: 0, minDocs: 50 })
  afterAll(() => store.close())

  it("gives SQLite bm25's hits, order and snippets under every plan (400 generated searches)", () => {
    const before = store.rankedInJavaScript
    let nonEmpty = 0
    fc.assert(
      fc.property(
        searchArbitrary(inboxes),
        fc.constantFrom('auto', 'match-first', 'scope-first') as fc.Arbitrary<'auto' | 'match-first' | 'scope-first'>,
        ([query, scope], plan) => {
          const expected = store.search(query, scope, plan, 'sqlite')
          expect(store.search(query, scope, plan)).toEqual(expected)
          if (expected.length > 1) nonEmpty++
        },
      ),
      { numRuns: 400, seed: 41 },
    )
    // Most searches went through the JavaScript ranking, with pages worth comparing.
    expect(store.rankedInJavaScript - before).toBeGreaterThan(200)
    expect(nonEmpty).toBeGreaterThan(150)
  })

  it('ranks ties (same counts, same sizes) by rowid, as SQLite does', () => {
    const tied = EmailStore.open(':memory:')
    try {
      tied.insertEmails(
        Array.from({ length: 60 }, (_, i) => ({
          ...(emails[0] as EmailInput),
          messageId: `<tie${i}@corp.test>`,
          inbox: 'ann@corp.test',
          subject: i % 3 === 0 ? 'gas price' : 'price gas',
          body: i % 2 === 0 ? 'gas gas report' : 'report gas gas',
        })),
      )
      tied.countTermDocs({ minRows: 0, minDocs: 1 })
      const scope = { inbox: 'ann@corp.test', queryDate: '2002-12-31' }
      const query = { keywords: ['gas', 'report'], maxResults: 50 }
      const before = tied.rankedInJavaScript
      const hits = tied.search(query, scope)
      expect(tied.rankedInJavaScript).toBe(before + 1)
      expect(hits).toHaveLength(50)
      expect(hits).toEqual(tied.search(query, scope, 'auto', 'sqlite'))
    } finally {
      tied.close()
    }
  })
})

describe('when the JavaScript ranking stands aside', () => {
  const { emails } = corpus(5, 1_500)
  const scope: EmailScope = { inbox: 'ann@corp.test', queryDate: '2002-12-31' }
  const query: EmailSearch = { keywords: ['contract', 'gas'], maxResults: 20 }

  it('ranks with SQLite until the terms are counted, and again after any write outside an import', () => {
    using store = EmailStore.open(':memory:')
    store.insertEmails(emails)
    store.optimize()
    const ranked = (): number => {
      const before = store.rankedInJavaScript
      expect(store.search(query, scope)).toEqual(store.search(query, scope, 'auto', 'sqlite'))
      return store.rankedInJavaScript - before
    }
    // A store of up to TERM_DOCS_MIN_ROWS rows keeps no counts, even after an import.
    expect(store.db.prepare('SELECT count(*) FROM fts_term_docs_state').pluck().get()).toBe(0)
    expect(TERM_DOCS_MIN_ROWS).toBe(50_000)
    expect(ranked()).toBe(0)
    store.countTermDocs({ minRows: 0, minDocs: 20 })
    expect(ranked()).toBe(1)
    // A row inserted, updated or deleted outside an import: the counts are stale.
    for (const write of [
      () => store.db.prepare("UPDATE emails SET body = body || ' gas' WHERE rowid = 5").run(),
      () => store.db.prepare('DELETE FROM emails WHERE rowid = 6').run(),
      () =>
        store.db
          .prepare(
            "INSERT INTO emails (message_id, inbox, subject, sender, date, body) VALUES ('<x@corp.test>', 'ann@corp.test', 'gas', 'dan@corp.test', '2001-01-01T00:00:00.000Z', 'contract')",
          )
          .run(),
    ]) {
      write()
      store.optimize()
      expect(ranked()).toBe(0)
      store.countTermDocs({ minRows: 0, minDocs: 20 })
      expect(ranked()).toBe(1)
    }
    // An import: stale until counted again (a store this small is not counted at the end of an import).
    store.insertEmails([{ ...(emails[0] as EmailInput), messageId: '<new@corp.test>', body: 'gas contract gas' }])
    store.optimize()
    expect(ranked()).toBe(0)
  })

  it('ranks with SQLite over an index of several segments, inside a transaction, and for phrases', () => {
    using store = EmailStore.open(':memory:')
    store.insertEmails(emails.slice(0, 700))
    store.insertEmails(emails.slice(700))
    store.countTermDocs({ minRows: 0, minDocs: 20 })
    const before = store.rankedInJavaScript
    expect(store.search(query, scope)).toEqual(store.search(query, scope, 'auto', 'sqlite'))
    expect(store.rankedInJavaScript).toBe(before)
    store.optimize()
    expect(store.search(query, scope)).toEqual(store.search(query, scope, 'auto', 'sqlite'))
    expect(store.rankedInJavaScript).toBe(before + 1)
    store.db.transaction(() => {
      expect(store.search(query, scope)).toEqual(store.search(query, scope, 'auto', 'sqlite'))
    })()
    expect(store.search({ keywords: ['gas contract'] }, scope)).toEqual(store.search({ keywords: ['gas contract'] }, scope, 'auto', 'sqlite'))
    expect(store.rankedInJavaScript).toBe(before + 1)
  })
})

describe('term counts in the store (schema version 4)', () => {
  it('reads a version 3 store read-only as it is, and migrates it to empty counts (SQLite ranks), which countTermDocs fills', () => {
    const dir = mkdtempSync(join(tmpdir(), 'term-docs-'))
    try {
      const file = join(dir, 'v3.db')
      const { emails } = corpus(9, 800)
      const v3 = new Database(file)
      migrate(
        v3,
        file,
        MIGRATIONS.filter((step) => step.version <= 3),
      )
      // Rows written at version 3 (its triggers index them).
      const insert = v3.prepare(`INSERT INTO emails (message_id, inbox, subject, sender, recipients, to_addresses, date, body)
        VALUES (@messageId, @inbox, @subject, @from, @recipients, @recipients, @date, @body)`)
      for (const email of emails) insert.run({ ...email, recipients: JSON.stringify(email.to) })
      v3.close()
      const scope: EmailScope = { inbox: 'ann@corp.test', queryDate: '2002-12-31' }
      const query: EmailSearch = { keywords: ['gas', 'price'], maxResults: 30 }
      // Read-only, a version 3 store is read as it is (a user's store built before version 4): SQLite ranks.
      const v3Reader = EmailStore.open(file, { readonly: true })
      const atV3 = v3Reader.search(query, scope)
      expect(atV3.length).toBeGreaterThan(0)
      expect(v3Reader.rankedInJavaScript).toBe(0)
      expect(v3Reader.db.pragma('user_version', { simple: true })).toBe(3)
      v3Reader.close()
      using store = EmailStore.open(file)
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
      expect(store.count()).toBe(emails.length)
      expect(store.db.prepare('SELECT count(*) FROM fts_term_docs').pluck().get()).toBe(0)
      store.optimize()
      const before = store.rankedInJavaScript
      const expected = store.search(query, scope, 'auto', 'sqlite')
      expect(atV3).toEqual(expected)
      expect(store.search(query, scope)).toEqual(expected)
      expect(store.rankedInJavaScript).toBe(before)
      store.countTermDocs({ minRows: 0, minDocs: 10 })
      expect(store.search(query, scope)).toEqual(expected)
      expect(store.rankedInJavaScript).toBe(before + 1)
      // Read-only, as the benchmark's store worker opens it.
      store.close()
      using readonly = EmailStore.open(file, { readonly: true })
      expect(readonly.search(query, scope)).toEqual(expected)
      expect(readonly.rankedInJavaScript).toBe(1)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it(`counts the common terms at the end of an import into a store of more than ${TERM_DOCS_MIN_ROWS.toLocaleString('en-US')} rows`, {
    timeout: 120_000,
  }, () => {
    using store = EmailStore.open(':memory:')
    const words = ['gas', 'price', 'desk']
    const rows = (from: number, count: number): EmailInput[] =>
      Array.from({ length: count }, (_, i) => ({
        messageId: `<bulk${from + i}@corp.test>`,
        inbox: 'ann@corp.test',
        subject: '',
        from: 'dan@corp.test',
        to: ['ann@corp.test'],
        cc: [],
        bcc: [],
        date: '2001-01-01T00:00:00.000Z',
        body: words[(from + i) % 3] as string,
      }))
    store.insertEmails(rows(0, TERM_DOCS_MIN_ROWS))
    expect(store.db.prepare('SELECT count(*) FROM fts_term_docs_state').pluck().get()).toBe(0)
    store.insertEmails(rows(TERM_DOCS_MIN_ROWS, 1))
    expect(store.db.prepare('SELECT rows, tokens, min_docs AS minDocs FROM fts_term_docs_state').get()).toEqual({
      rows: TERM_DOCS_MIN_ROWS + 1,
      tokens: TERM_DOCS_MIN_ROWS + 1,
      minDocs: TERM_DOCS_MIN_DOCS,
    })
    const counts = [
      { term: 'desk', docs: 16_667 },
      { term: 'ga', docs: 16_667 },
      { term: 'price', docs: 16_667 },
    ]
    expect(store.db.prepare('SELECT CAST(term AS TEXT) AS term, docs FROM fts_term_docs ORDER BY term').all()).toEqual(counts)
    // Without current counts (migrated from version 3, or a write outside an import), an import of nothing new counts them.
    store.db.exec('DELETE FROM fts_term_docs; DELETE FROM fts_term_docs_state')
    expect(store.insertEmails(rows(0, 1))).toEqual({ imported: 0, duplicates: 1 })
    expect(store.db.prepare('SELECT CAST(term AS TEXT) AS term, docs FROM fts_term_docs ORDER BY term').all()).toEqual(counts)
    expect(store.db.prepare('SELECT count(*) FROM fts_term_docs_state').pluck().get()).toBe(1)
    // Counting fails after the commit (here: its table is gone): the error says the mail is in, and it is; searches
    // rank with SQLite until the counts are made again.
    store.db.exec('DROP TABLE fts_term_docs')
    const failed = (() => {
      try {
        store.insertEmails(rows(TERM_DOCS_MIN_ROWS + 1, 1))
      } catch (error) {
        return error
      }
    })()
    expect(failed).toBeInstanceOf(TermCountsError)
    expect(failed).toMatchObject({ code: 'ERR_TERM_COUNTS', message: expect.stringMatching(/import into :memory: is committed[^]*Fix: Nothing is lost/) })
    expect(store.count()).toBe(TERM_DOCS_MIN_ROWS + 2)
    expect(store.db.prepare('SELECT count(*) FROM fts_term_docs_state').pluck().get()).toBe(0)
    expect(store.db.inTransaction).toBe(false)
  })
})

describe('bm25AgreesWithSqlite', () => {
  it("finds SQLite's bm25 scores, bit for bit, on its generated index", () => {
    expect(bm25AgreesWithSqlite()).toBe(true)
  })
})
