import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, InvalidFormatError } from '../../core/errors.ts'
import {
  collapseWhitespace,
  type EmailHit,
  type EmailInput,
  type EmailScope,
  type EmailSearch,
  EmailStore,
  SCOPE_FIRST_MIN_MATCHES,
  SNIPPET_SCAN_CHARS,
} from './email-store.ts'
import { buildFtsQuery, SearchKeywordsError } from './fts-query.ts'
import { FTS_INDEXED_CHARS } from './schema.ts'
import { SNIPPET_SQL } from './snippet-scratch.ts'
import { MIGRATIONS, migrate, SCHEMA_VERSION, SchemaVersionError } from './schema.ts'
import type { InsertResult } from './email-store.ts'

function email(overrides: Partial<EmailInput> & Pick<EmailInput, 'messageId'>): EmailInput {
  return {
    inbox: 'ann@corp.test',
    subject: 'Quarterly gas contract',
    from: 'bob@corp.test',
    to: ['ann@corp.test'],
    cc: [],
    bcc: [],
    date: '2001-05-10T12:00:00.000Z',
    body: 'The gas contract with Northwind renews in June.',
    ...overrides,
  }
}

const FIXTURE: EmailInput[] = [
  email({ messageId: '<in-1@corp>' }),
  email({ messageId: '<in-2@corp>', subject: 'Lunch', body: 'Pizza on Friday? The contract can wait.', date: '2001-05-20T23:59:59.000Z' }),
  email({ messageId: '<late@corp>', body: 'Gas contract signed.', date: '2001-05-21T00:00:00.000Z' }),
  // Stored under someone else, but sent by / to Ann: in Ann's scope.
  email({ messageId: '<sent-by-ann@corp>', inbox: 'bob@corp.test', from: 'ann@corp.test', to: ['bob@corp.test'], body: 'Gas contract draft attached.' }),
  email({
    messageId: '<bcc-ann@corp>',
    inbox: 'carl@corp.test',
    from: 'carl@corp.test',
    to: ['dora@corp.test'],
    bcc: ['Ann@Corp.test'],
    body: 'Gas contract, keep it quiet.',
  }),
  // Not Ann's at all.
  email({ messageId: '<other@corp>', inbox: 'carl@corp.test', from: 'carl@corp.test', to: ['dora@corp.test'], body: 'Gas contract secret for Dora.' }),
  email({ messageId: '<undated@corp>', date: null, body: 'Gas contract without a date.' }),
]

const ANN: EmailScope = { inbox: 'ann@corp.test', queryDate: '2001-05-20' }
const IN_SCOPE = new Set(['<in-1@corp>', '<in-2@corp>', '<sent-by-ann@corp>', '<bcc-ann@corp>'])

describe('EmailStore', () => {
  let store: EmailStore
  beforeAll(() => {
    store = EmailStore.open(':memory:')
    expect(store.insertEmails(FIXTURE)).toEqual({ imported: FIXTURE.length, duplicates: 0 })
  })
  afterAll(() => store.close())

  it('finds mail stored under the inbox, sent by it, or sent to it (to/cc/bcc), up to the end of the query day', () => {
    const hits = store.search({ keywords: ['contract'] }, ANN).map((hit) => hit.messageId)
    expect(new Set(hits)).toEqual(IN_SCOPE)
  })

  it('moves the date window with the query date and never shows undated mail', () => {
    const hits = store.search({ keywords: ['contract'] }, { inbox: 'ann@corp.test', queryDate: '2001-05-21' }).map((hit) => hit.messageId)
    expect(hits).toContain('<late@corp>')
    expect(hits).not.toContain('<undated@corp>')
    expect(store.search({ keywords: ['contract'] }, { inbox: 'ann@corp.test', queryDate: '2001-05-09' })).toEqual([])
  })

  it('ranks by bm25 and marks matched words in the snippet', () => {
    const [first] = store.search({ keywords: ['northwind'] }, ANN)
    expect(first?.messageId).toBe('<in-1@corp>')
    expect(first?.snippet).toContain('[Northwind]')
  })

  it('requires every keyword, and treats a multi-word keyword as a phrase', () => {
    expect(store.search({ keywords: ['pizza', 'contract'] }, ANN).map((hit) => hit.messageId)).toEqual(['<in-2@corp>'])
    expect(store.search({ keywords: ['contract pizza'] }, ANN)).toEqual([])
    expect(store.search({ keywords: ['contracts'] }, ANN).length).toBe(IN_SCOPE.size)
  })

  it('applies from, to, sent_after (inclusive) and sent_before (exclusive) inside the scope', () => {
    expect(store.search({ keywords: ['contract'], from: 'ANN@' }, ANN).map((hit) => hit.messageId)).toEqual(['<sent-by-ann@corp>'])
    expect(store.search({ keywords: ['contract'], to: 'dora' }, ANN).map((hit) => hit.messageId)).toEqual(['<bcc-ann@corp>'])
    expect(store.search({ keywords: ['contract'], sentAfter: '2001-05-20' }, ANN).map((hit) => hit.messageId)).toEqual(['<in-2@corp>'])
    expect(store.search({ keywords: ['contract'], sentBefore: '2001-05-20' }, ANN).map((hit) => hit.messageId)).not.toContain('<in-2@corp>')
    expect(store.search({ keywords: ['contract'], from: '%' }, ANN)).toEqual([])
    expect(store.search({ keywords: ['contract'], from: 'Ann Corp' }, ANN).map((hit) => hit.messageId)).toEqual(['<sent-by-ann@corp>'])
    expect(store.search({ keywords: ['contract'], to: 'dora ann' }, ANN)).toEqual([])
  })

  it('returns the latest mail in scope when there is no keyword, or only blank ones', () => {
    const hits = store.search({ keywords: ['', '  '] }, ANN)
    expect(hits[0]?.messageId).toBe('<in-2@corp>')
    expect(hits.every((hit) => IN_SCOPE.has(hit.messageId))).toBe(true)
    expect(store.search({ keywords: [], maxResults: 2 }, ANN)).toHaveLength(2)
  })

  it('refuses keywords that hold no word (punctuation, operators, emoji) instead of listing all mail', () => {
    for (const keywords of [['***'], ['?!', ''], ['"', ''], ['\u{1F642}'], ['\u201c\u201d']]) {
      expect(() => store.search({ keywords }, ANN)).toThrow(SearchKeywordsError)
    }
    expect(() => store.search({ keywords: ['?!'] }, ANN)).toThrow(/No keyword has a word to search for \("\?!"\)[^]*Fix: Pass words or short phrases/)
    expect(store.search({ keywords: ['***', 'pizza'] }, ANN).map((hit) => hit.messageId)).toEqual(['<in-2@corp>'])
  })

  it('finds mail by keywords written with curly quotes, dashes, no-break or zero-width spaces, or full-width letters', () => {
    for (const keyword of ['\u201cgas contract\u201d', 'gas\u00a0contract', 'gas\u2013contract', 'gas\u200bcontract', '\uff47\uff41\uff53 contract']) {
      expect(
        store.search({ keywords: [keyword] }, ANN).map((hit) => hit.messageId),
        keyword,
      ).toContain('<in-1@corp>')
    }
  })

  it('reads mail in scope (with or without angle brackets) and refuses the rest', () => {
    const read = store.read('bcc-ann@corp', ANN)
    expect(read).toMatchObject({ messageId: '<bcc-ann@corp>', to: ['dora@corp.test'], cc: [], bcc: ['ann@corp.test'] })
    expect(store.read('<other@corp>', ANN)).toBeUndefined()
    expect(store.read('<late@corp>', ANN)).toBeUndefined()
    expect(store.read('<nope@corp>', ANN)).toBeUndefined()
    expect(store.get('<other@corp>')?.inbox).toBe('carl@corp.test')
  })

  it('counts duplicates and stays unchanged on re-import', () => {
    const before = store.count()
    expect(store.insertEmails([...FIXTURE, email({ messageId: 'fresh@corp' }), email({ messageId: '<fresh@corp>' })])).toEqual({
      imported: 1,
      duplicates: FIXTURE.length + 1,
    })
    expect(store.count()).toBe(before + 1)
    expect(store.db.prepare("SELECT count(*) FROM emails_fts WHERE emails_fts MATCH 'northwind'").pluck().get()).toBe(2)
  })

  it('keeps the FTS index in sync on update and delete', () => {
    store.db.prepare("UPDATE emails SET body = 'Zeppelin arrives.' WHERE message_id = '<in-1@corp>'").run()
    expect(store.search({ keywords: ['zeppelin'] }, ANN).map((hit) => hit.messageId)).toEqual(['<in-1@corp>'])
    store.db.prepare("DELETE FROM emails WHERE message_id = '<in-1@corp>'").run()
    expect(store.search({ keywords: ['zeppelin'] }, ANN)).toEqual([])
  })

  it('keeps the FTS index and addresses in sync for a row inserted outside insertEmails (trigger)', () => {
    expect(store.db.prepare('SELECT count(*) FROM bulk_import').pluck().get()).toBe(0)
    store.db
      .prepare(`INSERT INTO emails (message_id, inbox, subject, sender, recipients, date, body)
        VALUES ('<direct@corp>', 'carl@corp.test', 'Direct', 'carl@corp.test', '["ann@corp.test"]', '2001-05-01T00:00:00.000Z', 'Quokka sighting.')`)
      .run()
    expect(store.search({ keywords: ['quokka'] }, ANN).map((hit) => hit.messageId)).toEqual(['<direct@corp>'])
  })

  it('rejects a malformed scope instead of searching everything', () => {
    expect(() => store.search({ keywords: ['gas'] }, { inbox: 'ann@corp.test', queryDate: 'tomorrow' })).toThrow(/query date/)
    expect(() => store.read('<in-2@corp>', { inbox: ' ', queryDate: '2001-05-20' })).toThrow(/empty inbox/)
  })

  it('stores ART-E rows', () => {
    const rows = [
      {
        id: 7,
        question: 'When?',
        answer: 'June',
        message_ids: ['<in-1@corp>'],
        inbox_address: 'ann@corp.test',
        query_date: '2001-05-20',
        how_realistic: 0.9,
        split: 'test' as const,
      },
    ]
    expect(store.insertArteTasks(rows)).toBe(1)
    expect(store.insertArteTasks(rows)).toBe(1)
    expect(store.db.prepare('SELECT id, message_ids FROM art_e_tasks').all()).toEqual([{ id: '7', message_ids: '["<in-1@corp>"]' }])
  })
})

