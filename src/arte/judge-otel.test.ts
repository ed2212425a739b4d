import { afterEach, describe, expect, it } from 'vitest'
import { createModel } from '../llm/create-model.ts'
import { flushTracing, shutdownTracing, startTracing, traceTask } from '../otel/tracing.ts'
import { childrenOf, type ReceivedSpan, startOtlpReceiver } from '../testing/otlp-receiver.ts'
import { scriptedText, startScriptedServer } from '../testing/scripted-server.ts'
import { judgeRow } from './run-arte-task.ts'

afterEach(async () => {
  await shutdownTracing()
})

describe('the ART-E LLM judge with tracing on', () => {
  it("is a bench.judge span in the task's trace with the judge model's chat span under it", async () => {
    await using receiver = await startOtlpReceiver()
    // A scripted verdict, not a model's.
    await using server = await startScriptedServer([scriptedText('True', { usage: { prompt_tokens: 80, completion_tokens: 1 } })])
    await startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } })
    const judge = createModel('scripted-judge', { env: { OPENAI_BASE_URL: server.baseURL }, cache: { mode: 'off' }, callLogDir: false, maxRetries: 0 })
    const outcome = { kind: 'answered' as const, answer: 'Paris', sources: [], rationale: null, via: 'text' as const }
    const traceId = await traceTask({ benchmark: 'arte', taskId: '1', agent: 'baseline' }, async (span) => {
      expect(await judgeRow(judge, { question: 'Capital of France?', answer: 'Paris' }, { outcome })).toMatchObject({ correct: true })
      return span.traceId
    })
    await flushTracing()
    const root = receiver.spans.find((span) => span.parentSpanId === '') as ReceivedSpan
    expect(root.traceId).toBe(traceId)
    const [judgeSpan] = childrenOf(receiver.spans, root)
    expect(judgeSpan?.name).toBe('bench.judge')
    expect(judgeSpan?.attributes).toEqual({ 'bench.judge.model': 'scripted-judge', 'bench.judge.kind': 'llm' })
    const chats = childrenOf(receiver.spans, judgeSpan as ReceivedSpan)
    expect(chats.map((span) => span.name)).toEqual(['chat scripted-judge'])
    expect(chats[0]?.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 80, 'gen_ai.usage.output_tokens': 1, 'bench.purpose': expect.any(String) })
  })
})
