import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { parseToolArguments, toOpenAITool, toolTable } from '../tools/define-tool.ts'
import { executeToolCall } from '../tools/execute-tool-call.ts'
import { type EmailInput, EmailStore } from './store/email-store.ts'
import {
  createEmailTools,
  emptyInboxWarning,
  inboxContents,
  type ReadEmailResult,
  type SearchEmailsResult,
  truncateWithMarker,
  warnIfInboxEmpty,
} from './email-tools.ts'
import type { EmailReader } from './store/email-reader.ts'
import { MAX_SEARCH_KEYWORDS } from './store/fts-query.ts'

const mail = (messageId: string, inbox: string, date: string, body: string): EmailInput => ({
  messageId,
  inbox,
  subject: `About ${body.split(' ')[0]}`,
  from: 'boss@corp.test',
  to: [inbox],
  cc: ['cc@corp.test'],
  bcc: [],
  date,
  body,
})

describe('createEmailTools', () => {
  const store = EmailStore.open(':memory:')
  store.insertEmails([
    mail('<a@t>', 'ann@corp.test', '2001-01-10T10:00:00.000Z', 'Budget meeting moved to Tuesday'),
    mail('<b@t>', 'ann@corp.test', '2001-02-10T10:00:00.000Z', 'Budget approved by the board'),
    mail('<c@t>', 'bob@corp.test', '2001-01-10T10:00:00.000Z', 'Budget secrets for Bob only'),
  ])
  afterAll(() => store.close())
  const tools = toolTable(createEmailTools(store, { inbox: 'ann@corp.test', queryDate: '2001-01-31' }))
  const call = async <R>(name: string, args: unknown): Promise<R> => {
    const tool = tools[name]
    if (tool === undefined) throw new Error(`no tool ${name}`)
    return (await tool.handler(tool.parameters.parse(args), {})) as R
  }

  it('offers search_emails, read_email and a final return_final_answer, with JSON Schemas for the model', () => {
    expect(Object.keys(tools)).toEqual(['search_emails', 'read_email', 'return_final_answer'])
    expect(tools.return_final_answer?.final).toBe(true)
    const search = toOpenAITool(tools.search_emails!)
    expect(search.function.parameters).toMatchObject({ type: 'object', required: ['keywords'], properties: { max_results: { maximum: 10 } } })
    expect(search.function.description).toContain('ann@corp.test')
  })

  it('searches only the task inbox up to its query date', async () => {
    const hits = await call<SearchEmailsResult[]>('search_emails', { keywords: ['budget'] })
    expect(hits).toEqual([
      { message_id: '<a@t>', subject: 'About Budget', date: '2001-01-10T10:00:00.000Z', from: 'boss@corp.test', snippet: expect.stringContaining('[Budget]') },
    ])
    expect(await call('search_emails', { keywords: ['budget'], sent_after: '2001-01-11' })).toEqual([])
  })

  it('rejects bad arguments through the zod schema', () => {
    expect(tools.search_emails?.parameters.safeParse({ keywords: ['x'], max_results: 11 }).success).toBe(false)
    expect(tools.search_emails?.parameters.safeParse({ keywords: ['x'], sent_after: '2001-02-30' }).success).toBe(false)
    expect(tools.search_emails?.parameters.safeParse({ keywords: 'x' }).success).toBe(false)
  })

  it("answers an argument search_emails does not have (OpenPipe's from_addr) with an error; read_email and return_final_answer ignore one, as OpenPipe's rollout does", () => {
    const search = tools.search_emails!
    const misnamed = parseToolArguments(search, { keywords: ['budget'], from_addr: 'boss@corp.test' })
    expect(misnamed.success).toBe(false)
    expect(misnamed.success ? '' : z.prettifyError(misnamed.error)).toContain(
      'Unknown argument(s) "from_addr"; the arguments are keywords, from, to, sent_after, sent_before, max_results',
    )
    expect(parseToolArguments(tools.read_email!, { message_id: '<a@t>', reason: 'check' })).toEqual({ success: true, data: { message_id: '<a@t>' } })
    expect(parseToolArguments(tools.return_final_answer!, { answer: 'Tuesday', sources: ['<a@t>'], rationale: 'the email says so' }).success).toBe(true)
  })

  it('reads an email in scope with its recipients, and returns an error for others', async () => {
    expect(await call<ReadEmailResult>('read_email', { message_id: '<a@t>' })).toEqual({
      message_id: '<a@t>',
      date: '2001-01-10T10:00:00.000Z',
      subject: 'About Budget',
      from: 'boss@corp.test',
      to: ['ann@corp.test'],
      cc: ['cc@corp.test'],
      bcc: [],
      body: 'Budget meeting moved to Tuesday',
    })
    for (const id of ['<b@t>', '<c@t>', '<zzz@t>']) {
      expect(await call<ReadEmailResult>('read_email', { message_id: id })).toEqual({ error: expect.stringContaining('No email with message_id') })
    }
  })

  it('answers keywords without a word (punctuation, operators, emoji) with a tool error instead of listing all mail, and curly quotes as plain ones', async () => {
    for (const keywords of [['?!'], ['*', '()'], ['\u{1F4C8}']]) {
      const executed = await executeToolCall(tools, 'search_emails', JSON.stringify({ keywords }))
      expect(executed).toMatchObject({
        status: 'tool-error',
        errorCode: 'ERR_SEARCH_KEYWORDS',
        content: expect.stringContaining('No keyword has a word to search for'),
      })
    }
    expect(await call('search_emails', { keywords: [''] })).toHaveLength(1)
    const curly = await call<SearchEmailsResult[]>('search_emails', { keywords: ['\u201cmeeting moved\u201d'] })
    expect(curly.map((hit) => hit.message_id)).toEqual(['<a@t>'])
  })

  it('returns the final answer as given', async () => {
    expect(await call('return_final_answer', { answer: 'Tuesday', sources: ['<a@t>'] })).toEqual({ answer: 'Tuesday', sources: ['<a@t>'] })
  })
})

