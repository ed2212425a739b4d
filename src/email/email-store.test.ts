import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EmailInput, type EmailScope, EmailStore } from './email-store.ts'
import { MIGRATIONS, migrate, SCHEMA_VERSION, SchemaVersionError } from './schema.ts'

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
  email({ messageId: '<bcc-ann@corp>', inbox: 'carl@corp.test', from: 'carl@corp.test', to: ['dora@corp.test'], bcc: ['Ann@Corp.test'], body: 'Gas contract, keep it quiet.' }),
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

  it('returns the latest mail in scope when no keyword has a word in it', () => {
    const hits = store.search({ keywords: ['', '  ', '***'] }, ANN)
    expect(hits[0]?.messageId).toBe('<in-2@corp>')
    expect(hits.every((hit) => IN_SCOPE.has(hit.messageId))).toBe(true)
    expect(store.search({ keywords: [], maxResults: 2 }, ANN)).toHaveLength(2)
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

  it('rejects a malformed scope instead of searching everything', () => {
    expect(() => store.search({ keywords: ['gas'] }, { inbox: 'ann@corp.test', queryDate: 'tomorrow' })).toThrow(/query date/)
    expect(() => store.read('<in-2@corp>', { inbox: ' ', queryDate: '2001-05-20' })).toThrow(/empty inbox/)
  })

  it('stores ART-E rows', () => {
    const rows = [
      { id: 7, question: 'When?', answer: 'June', message_ids: ['<in-1@corp>'], inbox_address: 'ann@corp.test', query_date: '2001-05-20', how_realistic: 0.9, split: 'test' as const },
    ]
    expect(store.insertArteTasks(rows)).toBe(1)
    expect(store.insertArteTasks(rows)).toBe(1)
    expect(store.db.prepare('SELECT id, message_ids FROM art_e_tasks').all()).toEqual([{ id: '7', message_ids: '["<in-1@corp>"]' }])
  })
})

describe('search with hostile keywords', () => {
  const store = EmailStore.open(':memory:')
  store.insertEmails(FIXTURE)
  afterAll(() => store.close())

  const fragments = fc.constantFrom('"', '""', "'", '*', 'AND', 'OR', 'NOT', 'NEAR(', 'NEAR', ')', '(', '-', ':', '^', '+', '{', '}', 'subject:', 'body:', 'rowid', '\\', '%', '_', ';', '--', '\0', '\uD800', 'é', '日本', '🙂', ' ', '\t\n', 'gas', 'contract', 'secret', 'dora')
  const hostile = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.array(fragments, { maxLength: 8 }).map((parts) => parts.join('')),
    fc.array(fragments, { maxLength: 8 }).map((parts) => parts.join(' ')),
  )

  it('never throws and never returns mail outside the scope (1,000 generated queries)', () => {
    fc.assert(
      fc.property(fc.array(hostile, { maxLength: 4 }), fc.option(hostile, { nil: undefined }), fc.option(hostile, { nil: undefined }), (keywords, from, to) => {
        const hits = store.search({ keywords, from, to }, ANN)
        for (const hit of hits) expect(IN_SCOPE.has(hit.messageId)).toBe(true)
      }),
      { numRuns: 1000 },
    )
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
    expect(() => EmailStore.open(file)).toThrow(/schema version 2.*knows up to 1/s)
  })

  it('rolls a failing migration back completely and rethrows it', () => {
    const db = new Database(':memory:')
    const broken = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, description: 'broken', up: (d: Database.Database) => d.exec('ALTER TABLE nope ADD x') }]
    expect(() => migrate(db, ':memory:', broken)).toThrow(/no such table: nope/)
    expect(db.pragma('user_version', { simple: true })).toBe(0)
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'emails'").pluck().get()).toBe(0)
    db.close()
  })

  it('applies only the pending steps', () => {
    const db = new Database(':memory:')
    expect(migrate(db, ':memory:')).toBe(0)
    const extra = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, description: 'extra', up: (d: Database.Database) => d.exec('CREATE TABLE extra (x)') }]
    expect(migrate(db, ':memory:', extra)).toBe(SCHEMA_VERSION)
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1)
    db.close()
  })

  it('refuses to open a missing file read-only', () => {
    expect(() => EmailStore.open(join(dir, 'missing.db'), { readonly: true })).toThrow(/import-enron/)
  })
})
