import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { BenchError } from '../core/errors.ts'
import { REDACTED, registerSecret } from '../core/redact.ts'
import { childrenOf, type ReceivedSpan, startOtlpReceiver } from '../testing/otlp-receiver.ts'
import { scaledMs } from '../testing/time-scale.ts'
import { DEFAULT_SERVICE_NAME, otelSettingsFromEnv } from './otel-settings.ts'
import { currentTraceId, flushTracing, shutdownTracing, startTracing, traceChat, traceJudge, traceTask, traceTool, tracingEnabled } from './tracing.ts'

const run = promisify(execFile)

afterEach(async () => {
  await shutdownTracing()
})

describe('otelSettingsFromEnv', () => {
  it('is off without an OTLP endpoint, whatever else is set', () => {
    expect(otelSettingsFromEnv({})).toEqual({ kind: 'off' })
    expect(otelSettingsFromEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'x' })).toEqual({ kind: 'off' })
    expect(otelSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toEqual({ kind: 'off' })
  })

  it('reads the standard variables: endpoint + /v1/traces, the traces endpoint as is, protocol, headers, service name, timeout, content capture', () => {
    expect(otelSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' })).toEqual({
      kind: 'on',
      url: 'http://127.0.0.1:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      serviceName: DEFAULT_SERVICE_NAME,
      timeoutMs: 10_000,
      captureContent: false,
    })
    expect(
      otelSettingsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/custom/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-team=bench',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=traces',
        OTEL_SERVICE_NAME: 'my-evals',
        OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE',
      }),
    ).toEqual({
      kind: 'on',
      url: 'https://collector.example/custom/traces',
      protocol: 'http/json',
      headers: { authorization: 'Bearer abc', 'x-team': 'traces' },
      serviceName: 'my-evals',
      timeoutMs: 2500,
      captureContent: true,
    })
  })

  it('turns a value it cannot use into a message naming the variable and the fix, not an exception', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }
    expect(otelSettingsFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual({
      kind: 'invalid',
      message: expect.stringMatching(/OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported\. Fix: set it to http\/protobuf or http\/json/),
    })
    expect(otelSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' })).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('OTEL_EXPORTER_OTLP_ENDPOINT=localhost:4318'),
    })
    expect(otelSettingsFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('OTEL_EXPORTER_OTLP_HEADERS'),
    })
    expect(otelSettingsFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '1.5s' })).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('OTEL_EXPORTER_OTLP_TIMEOUT=1.5s'),
    })
  })
})

/** One task with every kind of span: two model calls (one retried, one failing), two tool calls (one failing), a judge. */
async function sampleTask(secret = 'no secret'): Promise<{ traceId: string | undefined; inner: string | undefined }> {
  return traceTask({ benchmark: 'unit', taskId: 'task-7', trial: 2, agent: 'my-agent', attributes: { 'bench.unit.extra': 'x' } }, async (span) => {
    const inner = currentTraceId()
    await traceChat(
      {
        provider: 'openai',
        model: 'gpt-unit',
        request: {
          messages: [
            { role: 'system', content: 'be brief' },
            { role: 'user', content: `find ${secret}` },
          ],
          temperature: 0,
          purpose: 'agent',
        },
        serverAddress: 'api.example',
      },
      async (chat) => {
        chat.retries([{ attempt: 1, reason: 'HTTP 503', delayMs: 5 }])
        chat.retries([{ attempt: 1, reason: 'HTTP 503', delayMs: 5 }])
        return {
          model: 'gpt-unit-2025',
          usage: { promptTokens: 120, completionTokens: 7 },
          finishReason: 'tool_calls',
          cached: false,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: `{"q":"${secret}"}` } }],
          },
        }
      },
    )
    await traceTool({ name: 'search', callId: 'call_1', arguments: `{"q":"${secret}"}` }, async () => ({ status: 'ok', content: `["${secret}"]` }))
    await traceTool({ name: 'read', callId: 'call_2', arguments: '{}' }, async () => ({
      status: 'tool-error',
      errorCode: 'ERR_TOOL_TIMEOUT',
      content: 'Error: read failed',
    }))
    await expect(
      traceChat({ provider: 'openai', model: 'gpt-unit', request: { messages: [] } }, async () => {
        throw new BenchError('ERR_MODEL_SERVER', 'Model call failed with HTTP 500', { hint: 'retry later' })
      }),
    ).rejects.toThrow('HTTP 500')
    expect(await traceJudge({ judge: 'rules', kind: 'rules' }, async () => 'verdict')).toBe('verdict')
    span.score('exact_match', true)
    span.score('semantic_score', 0.5)
    span.score('llm_judge_correct', undefined)
    span.result(false, 'max-turns')
    return { traceId: span.traceId, inner }
  })
}

const byName = (spans: ReadonlyArray<ReceivedSpan>, name: string): ReceivedSpan[] => spans.filter((span) => span.name === name)