describe('dates and addresses as given', () => {
  const store = EmailStore.open(':memory:')
  afterAll(() => store.close())
  const ids = (queryDate: string): string[] =>
    store
      .search({ keywords: ['contract'], maxResults: 50 }, { inbox: 'ann@corp.test', queryDate })
      .map((hit) => hit.messageId)
      .sort()

  it('stores a date with an offset (or none) as ISO 8601 UTC, so the scope cuts it on its UTC day', () => {
    store.insertEmails([
      email({ messageId: '<offset@corp>', date: '2001-05-20T20:00:00-07:00' }),
      email({ messageId: '<rfc@corp>', date: 'Sun, 20 May 2001 10:00:00 -0700' }),
      email({ messageId: '<bare@corp>', date: '2001-05-19 23:30:00' }),
    ])
    expect(['<offset@corp>', '<rfc@corp>', '<bare@corp>'].map((id) => store.get(id)?.date)).toEqual([
      '2001-05-21T03:00:00.000Z',
      '2001-05-20T17:00:00.000Z',
      '2001-05-19T23:30:00.000Z',
    ])
    expect(ids('2001-05-20')).toEqual(['<bare@corp>', '<rfc@corp>'])
    expect(ids('2001-05-21')).toEqual(['<bare@corp>', '<offset@corp>', '<rfc@corp>'])
  })

  it('refuses a date that is not one, naming the email', () => {
    expect(() => store.insertEmails([email({ messageId: '<junk@corp>', date: 'next Tuesday' })])).toThrow(InvalidFormatError)
    expect(() => store.insertEmails([email({ messageId: '<junk@corp>', date: 'next Tuesday' })])).toThrow(/<junk@corp> has the date "next Tuesday"/)
    expect(store.get('<junk@corp>')).toBeUndefined()
  })

  it('searches mail with a placeholder date (Enron has the Unix epoch) by that date, as OpenPipe does', () => {
    store.insertEmails([email({ messageId: '<epoch@corp>', date: '1980-01-01T00:00:00.000Z' })])
    expect(ids('2001-05-21')).toContain('<epoch@corp>')
    expect(store.read('<epoch@corp>', { inbox: 'ann@corp.test', queryDate: '2001-05-21' })?.messageId).toBe('<epoch@corp>')
  })

  it('stores the address of a named address, so the mail is in its scope', () => {
    store.insertEmails([
      email({
        messageId: '<named@corp>',
        inbox: 'carl@corp.test',
        from: 'Carl <CARL@corp.test>',
        to: ['"Lee, Ann" <Ann@Corp.test>'],
        date: '2001-05-01T00:00:00.000Z',
      }),
    ])
    expect(store.get('<named@corp>')).toMatchObject({ from: 'carl@corp.test', to: ['ann@corp.test'] })
    expect(ids('2001-05-21')).toContain('<named@corp>')
  })
})

