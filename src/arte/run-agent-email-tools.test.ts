import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { EmailStore } from './store/email-store.ts'
import { createEmailTools } from './email-tools.ts'
import { type CreateModelOptions, createModel } from '../llm/create-model.ts'
import { readCallLog } from '../llm/call-log.ts'
import {
  type ReceivedRequest,
  type Script,
  type ScriptStep,
  scriptedError,
  scriptedText,
  scriptedToolCalls,
  startScriptedServer,
  toolResults,
} from '../testing/scripted-server.ts'
import { type AnyTool, defineTool } from '../tools/define-tool.ts'
import { answerFromText, runAgent } from '../agent/run-agent.ts'
import type { AgentTrace } from '../agent/trace.ts'
import { createBaselineModel } from '../baseline/baseline-model.ts'
import { scaledMs } from '../testing/time-scale.ts'

const SECRET = 'sk-h3-agent-secret-9876543210'
const SYSTEM = "You answer questions about the user's mailbox. Use the tools; finish with return_final_answer."
const QUESTION = 'When is the budget review meeting?'
const INBOX = 'jane.doe@example.test'

let store: EmailStore
let tools: AnyTool[]

beforeAll(() => {
  store = EmailStore.open(':memory:')
  const base = { inbox: INBOX, from: 'bob.smith@example.test', to: [INBOX], cc: [], bcc: [] }
  store.insertEmails([
    {
      ...base,
      messageId: '<m1@example.test>',
      subject: 'Budget review',
      date: '2001-02-01T10:00:00.000Z',
      body: 'Hi Jane, the budget review meeting is on March 3 in room 5.',
    },
    { ...base, messageId: '<m2@example.test>', subject: 'Lunch', date: '2001-02-02T10:00:00.000Z', body: 'Lunch on Friday?' },
    {
      ...base,
      messageId: '<m3@example.test>',
      subject: 'Budget review moved',
      date: '2001-06-01T10:00:00.000Z',
      body: 'The budget review meeting is on April 9 now.',
    },
  ])
  tools = createEmailTools(store, { inbox: INBOX, queryDate: '2001-03-01' })
})
afterAll(() => store.close())

/** The newest tool result that parses as JSON and passes `accept`. */
function latestToolJson<T>(request: ReceivedRequest, accept: (value: unknown) => value is T): T {
  for (const { content } of toolResults(request).reverse()) {
    try {
      const value: unknown = JSON.parse(content)
      if (accept(value)) return value
    } catch {}
  }
  throw new Error('scripted step: no matching tool result in the request')
}

const isHitList = (value: unknown): value is Array<{ message_id: string }> => Array.isArray(value) && value.length > 0
const isEmail = (value: unknown): value is { message_id: string; body: string } => typeof value === 'object' && value !== null && 'body' in value

// A scripted three-turn ART-E conversation: search, read the top hit, answer from its body.
const search: ScriptStep = scriptedToolCalls([{ name: 'search_emails', arguments: { keywords: ['budget review'] } }])
const readTopHit: ScriptStep = (request) =>
  scriptedToolCalls([{ name: 'read_email', arguments: { message_id: latestToolJson(request, isHitList)[0]?.message_id ?? '' } }])
const answerFromEmail: ScriptStep = (request) => {
  const email = latestToolJson(request, isEmail)
  const answer = /meeting is on (\w+ \d+)/.exec(email.body)?.[1] ?? "I don't know"
  return scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer, sources: [email.message_id] } }])
}
const clean: ScriptStep[] = [search, readTopHit, answerFromEmail]

function fakeClock(): () => number {
  let now = Date.parse('2025-01-01T00:00:00.000Z')
  return () => (now += 5)
}

async function runScripted(
  script: Script,
  options: { model?: Omit<CreateModelOptions, 'env'>; maxTurns?: number; signal?: AbortSignal; tools?: AnyTool[] } = {},
) {
  await using server = await startScriptedServer(script)
  const logDir = mkdtempSync(join(tmpdir(), 'agent-log-'))
  const model = createModel('scripted-agent', {
    env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: SECRET },
    callLogDir: logDir,
    cache: { mode: 'off' },
    retry: { baseDelayMs: 5 },
    ...options.model,
  })
  const trace = await runAgent({
    model,
    system: SYSTEM,
    user: QUESTION,
    tools: options.tools ?? tools,
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })
  for (const file of readdirSync(logDir)) expect(readFileSync(join(logDir, file), 'utf8')).not.toContain(SECRET)
  return { trace, requests: server.requests, loggedCalls: [...readCallLog(logDir)] }
}

const expectedAnswer = { kind: 'answered', answer: 'March 3', sources: ['<m1@example.test>'], rationale: null, via: 'final-tool' }

