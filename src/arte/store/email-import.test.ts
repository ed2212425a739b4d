import { describe, expect, it } from 'vitest'
import { type EmailInput, EmailStore } from './email-store.ts'
import { FTS_INDEXED_CHARS } from './schema.ts'

function email(id: string, inbox: string, body: string, subject = 'Gas contract'): EmailInput {
  return {
    messageId: `<${id}@corp.test>`,
    inbox,
    subject,
    from: 'bob@corp.test',
    to: ['ann@corp.test'],
    cc: [],
    bcc: [],
    date: '2001-05-10T12:00:00.000Z',
    body,
  }
}

/** Every term instance of the store's FTS5 index: term, row, column, offset. */
function indexOf(store: EmailStore): unknown[] {
  store.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instances USING fts5vocab(main, 'emails_fts', 'instance')")
  return store.db.prepare('SELECT term, doc, col, offset FROM temp.fts_instances ORDER BY doc, col, offset').all()
}

/** The same rows written one by one through the store's insert trigger (`emails_fts_content`'s text), for reference. */
function triggerStore(emails: ReadonlyArray<EmailInput>): EmailStore {
  const store = EmailStore.open(':memory:')
  const insert = store.db.prepare(`INSERT INTO emails (message_id, inbox, subject, sender, recipients, to_addresses, cc_addresses, bcc_addresses, date, body)
    VALUES (?, ?, ?, ?, '[]', '[]', '[]', '[]', ?, ?)`)
  for (const row of emails) insert.run(row.messageId, row.inbox, row.subject, row.from, row.date, row.body)
  return store
}

describe('EmailImport', () => {
  it('writes the FTS5 index the insert trigger writes: rows read as stored, or cut where the index view cuts them', () => {
    const plain = [email('1', 'ann@corp.test', 'Northwind renews in June.'), email('2', 'ann@corp.test', 'Pipeline gas, then storage.')]
    const cases: Array<[string, EmailInput[]]> = [
      ['no text cut', plain],
      ['a body holding a NUL (substr stops there)', [...plain, email('3', 'ann@corp.test', 'before the cut\u0000hidden words after it')]],
      ['a subject holding a NUL', [...plain, email('4', 'ann@corp.test', 'body', 'subject\u0000hidden')]],
      ['a body longer than the index holds', [...plain, email('5', 'ann@corp.test', `${'word '.repeat(FTS_INDEXED_CHARS / 5)}beyond`)]],
    ]
    for (const [label, emails] of cases) {
      using bulk = EmailStore.open(':memory:')
      bulk.insertEmails(emails)
      using reference = triggerStore(emails)
      expect(indexOf(bulk), label).toEqual(indexOf(reference))
      expect(bulk.db.prepare("SELECT count(*) FROM emails_fts WHERE emails_fts MATCH 'hidden OR beyond'").pluck().get(), label).toBe(0)
    }
  })

  it('lays rows out by inbox when a reassign leaves a mailbox in two runs, and reads the rows back when rowids skip', () => {
    using store = EmailStore.open(':memory:')
    const session = store.beginImport()
    const x = session.insert(email('x', 'p@corp.test', 'x')) as number
    session.insert(email('y', 'q@corp.test', 'y'))
    session.insert(email('z', 'r@corp.test', 'z'))
    // Three mailboxes in three runs, until x moves to r's: r, q, r.
    session.reassign([x], 'R@corp.test')
    session.finish()
    const order = store.db.prepare('SELECT message_id, inbox FROM emails ORDER BY rowid')
    expect(order.all()).toEqual([
      { message_id: '<y@corp.test>', inbox: 'q@corp.test' },
      { message_id: '<x@corp.test>', inbox: 'r@corp.test' },
      { message_id: '<z@corp.test>', inbox: 'r@corp.test' },
    ])

    using skipped = EmailStore.open(':memory:')
    skipped.db.transaction(() => {
      const nested = skipped.beginImport()
      nested.insert(email('a', 'p@corp.test', 'a'))
      // A row the caller writes past the next rowid: the import's next row is not the one after its last.
      skipped.db.prepare("INSERT INTO emails (rowid, message_id, inbox) VALUES (10, '<c@corp.test>', 'q@corp.test')").run()
      expect(nested.insert(email('b', 'p@corp.test', 'b'))).toBe(11)
      nested.finish()
    })()
    expect(skipped.db.prepare('SELECT message_id FROM emails ORDER BY rowid').pluck().all()).toEqual(['<a@corp.test>', '<b@corp.test>', '<c@corp.test>'])
    expect(skipped.db.prepare("SELECT count(*) FROM emails_fts WHERE emails_fts MATCH 'b'").pluck().get()).toBe(1)
  })
})
