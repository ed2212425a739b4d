import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createModel } from '../../llm/create-model.ts'
import { type ReceivedRequest, scriptedToolCalls, startScriptedServer, toolResults } from '../../testing/scripted-server.ts'
import type { ArteRow } from '../dataset/row.ts'
import { createEmailTools, type SearchEmailsResult } from '../email-tools.ts'
import { computeArteMetrics } from '../results/results.ts'
import { runArteTask } from '../run-arte-task.ts'
import { DEFAULT_ARTE_TOOL_TIMEOUT_MS } from '../settings.ts'
import { toolTable } from '../../tools/define-tool.ts'
import { executeToolCall } from '../../tools/execute-tool-call.ts'
import { type EmailInput, type EmailSearch, EmailStore } from './email-store.ts'
import { SchemaVersionError } from './schema.ts'
import { EmailStoreWorker, ToolTimeoutError } from './store-worker.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const INBOX = 'ann@corp.test'
const SCOPE = { inbox: INBOX, queryDate: '2001-12-31' }
const WORDS = ['the', 'gas', 'contract', 'pipeline', 'meeting', 'price', 'power', 'deal', 'budget', 'trade', 'report', 'market']
const LOREM = 'lorem ipsum dolor sit amet consectetur adipiscing elit '
const SLOW_KEYWORDS = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'elit']

function mail(messageId: string, inbox: string, date: string, body: string): EmailInput {
  return { messageId, inbox, subject: `About ${body.slice(0, 20)}`, from: 'bob@corp.test', to: [inbox], cc: [], bcc: [], date, body }
}

