import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import fg from 'fast-glob'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { EmailStore } from '../store/email-store.ts'
import type { ImportReport } from './import-sink.ts'
import { importMaildir } from './import-maildir.ts'

function message(headers: Record<string, string>, body: string): string {
  return `${Object.entries(headers)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\r\n')}\r\n\r\n${body}`
}

/** Every stored email, in storage order. */
function allRows(store: EmailStore): unknown[] {
  return store.db
    .prepare('SELECT * FROM emails ORDER BY rowid')
    .all()
    .map((row) => ({ ...(row as object), created_at: undefined }))
}

const BASE = { 'Mime-Version': '1.0', 'Content-Type': 'text/plain; charset=us-ascii' }

/** A small maildir of the awkward cases real mail has, written by the test. */
function writeTrickyMaildir(root: string): void {
  const files: Record<string, string | Buffer> = {
    'alice-a/inbox/1.': message(
      {
        'Message-ID': '<one@test>',
        Date: 'Mon, 14 May 2001 16:39:00 -0700 (PDT)',
        From: 'carol@test.example',
        To: 'alice@test.example,\r\n\tdave@test.example',
        Cc: 'erin@test.example',
        Bcc: 'frank@test.example',
        Subject: 'Folded\r\n header subject',
        ...BASE,
      },
      'Plain body line one.\r\nLine two.',
    ),
    'alice-a/inbox/2.': message({ 'Message-ID': '<undated@test>', From: 'carol@test.example', To: 'alice@test.example', Subject: 'No date', ...BASE }, 'x'),
    'alice-a/inbox/3.': message({ Date: 'Tue, 15 May 2001 10:00:00 +0000', From: 'carol@test.example', Subject: 'No id' }, 'y'),
    'alice-a/inbox/4.': message(
      { 'Message-ID': 'bare@test', Date: 'Tue, 15 May 2001 10:00:00 +0000', From: 'carol@test.example', To: 'alice@test.example', Subject: 'Bare id' },
      'z',
    ),
    'alice-a/inbox/5.': message(
      { 'Message-ID': '<old@test>', Date: 'Mon, 31 Dec 1979 16:00:00 -0800', From: 'x@test.example', To: 'alice@test.example', Subject: 'Epoch' },
      'w',
    ),
    'alice-a/inbox/6.': message(
      { 'Message-ID': '<one@test>', Date: 'Mon, 14 May 2001 16:39:00 -0700', From: 'carol@test.example', To: 'alice@test.example', Subject: 'Copy' },
      'dup',
    ),
    'alice-a/inbox/7.': Buffer.concat([
      Buffer.from(
        message(
          {
            'Message-ID': '<latin@test>',
            Date: 'Wed, 16 May 2001 09:00:00 +0200',
            From: 'carol@test.example',
            To: 'alice@test.example',
            Subject: 'Caf\xe9',
            'Content-Type': 'text/plain; charset=iso-8859-1',
          },
          'Caf',
        ),
        'latin1',
      ),
      Buffer.from([0xe9, 0x20, 0xff]),
    ]),
    'alice-a/sent/1.': message(
      { 'Message-ID': '<sent@test>', Date: 'Thu, 17 May 2001 09:00:00 +0000', From: 'alice@test.example', To: 'carol@test.example', Subject: 'Re: hi' },
      'ok',
    ),
    'bobson-b/notes_inbox/1.': message(
      {
        'Message-ID': '<b1@test>',
        Date: 'Thu, 17 May 2001 09:00:00 +0000',
        From: 'news@list.example',
        To: 'list@list.example',
        Cc: 'bob.bobson@test.example',
        Subject: 'News',
      },
      'n',
    ),
    'bobson-b/notes_inbox/2.': message(
      { 'Message-ID': '<b2@test>', Date: 'Thu, 17 May 2001 09:00:00 +0000', From: 'news@list.example', To: 'list@list.example', Subject: 'News 2' },
      'n',
    ),
  }
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
}

