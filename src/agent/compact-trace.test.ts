import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { capLongStrings } from '../core/cap-stored.ts'
import { InvalidFormatError } from '../core/errors.ts'
import { createModel } from '../llm/create-model.ts'
import { type ScriptedServer, scriptedText, scriptedToolCalls, startScriptedServer } from '../testing/scripted-server.ts'
import { defineTool } from '../tools/define-tool.ts'
import { COMPACT_TRACE_FIELD, type CompactTrace, RESULT_JSON_IN, RESULT_TEXT_IN, compactTrace, expandTrace, isCompactTrace } from './compact-trace.ts'
import { type AgentWireShape, runAgent } from './run-agent.ts'
import type { AgentTrace } from './trace.ts'

const Query = z.object({ q: z.string() })
const tools = [
  defineTool({
    name: 'Mail.search',
    description: 'an object result, sent as its JSON',
    parameters: Query,
    handler: ({ q }) => ({
      hits: [{ id: `<${q}@x>`, subject: 'Quote "here" \\ and\nnewline', score: 0.5 }],
      empty: {},
      none: null,
      lone: '\ud800',
      emoji: '📅',
    }),
  }),
  defineTool({ name: 'echo', description: 'a string result', parameters: Query, handler: ({ q }) => `you said: ${q}` }),
  defineTool({ name: 'count', description: 'a number result', parameters: Query, handler: ({ q }) => q.length }),
  defineTool({ name: 'nothing', description: 'a null result', parameters: Query, handler: () => null }),
  defineTool({
    name: 'table',
    description: 'a formatted result: the model sees text, the trace keeps the value',
    parameters: Query,
    formatResult: (result) => `rows: ${(result as string[]).join(' | ')}`,
    handler: ({ q }) => [q, q.toUpperCase()],
  }),
  defineTool({ name: 'dump', description: 'a huge result', parameters: Query, handler: () => ({ body: 'x'.repeat(60_000) }) }),
  defineTool({
    name: 'boom',
    description: 'throws',
    parameters: Query,
    handler: () => {
      throw new Error('backend down')
    },
  }),
]

/** Upstream MPCBench's request shape (MPCBench's `UPSTREAM_MPCBENCH_WIRE`). */
const upstreamWire: AgentWireShape = { toolChoice: 'auto', toolMessageName: true, omitEmptyToolCallContent: true }

let server: ScriptedServer
/** Traces of the agent loop, by scenario. */
const traces: Record<string, AgentTrace> = {}

beforeAll(async () => {
  const call = (id: string, name: string, args: string | Record<string, unknown> = { q: 'budget' }) => ({ id, name, arguments: args })
  server = await startScriptedServer([
    // mixed: every kind of result, a repeated call id in a later turn, then a text answer.
    scriptedToolCalls([
      call('c1', 'Mail__search'),
      call('c2', 'echo'),
      call('c3', 'count'),
      call('c4', 'nothing'),
      call('c5', 'table'),
      call('c6', 'nope'),
      call('c7', 'echo', '{not json'),
      call('c8', 'echo', { q: 3 }),
      call('c9', 'boom'),
    ]),
    scriptedToolCalls([call('c1', 'Mail__search', { q: 'again' })]),
    scriptedText('Room 4B'),
    // huge: a result over the stored-string cap, then max turns.
    scriptedToolCalls([call('h1', 'dump'), call('h2', 'echo')]),
    // plain: no tool call.
    scriptedText('I do not know'),
    // upstream: MPCBench's request shape (named tool messages, an assistant message without content), then an answer.
    scriptedToolCalls([call('u1', 'Mail__search'), call('u2', 'echo')]),
    scriptedText('Room 4B'),
  ])
  const model = createModel('scripted-model', { env: { OPENAI_BASE_URL: server.baseURL }, cache: { mode: 'off' }, callLogDir: false, maxRetries: 0 })
  const run = (maxTurns: number) => runAgent({ model, system: 'sys', user: 'When?', tools, maxTurns })
  traces.mixed = await run(5)
  traces.huge = await run(1)
  traces.plain = await run(1)
  traces.upstream = await runAgent({ model, system: 'sys', user: 'When?', tools, maxTurns: 2, wire: upstreamWire })
})

