import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { type EmailRecord, EmailStore } from '../store/email-store.ts'
import { fileLines, importJsonl, readLine } from './import-jsonl.ts'
import { ParsedEmailLineSchema } from './parsed-email-line.ts'
import { importMaildir } from './import-maildir.ts'

const dir = mkdtempSync(join(tmpdir(), 'jsonl-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('readLine (the JSONL importer without zod)', () => {
  it('reads a line as the schema does, or leaves it to the schema (2,000 generated lines)', () => {
    const value = fc.oneof(
      fc.string(),
      fc.constant(''),
      fc.constant(null),
      fc.constant(undefined),
      fc.integer(),
      fc.boolean(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
    )
    const text = fc.oneof(fc.string(), fc.constant(null), fc.constant(undefined))
    const addresses = fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.string(), fc.constant(null), fc.constant(undefined))
    const usual: Record<string, fc.Arbitrary<unknown>> = {
      message_id: fc.string({ minLength: 1 }),
      subject: text,
      from: text,
      to: addresses,
      cc: addresses,
      bcc: addresses,
      date: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
      body: text,
      file_name: text,
      inbox: text,
      extra: value,
    }
    const field = (name: string) => fc.oneof({ weight: 12, arbitrary: usual[name] as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: value })
    const line = fc.record(Object.fromEntries(Object.keys(usual).map((name) => [name, field(name)])), { requiredKeys: ['message_id'] })
    let read = 0
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: line }, { weight: 1, arbitrary: fc.oneof(value, fc.array(line)) }), (json) => {
        const ours = readLine(json)
        const schema = ParsedEmailLineSchema.safeParse(json)
        if (ours === undefined) return
        read++
        expect(schema.success).toBe(true)
        expect(ours).toEqual(schema.data)
      }),
      { numRuns: 2_000, seed: 41 },
    )
    expect(read).toBeGreaterThan(500)
  })
})

describe('importJsonl on lines written by the test', () => {
  const base = { subject: 'S', from: 'Nia.Nash@corp.test', body: 'b', file_name: 'nash-n/inbox/1.' }
  const lines = [
    JSON.stringify({ ...base, message_id: '<j1@test>', to: ['a@corp.test'], cc: [], bcc: null, date: '2001-03-04T05:06:07Z' }),
    JSON.stringify({ ...base, message_id: 'j2@test', to: 'a@corp.test, b@corp.test', cc: 'c@corp.test', date: '2001-03-04 05:06:07' }),
    JSON.stringify({ ...base, message_id: '<j3@test>', to: ['a@corp.test'], date: Date.UTC(2001, 2, 4) }),
    JSON.stringify({ ...base, message_id: '<j4@test>', date: 'Mon, 14 May 2001 16:39:00 -0700 (PDT)' }),
    JSON.stringify({ ...base, message_id: '<j5@test>', date: 'someday' }),
    JSON.stringify({ ...base, message_id: '<j1@test>', date: '2001-03-04T05:06:07Z' }),
    '{not json',
    JSON.stringify({ ...base, subject: 'no id' }),
    '',
  ]

  it('imports every shape of a row, and counts bad lines as failed with their line number', async () => {
    const file = join(dir, 'mixed.jsonl')
    writeFileSync(file, `${lines.join('\r\n')}\n`)
    using store = EmailStore.open(':memory:')
    const report = await importJsonl(store, file)
    expect(report).toMatchObject({ imported: 5, duplicates: 1, failed: 2, oddDates: 1 })
    expect(report.failures.map((failure) => failure.file)).toEqual([`${file}:7`, `${file}:8`])
    expect(report.failures[1]?.reason).toMatch(/^message_id:/)
    expect(store.get('<j2@test>')).toMatchObject({ to: ['a@corp.test', 'b@corp.test'], cc: ['c@corp.test'], bcc: [], date: '2001-03-04T05:06:07.000Z' })
    expect(store.get('<j3@test>')?.date).toBe('2001-03-04T00:00:00.000Z')
    expect(store.get('<j4@test>')?.date).toBe('2001-05-14T23:39:00.000Z')
    expect(store.get('<j5@test>')?.date).toBeNull()
    expect(store.get('<j1@test>')?.inbox).toBe('nia.nash@corp.test')
  })

  it('stores a line that names its inbox under it, and infers the owner of the others', async () => {
    const file = join(dir, 'inbox.jsonl')
    const named = (id: string, inbox: string | null) => JSON.stringify({ ...base, message_id: id, to: ['a@corp.test'], date: '2001-03-04T05:06:07Z', inbox })
    writeFileSync(
      file,
      [named('<i1@test>', 'Owner <Ann.Lee@Corp.test>'), named('<i2@test>', null), named('<i3@test>', '  '), named('<i4@test>', 'ann.lee@corp.test')].join('\n'),
    )
    using store = EmailStore.open(':memory:')
    expect(await importJsonl(store, file)).toMatchObject({ imported: 4, failed: 0 })
    expect(['<i1@test>', '<i2@test>', '<i3@test>', '<i4@test>'].map((id) => store.get(id)?.inbox)).toEqual([
      'ann.lee@corp.test',
      'nia.nash@corp.test',
      'nia.nash@corp.test',
      'ann.lee@corp.test',
    ])
    expect(await importJsonl(store, file, { inbox: 'boss@corp.test' })).toMatchObject({ imported: 0, duplicates: 4 })
  })

  it('fails clearly on a missing file', async () => {
    using store = EmailStore.open(':memory:')
    await expect(importJsonl(store, join(dir, 'missing.jsonl'))).rejects.toThrow(/does not exist/)
  })

  it('reads the first line of a file that starts with a byte order mark (CRLF line ends)', async () => {
    const file = join(dir, 'bom.jsonl')
    writeFileSync(file, `\uFEFF${lines.slice(0, 2).join('\r\n')}\r\n`)
    using store = EmailStore.open(':memory:')
    expect(await importJsonl(store, file)).toMatchObject({ imported: 2, failed: 0, failures: [] })
    expect(store.get('<j1@test>')).toMatchObject({ subject: 'S' })
  })

  it('ends a line at CRLF, LF or a lone CR, as readline does, and numbers the lines so', async () => {
    const file = join(dir, 'line-ends.jsonl')
    writeFileSync(file, `${lines[0]}\r{bad\r\n\r\n${lines[1]}\r\r{worse\n${lines[2]}`)
    using store = EmailStore.open(':memory:')
    const report = await importJsonl(store, file)
    expect(report).toMatchObject({ imported: 3, failed: 2 })
    expect(report.failures.map((failure) => failure.file)).toEqual([`${file}:2`, `${file}:6`])
  })
})