describe.each(['http/protobuf', 'http/json'] as const)('spans exported over OTLP %s to a real receiver', (protocol) => {
  it('sends one trace per task: the invoke_agent root with the task and its scores, chat, execute_tool and bench.judge spans under it', async () => {
    await using receiver = await startOtlpReceiver()
    const warnings: string[] = []
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_EXPORTER_OTLP_HEADERS: 'x-team=bench%20unit' }
    expect(await startTracing({ env, warn: (message) => warnings.push(message) })).toBe(true)
    expect(tracingEnabled()).toBe(true)
    const first = await sampleTask()
    const second = await sampleTask()
    await flushTracing()

    expect(warnings).toEqual([])
    expect(receiver.requests.length).toBeGreaterThan(0)
    for (const request of receiver.requests) {
      expect(request.path).toBe('/v1/traces')
      expect(request.contentType).toContain(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf')
      expect(request.headers['x-team']).toBe('bench unit')
    }
    const { spans } = receiver
    const roots = spans.filter((span) => span.parentSpanId === '')
    expect(roots.map((root) => root.traceId).sort()).toEqual([first.traceId, second.traceId].sort())
    expect(first.traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(first.inner).toBe(first.traceId)
    expect(first.traceId).not.toBe(second.traceId)

    const root = roots.find((span) => span.traceId === first.traceId) as ReceivedSpan
    expect(root.name).toBe('invoke_agent my-agent')
    expect(root.resource['service.name']).toBe('vitest-agent-bench')
    expect(root.scope).toBe('vitest-agent-bench')
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'my-agent',
      'bench.benchmark': 'unit',
      'bench.task.id': 'task-7',
      'bench.trial': 2,
      'bench.unit.extra': 'x',
      'bench.score.exact_match': 1,
      'bench.score.semantic_score': 0.5,
      'bench.task.passed': false,
      'bench.task.outcome': 'max-turns',
    })
    expect(root.status).toEqual({ code: 2, message: 'task max-turns' })

    const children = childrenOf(spans, root)
    expect(children.map((span) => span.name).sort()).toEqual(['bench.judge', 'chat gpt-unit', 'chat gpt-unit', 'execute_tool read', 'execute_tool search'])
    expect(spans.filter((span) => span.traceId === root.traceId)).toHaveLength(6)

    const [chat, failed] = byName(children, 'chat gpt-unit').sort((a, b) => Number(a.status.code) - Number(b.status.code))
    expect(chat?.kind).toBe(3)
    expect(chat?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-unit',
      'gen_ai.request.temperature': 0,
      'bench.purpose': 'agent',
      'server.address': 'api.example',
      'gen_ai.response.model': 'gpt-unit-2025',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'bench.cached': false,
      'bench.retries': 1,
    })
    expect(chat?.events).toEqual([
      { name: 'gen_ai.retry', attributes: { 'bench.retry.attempt': 1, 'bench.retry.reason': 'HTTP 503', 'bench.retry.delay_ms': 5 } },
    ])
    expect(failed?.status).toEqual({ code: 2, message: 'Model call failed with HTTP 500\n  Fix: retry later' })
    expect(failed?.attributes['error.type']).toBe('ERR_MODEL_SERVER')
    expect(failed?.events.map((event) => event.name)).toEqual(['exception'])

    const [search] = byName(children, 'execute_tool search')
    expect(search?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'call_1',
      'bench.tool.status': 'ok',
    })
    expect(search?.status.code).toBe(0)
    const [read] = byName(children, 'execute_tool read')
    expect(read?.attributes).toMatchObject({ 'gen_ai.tool.call.id': 'call_2', 'error.type': 'ERR_TOOL_TIMEOUT', 'bench.tool.status': 'tool-error' })
    expect(read?.status).toEqual({ code: 2, message: 'tool-error' })
    expect(byName(children, 'bench.judge')[0]?.attributes).toEqual({ 'bench.judge.model': 'rules', 'bench.judge.kind': 'rules' })

    // Content capture is off by default: no message, argument or result is sent.
    for (const span of spans) {
      expect(
        Object.keys(span.attributes).filter((key) => /messages|arguments|result$/.test(key)),
        span.name,
      ).toEqual([])
    }
  })
})

describe('a task started inside a task', () => {
  it("runs in the outer task's trace: one root span, its scores set through either handle", async () => {
    await using receiver = await startOtlpReceiver()
    await startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } })
    const ids = await traceTask({ benchmark: 'unit', taskId: 'outer', agent: 'a' }, async (outer) => {
      const inner = await traceTask({ benchmark: 'unit', taskId: 'inner', agent: 'a' }, async (span) => {
        await traceTool({ name: 't', arguments: '{}' }, async () => ({ status: 'ok', content: '' }))
        span.score('inner', 1)
        return span.traceId
      })
      return [outer.traceId, inner]
    })
    await flushTracing()
    expect(ids[1]).toBe(ids[0])
    const roots = receiver.spans.filter((span) => span.parentSpanId === '')
    expect(roots.map((span) => span.attributes['bench.task.id'])).toEqual(['outer'])
    expect(roots[0]?.attributes['bench.score.inner']).toBe(1)
    expect(childrenOf(receiver.spans, roots[0] as ReceivedSpan).map((span) => span.name)).toEqual(['execute_tool t'])
  })
})