describe('email tools on hostile inputs (bounded results and work)', () => {
  const inbox = 'ann@corp.test'
  const scope = { inbox, queryDate: '2001-12-31' }
  const words = ['the', 'gas', 'contract', 'pipeline', 'meeting', 'price', 'power', 'deal', 'budget', 'trade', 'report', 'market']
  const lorem = 'lorem ipsum dolor sit amet consectetur adipiscing elit '
  const hugeBody = lorem.repeat(Math.ceil(50_000_000 / lorem.length))
  const store = EmailStore.open(':memory:')
  store.insertEmails(
    Array.from({ length: 3_000 }, (_, i) =>
      mail(
        `<m${i}@t>`,
        i % 3 === 0 ? inbox : 'bob@corp.test',
        `2001-0${1 + (i % 9)}-1${i % 10}T10:00:00.000Z`,
        Array.from({ length: 60 }, (_, j) => words[(i * 7 + j * j) % words.length]).join(' '),
      ),
    ),
  )
  store.insertEmails([{ ...mail('<huge@t>', inbox, '2001-06-01T10:00:00.000Z', hugeBody), subject: `Huge ${'subject '.repeat(500)}` }])
  afterAll(() => store.close())
  const tools = toolTable(createEmailTools(store, scope, { maxBodyChars: 20_000 }))
  const call = async <R>(name: string, args: unknown): Promise<R> => {
    const tool = tools[name]
    if (tool === undefined) throw new Error(`no tool ${name}`)
    return (await tool.handler(tool.parameters.parse(args), {})) as R
  }

  it('answers one keyword repeated 1,000 times as that keyword once', async () => {
    const once = await call<SearchEmailsResult[]>('search_emails', { keywords: ['the'] })
    expect(once).toHaveLength(10)
    expect(await call('search_emails', { keywords: Array.from({ length: 1000 }, () => 'the') })).toEqual(once)
  })

  it(`uses the first ${MAX_SEARCH_KEYWORDS} of 300 distinct keywords`, async () => {
    const many = [...words, ...Array.from({ length: 288 }, (_, i) => `word${i}`)]
    expect(await call('search_emails', { keywords: many })).toEqual(await call('search_emails', { keywords: many.slice(0, MAX_SEARCH_KEYWORDS) }))
  })

  it('finds a 50 MB email with a short snippet, and reads its body cut with a marker', async () => {
    const hits = await call<SearchEmailsResult[]>('search_emails', { keywords: ['lorem'] })
    expect(hits.map((hit) => hit.message_id)).toEqual(['<huge@t>'])
    expect(hits[0]?.snippet).toContain('[lorem]')
    expect(hits[0]?.snippet.length).toBeLessThan(400)
    expect(hits[0]?.subject).toMatch(/^Huge subject subject .*\n\[\.\.\. truncated: 4,005 characters in all, the first 1,000 shown\]$/s)
    const read = await call<ReadEmailResult>('read_email', { message_id: '<huge@t>' })
    if ('error' in read) throw new Error(read.error)
    expect(read.body.startsWith(hugeBody.slice(0, 20_000))).toBe(true)
    expect(read.body.slice(20_000)).toBe(`\n[... truncated: ${hugeBody.length.toLocaleString('en-US')} characters in all, the first 20,000 shown]`)
  })

  it('returns a body within the bound unchanged', async () => {
    const read = await call<ReadEmailResult>('read_email', { message_id: '<m0@t>' })
    expect(read).toMatchObject({ body: expect.stringMatching(/^[a-z ]+$/) })
  })
})