describe('fileLines', () => {
  it('gives the lines readline gives, whatever the chunk size (line ends, multi-byte characters, long lines)', () => {
    const piece = fc.constantFrom('a', 'é', '€', '😀', '{"x":1}', '\n', '\r', '\r\n', '\n\n', ' ', '\uFFFD')
    // What readline gives: CRLF, LF and a lone CR end a line; no empty line after the last line end.
    const reference = (text: string): string[] => {
      const lines = text.split(/\r\n|\n|\r/)
      if (lines.at(-1) === '') lines.pop()
      return lines
    }
    const file = join(dir, 'chunks.jsonl')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 1, max: 9 }), (pieces, chunkBytes) => {
        const text = pieces.join('')
        writeFileSync(file, text)
        expect([...fileLines(file, chunkBytes)]).toEqual(reference(text))
      }),
      { numRuns: 500 },
    )
  })
})

describe('importJsonl: mailboxes inserted before their owners are known', () => {
  const rows = (store: EmailStore): unknown[] =>
    store.db.prepare('SELECT rowid, message_id, inbox, sender, recipients, date, body, file_name FROM emails ORDER BY rowid').all()

  it('stores the rows, inboxes and report of an import that holds each mailbox whole (generated mailboxes)', async () => {
    const address = fc.constantFrom('ann@corp.test', 'Bob <bob@corp.test>', 'cy@corp.test', 'dee@corp.test', 'ANN@corp.test')
    const message = fc.record({
      unit: fc.constantFrom('ann-a', 'bob-b', 'cy-c'),
      folder: fc.constantFrom('inbox', 'inbox', 'sent', 'notes'),
      from: address,
      to: fc.array(address, { minLength: 1, maxLength: 3 }),
      duplicate: fc.boolean(),
      body: fc.constantFrom('short', 'a longer body'),
    })
    let file = 0
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 6 }), async (messages, batchSize) => {
        const path = join(dir, `early-${file++}.jsonl`)
        // Runs of one unit, as real dumps come, a unit possibly coming back later; some Message-IDs repeated.
        const lines = messages.map((m, i) =>
          JSON.stringify({
            message_id: `<m${m.duplicate && i > 0 ? i - 1 : i}@test>`,
            subject: 's',
            from: m.from,
            to: m.to,
            cc: [],
            bcc: [],
            date: '2001-05-14T16:39:00.000Z',
            body: m.body,
            file_name: `${m.unit}/${m.folder}/${i}.`,
          }),
        )
        writeFileSync(path, `${lines.join('\n')}\n`)
        using whole = EmailStore.open(':memory:')
        using early = EmailStore.open(':memory:')
        const expected = await importJsonl(whole, path)
        expect(await importJsonl(early, path, { batchSize })).toEqual(expected)
        expect(rows(early)).toEqual(rows(whole))
      }),
      { numRuns: 60, seed: 7 },
    )
  })
})

describeWithSharedData('importJsonl on real mail converted to JSONL', () => {
  it('round-trips a real mailbox: same emails, recipients, dates and inferred inbox', async () => {
    using source = EmailStore.open(':memory:')
    await importMaildir(source, sharedDataPath('enron_agent_course', 'mail', 'full_mailboxes', 'slinger-r'))
    const rows = source.db.prepare('SELECT message_id FROM emails ORDER BY file_name').pluck().all() as string[]
    const records = rows.map((id) => source.get(id)).filter((record): record is EmailRecord => record !== undefined)
    const file = join(dir, 'slinger.jsonl')
    writeFileSync(
      file,
      records
        .map((r) =>
          JSON.stringify({
            message_id: r.messageId,
            subject: r.subject,
            from: r.from,
            to: r.to,
            cc: r.cc,
            bcc: r.bcc,
            date: r.date,
            body: r.body,
            file_name: `slinger-r/${r.fileName}`,
          }),
        )
        .join('\n'),
    )
    using target = EmailStore.open(':memory:')
    const report = await importJsonl(target, file)
    expect(report).toMatchObject({ imported: 132, duplicates: 0, failed: 0, inboxes: { 'slinger-r': 'ryan.slinger@enron.com' } })
    for (const record of records) {
      expect(target.get(record.messageId)).toEqual({ ...record, fileName: `slinger-r/${record.fileName}` })
    }
  })
})
