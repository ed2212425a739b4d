import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { InvalidFormatError } from '../../core/errors.ts'
import { EmailStore } from '../store/email-store.ts'
import { importKaggleCsv } from './import-kaggle-csv.ts'

describe('importKaggleCsv on a CSV written by the test', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kaggle-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('reads multi-line quoted fields with doubled quotes, and reports empty rows as failures', async () => {
    const raw = (id: string, body: string) =>
      `Message-ID: <${id}>\r\nDate: Fri, 4 May 2001 13:51:00 -0700 (PDT)\r\nFrom: zed.zedson@corp.test\r\nTo: amy@corp.test\r\nSubject: Plan\r\n\r\n${body}`
    const csv = [
      '"file","message"',
      `"zedson-z/_sent_mail/1.","${raw('k1@test', 'He said "go",\nthen left.\n\nBye').replaceAll('"', '""')}"`,
      `"zedson-z/_sent_mail/2.","${raw('k2@test', 'Second')}"`,
      '"zedson-z/_sent_mail/3.",""',
    ].join('\n')
    writeFileSync(join(dir, 'emails.csv'), csv)
    using store = EmailStore.open(':memory:')
    const report = await importKaggleCsv(store, join(dir, 'emails.csv'))
    expect(report).toMatchObject({ imported: 2, duplicates: 0, failed: 1, inboxes: { 'zedson-z': 'zed.zedson@corp.test' } })
    expect(report.failures[0]?.file).toBe('zedson-z/_sent_mail/3.')
    expect(store.get('<k1@test>')?.body.trimEnd()).toBe('He said "go",\nthen left.\n\nBye')
  })

  it('parses on a worker thread exactly as on the importing thread, and keeps the rows before a CSV error', async () => {
    const rows = Array.from(
      { length: 150 },
      (_, i) =>
        `"kim-k/inbox/${i}.","Message-ID: <w${i}@test>\r\nDate: Fri, 4 May 2001 13:51:00 -0700\r\nFrom: a${i % 7}@corp.test\r\nTo: kim@corp.test\r\nSubject: S${i}\r\n\r\nBody ${i}"`,
    )
    writeFileSync(join(dir, 'many.csv'), ['"file","message"', ...rows].join('\n'))
    using inThread = EmailStore.open(':memory:')
    using threads = EmailStore.open(':memory:')
    const expected = await importKaggleCsv(inThread, join(dir, 'many.csv'), { parseWorkers: 0 })
    expect(expected).toMatchObject({ imported: 150, failed: 0 })
    expect(await importKaggleCsv(threads, join(dir, 'many.csv'), { parseWorkers: 1 })).toEqual(expected)
    const all = (store: EmailStore) =>
      store.db.prepare('SELECT message_id, inbox, subject, sender, recipients, date, body, file_name FROM emails ORDER BY rowid').all()
    expect(all(threads)).toEqual(all(inThread))
    writeFileSync(join(dir, 'broken.csv'), ['"file","message"', ...rows.slice(0, 100), '"kim-k/inbox/x.","unterminated'].join('\n'))
    using partial = EmailStore.open(':memory:')
    const report = await importKaggleCsv(partial, join(dir, 'broken.csv'), { parseWorkers: 1 })
    expect(report).toMatchObject({ imported: 100, failed: 1, stopped: { line: 1302 } })
    expect(report.failures[0]?.reason).toMatch(/CSV parse error/)
    expect(report.stopped?.reason).toMatch(/Quote Not Closed/)
    expect(expected.stopped).toBeUndefined()
  })

  it('imports every row before a stray quote in the middle of the file, and says where it stopped', async () => {
    const row = (n: number) => `"kim-k/inbox/${n}.","Message-ID: <q${n}@test>\nFrom: a@corp.test\nTo: kim@corp.test\nSubject: S${n}\n\nBody ${n}"`
    writeFileSync(join(dir, 'stray.csv'), ['file,message', row(1), row(2), '"kim-k/inbox/3.,"Message-ID: <q3@test>"', row(4)].join('\n'))
    using store = EmailStore.open(':memory:')
    const report = await importKaggleCsv(store, join(dir, 'stray.csv'))
    expect(report).toMatchObject({ imported: 2, failed: 1, stopped: { line: 14 } })
    expect(report.stopped?.reason).toMatch(/^Invalid Closing Quote/)
    expect(report.failures).toEqual([
      { file: `${join(dir, 'stray.csv')}:14`, reason: expect.stringMatching(/^CSV parse error, import stopped: Invalid Closing Quote/) },
    ])
    expect(store.get('<q4@test>')).toBeUndefined()
  })

  it('checks the header before importing anything, naming the columns it has and the ones it needs', async () => {
    writeFileSync(join(dir, 'wrong.csv'), 'a,b,c\n1,2,3\n')
    using store = EmailStore.open(':memory:')
    const error = (await importKaggleCsv(store, join(dir, 'wrong.csv')).catch((e: unknown) => e)) as InvalidFormatError
    expect(error).toBeInstanceOf(InvalidFormatError)
    expect(error.message).toBe(
      `CSV file ${join(dir, 'wrong.csv')} has the columns a,b,c (line 1), without file and message.\n  Fix: Pass the Kaggle emails.csv, whose header line is file,message (file: the mail's maildir path, e.g. allen-p/_sent_mail/1.; message: the raw email), or import parsed emails with --jsonl.`,
    )
    writeFileSync(join(dir, 'nofile.csv'), '\uFEFF"message"\r\n"Message-ID: <a@b>"\r\n')
    await expect(importKaggleCsv(store, join(dir, 'nofile.csv'))).rejects.toThrow(/has the columns message \(line 1\), without file\./)
    expect(store.count()).toBe(0)
  })

  it('fails clearly on a missing file', async () => {
    using store = EmailStore.open(':memory:')
    await expect(importKaggleCsv(store, join(dir, 'missing.csv'))).rejects.toThrow(/does not exist/)
  })
})