describe('content capture (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)', () => {
  it("puts messages, tool arguments and results on the spans in the conventions' shape, with secrets redacted", async () => {
    await using receiver = await startOtlpReceiver()
    const secret = 'sk-unit-otel-secret-4f9a2b'
    registerSecret(secret)
    await startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' } })
    await sampleTask(secret)
    await flushTracing()
    const { spans } = receiver
    expect(JSON.stringify(spans)).not.toContain(secret)
    const chat = spans.find((span) => span.name === 'chat gpt-unit' && span.status.code !== 2) as ReceivedSpan
    expect(JSON.parse(chat.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'be brief' }] },
      { role: 'user', parts: [{ type: 'text', content: `find ${REDACTED}` }] },
    ])
    expect(JSON.parse(chat.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'search', arguments: { q: REDACTED } }], finish_reason: 'tool_calls' },
    ])
    const search = spans.find((span) => span.name === 'execute_tool search') as ReceivedSpan
    expect(search.attributes['gen_ai.tool.call.arguments']).toBe(`{"q":"${REDACTED}"}`)
    expect(search.attributes['gen_ai.tool.call.result']).toBe(`["${REDACTED}"]`)
    const read = spans.find((span) => span.name === 'execute_tool read') as ReceivedSpan
    expect(read.status.message).toBe('Error: read failed')
  })
})

describe('a collector that fails', () => {
  it.each(['unavailable', 'hang'] as const)('(%s) costs one warning: tasks finish with their results and the flush returns', async (mode) => {
    await using receiver = await startOtlpReceiver(mode)
    const warnings: string[] = []
    // A short export timeout keeps the test short; nothing here measures time.
    await startTracing({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '800' },
      warn: (message) => warnings.push(message),
    })
    const results = []
    for (let i = 0; i < 3; i++) {
      results.push(await sampleTask())
      await flushTracing()
    }
    expect(results.every((result) => result.traceId !== undefined)).toBe(true)
    expect(receiver.spans).toEqual([])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(new RegExp(`^OpenTelemetry: spans could not be exported to ${receiver.endpoint}/v1/traces .*the run goes on`))
  })

  it('a setting it cannot use is one warning, and tracing is off', async () => {
    const warnings: string[] = []
    expect(
      await startTracing({
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
        warn: (message) => warnings.push(message),
      }),
    ).toBe(false)
    expect(tracingEnabled()).toBe(false)
    expect((await sampleTask()).traceId).toBeUndefined()
    expect(warnings).toEqual([expect.stringContaining('OTEL_EXPORTER_OTLP_PROTOCOL=grpc')])
  })
})

describe('tracing off', () => {
  it(
    'gives no trace id and loads no OpenTelemetry module; with an endpoint set, the SDK is loaded (the check can fail)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'otel-off-'))
      const probe = join(dir, 'probe.mts')
      writeFileSync(
        probe,
        [
          "import { createRequire } from 'node:module'",
          'const { traceTask, traceChat, traceTool, flushTracing, shutdownTracing } = await import(process.argv[2])',
          "const traceId = await traceTask({ benchmark: 'probe', taskId: '1', agent: 'a' }, async (span) => {",
          "  await traceChat({ provider: 'p', model: 'm', request: { messages: [] } }, async () => ({ model: 'm', usage: { promptTokens: 0, completionTokens: 0 }, finishReason: null, cached: false, message: {} }))",
          "  await traceTool({ name: 't', arguments: '{}' }, async () => ({ status: 'ok', content: '' }))",
          '  return span.traceId ?? null',
          '})',
          'await flushTracing()',
          'await shutdownTracing()',
          "const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('@opentelemetry'))",
          'console.log(JSON.stringify({ traceId, loaded: loaded.length }))',
        ].join('\n'),
      )
      const tracing = fileURLToPath(new URL('./tracing.ts', import.meta.url))
      const probeWith = async (env: Record<string, string>): Promise<{ traceId: string | null; loaded: number }> => {
        const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')))
        const { stdout } = await run(process.execPath, ['--import', import.meta.resolve('tsx'), probe, tracing], {
          env: { ...clean, ...env },
          timeout: scaledMs(40_000),
        })
        return JSON.parse(stdout.trim().split('\n').at(-1) as string)
      }
      expect(await probeWith({})).toEqual({ traceId: null, loaded: 0 })
      await using receiver = await startOtlpReceiver()
      const on = await probeWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint })
      expect(on.traceId).toMatch(/^[0-9a-f]{32}$/)
      expect(on.loaded).toBeGreaterThan(0)
      expect(receiver.spans.map((span) => span.name).sort()).toEqual(['chat m', 'execute_tool t', 'invoke_agent a'])
      // Two child processes (tsx compiles the probe), each bounded by its own timeout within this one.
    },
    scaledMs(100_000),
  )
})
