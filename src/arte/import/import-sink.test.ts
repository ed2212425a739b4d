import { describe, expect, it } from 'vitest'
import { EmailStore } from '../store/email-store.ts'
import { ImportSink } from './import-sink.ts'
import type { SourceEmail } from './parse-raw-email.ts'

const message = (id: string, from: string, to: string[], body = 'b'): SourceEmail => ({
  email: { messageId: `<${id}@test>`, subject: 's', from, to, cc: [], bcc: [], date: '2001-05-14T16:39:00.000Z', body },
  origin: undefined,
  dateNote: undefined,
})

/** A mailbox whose owner (rule 1, the sent folder) shows only in its last message. */
const mailbox = [
  { source: message('1', 'x@corp.test', ['guess@corp.test']), path: 'lee-a/inbox/1.' },
  { source: message('2', 'y@corp.test', ['guess@corp.test']), path: 'lee-a/inbox/2.' },
  { source: message('3', 'z@corp.test', ['guess@corp.test']), path: 'lee-a/inbox/3.' },
  { source: message('4', 'Ann Lee <ann.lee@corp.test>', ['x@corp.test']), path: 'lee-a/sent/4.' },
]
const inboxes = (store: EmailStore): unknown[] => store.db.prepare('SELECT message_id, inbox FROM emails ORDER BY rowid').all()

describe('ImportSink', () => {
  it('inserts mail as it is read when its inbox is given', () => {
    using store = EmailStore.open(':memory:')
    const sink = new ImportSink(store, { inbox: 'Boss@Corp.test' })
    sink.add(mailbox[0]?.source as SourceEmail, 'lee-a/inbox/1.', 'lee-a')
    expect(store.count()).toBe(1)
    sink.add(message('9', 'a@corp.test', []), 'lee-a/inbox/9.', 'lee-a', 'other@corp.test')
    expect(store.count()).toBe(2)
    expect(sink.finish()).toMatchObject({ imported: 2, inboxes: { 'lee-a': 'boss@corp.test' } })
    expect(store.get('<9@test>')?.inbox).toBe('boss@corp.test')
  })

  it('holds a mailbox until its end, or inserts it under the owner inferred so far past batchSize and moves it after', () => {
    using whole = EmailStore.open(':memory:')
    const held = new ImportSink(whole, {})
    for (const { source, path } of mailbox) held.add(source, path, 'lee-a')
    expect(whole.count()).toBe(0)
    expect(held.finish().inboxes).toEqual({ 'lee-a': 'ann.lee@corp.test' })

    using early = EmailStore.open(':memory:')
    const sink = new ImportSink(early, { batchSize: 2 })
    sink.add(mailbox[0]?.source as SourceEmail, 'lee-a/inbox/1.', 'lee-a')
    expect(early.count()).toBe(0)
    for (const { source, path } of mailbox.slice(1, 3)) sink.add(source, path, 'lee-a')
    // Two messages went in under the owner inferred from them (their most common recipient), the third as it was read.
    expect(inboxes(early)).toEqual(['1', '2', '3'].map((id) => ({ message_id: `<${id}@test>`, inbox: 'guess@corp.test' })))
    sink.add(mailbox[3]?.source as SourceEmail, 'lee-a/sent/4.', 'lee-a')
    expect(early.count()).toBe(4)
    expect(sink.finish()).toEqual({ ...sinkReport(4), inboxes: { 'lee-a': 'ann.lee@corp.test' } })
    expect(inboxes(early)).toEqual(inboxes(whole))
    expect(inboxes(early).every((row) => (row as { inbox: string }).inbox === 'ann.lee@corp.test')).toBe(true)
  })

  it('inserts the mail of a mailbox whose owner an earlier unit gave as it is read', () => {
    using store = EmailStore.open(':memory:')
    const sink = new ImportSink(store, {})
    for (const { source, path } of mailbox) sink.add(source, path, 'lee-a')
    sink.add(message('5', 'x@corp.test', ['b@corp.test']), 'other/inbox/5.', 'other')
    expect(store.count()).toBe(4)
    sink.add(message('6', 'y@corp.test', ['guess@corp.test']), 'lee-a/inbox/6.', 'lee-a')
    expect(store.count()).toBe(6)
    expect(store.get('<6@test>')?.inbox).toBe('ann.lee@corp.test')
    expect(sink.finish().inboxes).toEqual({ 'lee-a': 'ann.lee@corp.test', other: 'b@corp.test' })
  })

  it('commits what was read when the importer stops on an error, the last mailbox resolved from what of it was read', () => {
    using store = EmailStore.open(':memory:')
    const sink = new ImportSink(store, { batchSize: 2 })
    for (const { source, path } of mailbox.slice(0, 3)) sink.add(source, path, 'lee-a')
    sink.close()
    expect(store.db.inTransaction).toBe(false)
    expect(inboxes(store)).toEqual(['1', '2', '3'].map((id) => ({ message_id: `<${id}@test>`, inbox: 'guess@corp.test' })))
    sink.close()
    expect(store.count()).toBe(3)
  })
})

function sinkReport(imported: number) {
  return {
    imported,
    duplicates: 0,
    failed: 0,
    oddDates: 0,
    failures: [],
    oddDateSamples: [],
    charsetWarnings: 0,
    charsetWarningSamples: [],
    longBodies: 0,
    longBodySamples: [],
  }
}