describe('an inbox with no email in the store', () => {
  const file = ':memory:'
  const open = (): EmailStore => {
    const store = EmailStore.open(file)
    store.insertEmails([mail('<a@t>', 'ann@corp.test', '2001-01-10T10:00:00.000Z', 'Budget meeting moved to Tuesday')])
    return store
  }
  /** The store, counting the searches made of it. */
  const counted = (store: EmailStore): EmailReader & { searches: number; file: string } => ({
    searches: 0,
    file: store.file,
    search(query, scope) {
      this.searches++
      return store.search(query, scope)
    },
    read: (messageId, scope, options) => store.read(messageId, scope, options),
  })
  afterEach(() => void vi.restoreAllMocks())

  it("tells mail in scope from mail only after the query date and from none at all (a recipient's inbox holds the mail sent to it)", async () => {
    using store = open()
    expect(await inboxContents(store, { inbox: 'ann@corp.test', queryDate: '2001-01-31' })).toEqual({ kind: 'in-scope' })
    expect(await inboxContents(store, { inbox: 'Ann@Corp.test', queryDate: '2001-01-01' })).toEqual({ kind: 'after-query-date', latestDay: '2001-01-10' })
    expect(await inboxContents(store, { inbox: 'cc@corp.test', queryDate: '2001-01-31' })).toEqual({ kind: 'in-scope' })
    expect(await inboxContents(store, { inbox: 'nobody@corp.test', queryDate: '2001-01-31' })).toEqual({ kind: 'empty' })
  })

  it('warns once per store and inbox, naming the inbox, the database and the fix, and never for an inbox with mail', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    using first = open()
    const store = counted(first)
    await Promise.all([warnIfInboxEmpty(store, 'nobody@corp.test'), warnIfInboxEmpty(store, 'Nobody@corp.test'), warnIfInboxEmpty(store, 'ann@corp.test')])
    await warnIfInboxEmpty(store, 'nobody@corp.test')
    expect(warn.mock.calls).toEqual([[emptyInboxWarning('nobody@corp.test', ':memory:')]])
    expect(emptyInboxWarning('nobody@corp.test', '/data/enron.db')).toMatch(
      /^ART-E: the inbox nobody@corp\.test holds no email in \/data\/enron\.db: every search_emails .* returns \[\][^\n]*\n {2}Fix: .*ARTE_DB/,
    )
    expect(store.searches).toBe(2)
    using second = open()
    await warnIfInboxEmpty(second, 'nobody@corp.test')
    expect(warn).toHaveBeenCalledTimes(2)
  })
})

describe('truncateWithMarker', () => {
  it('keeps text within the bound and never splits a surrogate pair', () => {
    expect(truncateWithMarker('abc', 3)).toBe('abc')
    expect(truncateWithMarker('ab🙂', 3)).toBe('ab\n[... truncated: 4 characters in all, the first 3 shown]')
    expect(truncateWithMarker('abc', 10, 12)).toBe('abc\n[... truncated: 12 characters in all, the first 10 shown]')
  })
})