describe('runAgent', () => {
  it('runs a multi-turn ART-E task to return_final_answer', async () => {
    const { trace, requests, loggedCalls } = await runScripted(clean)
    expect(trace.outcome).toEqual(expectedAnswer)
    expect(trace).toMatchObject({ model: 'scripted-agent', modelKind: 'llm', turns: 3 })
    expect(trace.toolCalls.map((call) => [call.turn, call.name, call.status])).toEqual([
      [1, 'search_emails', 'ok'],
      [2, 'read_email', 'ok'],
      [3, 'return_final_answer', 'ok'],
    ])
    // The out-of-scope email (after the query date) is never seen.
    expect(JSON.stringify(trace.messages)).not.toContain('April 9')
    expect(requests[0]?.body.tools?.map((tool) => tool.function.name)).toEqual(['search_emails', 'read_email', 'return_final_answer'])
    expect(requests[0]?.body.messages).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ])
    expect(trace.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool'])
    expect(trace.usage.calls).toBe(3)
    expect(trace.usage.totalTokens).toBeGreaterThan(0)
    expect(loggedCalls.map((call) => call.entry.outcome.kind)).toEqual(['response', 'response', 'response'])
    expect(trace.traceId).toMatch(/^[0-9a-f-]{36}$/)
    expect(structuredClone(trace)).toEqual(trace)
  })

  it('executes parallel tool calls in order, each answered, errors included', async () => {
    const parallel = scriptedToolCalls([
      { name: 'search_emails', arguments: { keywords: ['lunch'] } },
      { name: 'read_email', arguments: { message_id: '<m1@example.test>' } },
      { name: 'search_emails', arguments: { keywords: 'budget' } },
    ])
    const { trace, requests } = await runScripted([parallel, answerFromEmail])
    expect(trace.outcome).toEqual(expectedAnswer)
    expect(trace.toolCalls.slice(0, 3).map((call) => [call.turn, call.name, call.status])).toEqual([
      [1, 'search_emails', 'ok'],
      [1, 'read_email', 'ok'],
      [1, 'search_emails', 'invalid-arguments'],
    ])
    expect(String(trace.toolCalls[2]?.result)).toMatch(/keywords/)
    const sent = toolResults(requests[1] as ReceivedRequest)
    expect(sent.map((result) => result.toolCallId)).toEqual(['call_scripted_0_0', 'call_scripted_0_1', 'call_scripted_0_2'])
    expect(sent[0]?.content).toContain('<m2@example.test>')
  })

  const recoveries: Array<[string, ScriptStep[], Omit<CreateModelOptions, 'env'>?]> = [
    ['a 429 with retry-after', [scriptedError(429, { headers: { 'retry-after': '1' } }), ...clean]],
    ['a 500', [search, scriptedError(500), readTopHit, answerFromEmail]],
    ['a timeout', [search, scriptedText('too late', { delayMs: 5_000 }), readTopHit, answerFromEmail], { timeoutMs: 1_000 }],
    ['a malformed-arguments call', [search, scriptedToolCalls([{ name: 'read_email', arguments: '{"message_id": "<m1@' }]), readTopHit, answerFromEmail]],
    ['an unknown tool', [search, scriptedToolCalls([{ name: 'delete_mailbox', arguments: {} }]), readTopHit, answerFromEmail]],
  ]
  it.each(recoveries)('recovers from %s with the same answer as the clean run', async (_name, script, modelOptions) => {
    const { trace } = await runScripted(script, { model: modelOptions ?? {} })
    expect(trace.outcome).toEqual(expectedAnswer)
    if (_name === 'a malformed-arguments call') {
      expect(trace.toolCalls[1]).toMatchObject({ status: 'invalid-arguments', arguments: '{"message_id": "<m1@' })
      expect(String(trace.toolCalls[1]?.result)).toMatch(/not valid JSON/)
    }
    if (_name === 'an unknown tool') {
      expect(trace.toolCalls[1]).toMatchObject({ name: 'delete_mailbox', status: 'unknown-tool' })
      expect(String(trace.toolCalls[1]?.result)).toMatch(/Available tools: search_emails, read_email, return_final_answer/)
    }
  })

  it('takes at least the retry-after wait on a 429', async () => {
    const started = performance.now()
    await runScripted([scriptedError(429, { headers: { 'retry-after': '1' } }), scriptedText('fine')])
    expect(performance.now() - started).toBeGreaterThanOrEqual(950)
  })

  it('reports a throwing tool to the model and continues', async () => {
    const flaky = defineTool({
      name: 'Drive.read_file',
      description: 'Reads a file.',
      parameters: z.object({ id: z.string() }),
      handler() {
        throw new Error('disk on fire')
      },
    })
    const { trace, requests } = await runScripted(
      [scriptedToolCalls([{ name: 'Drive__read_file', arguments: { id: 'f1' } }]), scriptedText('Could not read it.')],
      {
        tools: [flaky],
      },
    )
    expect(trace.toolCalls[0]).toMatchObject({ name: 'Drive.read_file', status: 'tool-error', arguments: { id: 'f1' } })
    expect(toolResults(requests[1] as ReceivedRequest)[0]?.content).toMatch(/Drive__read_file failed: disk on fire/)
    expect(trace.outcome).toEqual({ kind: 'answered', answer: 'Could not read it.', sources: [], rationale: null, via: 'text' })
  })

  it('ends at a plain JSON final answer (MPCBench style), fenced or not', async () => {
    const fenced = '```json\n{"final_answer": "Tuesday 10:00", "rationale": "Both calendars are free."}\n```'
    const { trace } = await runScripted([scriptedText(fenced)])
    expect(trace.outcome).toEqual({ kind: 'answered', answer: 'Tuesday 10:00', sources: [], rationale: 'Both calendars are free.', via: 'json' })
    expect(answerFromText('{"final_answer": {"date": "2025-01-02"}}')).toMatchObject({ answer: '{"date":"2025-01-02"}', via: 'json' })
    expect(answerFromText('{"other": 1}')).toMatchObject({ answer: '{"other": 1}', via: 'text' })
  })

  it('reports maxTurns as its own outcome', async () => {
    const { trace, requests } = await runScripted(() => scriptedToolCalls([{ name: 'search_emails', arguments: { keywords: ['budget'] } }]), { maxTurns: 3 })
    expect(trace.outcome).toEqual({ kind: 'max-turns', maxTurns: 3 })
    expect(trace.turns).toBe(3)
    expect(requests).toHaveLength(3)
    expect(trace.toolCalls).toHaveLength(3)
  })

  it('reports a model failure after retries as an error outcome, without throwing', async () => {
    const { trace } = await runScripted([search, scriptedError(503), scriptedError(503)], { model: { maxRetries: 1 } })
    expect(trace.outcome).toMatchObject({ kind: 'error', code: 'ERR_MODEL_SERVER' })
    expect(trace.turns).toBe(1)
  })

  it('stops soon after an abort (100 ms idle), during a model call or a slow tool', async () => {
    const slowTool = defineTool({
      name: 'slow',
      description: 'Takes ten minutes and ignores the signal.',
      parameters: z.object({}),
      handler: () => new Promise((resolve) => setTimeout(() => resolve('done'), 600_000).unref()),
    })
    const scripts: Script[] = [[scriptedText('late', { delayMs: 600_000 })], [scriptedToolCalls([{ name: 'slow', arguments: {} }])]]
    for (const script of scripts) {
      const controller = new AbortController()
      const run = runScripted(script, { signal: controller.signal, tools: [slowTool] })
      await new Promise((resolve) => setTimeout(resolve, 150))
      const abortedAt = performance.now()
      controller.abort(new Error('Test timed out'))
      const { trace } = await run
      // Far sooner than the reply or the tool (10 min): a wide bound that only a wait for either breaks, not a busy
      // machine (about 1 ms idle; docs/contributing.md).
      expect(performance.now() - abortedAt).toBeLessThan(scaledMs(10_000))
      expect(trace.outcome).toEqual({ kind: 'aborted', reason: 'Test timed out' })
    }
  })

  it('replays from the cache with a byte-identical trace (its usage marked as replayed) and no HTTP call', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'cassettes-'))
    await using server = await startScriptedServer(clean)
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: SECRET }
    // traceId and timing are injected so that the whole trace can be compared byte for byte.
    const run = (mode: 'read-write' | 'replay'): Promise<AgentTrace> =>
      runAgent({
        model: createModel('scripted-agent', { env, callLogDir: false, cache: { mode, dir: cacheDir } }),
        system: SYSTEM,
        user: QUESTION,
        tools,
        clock: fakeClock(),
        idGenerator: () => 'trace-1',
      })
    const recorded = await run('read-write')
    expect(recorded.outcome).toEqual(expectedAnswer)
    expect(server.requests).toHaveLength(3)
    expect(readdirSync(cacheDir)).toHaveLength(3)
    const replayed = await run('replay')
    expect(server.requests).toHaveLength(3)
    // The same trace, except that its usage says every call was replayed from the cache (nothing was paid).
    expect(recorded.usage.cached).toBeUndefined()
    const { cached, ...counts } = replayed.usage
    expect(cached).toEqual(counts)
    expect(JSON.stringify({ ...replayed, usage: counts })).toBe(JSON.stringify(recorded))
  })

  it('throws for programming errors only', async () => {
    const model = createBaselineModel([])
    await expect(runAgent({ model, system: '', user: '', tools, maxTurns: 0 })).rejects.toThrow(/maxTurns/)
    await expect(runAgent({ model, system: '', user: '', tools: [...tools, ...tools] })).rejects.toThrow(/Duplicate tool/)
  })
})