afterAll(async () => {
  await server?.close()
})

/** What a reader of the stored form gets back: the compact form written as JSON, read and expanded. */
function roundTrip(trace: AgentTrace): AgentTrace {
  const stored: unknown = JSON.parse(JSON.stringify(compactTrace(trace)))
  return isCompactTrace(stored) ? expandTrace(stored) : (stored as AgentTrace)
}

/** Which calls of a compact trace point at their message (`json` / `text`) and which keep their result. */
function kinds(trace: AgentTrace | CompactTrace): string[] {
  return trace.toolCalls.map((call) => (RESULT_JSON_IN in call ? 'json' : RESULT_TEXT_IN in call ? 'text' : 'kept'))
}

/** `make()` and how many times it called `JSON.stringify`. */
function countingStringify<T>(make: () => T): { value: T; calls: number } {
  const stringify = JSON.stringify
  let calls = 0
  JSON.stringify = ((...args: Parameters<typeof stringify>) => {
    calls++
    return stringify(...args)
  }) as typeof JSON.stringify
  try {
    return { value: make(), calls }
  } finally {
    JSON.stringify = stringify
  }
}

describe('compactTrace', () => {
  it('stores each tool result once, and gives back the very trace the agent loop made (JSON byte for byte)', () => {
    const trace = traces.mixed as AgentTrace
    expect(trace.toolCalls.map((call) => call.status)).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'unknown-tool',
      'invalid-arguments',
      'invalid-arguments',
      'tool-error',
      'ok',
    ])
    // executeToolCall marked its results: only the number and the null result (primitives) are compared.
    const { value: compact, calls } = countingStringify(() => compactTrace(trace))
    expect(calls).toBe(2)
    expect(isCompactTrace(compact)).toBe(true)
    // The formatted result is not what its message says: it stays; every other result is its message's text.
    expect(kinds(compact)).toEqual(['json', 'text', 'json', 'json', 'kept', 'text', 'text', 'text', 'text', 'json'])
    expect(compact.toolCalls[9]).toEqual(expect.objectContaining({ [RESULT_JSON_IN]: trace.messages.length - 2 }))
    const back = roundTrip(trace)
    expect(JSON.stringify(back)).toBe(JSON.stringify(trace))
    expect(back).toEqual(JSON.parse(JSON.stringify(trace)))
    expect(Object.keys(back.toolCalls[0] ?? {})).toEqual(Object.keys(trace.toolCalls[0] ?? {}))
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(trace).length - JSON.stringify(trace.toolCalls[0]?.result).length)
  })

  it('compacts a trace read back or cut by capLongStrings (no marks) by comparing, and keeps a cut result whole', () => {
    const readBack = JSON.parse(JSON.stringify(traces.mixed)) as AgentTrace
    expect(kinds(compactTrace(readBack))).toEqual(kinds(compactTrace(traces.mixed as AgentTrace)))
    expect(JSON.stringify(roundTrip(readBack))).toBe(JSON.stringify(readBack))

    const capped = capLongStrings(traces.huge as AgentTrace)
    expect(capped).not.toBe(traces.huge)
    expect(String(capped.toolCalls[0]?.result && (capped.toolCalls[0].result as { body: string }).body)).toMatch(/\[truncated: 60,000 characters in full\]$/)
    expect(kinds(compactTrace(capped))).toEqual(['kept', 'text'])
    expect(JSON.stringify(roundTrip(capped))).toBe(JSON.stringify(capped))
  })

  it("round-trips a trace in upstream MPCBench's message shape: tool messages keep their name, the assistant message stays without content", () => {
    const trace = traces.upstream as AgentTrace
    expect(trace.messages.slice(2, 5)).toEqual([
      { role: 'assistant', tool_calls: [expect.objectContaining({ id: 'u1' }), expect.objectContaining({ id: 'u2' })] },
      { role: 'tool', tool_call_id: 'u1', name: 'Mail__search', content: expect.any(String) },
      { role: 'tool', tool_call_id: 'u2', name: 'echo', content: 'you said: budget' },
    ])
    expect(kinds(compactTrace(trace))).toEqual(['json', 'text'])
    expect(JSON.stringify(roundTrip(trace))).toBe(JSON.stringify(trace))
    expect(JSON.stringify(roundTrip(JSON.parse(JSON.stringify(trace)) as AgentTrace))).toBe(JSON.stringify(trace))
  })

  it('gives a trace without a result to share back as it is, with no mark', () => {
    const plain = traces.plain as AgentTrace
    expect(compactTrace(plain)).toBe(plain)
    const external: AgentTrace = {
      ...plain,
      toolCalls: [
        { id: 'mcp_1', turn: 1, name: 'echo', arguments: { q: 'a' }, result: 'you said: a', status: 'ok', startedAt: plain.startedAt, durationMs: 1 },
      ],
    }
    expect(compactTrace(external)).toBe(external)
    expect(COMPACT_TRACE_FIELD in compactTrace(plain)).toBe(false)
  })

  it('never compacts a trace whose fields look like the compact form, so reading it back is never ambiguous', () => {
    const trace = traces.mixed as AgentTrace
    const pointerNamed = { ...trace, toolCalls: trace.toolCalls.map((call, i) => (i === 3 ? { ...call, [RESULT_TEXT_IN]: 0 } : call)) }
    expect(compactTrace(pointerNamed)).toBe(pointerNamed)
    const marked = { ...trace, [COMPACT_TRACE_FIELD]: 1 }
    expect(compactTrace(marked)).toBe(marked)
  })

  it('pairs calls and messages in order, and only when the ids match and the result is exactly the text', () => {
    const trace = JSON.parse(JSON.stringify(traces.mixed)) as AgentTrace
    const changed = {
      ...trace,
      toolCalls: trace.toolCalls.map((call, i) => (i === 0 ? { ...call, result: { other: true } } : i === 1 ? { ...call, id: 'zz' } : call)),
    }
    expect(kinds(compactTrace(changed)).slice(0, 3)).toEqual(['kept', 'kept', 'json'])
    expect(JSON.stringify(roundTrip(changed))).toBe(JSON.stringify(changed))
  })

  it('rebuilt results are marked: compacting an expanded trace compares nothing, and gives the same form', () => {
    const compact = JSON.parse(JSON.stringify(compactTrace(traces.mixed as AgentTrace))) as CompactTrace
    const expanded = expandTrace(compact)
    const { value: again, calls } = countingStringify(() => compactTrace(expanded))
    // One comparison each for the number and the null result (primitives carry no mark) and the formatted result kept
    // whole (read back, unmarked); none for the results rebuilt from their messages.
    expect(calls).toBe(3)
    expect(again).toEqual(compact)
  })

  it('a pointer to no tool message, or to a text that is not JSON, is an InvalidFormatError', () => {
    const compact = JSON.parse(JSON.stringify(compactTrace(traces.mixed as AgentTrace))) as CompactTrace
    const to = (index: number): CompactTrace => ({
      ...compact,
      toolCalls: compact.toolCalls.map((call, i) => (i === 0 ? { ...call, [RESULT_JSON_IN]: index } : call)),
    })
    expect(() => expandTrace(to(0))).toThrow(InvalidFormatError)
    expect(() => expandTrace(to(0))).toThrow(/tool call 0 points at message 0, which is no tool message with text/)
    const echoMessage = compact.toolCalls[1]?.[RESULT_TEXT_IN] as number
    expect(() => expandTrace(to(echoMessage))).toThrow(/whose text is not JSON/)
  })
})