describe('EmailStoreWorker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-worker-'))
  const file = join(dir, 'mail.db')
  const huge = LOREM.repeat(Math.ceil(50_000_000 / LOREM.length))
  let inThread: EmailStore
  let reader: EmailStoreWorker
  beforeAll(async () => {
    const writer = EmailStore.open(file)
    writer.insertEmails(
      Array.from({ length: 3_000 }, (_, i) =>
        mail(
          `<m${i}@t>`,
          i % 3 === 0 ? INBOX : 'bob@corp.test',
          `2001-0${1 + (i % 9)}-1${i % 10}T10:00:00.000Z`,
          Array.from({ length: 60 }, (_, j) => WORDS[(i * 7 + j * j) % WORDS.length]).join(' '),
        ),
      ),
    )
    // A 50 MB email (the issue's), and four more long ones: a search for their words is slow on purpose (tens of ms each).
    writer.insertEmails([mail('<huge@t>', INBOX, '2001-06-01T10:00:00.000Z', huge)])
    writer.insertEmails(Array.from({ length: 4 }, (_, i) => mail(`<long${i}@t>`, INBOX, '2001-06-02T10:00:00.000Z', LOREM.repeat(20_000))))
    writer.close()
    inThread = EmailStore.open(file, { readonly: true })
    reader = await EmailStoreWorker.open(file)
  }, scaledMs(120_000))
  /**
   * A third of what the slow search (the 50 MB email and four long ones to snippet) takes here on the calling
   * thread: missed by far on any machine, while a read or a small search stays far within it.
   */
  const slowBudget = (): number => {
    const took = (): number => {
      const start = performance.now()
      inThread.search({ keywords: SLOW_KEYWORDS }, SCOPE)
      return performance.now() - start
    }
    return Math.max(5, Math.floor(Math.min(took(), took()) / 3))
  }
  afterAll(async () => {
    inThread.close()
    await reader.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('answers searches and reads exactly as the store on the calling thread', async () => {
    const searches: EmailSearch[] = [
      { keywords: ['gas', 'contract'] },
      { keywords: ['the'], maxResults: 3 },
      { keywords: [], from: 'bob' },
      { keywords: ['pipeline'], sentAfter: '2001-03-01', sentBefore: '2001-06-01' },
      { keywords: ['lorem'] },
    ]
    for (const search of searches) expect(await reader.search(search, SCOPE)).toEqual(inThread.search(search, SCOPE))
    expect(await reader.read('<m3@t>', SCOPE)).toEqual(inThread.read('<m3@t>', SCOPE))
    expect(await reader.read('<m1@t>', SCOPE)).toBeUndefined()
    expect(await reader.read('<huge@t>', SCOPE, { maxBodyChars: 100 })).toEqual(inThread.read('<huge@t>', SCOPE, { maxBodyChars: 100 }))
  })

  it(`answers the hostile inputs within the default budget (${DEFAULT_ARTE_TOOL_TIMEOUT_MS} ms)`, async () => {
    const tools = toolTable(createEmailTools(reader, SCOPE))
    const hostile = [
      { keywords: Array.from({ length: 1000 }, () => 'the') },
      { keywords: [...WORDS, ...Array.from({ length: 288 }, (_, i) => `word${i}`)] },
      { keywords: ['lorem'] },
      { keywords: ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'elit'] },
    ]
    for (const args of hostile) {
      const call = await executeToolCall(tools, 'search_emails', JSON.stringify(args))
      expect(call === 'aborted' ? call : call.status).toBe('ok')
    }
    expect(reader.restarts).toBe(0)
  })

  it('stops a call past its budget with a tool error, restarts, and runs the calls queued behind it', async () => {
    const slowKeywords = SLOW_KEYWORDS
    const budget = slowBudget()
    const tight = await EmailStoreWorker.open(file, { timeoutMs: budget })
    try {
      const slow = tight.search({ keywords: slowKeywords }, SCOPE)
      const queued = tight.read('<m0@t>', SCOPE)
      await expect(slow).rejects.toBeInstanceOf(ToolTimeoutError)
      await expect(slow).rejects.toThrow(`ran past its time budget of ${budget} ms and was stopped`)
      expect((await queued)?.messageId).toBe('<m0@t>')
      expect(tight.restarts).toBe(1)
      expect(await tight.search({ keywords: ['gas'] }, SCOPE)).toEqual(inThread.search({ keywords: ['gas'] }, SCOPE))

      // Through the tools and the agent loop's executor: a tool message for the model, not a thrown error.
      const tools = toolTable(createEmailTools(tight, SCOPE))
      const call = await executeToolCall(tools, 'search_emails', JSON.stringify({ keywords: slowKeywords }))
      if (call === 'aborted') throw new Error('aborted')
      expect(call.status).toBe('tool-error')
      expect(call.content).toBe(
        `Error: search_emails failed: The search ran past its time budget of ${budget} ms and was stopped.\n  Fix: Search again with fewer, more distinctive keywords or narrower filters.`,
      )
      const next = await executeToolCall(tools, 'search_emails', JSON.stringify({ keywords: ['gas'] }))
      expect(next === 'aborted' ? next : (JSON.parse(next.content) as SearchEmailsResult[]).length).toBe(10)
      expect(tight.restarts).toBe(2)
    } finally {
      await tight.close()
    }
  })

  it('answers many calls made at once, each with its own result', async () => {
    const searches = Array.from({ length: 12 }, (_, i) => ({ keywords: [WORDS[i % WORDS.length] ?? 'gas'], maxResults: 1 + (i % 5) }))
    const answers = await Promise.all(searches.map((search, i) => (i % 4 === 3 ? reader.read(`<m${3 * i}@t>`, SCOPE) : reader.search(search, SCOPE))))
    answers.forEach((answer, i) =>
      expect(answer).toEqual(i % 4 === 3 ? inThread.read(`<m${3 * i}@t>`, SCOPE) : inThread.search(searches[i] as EmailSearch, SCOPE)),
    )
  })

  it('gives the call queued behind a fast one its own budget: it times out, the calls behind it run on a fresh worker in order', async () => {
    const budget = slowBudget()
    const tight = await EmailStoreWorker.open(file, { timeoutMs: budget })
    try {
      const fast = tight.read('<m3@t>', SCOPE)
      const slow = tight.search({ keywords: SLOW_KEYWORDS }, SCOPE)
      // Posted to the worker with the slow call, not started by it: they run on the fresh worker, in order.
      const settled: string[] = []
      const behind = tight.search({ keywords: ['gas'] }, SCOPE).finally(() => settled.push('search'))
      const behindRead = tight.read('<m6@t>', SCOPE).finally(() => settled.push('read'))
      expect((await fast)?.messageId).toBe('<m3@t>')
      await expect(slow).rejects.toBeInstanceOf(ToolTimeoutError)
      expect(await behind).toEqual(inThread.search({ keywords: ['gas'] }, SCOPE))
      expect(await behindRead).toEqual(inThread.read('<m6@t>', SCOPE))
      expect(settled).toEqual(['search', 'read'])
      expect(tight.restarts).toBe(1)
    } finally {
      await tight.close()
    }
  })

  it('counts a stopped call in the task meta and the run metrics (the model gets the tool error and goes on)', async () => {
    const tight = await EmailStoreWorker.open(file, { timeoutMs: slowBudget() })
    try {
      const seen: string[] = []
      await using server = await startScriptedServer((request: ReceivedRequest) => {
        const results = toolResults(request)
        if (results.length === 0) return scriptedToolCalls([{ name: 'search_emails', arguments: { keywords: SLOW_KEYWORDS } }])
        seen.push(results[0]?.content ?? '')
        return scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer: "I don't know", sources: [] } }])
      })
      const model = createModel('scripted-model', { env: { OPENAI_BASE_URL: server.baseURL }, cache: { mode: 'off' }, callLogDir: false, maxRetries: 0 })
      const row: ArteRow = {
        id: 'slow-1',
        question: 'What does lorem say?',
        answer: 'ipsum',
        message_ids: [],
        inbox_address: INBOX,
        query_date: '2001-12-31',
        how_realistic: 0.5,
        split: 'test',
      }
      const run = await runArteTask({ row, store: tight, model, dataset: 'scripted.jsonl' })
      expect(seen[0]).toMatch(/^Error: search_emails failed: The search ran past its time budget of \d+ ms and was stopped\./)
      expect(run.trace.toolCalls.map((call) => [call.status, call.errorCode])).toEqual([
        ['tool-error', 'ERR_TOOL_TIMEOUT'],
        ['ok', undefined],
      ])
      expect(run.meta.toolTimeouts).toBe(1)
      expect(computeArteMetrics([run.meta]).toolTimeouts).toBe(1)
    } finally {
      await tight.close()
    }
  })

  it('rejects every call still open when closed: those posted to the worker and those behind them', async () => {
    const closing = await EmailStoreWorker.open(file)
    const open = [closing.search({ keywords: SLOW_KEYWORDS }, SCOPE), closing.read('<m3@t>', SCOPE), closing.search({ keywords: ['gas'] }, SCOPE)]
    const outcomes = open.map((call) =>
      call.then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    )
    await closing.close()
    expect(await Promise.all(outcomes)).toEqual(Array(3).fill(`The email store worker for ${file} was closed.`))
    expect(closing.restarts).toBe(0)
  })

  it('fails to open as the store does, and rejects calls once closed', async () => {
    await expect(EmailStoreWorker.open(join(dir, 'missing.db'))).rejects.toThrow(/Cannot open email database .*missing\.db/)
    const old = join(dir, 'old.db')
    const db = EmailStore.open(old)
    db.db.pragma('user_version = 1')
    db.close()
    await expect(EmailStoreWorker.open(old)).rejects.toBeInstanceOf(SchemaVersionError)
    const closing = await EmailStoreWorker.open(file)
    await closing.close()
    await expect(closing.search({ keywords: ['gas'] }, SCOPE)).rejects.toThrow(/closed/)
    await expect(EmailStoreWorker.open(file, { timeoutMs: 0 })).rejects.toThrow(RangeError)
  })
})