describeWithSharedData('importKaggleCsv on the real Kaggle samples', () => {
  const folder = sharedDataPath('enron_kaggle_format_samples')
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.csv'))
    .sort()

  it('imports every row of every sample, counting repeats across files as duplicates', async () => {
    using store = EmailStore.open(':memory:')
    const ids = new Set<string>()
    let rows = 0
    for (const name of files) {
      const text = readFileSync(join(folder, name), 'utf8')
      const found = [...text.matchAll(/^"[a-z-]+\/[^"]*","Message-ID: (<[^>]+>)/gm)].map((match) => match[1] ?? '')
      rows += found.length
      for (const id of found) ids.add(id)
      const report = await importKaggleCsv(store, join(folder, name))
      expect(report.failed, name).toBe(0)
      expect(report.imported + report.duplicates, name).toBe(found.length)
      expect(report.inboxes).toEqual({ 'allen-p': 'phillip.allen@enron.com' })
    }
    expect(rows).toBe(17)
    expect(store.count()).toBe(ids.size)
    const again = await importKaggleCsv(store, join(folder, '2_multiple_simple_example.csv'))
    expect(again).toMatchObject({ imported: 0, duplicates: 9, failed: 0 })
  })

  it('keeps headers, recipients and dates of the real rows', async () => {
    using store = EmailStore.open(':memory:')
    await importKaggleCsv(store, join(folder, '2_multiple_simple_example.csv'))
    expect(store.get('<18782981.1075855378110.JavaMail.evans@thyme>')).toMatchObject({
      inbox: 'phillip.allen@enron.com',
      from: 'phillip.allen@enron.com',
      to: ['tim.belden@enron.com'],
      date: '2001-05-14T23:39:00.000Z',
      fileName: 'allen-p/_sent_mail/1.',
    })
    expect(store.get('<18782981.1075855378110.JavaMail.evans@thyme>')?.body).toContain('Here is our forecast')
  })
})