describe('search with hostile keywords', () => {
  const store = EmailStore.open(':memory:')
  store.insertEmails(FIXTURE)
  afterAll(() => store.close())

  const fragments = fc.constantFrom(
    '"',
    '""',
    "'",
    '*',
    'AND',
    'OR',
    'NOT',
    'NEAR(',
    'NEAR',
    ')',
    '(',
    '-',
    ':',
    '^',
    '+',
    '{',
    '}',
    'subject:',
    'body:',
    'rowid',
    '\\',
    '%',
    '_',
    ';',
    '--',
    '\0',
    '\uD800',
    'é',
    '日本',
    '🙂',
    ' ',
    '\t\n',
    'gas',
    'contract',
    'secret',
    'dora',
  )
  const hostile = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.array(fragments, { maxLength: 8 }).map((parts) => parts.join('')),
    fc.array(fragments, { maxLength: 8 }).map((parts) => parts.join(' ')),
  )

  it('never fails but to say no keyword has a word, and never returns mail outside the scope (1,000 generated queries)', () => {
    fc.assert(
      fc.property(fc.array(hostile, { maxLength: 4 }), fc.option(hostile, { nil: undefined }), fc.option(hostile, { nil: undefined }), (keywords, from, to) => {
        let hits: EmailHit[]
        try {
          hits = store.search({ keywords, from, to }, ANN)
        } catch (error) {
          expect(error).toBeInstanceOf(SearchKeywordsError)
          expect(buildFtsQuery(keywords)).toBeUndefined()
          return
        }
        for (const hit of hits) expect(IN_SCOPE.has(hit.messageId)).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})

/** A seeded corpus where a few words occur in most mail and the rest are rare (Zipf-like), over 12 inboxes. */
function generatedCorpus(size: number, seed: number): { emails: EmailInput[]; words: string[]; inboxes: string[] } {
  let state = seed >>> 0
  const random = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 4294967296
  }
  const words = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x`)
  // Rank r is drawn with weight 1/(r+1): w0x..w4x land in most emails, ranks past 100 in a handful.
  const weights = words.map((_, i) => 1 / (i + 1))
  const total = weights.reduce((a, b) => a + b, 0)
  const word = (): string => {
    let target = random() * total
    for (let i = 0; i < words.length; i++) {
      target -= weights[i] ?? 0
      if (target <= 0) return words[i] as string
    }
    return words.at(-1) as string
  }
  const text = (length: number): string => Array.from({ length }, word).join(' ')
  const inboxes = Array.from({ length: 12 }, (_, i) => `inbox${i}@corp.test`)
  const people = Array.from({ length: 40 }, (_, i) => `person${i}@corp.test`)
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)] as T
  const emails = Array.from({ length: size }, (_, i): EmailInput => {
    const inbox = pick(inboxes)
    const outgoing = random() < 0.3
    return {
      messageId: `<gen-${i}@corp>`,
      inbox,
      subject: text(1 + Math.floor(random() * 4)),
      from: outgoing ? inbox : pick([...people, ...inboxes]),
      to: outgoing ? [pick([...people, ...inboxes])] : [inbox],
      cc: random() < 0.3 ? [pick(people), pick(inboxes)] : [],
      bcc: random() < 0.05 ? [pick(inboxes)] : [],
      date: random() < 0.02 ? null : new Date(Date.UTC(2000, 0, 1) + Math.floor(random() * 3 * 365 * 86_400_000)).toISOString(),
      body: text(5 + Math.floor(random() * 40)),
    }
  })
  return { emails, words, inboxes }
}

/**
 * The search as it was before snippets were computed for the returned rows only: one query computing `snippet()`
 * for every match in scope (match-first), over the same MATCH expression. Frozen here as the reference of the equivalence test.
 */
function oneQuerySearch(store: { db: Database.Database }, query: EmailSearch, scope: EmailScope): EmailHit[] {
  const match = buildFtsQuery(query.keywords)
  const params: Record<string, string | number> = { inbox: scope.inbox, until: `${scope.queryDate}T23:59:59.999Z` }
  const filters = [
    `(e.inbox = @inbox OR e.sender = @inbox OR EXISTS (SELECT 1 FROM email_addresses a WHERE a.address = @inbox AND a.email_rowid = e.rowid))
      AND e.date IS NOT NULL AND e.date <= @until`,
  ]
  const like = (value: string): string => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  ;(query.from ?? '')
    .toLowerCase()
    .split(/[\s,;<>"']+/)
    .filter((part) => part !== '')
    .slice(0, 5)
    .forEach((part, i) => {
      filters.push(`e.sender LIKE @from${i} ESCAPE '\\'`)
      params[`from${i}`] = like(part)
    })
  const toParts = (query.to ?? '')
    .toLowerCase()
    .split(/[\s,;<>"']+/)
    .filter((part) => part !== '')
    .slice(0, 5)
  if (toParts.length > 0) {
    filters.push(
      `EXISTS (SELECT 1 FROM email_addresses b WHERE b.email_rowid = e.rowid AND ${toParts.map((_, i) => `b.address LIKE @to${i} ESCAPE '\\'`).join(' AND ')})`,
    )
    toParts.forEach((part, i) => {
      params[`to${i}`] = like(part)
    })
  }
  if (query.sentAfter !== undefined) {
    filters.push('e.date >= @after')
    params.after = query.sentAfter
  }
  if (query.sentBefore !== undefined) {
    filters.push('e.date < @before')
    params.before = query.sentBefore
  }
  params.limit = Math.max(1, Math.min(50, Math.trunc(query.maxResults ?? 10)))
  const where = filters.join(' AND ')
  let sql = `SELECT e.message_id, e.subject, e.date, e.sender, substr(e.body, 1, 200) AS snippet FROM emails e WHERE ${where} ORDER BY e.date DESC LIMIT @limit`
  if (match !== undefined) {
    params.match = match
    sql = `SELECT e.message_id, e.subject, e.date, e.sender, snippet(emails_fts, -1, '[', ']', ' ... ', 24) AS snippet
      FROM emails_fts JOIN emails e ON e.rowid = emails_fts.rowid WHERE emails_fts MATCH @match AND ${where}
      ORDER BY bm25(emails_fts, 2.0, 1.0), e.rowid LIMIT @limit`
  }
  const rows = store.db.prepare(sql).all(params) as Array<{ message_id: string; subject: string; date: string | null; sender: string; snippet: string }>
  return rows.map((row) => ({
    messageId: row.message_id,
    subject: row.subject,
    date: row.date,
    from: row.sender,
    snippet: row.snippet.replace(/\s+/g, ' ').trim(),
  }))
}

describe('search plans', () => {
  const { emails, words, inboxes } = generatedCorpus(4_000, 7)
  const store = EmailStore.open(':memory:')
  store.insertEmails(emails)
  store.optimize()
  afterAll(() => store.close())
  const inbox0: EmailScope = { inbox: inboxes[0] as string, queryDate: '2002-12-31' }

  it('sizes the corpus as intended: the most common word is in most mail, a rank-300 word in a few', () => {
    const matches = (word: string): number => store.db.prepare('SELECT count(*) FROM emails_fts WHERE emails_fts MATCH ?').pluck().get(word) as number
    expect(matches(words[0] as string)).toBeGreaterThan(2_000)
    expect(matches(words[300] as string)).toBeLessThan(SCOPE_FIRST_MIN_MATCHES)
  })

  it('picks scope-first for a word in most mail when the query date cuts the inbox, else match-first', () => {
    // The generated mail is dated 2000 to 2002: a query date in 2001 leaves part of each inbox out of scope.
    const cut: EmailScope = { inbox: inboxes[0] as string, queryDate: '2001-06-30' }
    expect(store.planSearch({ keywords: [words[0] as string] }, cut)).toBe('scope-first')
    expect(store.planSearch({ keywords: [words[1] as string, words[2] as string] }, cut)).toBe('scope-first')
    expect(store.planSearch({ keywords: [words[300] as string] }, cut)).toBe('match-first')
    expect(store.planSearch({ keywords: [words[0] as string, words[300] as string] }, cut)).toBe('match-first')
    expect(store.planSearch({ keywords: [] }, cut)).toBe('match-first')
    // Every email of the inbox in scope: its rowid range holds only mail in scope, nothing to collect first.
    expect(store.planSearch({ keywords: [words[0] as string] }, inbox0)).toBe('match-first')
    expect(store.planSearch({ keywords: [words[1] as string, words[2] as string] }, inbox0)).toBe('match-first')
  })

  it('gives identical hits in identical order under both plans (300 generated searches)', () => {
    const word = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 399 })).map((rank) => words[rank] as string)
    const day = fc.integer({ min: 0, max: 3 * 365 }).map((offset) => new Date(Date.UTC(2000, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10))
    const sometimes = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
      fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value })
    const search: fc.Arbitrary<EmailSearch> = fc.record({
      keywords: fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: fc.tuple(word, word).map(([a, b]) => `${a} ${b}`) }), {
        minLength: 1,
        maxLength: 3,
      }),
      from: sometimes(fc.constantFrom('inbox', 'person1', 'corp')),
      to: sometimes(fc.constantFrom('inbox3', 'person', 'test')),
      sentAfter: sometimes(day),
      sentBefore: sometimes(day),
      maxResults: fc.integer({ min: 1, max: 50 }),
    })
    let nonEmpty = 0
    let scopeFirst = 0
    fc.assert(
      fc.property(search, fc.constantFrom(...inboxes), day, (query, inbox, queryDate) => {
        const scope = { inbox, queryDate }
        const matchFirst = store.search(query, scope, 'match-first')
        expect(store.search(query, scope, 'scope-first')).toEqual(matchFirst)
        expect(store.search(query, scope)).toEqual(matchFirst)
        if (matchFirst.length > 0) nonEmpty++
        if (store.planSearch(query, scope) === 'scope-first') scopeFirst++
      }),
      { numRuns: 300, seed: 11 },
    )
    expect(nonEmpty).toBeGreaterThan(100)
    expect(scopeFirst).toBeGreaterThan(50)
  })

  it('gives the hits, order and snippets of the one-query search it replaced (300 generated searches)', () => {
    const word = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 399 })).map((rank) => words[rank] as string)
    const day = fc.integer({ min: 0, max: 3 * 365 }).map((offset) => new Date(Date.UTC(2000, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10))
    const sometimes = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
      fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value })
    const search: fc.Arbitrary<EmailSearch> = fc.record({
      keywords: fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: fc.tuple(word, word).map(([a, b]) => `${a} ${b}`) }), {
        minLength: 0,
        maxLength: 3,
      }),
      from: sometimes(fc.constantFrom('inbox', 'person1', 'corp')),
      to: sometimes(fc.constantFrom('inbox3', 'person', 'test')),
      sentAfter: sometimes(day),
      sentBefore: sometimes(day),
      maxResults: fc.integer({ min: 1, max: 50 }),
    })
    let withSnippets = 0
    fc.assert(
      fc.property(search, fc.constantFrom(...inboxes), day, (query, inbox, queryDate) => {
        const scope = { inbox, queryDate }
        const expected = oneQuerySearch(store, query, scope)
        expect(store.search(query, scope)).toEqual(expected)
        if (expected.length > 0 && query.keywords.length > 0) withSnippets++
      }),
      { numRuns: 300, seed: 23 },
    )
    expect(withSnippets).toBeGreaterThan(80)
  })

  it("bounds the FTS5 scan by the scope's rowid span, then reads the page's rows by rowid without a second FTS5 query", () => {
    for (const plan of ['match-first', 'scope-first'] as const) {
      const details = store.explainSearch({ keywords: [words[0] as string] }, inbox0, plan)
      const ranked = details.findIndex((detail) => /SCAN emails_fts VIRTUAL TABLE INDEX 0:M\d*></.test(detail))
      const page = details.indexOf('SCAN r')
      expect(ranked, details.join('\n')).toBeGreaterThanOrEqual(0)
      expect(page, details.join('\n')).toBeGreaterThan(ranked)
      // After the page: each of its rows by rowid, and no FTS5 query (snippets are computed from the rows' text).
      expect(details.slice(page + 1), details.join('\n')).toEqual(['SEARCH e USING INTEGER PRIMARY KEY (rowid=?)'])
      expect(
        details.filter((detail) => detail.includes('emails_fts')),
        details.join('\n'),
      ).toHaveLength(1)
    }
    expect(store.explainSearch({ keywords: [words[0] as string] }, { inbox: 'nobody@corp.test', queryDate: '2002-12-31' })).toEqual([])
  })

  it('keeps the full page for a common word: 50 hits, ranked, all in scope', () => {
    const query = { keywords: [words[0] as string], maxResults: 50 }
    const hits = store.search(query, inbox0, 'scope-first')
    expect(hits).toHaveLength(50)
    expect(hits).toEqual(store.search(query, inbox0, 'match-first'))
    for (const hit of hits) expect(store.read(hit.messageId, inbox0)).toBeDefined()
  })
})

describe('search over mailboxes split across imports', () => {
  // Imported in 40 batches of mixed inboxes: each batch is laid out by inbox, so an inbox's rowid range holds other
  // inboxes' mail, and its mail sent to other inboxes lies outside it.
  const { emails, words, inboxes } = generatedCorpus(2_000, 5)
  const store = EmailStore.open(':memory:')
  for (let i = 0; i < emails.length; i += 50) store.insertEmails(emails.slice(i, i + 50))
  afterAll(() => store.close())

  it("gives the one-query search's hits, order and snippets under every plan (200 generated searches)", () => {
    const word = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 399 })).map((rank) => words[rank] as string)
    const day = fc.integer({ min: 0, max: 3 * 365 }).map((offset) => new Date(Date.UTC(2000, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10))
    const search: fc.Arbitrary<EmailSearch> = fc.record({
      keywords: fc.array(word, { minLength: 1, maxLength: 2 }),
      maxResults: fc.integer({ min: 1, max: 50 }),
    })
    let nonEmpty = 0
    fc.assert(
      fc.property(search, fc.constantFrom(...inboxes), fc.oneof(day, fc.constant('2002-12-31')), (query, inbox, queryDate) => {
        const scope = { inbox, queryDate }
        const expected = oneQuerySearch(store, query, scope)
        for (const plan of ['auto', 'match-first', 'scope-first'] as const) expect(store.search(query, scope, plan)).toEqual(expected)
        if (expected.length > 0) nonEmpty++
      }),
      { numRuns: 200, seed: 31 },
    )
    expect(nonEmpty).toBeGreaterThan(100)
  })

  it("finds an inbox's mail stored only in other mailboxes, and nothing for an address without mail", () => {
    using small = EmailStore.open(':memory:')
    small.insertEmails([
      email({ messageId: '<to-eve@corp>', inbox: 'bob@corp.test', to: ['eve@corp.test'], body: 'Gas prices for Eve.' }),
      email({ messageId: '<from-eve@corp>', inbox: 'carl@corp.test', from: 'eve@corp.test', to: ['carl@corp.test'], body: 'Gas reply from Eve.' }),
      email({ messageId: '<other@corp>', inbox: 'carl@corp.test', body: 'Gas for Carl only.' }),
    ])
    const eve = { inbox: 'eve@corp.test', queryDate: '2001-05-20' }
    expect(
      small
        .search({ keywords: ['gas'] }, eve)
        .map((hit) => hit.messageId)
        .sort(),
    ).toEqual(['<from-eve@corp>', '<to-eve@corp>'])
    expect(small.search({ keywords: ['gas'] }, { inbox: 'nobody@corp.test', queryDate: '2001-05-20' })).toEqual([])
  })
})

describe('mailbox layouts kept between searches', () => {
  const dir = mkdtempSync(join(tmpdir(), 'email-layout-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const ids = (hits: EmailHit[]): string[] => hits.map((hit) => hit.messageId).sort()
  const gas = (n: number, overrides: Partial<EmailInput> = {}): EmailInput =>
    email({ messageId: `<gas-${n}@corp>`, body: `Gas note ${n}.`, date: '2001-05-10T12:00:00.000Z', ...overrides })

  it("sees this store's own inserts, updates and deletes", () => {
    using store = EmailStore.open(':memory:')
    store.insertEmails([gas(1), gas(2, { inbox: 'bob@corp.test', to: ['bob@corp.test'] })])
    expect(ids(store.search({ keywords: ['gas'] }, ANN))).toEqual(['<gas-1@corp>'])
    // Another mailbox's mail now lies after Ann's first email, and Ann's second after it: her rowid range grows.
    store.insertEmails([gas(3)])
    expect(ids(store.search({ keywords: ['gas'] }, ANN))).toEqual(['<gas-1@corp>', '<gas-3@corp>'])
    store.db.prepare("UPDATE emails SET inbox = 'bob@corp.test', recipients = '[]', to_addresses = '[]' WHERE message_id = '<gas-1@corp>'").run()
    expect(ids(store.search({ keywords: ['gas'] }, ANN))).toEqual(['<gas-3@corp>'])
    store.db.prepare("DELETE FROM emails WHERE message_id = '<gas-3@corp>'").run()
    expect(store.search({ keywords: ['gas'] }, ANN)).toEqual([])
  })

  it('sees commits of other connections, also when the kept layout still finds something', () => {
    const file = join(dir, 'shared.db')
    using writer = EmailStore.open(file)
    writer.insertEmails([gas(1), gas(2, { inbox: 'bob@corp.test', to: ['bob@corp.test'] })])
    using reader = EmailStore.open(file, { readonly: true })
    expect(ids(reader.search({ keywords: ['gas'] }, ANN))).toEqual(['<gas-1@corp>'])
    // Past the range Ann's mail had: with the layout read before, only the first would be found.
    writer.insertEmails([gas(3)])
    expect(ids(reader.search({ keywords: ['gas'] }, ANN))).toEqual(['<gas-1@corp>', '<gas-3@corp>'])
    writer.insertEmails([gas(4, { inbox: 'carl@corp.test', to: ['carl@corp.test'], cc: ['ann@corp.test'] })])
    expect(ids(reader.search({ keywords: ['gas'] }, ANN))).toEqual(['<gas-1@corp>', '<gas-3@corp>', '<gas-4@corp>'])
  })

  it('keeps no layout read inside a transaction that is rolled back', () => {
    using store = EmailStore.open(':memory:')
    store.insertEmails([gas(1), gas(2, { inbox: 'bob@corp.test', to: ['bob@corp.test'] }), gas(3)])
    store.db.exec('BEGIN')
    store.db.prepare("DELETE FROM emails WHERE message_id IN ('<gas-1@corp>', '<gas-3@corp>')").run()
    expect(store.search({ keywords: ['gas'] }, ANN)).toEqual([])
    store.db.exec('ROLLBACK')
    expect(ids(store.search({ keywords: ['gas'] }, ANN))).toEqual(['<gas-1@corp>', '<gas-3@corp>'])
  })

  // Every email dated: an inbox's range then holds only mail in its scope up to its latest date, when it holds only its mail.
  const { emails: generated, words, inboxes } = generatedCorpus(2_000, 13)
  const dated = generated.map((item, i) => (item.date === null ? { ...item, date: new Date(Date.UTC(2000, 0, 1 + (i % 900))).toISOString() } : item))
  const rowReads = (store: EmailStore): Array<string | undefined> => {
    const details = store.explainSearch({ keywords: [words[0] as string] }, { inbox: inboxes[0] as string, queryDate: '2002-12-31' })
    return details.flatMap((detail, i) => (detail === 'SEARCH e USING INTEGER PRIMARY KEY (rowid=?)' ? [details[i - 1]] : []))
  }

  it.each([
    ['in one import: each mailbox one rowid range', 1],
    ['in 40 imports: mailboxes interleaved', 40],
  ])('reads no emails row for a match in a mailbox laid out in one range (%s), with the results of the one-query search', (_, imports) => {
    using store = EmailStore.open(':memory:')
    const batch = Math.ceil(dated.length / imports)
    for (let i = 0; i < dated.length; i += batch) store.insertEmails(dated.slice(i, i + batch))
    // One range: rows read only inside the check of the scope's mail outside it, and for the page's rows.
    expect(rowReads(store)).toEqual(
      imports === 1 ? [expect.stringMatching(/^CORRELATED SCALAR SUBQUERY/), 'SCAN r'] : [expect.not.stringMatching(/^CORRELATED/), 'SCAN r'],
    )
    const word = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 399 })).map((rank) => words[rank] as string)
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 2 }),
        fc.constantFrom(...inboxes),
        fc.integer({ min: 1, max: 50 }),
        (keywords, inbox, maxResults) => {
          const query = { keywords, maxResults }
          const inScope = { inbox, queryDate: '2002-12-31' }
          expect(store.search(query, inScope)).toEqual(oneQuerySearch(store, query, inScope))
        },
      ),
      { numRuns: 150, seed: 41 },
    )
  })
})

describe('snippets of a body holding a NUL', () => {
  it("snippets the text before the NUL, as the index (and SQLite's snippet()) reads it", () => {
    using store = EmailStore.open(':memory:')
    const after = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ')
    store.insertEmails([email({ messageId: '<nul@corp>', subject: 'Note', body: `Walrus seen.\0${after}` })])
    const expected = store.db.prepare(`SELECT ${SNIPPET_SQL} FROM emails_fts WHERE emails_fts MATCH 'walrus'`).pluck().get() as string
    expect(expected).toBe('[Walrus] seen.')
    expect(store.search({ keywords: ['walrus'] }, ANN).map((hit) => hit.snippet)).toEqual([expected])
    expect(store.search({ keywords: ['word3'] }, ANN)).toEqual([])
  })
})

describe('collapseWhitespace', () => {
  const regex = (text: string): string => text.replace(/\s+/g, ' ').trim()

  it('is replace(/\\s+/g, " ").trim() for every code unit, alone, doubled, leading, trailing and between words', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const u = String.fromCharCode(c)
      for (const text of [u, `a${u}b`, `${u}a`, `a${u}`, `a ${u}b`, `a${u} b`, `a${u}${u}b`]) {
        if (collapseWhitespace(text) !== regex(text)) expect(collapseWhitespace(text), `U+${c.toString(16)} in ${JSON.stringify(text)}`).toBe(regex(text))
      }
    }
  })

  it('is replace(/\\s+/g, " ").trim() on generated text (2,000 strings)', () => {
    const unit = fc.constantFrom(' ', '  ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u2028', '\ufeff', '\u0085', '\u180e', 'a', 'b', '[', '.', '\0')
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 20 }), (parts) => {
        const text = parts.join('')
        expect(collapseWhitespace(text)).toBe(regex(text))
      }),
      { numRuns: 2_000, seed: 5 },
    )
  })
})

describe('snippets of an index out of step with its rows', () => {
  it("falls back to SQLite's snippet() for a hit whose stored text no longer holds the keyword", () => {
    using store = EmailStore.open(':memory:')
    const base = { inbox: 'ann@corp.test', from: 'bob@corp.test', to: ['ann@corp.test'], cc: [], bcc: [], date: '2001-05-10T12:00:00.000Z' }
    store.insertEmails([{ ...base, messageId: '<stale@corp>', subject: 'Stale', body: 'The walrus was seen near the pier.' }])
    // Changed with the triggers standing aside (as during a bulk import): the index still has the walrus.
    store.db.exec("INSERT INTO bulk_import (active) VALUES (1); UPDATE emails SET body = 'Nothing to see.'; DELETE FROM bulk_import;")
    const expected = store.db.prepare(`SELECT ${SNIPPET_SQL} FROM emails_fts WHERE emails_fts MATCH 'walrus'`).pluck().get() as string
    expect(expected).toMatch(/\[/)
    expect(store.search({ keywords: ['walrus'] }, ANN)).toEqual([
      expect.objectContaining({ messageId: '<stale@corp>', snippet: expected.replace(/\s+/g, ' ').trim() }),
    ])
  })
})

describe('long emails', () => {
  const store = EmailStore.open(':memory:')
  afterAll(() => store.close())
  const filler = 'alpha beta gamma delta '
  const base = { inbox: 'ann@corp.test', from: 'bob@corp.test', to: ['ann@corp.test'], cc: [], bcc: [], date: '2001-05-10T12:00:00.000Z' }
  store.insertEmails([
    { ...base, messageId: '<early@corp>', subject: 'Early', body: `Start. The walrus was seen. ${filler.repeat(SNIPPET_SCAN_CHARS / 10)}` },
    { ...base, messageId: '<late@corp>', subject: 'Late', body: `Start of a long note. ${filler.repeat(SNIPPET_SCAN_CHARS / 10)} The narwhal was seen.` },
    { ...base, messageId: '<beyond@corp>', subject: 'Beyond', body: `${filler.repeat(FTS_INDEXED_CHARS / filler.length + 1)} The okapi was seen.` },
    { ...base, messageId: '<short@corp>', subject: 'Short', body: 'The walrus and the narwhal.' },
  ])

  it('snippets a long email over its first SNIPPET_SCAN_CHARS characters, with the same markers', () => {
    const hits = store.search({ keywords: ['walrus'] }, ANN)
    expect(hits.map((hit) => hit.messageId).sort()).toEqual(['<early@corp>', '<short@corp>'])
    const early = hits.find((hit) => hit.messageId === '<early@corp>')?.snippet
    expect(early).toMatch(/^\.\.\. The \[walrus\] was seen\. alpha beta gamma delta .* \.\.\.$/)
    expect(early?.split(' ').length).toBeLessThan(30)
  })

  it('finds a long email by a word past the snippet prefix and shows the start of its body', () => {
    const late = store.search({ keywords: ['narwhal'] }, ANN).find((hit) => hit.messageId === '<late@corp>')
    expect(late?.snippet).toMatch(/^Start of a long note\. alpha beta/)
    expect(late?.snippet.length).toBeLessThanOrEqual(200)
  })

  it(`indexes the first ${FTS_INDEXED_CHARS.toLocaleString('en-US')} characters of a body`, () => {
    expect(store.search({ keywords: ['okapi'] }, ANN)).toEqual([])
    expect(store.search({ keywords: ['gamma'] }, ANN).map((hit) => hit.messageId)).toContain('<beyond@corp>')
    expect(store.db.prepare("INSERT INTO emails_fts(emails_fts, rank) VALUES ('integrity-check', 1)").run().changes).toBeGreaterThanOrEqual(0)
  })
})

describe('schema versions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'email-store-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('creates the schema at the current user_version, in WAL mode, and keeps data across reopen', () => {
    const file = join(dir, 'fresh.db')
    {
      using store = EmailStore.open(file)
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal')
      store.insertEmails([email({ messageId: '<keep@corp>' })])
    }
    using again = EmailStore.open(file, { readonly: true })
    expect(again.count()).toBe(1)
  })

  it('refuses a database written by a newer schema', () => {
    const file = join(dir, 'newer.db')
    const db = new Database(file)
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`)
    db.close()
    expect(() => EmailStore.open(file)).toThrow(SchemaVersionError)
    expect(() => EmailStore.open(file)).toThrow(new RegExp(`schema version ${SCHEMA_VERSION + 1}.*knows up to ${SCHEMA_VERSION}`, 's'))
  })

  it('rolls a failing migration back completely and rethrows it', () => {
    const db = new Database(':memory:')
    const broken = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, description: 'broken', up: (d: Database.Database) => d.exec('ALTER TABLE nope ADD x') }]
    expect(() => migrate(db, ':memory:', broken)).toThrow(/no such table: nope/)
    expect(db.pragma('user_version', { simple: true })).toBe(0)
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'emails'").pluck().get()).toBe(0)
    db.close()
  })

  it('migrates a version 1 store: its mail stays searchable, and new rows are indexed by the bulk path', () => {
    const file = join(dir, 'v1.db')
    const db = new Database(file)
    migrate(
      db,
      file,
      MIGRATIONS.filter((step) => step.version === 1),
    )
    db.prepare(`INSERT INTO emails (message_id, inbox, subject, sender, recipients, date, body)
      VALUES ('<old@corp>', 'ann@corp.test', 'Old', 'bob@corp.test', '["ann@corp.test"]', '2001-05-01T00:00:00.000Z', 'Platypus report.')`).run()
    db.close()
    using store = EmailStore.open(file)
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
    store.insertEmails([email({ messageId: '<new@corp>', body: 'Platypus follow-up.' })])
    expect(
      store
        .search({ keywords: ['platypus'] }, ANN)
        .map((hit) => hit.messageId)
        .sort(),
    ).toEqual(['<new@corp>', '<old@corp>'])
    expect(store.db.prepare("INSERT INTO emails_fts(emails_fts, rank) VALUES ('integrity-check', 1)").run().changes).toBeGreaterThanOrEqual(0)
  })

  it('migrates a version 2 store with interleaved mailboxes: rows laid out by inbox, the same hits, order and snippets', () => {
    const file = join(dir, 'v2.db')
    const db = new Database(file)
    migrate(
      db,
      file,
      MIGRATIONS.filter((step) => step.version <= 2),
    )
    // Every email a different prime number of words (subject 2), so no two bm25 scores tie (tf1 / D1 = tf2 / D2 cannot hold
    // for distinct primes D > tf) and the order is the ranking's alone, whatever the rowids.
    const { emails, words, inboxes } = generatedCorpus(600, 5)
    const primes: number[] = []
    const isPrime = (n: number): boolean => Array.from({ length: Math.floor(Math.sqrt(n)) - 1 }, (_, k) => k + 2).every((d) => n % d !== 0)
    for (let n = 61; primes.length < emails.length; n++) if (isPrime(n)) primes.push(n)
    const insert = db.prepare(`INSERT INTO emails (message_id, inbox, subject, sender, recipients, to_addresses, date, body)
      VALUES (@messageId, @inbox, @subject, @from, @recipients, @to, @date, @body)`)
    emails.forEach((row, i) => {
      const own = row.body.split(' ')
      const body = Array.from({ length: (primes[i] as number) - 2 }, (_, k) => own[k] ?? words[(k * 31) % words.length]).join(' ')
      const subject = row.subject.split(' ').concat(['filler', 'filler']).slice(0, 2).join(' ')
      const recipients = JSON.stringify([...new Set([...row.to, ...row.cc, ...row.bcc])])
      insert.run({ ...row, subject, body, recipients, to: JSON.stringify(row.to) })
    })
    const queries: Array<[EmailSearch, EmailScope]> = []
    for (let i = 0; i < 120; i++) {
      const keywords = i % 3 === 0 ? [words[i % 12] as string, words[(i * 7) % 300] as string] : [words[(i * 13) % 200] as string]
      queries.push([
        { keywords, maxResults: 1 + (i % 20), ...(i % 5 === 0 ? { from: 'inbox' } : {}) },
        { inbox: inboxes[i % inboxes.length] as string, queryDate: i % 2 === 0 ? '2002-12-31' : '2001-06-30' },
      ])
    }
    const before = queries.map(([query, scope]) => oneQuerySearch({ db }, query, scope))
    db.close()
    using store = EmailStore.open(file)
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
    const ranges = store.db.prepare('SELECT inbox, count(*) AS n, max(rowid) - min(rowid) + 1 AS span FROM emails GROUP BY inbox').all() as Array<{
      n: number
      span: number
    }>
    expect(ranges).toHaveLength(inboxes.length)
    for (const range of ranges) expect(range.span).toBe(range.n)
    expect(queries.map(([query, scope]) => store.search(query, scope))).toEqual(before)
    expect(before.filter((hits) => hits.length > 1).length).toBeGreaterThan(40)
    expect(store.db.prepare("INSERT INTO emails_fts(emails_fts, rank) VALUES ('integrity-check', 1)").run().changes).toBeGreaterThanOrEqual(0)
    expect(store.db.prepare('SELECT count(*) FROM email_addresses').pluck().get()).toBeGreaterThan(emails.length)
  })

  it('applies only the pending steps', () => {
    const db = new Database(':memory:')
    expect(migrate(db, ':memory:')).toBe(0)
    const extra = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, description: 'extra', up: (d: Database.Database) => d.exec('CREATE TABLE extra (x)') }]
    expect(migrate(db, ':memory:', extra)).toBe(SCHEMA_VERSION)
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1)
    db.close()
  })

  it('refuses a file that is not SQLite, and a database of something else, leaving it unchanged', () => {
    const text = join(dir, 'emails.csv')
    writeFileSync(text, 'file,message\nallen-p/1.,hello\n')
    for (const readonly of [false, true]) {
      expect(() => EmailStore.open(text, { readonly })).toThrow(ConfigError)
      expect(() => EmailStore.open(text, { readonly })).toThrow(/is not an SQLite database[^]*Fix: Pass the \.db file written by `agent-bench import-enron`/)
    }
    const foreign = join(dir, 'traces.db')
    const db = new Database(foreign)
    db.exec('CREATE TABLE traces (id TEXT)')
    db.pragma('user_version = 3')
    db.close()
    for (const readonly of [false, true]) {
      expect(() => EmailStore.open(foreign, { readonly })).toThrow(
        /traces\.db is not an email database: it has schema version 3 and holds other tables \(traces\)/,
      )
    }
    const unversioned = join(dir, 'other.db')
    const other = new Database(unversioned)
    other.exec('CREATE TABLE notes (x)')
    other.close()
    expect(() => EmailStore.open(unversioned)).toThrow(/no schema version and holds other tables \(notes\)/)
    const check = new Database(unversioned)
    expect(check.prepare('SELECT name FROM sqlite_master').pluck().all()).toEqual(['notes'])
    check.close()
  })

  it('opened read-only, says how to get a store it can read: empty, older, newer', () => {
    const empty = join(dir, 'empty.db')
    new Database(empty).close()
    expect(() => EmailStore.open(empty, { readonly: true })).toThrow(/empty\.db is empty\.[^]*Fix: Build it with `agent-bench import-enron/)
    const older = join(dir, 'older.db')
    const db = new Database(older)
    migrate(
      db,
      older,
      MIGRATIONS.filter((step) => step.version === 1),
    )
    db.close()
    expect(() => EmailStore.open(older, { readonly: true })).toThrow(SchemaVersionError)
    expect(() => EmailStore.open(older, { readonly: true })).toThrow(
      /schema version 1, older than[^]*Fix: Migrate it once by re-running `agent-bench import-enron --db FILE`/,
    )
    const newer = join(dir, 'newer-ro.db')
    const next = new Database(newer)
    next.pragma(`user_version = ${SCHEMA_VERSION + 1}`)
    next.close()
    expect(() => EmailStore.open(newer, { readonly: true })).toThrow(/written by a newer agent-bench[^]*Fix: Upgrade agent-bench/)
  })

  it('refuses to open a missing file read-only', () => {
    expect(() => EmailStore.open(join(dir, 'missing.db'), { readonly: true })).toThrow(/import-enron/)
  })
})

describe('bulk import', () => {
  const { emails, words, inboxes } = generatedCorpus(900, 3)
  const rowsByInbox = (store: EmailStore): Array<{ n: number; span: number }> =>
    store.db.prepare('SELECT inbox, count(*) AS n, max(rowid) - min(rowid) + 1 AS span FROM emails GROUP BY inbox').all() as Array<{ n: number; span: number }>

  it('lays interleaved mailboxes out mailbox by mailbox, each import after the rows already stored', () => {
    using store = EmailStore.open(':memory:')
    const session = store.beginImport()
    const results: InsertResult[] = []
    for (let i = 0; i < 600; i += 100) results.push(session.add(emails.slice(i, i + 100)))
    session.finish()
    expect(results.reduce((sum, result) => sum + result.imported, 0)).toBe(600)
    for (const range of rowsByInbox(store)) expect(range.span).toBe(range.n)
    const ownOrder = store.db.prepare('SELECT message_id FROM emails WHERE inbox = ? ORDER BY rowid').pluck()
    const inbox = inboxes[0] as string
    expect(ownOrder.all(inbox)).toEqual(
      emails
        .slice(0, 600)
        .filter((email) => email.inbox === inbox)
        .map((email) => email.messageId),
    )
    store.insertEmails(emails.slice(600))
    expect(
      store.db
        .prepare('SELECT min(rowid) FROM emails WHERE message_id IN (SELECT value FROM json_each(?))')
        .pluck()
        .get(JSON.stringify(emails.slice(600).map((email) => email.messageId))),
    ).toBe(601)
    expect(store.db.prepare("INSERT INTO emails_fts(emails_fts, rank) VALUES ('integrity-check', 1)").run().changes).toBeGreaterThanOrEqual(0)
    const scope = { inbox, queryDate: '2002-12-31' }
    expect(store.search({ keywords: [words[3] as string], maxResults: 50 }, scope)).toEqual(
      oneQuerySearch(store, { keywords: [words[3] as string], maxResults: 50 }, scope),
    )
  })

  it('counts duplicates inside one import and against the store, and makes the rows searchable at finish only', () => {
    using store = EmailStore.open(':memory:')
    store.insertEmails(emails.slice(0, 10))
    const session = store.beginImport()
    expect(session.add([...emails.slice(5, 20), emails[12] as EmailInput])).toEqual({ imported: 10, duplicates: 6 })
    expect(store.db.prepare('SELECT count(*) FROM emails_fts_docsize').pluck().get()).toBe(10)
    session.finish()
    expect(store.count()).toBe(20)
    expect(store.db.prepare('SELECT count(*) FROM emails_fts_docsize').pluck().get()).toBe(20)
    expect(store.db.prepare('SELECT count(*) FROM bulk_import').pluck().get()).toBe(0)
  })

  it("runs inside a caller's transaction as a savepoint of it", () => {
    using store = EmailStore.open(':memory:')
    store.db.transaction(() => {
      expect(store.insertEmails(emails.slice(0, 5))).toEqual({ imported: 5, duplicates: 0 })
      const session = store.beginImport()
      session.add(emails.slice(5, 8))
      session.abort()
    })()
    expect(store.count()).toBe(5)
    expect(() =>
      store.db.transaction(() => {
        store.insertEmails(emails.slice(5, 10))
        throw new Error('caller fails')
      })(),
    ).toThrow('caller fails')
    expect(store.count()).toBe(5)
    expect(
      store.search({ keywords: [words[0] as string], maxResults: 50 }, { inbox: emails[0]?.inbox as string, queryDate: '2002-12-31' }).length,
    ).toBeGreaterThan(0)
  })

  it('sets the bulk-load pragmas for the import only, and rolls an aborted import back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-import-'))
    try {
      using store = EmailStore.open(join(dir, 'bulk.db'))
      const pragmas = (): unknown[] => ['synchronous', 'cache_size', 'temp_store'].map((name) => store.db.pragma(name, { simple: true }))
      const before = pragmas()
      const session = store.beginImport()
      expect(store.db.pragma('synchronous', { simple: true })).toBe(0)
      session.add(emails.slice(0, 50))
      session.abort()
      expect(pragmas()).toEqual(before)
      expect(store.count()).toBe(0)
      expect(store.db.inTransaction).toBe(false)
      const again = store.beginImport()
      again.add(emails.slice(0, 50))
      again.finish()
      again.abort()
      expect(pragmas()).toEqual(before)
      expect(store.count()).toBe(50)
      // FTS5's in-memory budget, raised for the index fill, is back to its default of 1 MB.
      expect(store.db.prepare("SELECT v FROM emails_fts_config WHERE k = 'hashsize'").pluck().get()).toBe(1024 * 1024)
      expect(() => again.add(emails.slice(50, 60))).toThrow(/after finish or abort/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('imports a WAL store under a rollback journal and returns it to WAL, after a finish and after an abort', () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-import-'))
    try {
      const file = join(dir, 'journal.db')
      using store = EmailStore.open(file)
      const journal = (): unknown => store.db.pragma('journal_mode', { simple: true })
      const session = store.beginImport()
      expect(journal()).toBe('delete')
      session.add(emails.slice(0, 50))
      session.abort()
      expect(journal()).toBe('wal')
      const again = store.beginImport()
      again.add(emails.slice(0, 50))
      again.finish()
      expect(journal()).toBe('wal')
      expect(existsSync(`${file}-journal`)).toBe(false)
      // Another connection to the file: the import stays in WAL (switching needs the only connection), and works.
      const other = new Database(file, { readonly: true })
      try {
        expect(other.prepare('SELECT count(*) FROM emails').pluck().get()).toBe(50)
        const shared = store.beginImport()
        expect(journal()).toBe('wal')
        shared.add(emails.slice(50, 80))
        shared.finish()
        expect(other.prepare('SELECT count(*) FROM emails').pluck().get()).toBe(80)
      } finally {
        other.close()
      }
      expect(journal()).toBe('wal')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('fails to begin while another connection writes, with the pragmas and the journal as they were', () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-import-'))
    try {
      const file = join(dir, 'busy.db')
      using store = EmailStore.open(file)
      store.db.pragma('busy_timeout = 0')
      const state = (): unknown[] => ['synchronous', 'cache_size', 'temp_store', 'journal_mode'].map((name) => store.db.pragma(name, { simple: true }))
      const before = state()
      const writer = new Database(file)
      try {
        writer.exec('BEGIN IMMEDIATE')
        expect(() => store.beginImport()).toThrow(/locked|busy/i)
        expect(state()).toEqual(before)
        expect(store.db.inTransaction).toBe(false)
        writer.exec('ROLLBACK')
      } finally {
        writer.close()
      }
      const session = store.beginImport()
      session.add(emails.slice(0, 5))
      session.finish()
      expect(store.count()).toBe(5)
      expect(state()).toEqual(before)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('builds the indexes of an empty store at the end of its first import, and restores them on an abort', () => {
    using store = EmailStore.open(':memory:')
    const indexes = (): unknown[] =>
      store.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('emails', 'email_addresses') ORDER BY name").all()
    const before = indexes()
    expect(before.length).toBeGreaterThanOrEqual(6)
    const aborted = store.beginImport()
    aborted.add(emails.slice(0, 20))
    expect(indexes().length).toBeLessThan(before.length)
    aborted.abort()
    expect(indexes()).toEqual(before)
    const session = store.beginImport()
    session.add(emails.slice(0, 300))
    session.finish()
    expect(indexes()).toEqual(before)
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok')
    const inbox = emails[0]?.inbox as string
    expect(store.db.prepare('SELECT count(*) FROM emails INDEXED BY idx_emails_inbox WHERE inbox = ?').pluck().get(inbox)).toBe(
      emails.slice(0, 300).filter((email) => email.inbox === inbox).length,
    )
    // An import into a store that holds rows keeps its indexes.
    const next = store.beginImport()
    next.add(emails.slice(300, 320))
    expect(indexes()).toEqual(before)
    next.finish()
  })
})
