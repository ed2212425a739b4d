import { afterEach, describe, expect, it } from 'vitest'
import { createModel } from '../../llm/create-model.ts'
import { flushTracing, shutdownTracing, startTracing } from '../../otel/tracing.ts'
import { childrenOf, type ReceivedSpan, startOtlpReceiver } from '../../testing/otlp-receiver.ts'
import { scriptedError, scriptedText, scriptedToolCalls, startScriptedServer } from '../../testing/scripted-server.ts'
import type { Instance, OracleRow } from '../data/schemas.ts'
import { runInstance } from './run-instance.ts'

afterEach(async () => {
  await shutdownTracing()
})

const sanitizedWorld = { sources: { calendar_json: { p: [] } } }
const instance = { instance_id: 'inst_1', task_text: 'Schedule', slots: { participants: ['p'] }, sources_ref: {} } as unknown as Instance
const slot = { start: '2026-01-19T09:00:00+09:00', end: '2026-01-19T09:30:00+09:00' }
const oracle = {
  instance_id: 'inst_1',
  feasible_candidates: [slot, { start: '2026-01-19T10:00:00+09:00', end: '2026-01-19T10:30:00+09:00' }],
} as unknown as OracleRow

describe('runInstance with tracing on (the real openai client over HTTP to the scripted server)', () => {
  it('is one invoke_agent trace with the scores and pass on its root; its model calls are chat spans and its tool calls execute_tool spans inside it', async () => {
    await using receiver = await startOtlpReceiver()
    // Scripted replies (not a model's): a call of a tool upstream does not have, a calendar call, then one of the two gold slots.
    await using server = await startScriptedServer([
      scriptedToolCalls([
        { id: 'call_1', name: 'no_such_tool', arguments: '{}' },
        { id: 'call_2', name: 'get_calendar_events', arguments: '{"person_id": "p"}' },
      ]),
      scriptedText(`{"candidates": [${JSON.stringify(slot)}]}`),
    ])
    await startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } })
    const model = createModel('gpt-4o', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: false, cache: { mode: 'off' }, maxRetries: 0 })
    const result = await runInstance({ level: 1, sanitizedWorld, instance, oracle, model, trial: 3 })
    await flushTracing()

    expect(result.row.metrics).toEqual({ f1: 2 / 3, precision: 1, recall: 0.5, exact_match: false })
    expect(result.otelTraceId).toMatch(/^[0-9a-f]{32}$/)
    const spans = receiver.spans.filter((span) => span.traceId === result.otelTraceId)
    const root = spans.find((span) => span.parentSpanId === '') as ReceivedSpan
    expect(root.name).toBe('invoke_agent gpt-4o')
    expect(root.attributes).toMatchObject({
      'bench.benchmark': 'mpcbench-v2',
      'bench.task.id': 'inst_1',
      'bench.trial': 3,
      'bench.mpcbench_v2.level': 1,
      'bench.score.f1': 2 / 3,
      'bench.score.precision': 1,
      'bench.score.recall': 0.5,
      'bench.score.exact_match': 0,
      'bench.task.passed': false, // F1 2/3: not an exact match, so not a pass (as pass^k and compare count it)
      'bench.task.outcome': 'answered',
    })
    const children = childrenOf(spans, root)
    expect(children.map((span) => span.name)).toEqual(['chat gpt-4o', 'execute_tool no_such_tool', 'execute_tool get_calendar_events', 'chat gpt-4o'])
    expect(spans).toHaveLength(5)
    const [, unknown, calendar] = children as [ReceivedSpan, ReceivedSpan, ReceivedSpan]
    // Upstream answers an unknown tool with an error message: the span says the call failed, and why.
    expect(unknown.attributes).toMatchObject({ 'gen_ai.tool.call.id': 'call_1', 'bench.tool.status': 'unknown-tool', 'error.type': 'unknown-tool' })
    expect(calendar.attributes).toMatchObject({ 'gen_ai.tool.call.id': 'call_2', 'bench.tool.status': 'ok' })
  })

  it('a run whose model call fails is a failed root span (outcome model-error), with the scores its row has', async () => {
    await using receiver = await startOtlpReceiver()
    await using server = await startScriptedServer([scriptedError(400)])
    await startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } })
    const model = createModel('gpt-4o', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: false, cache: { mode: 'off' }, maxRetries: 0 })
    const result = await runInstance({ level: 1, sanitizedWorld, instance, oracle, model })
    await flushTracing()
    const root = receiver.spans.find((span) => span.traceId === result.otelTraceId && span.parentSpanId === '') as ReceivedSpan
    expect(root.attributes).toMatchObject({ 'bench.trial': 1, 'bench.task.passed': false, 'bench.task.outcome': 'model-error' })
    // The agent ran and gave no candidates: upstream scores that against the oracle (F1 0), as the row says.
    expect(root.attributes['bench.score.f1']).toBe(result.row.metrics?.f1)
  })

  it('gives no trace id with tracing off', async () => {
    await using server = await startScriptedServer([scriptedText(`{"candidates": [${JSON.stringify(slot)}]}`)])
    const model = createModel('gpt-4o', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: false, cache: { mode: 'off' }, maxRetries: 0 })
    await startTracing({ env: {} })
    expect((await runInstance({ level: 1, sanitizedWorld, instance, oracle, model })).otelTraceId).toBeUndefined()
  })
})