describe('importMaildir on an unknown charset and a body past the search index', () => {
  it('decodes the unknown charset as Latin-1 and reports it, and reports the body only partly searchable', async () => {
    const root = mkdtempSync(join(tmpdir(), 'maildir-charset-'))
    try {
      const headers = {
        'Message-ID': '<klingon@test>',
        Date: 'Wed, 16 May 2001 09:00:00 +0200',
        From: 'carol@test.example',
        To: 'alice@test.example',
        Subject: 'Menu',
        'Mime-Version': '1.0',
      }
      mkdirSync(join(root, 'alice-a', 'inbox'), { recursive: true })
      const head = message({ ...headers, 'Content-Type': 'text/plain; charset="x-klingon"' }, 'Caf')
      writeFileSync(
        join(root, 'alice-a', 'inbox', '1.'),
        Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from([0xe9]), Buffer.from(' menu for the offsite')]),
      )
      const long = `${'word '.repeat(200_001)}needle`
      writeFileSync(join(root, 'alice-a', 'inbox', '2.'), message({ ...headers, 'Message-ID': '<long@test>', ...BASE }, long))
      using store = EmailStore.open(':memory:')
      const report = await importMaildir(store, root, { inbox: 'alice@test.example' })
      expect(report).toMatchObject({ imported: 2, failed: 0, charsetWarnings: 1, longBodies: 1 })
      expect(store.get('<klingon@test>')?.body).toBe('Café menu for the offsite\n')
      expect(report.charsetWarningSamples).toEqual([
        { file: 'alice-a/inbox/1.', reason: 'unknown charset "x-klingon": its text was decoded as Latin-1 (windows-1252)' },
      ])
      expect(report.longBodySamples).toEqual([
        { file: 'alice-a/inbox/2.', reason: 'body of 1,000,012 characters: stored whole, searchable in its first 1,000,000 only' },
      ])
      expect(store.get('<long@test>')?.body.length).toBe(1_000_012)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})

describe('importMaildir on awkward mail', () => {
  const root = mkdtempSync(join(tmpdir(), 'maildir-'))
  let store: EmailStore
  let report: ImportReport
  beforeAll(async () => {
    writeTrickyMaildir(root)
    store = EmailStore.open(':memory:')
    report = await importMaildir(store, root)
  })
  afterAll(() => {
    store.close()
    rmSync(root, { recursive: true, force: true })
  })

  it('counts every message: imported, duplicate, failed (with the reason) and odd dates', () => {
    expect(report).toMatchObject({ imported: 8, duplicates: 1, failed: 1, oddDates: 2 })
    expect(report.failures).toEqual([{ file: 'alice-a/inbox/3.', reason: 'no Message-ID header' }])
    expect(report.oddDateSamples.map((odd) => odd.file).sort()).toEqual(['alice-a/inbox/2.', 'alice-a/inbox/5.'])
  })

  it('unfolds headers, keeps to/cc/bcc apart, and stores ISO UTC dates', () => {
    expect(store.get('<one@test>')).toMatchObject({
      subject: 'Folded header subject',
      from: 'carol@test.example',
      to: ['alice@test.example', 'dave@test.example'],
      cc: ['erin@test.example'],
      bcc: ['frank@test.example'],
      date: '2001-05-14T23:39:00.000Z',
      fileName: 'alice-a/inbox/1.',
    })
  })

  it('imports a message without a date with date null, and an implausible date as parsed', () => {
    expect(store.get('<undated@test>')?.date).toBeNull()
    expect(store.get('<old@test>')?.date).toBe('1980-01-01T00:00:00.000Z')
  })

  it('keeps Message-IDs in angle-bracket form and decodes non-ASCII bytes', () => {
    expect(store.get('<bare@test>')?.subject).toBe('Bare id')
    expect(store.get('<latin@test>')?.body).toContain('Café')
  })

  it('infers each mailbox owner: sent folder first, else an address holding the mailbox surname', () => {
    expect(report.inboxes).toEqual({ 'alice-a': 'alice@test.example', 'bobson-b': 'bob.bobson@test.example' })
    expect(store.get('<b2@test>')?.inbox).toBe('bob.bobson@test.example')
  })

  it('honours --inbox, --limit and a single mailbox as root', async () => {
    using fixed = EmailStore.open(':memory:')
    const limited = await importMaildir(fixed, root, { inbox: 'Boss@Test.example', limit: 3, batchSize: 2 })
    expect(limited.imported + limited.duplicates + limited.failed).toBe(3)
    expect(new Set(fixed.db.prepare('SELECT inbox FROM emails').pluck().all())).toEqual(new Set(['boss@test.example']))
    using single = EmailStore.open(':memory:')
    const one = await importMaildir(single, join(root, 'alice-a'))
    expect(Object.values(one.inboxes)).toEqual(['alice@test.example'])
  })

  it('parses on worker threads exactly as on the importing thread (same report, same rows)', async () => {
    using threads = EmailStore.open(':memory:')
    const withWorkers = await importMaildir(threads, root, { parseWorkers: 2 })
    expect(withWorkers).toEqual(report)
    expect(allRows(threads)).toEqual(allRows(store))
    using limited = EmailStore.open(':memory:')
    expect(await importMaildir(limited, root, { parseWorkers: 1, limit: 3 })).toMatchObject({ imported: 2, failed: 1 })
  })

  it('follows a link to a folder once, and a link back to a folder being listed not at all', async () => {
    const linked = mkdtempSync(join(tmpdir(), 'maildir-links-'))
    try {
      writeTrickyMaildir(join(linked, 'mail'))
      symlinkSync('..', join(linked, 'mail', 'alice-a', 'loop'))
      symlinkSync(join(linked, 'mail', 'alice-a'), join(linked, 'alice-link'))
      using viaLinks = EmailStore.open(':memory:')
      const once = await importMaildir(viaLinks, join(linked, 'mail'))
      expect(once).toEqual(report)
      using throughLink = EmailStore.open(':memory:')
      const alice = await importMaildir(throughLink, join(linked, 'alice-link'))
      expect(alice.imported + alice.duplicates + alice.failed).toBeGreaterThan(0)
    } finally {
      rmSync(linked, { recursive: true, force: true })
    }
  })

  it('fails clearly on a missing folder', async () => {
    await expect(importMaildir(store, join(root, 'nope'))).rejects.toThrow(/is not a directory/)
  })
})

describeWithSharedData('importMaildir on the real Enron sample (2,892 files)', () => {
  const mail = sharedDataPath('enron_agent_course', 'mail')
  let store: EmailStore
  let report: ImportReport
  beforeAll(async () => {
    store = EmailStore.open(':memory:')
    report = await importMaildir(store, mail)
  })
  afterAll(() => store.close())

  it('imports 2,875 distinct messages and counts the 17 duplicate Message-IDs', () => {
    expect(report).toMatchObject({ imported: 2875, duplicates: 17, failed: 0 })
    expect(store.count()).toBe(2875)
  })

  it('stores the same rows when worker threads share the parsing (parseWorkers: 1 and 2; the default here is 0)', async () => {
    for (const parseWorkers of [1, 2]) {
      using threads = EmailStore.open(':memory:')
      expect(await importMaildir(threads, mail, { parseWorkers })).toEqual(report)
      expect(allRows(threads)).toEqual(allRows(store))
    }
  })

  it('stores the same rows when mailboxes are inserted before their owners are known (batchSize 7 and 100)', async () => {
    for (const batchSize of [7, 100]) {
      using early = EmailStore.open(':memory:')
      expect(await importMaildir(early, mail, { batchSize })).toEqual(report)
      expect(allRows(early)).toEqual(allRows(store))
    }
  })

  it('is idempotent on re-import', async () => {
    const again = await importMaildir(store, join(mail, 'full_mailboxes', 'slinger-r'))
    expect(again).toMatchObject({ imported: 0, duplicates: 132, failed: 0 })
    expect(store.count()).toBe(2875)
  })

  it('stores canonical Message-IDs and ISO 8601 UTC dates', () => {
    const bad = store.db
      .prepare("SELECT count(*) FROM emails WHERE message_id NOT GLOB '<*>' OR date IS NULL OR date NOT GLOB '[12][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T*Z'")
      .pluck()
      .get()
    expect(bad).toBe(0)
  })

  it('decodes every encoded-word subject (5 real ones name their charset ANSI_X3.4-1968)', () => {
    const encoded = store.db.prepare("SELECT subject FROM emails WHERE subject LIKE '%=?%?=%'").pluck().all()
    expect(encoded).toEqual([])
    const read = store.read('<17198807.1075844991917.JavaMail.evans@thyme>', { inbox: 'steven.south@enron.com', queryDate: '2002-12-31' })
    expect(read?.subject).toBe('Mind\u0001,s Eye Madness - April 24th - 27th')
  })

  it('gives real mail non-empty to, cc and bcc', () => {
    const read = store.read('<15500127.1075840052157.JavaMail.evans@thyme>', { inbox: 'sean.crandall@enron.com', queryDate: '2001-11-07' })
    expect(read?.to).toEqual(['alan.comnes@enron.com', 'dave.perrino@enron.com', 'chris.mallory@enron.com'])
    expect(read?.cc).toContain('tim.belden@enron.com')
    expect(read?.bcc).toContain('tim.belden@enron.com')
    // Every message whose header block has a To/Cc/Bcc line comes back with that list non-empty.
    const missing: string[] = []
    let checked = 0
    for (const file of fg.sync('**/*', { cwd: mail, onlyFiles: true })) {
      const raw = readFileSync(join(mail, file), 'latin1')
      const header = raw.slice(0, raw.search(/\r?\n\r?\n/))
      const id = header.match(/^Message-ID:\s*(\S+)/im)?.[1] ?? ''
      const stored = store.get(id)
      for (const [name, key] of [
        ['To', 'to'],
        ['Cc', 'cc'],
        ['Bcc', 'bcc'],
      ] as const) {
        if (!new RegExp(`^${name}:[ \t]*\\S`, 'm').test(header)) continue
        checked++
        if ((stored?.[key].length ?? 0) === 0) missing.push(`${file} ${name}`)
      }
    }
    expect(checked).toBeGreaterThan(3000)
    expect(missing).toEqual([])
  })

  it('infers the owners of the mailboxes from X-Origin and sent folders', () => {
    expect(report.inboxes).toMatchObject({
      'crandell-s': 'sean.crandall@enron.com',
      'kean-s': 'steven.kean@enron.com',
      'dasovich-j': 'jeff.dasovich@enron.com',
      'slinger-r': 'ryan.slinger@enron.com',
    })
    expect(store.get('<22322411.1075840045955.JavaMail.evans@thyme>')?.inbox).toBe('ryan.slinger@enron.com')
  })

  it('holds the evidence of the 20 golden questions, in scope, with the golden answers in it', () => {
    const Golden = z.array(
      z.object({
        id: z.string(),
        golden_answer: z.object({
          accepted_answer: z.object({ value: z.union([z.string(), z.number(), z.array(z.string())]) }).optional(),
          evidence_message_ids: z.array(z.string()).min(1),
          evidence_mode: z.string(),
        }),
      }),
    )
    const golden = Golden.parse(JSON.parse(readFileSync(sharedDataPath('enron_agent_course', 'golden_set', 'golden_set.json'), 'utf8')))
    expect(golden).toHaveLength(20)
    const problems: string[] = []
    let answersChecked = 0
    for (const { id, golden_answer: answer } of golden) {
      const evidence = answer.evidence_message_ids.map((messageId) => store.get(messageId))
      for (const [i, email] of evidence.entries()) {
        if (email === undefined || email.date === null) problems.push(`${id}: ${answer.evidence_message_ids[i]} missing or undated`)
        else if (store.read(email.messageId, { inbox: email.inbox, queryDate: email.date.slice(0, 10) }) === undefined)
          problems.push(`${id}: ${email.messageId} out of its own scope`)
      }
      // Answers of "all" questions are literal facts of the evidence (a field, its id or its UTC date); a timestamp is compared as an instant.
      const value = answer.accepted_answer?.value
      if (answer.evidence_mode !== 'all' || typeof value !== 'string') continue
      const text = evidence
        .map((e) => (e === undefined ? '' : [e.messageId, e.date ?? '', e.subject, e.from, ...e.to, ...e.cc, ...e.bcc, e.body].join('\n')))
        .join('\n')
        .toLowerCase()
      for (const part of value.split(';')) {
        answersChecked++
        const found = /^\d{4}-\d{2}-\d{2}T/.test(part) ? evidence.some((e) => e?.date === new Date(part).toISOString()) : text.includes(part.toLowerCase())
        if (!found) problems.push(`${id}: answer ${JSON.stringify(part)} not in its evidence`)
      }
    }
    expect(answersChecked).toBeGreaterThanOrEqual(15)
    expect(problems).toEqual([])
  })

  it('searches a real inbox within its dates', () => {
    const scope = { inbox: 'steven.kean@enron.com', queryDate: '2001-12-31' }
    const hits = store.search({ keywords: ['FERC', 'order'] }, scope)
    expect(hits.length).toBe(10)
    for (const hit of hits) expect(store.read(hit.messageId, scope)).toBeDefined()
    expect(store.search({ keywords: ['FERC'] }, { ...scope, queryDate: '1998-01-01' })).toEqual([])
  })
})
