import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createModel } from '../llm/create-model.ts'
import { flushTracing, shutdownTracing, startTracing, traceTask } from '../otel/tracing.ts'
import { childrenOf, type ReceivedSpan, startOtlpReceiver } from '../testing/otlp-receiver.ts'
import { scriptedError, scriptedText, scriptedToolCalls, startScriptedServer } from '../testing/scripted-server.ts'
import { defineTool } from '../tools/define-tool.ts'
import { createExternalAgent, runExternalAgent } from './external-agent.ts'
import { runAgent } from './run-agent.ts'

afterEach(async () => {
  await shutdownTracing()
})

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up',
  parameters: z.object({ word: z.string() }),
  handler: ({ word }) => ({ word, meaning: `scripted meaning of ${word}` }),
})

describe('runAgent with tracing on (the real openai client over HTTP to the scripted server)', () => {
  it('gives one chat span per model call (retries as events, usage from the response) and one execute_tool span per tool call, under the task span', async () => {
    await using receiver = await startOtlpReceiver()
    // Scripted replies (not a model's): a 503 retried, a tool call, then the answer.
    await using server = await startScriptedServer([
      scriptedError(503),
      scriptedToolCalls([{ id: 'call_lookup_1', name: 'lookup', arguments: { word: 'otel' } }], { usage: { prompt_tokens: 50, completion_tokens: 9 } }),
      scriptedText('{"final_answer": "a standard"}', { usage: { prompt_tokens: 80, completion_tokens: 6 } }),
    ])
    await startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } })
    const model = createModel('test-model', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: false, cache: { mode: 'off' }, retry: { baseDelayMs: 5 } })
    const traceId = await traceTask({ benchmark: 'unit', taskId: 'q1', agent: model.id }, async (span) => {
      const trace = await runAgent({ model, system: 'Answer.', user: 'What is otel?', tools: [lookup], temperature: 0 })
      expect(trace.outcome).toMatchObject({ kind: 'answered', answer: 'a standard' })
      return span.traceId
    })
    await flushTracing()

    const spans = receiver.spans.filter((span) => span.traceId === traceId)
    const root = spans.find((span) => span.parentSpanId === '') as ReceivedSpan
    expect(root.name).toBe('invoke_agent test-model')
    const children = childrenOf(spans, root)
    expect(children.map((span) => span.name)).toEqual(['chat test-model', 'execute_tool lookup', 'chat test-model'])
    expect(spans).toHaveLength(4)
    const [first, tool, second] = children as [ReceivedSpan, ReceivedSpan, ReceivedSpan]
    expect(first.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'test-model',
      'gen_ai.request.temperature': 0,
      'gen_ai.response.model': 'scripted:test-model',
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.usage.output_tokens': 9,
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'server.address': '127.0.0.1',
      'bench.purpose': 'agent',
      'bench.retries': 1,
    })
    expect(first.events).toEqual([
      { name: 'gen_ai.retry', attributes: { 'bench.retry.attempt': 1, 'bench.retry.reason': 'HTTP 503', 'bench.retry.delay_ms': expect.any(Number) } },
    ])
    expect(second.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 80, 'gen_ai.usage.output_tokens': 6, 'gen_ai.response.finish_reasons': ['stop'] })
    expect(second.attributes['bench.retries']).toBeUndefined()
    expect(tool.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'call_lookup_1',
      'bench.tool.status': 'ok',
    })
  })

  it('a model call that fails for good is an error span with error.type its code, and the task still ends with its trace', async () => {
    await using receiver = await startOtlpReceiver()
    await using server = await startScriptedServer([scriptedError(401)])
    await startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } })
    const model = createModel('test-model', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: false, cache: { mode: 'off' } })
    const trace = await traceTask({ benchmark: 'unit', taskId: 'q2', agent: model.id }, () =>
      runAgent({ model, system: 'Answer.', user: 'x', tools: [lookup] }),
    )
    expect(trace.outcome).toMatchObject({ kind: 'error', code: 'ERR_MODEL_AUTH' })
    await flushTracing()
    const chat = receiver.spans.find((span) => span.name === 'chat test-model') as ReceivedSpan
    expect(chat.status.code).toBe(2)
    expect(chat.attributes['error.type']).toBe('ERR_MODEL_AUTH')
  })
})

describe('an external agent (its own loop, our tools over MCP) with tracing on', () => {
  it("has its tool calls as execute_tool spans in the task's trace", async () => {
    await using receiver = await startOtlpReceiver()
    await startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } })
    // The fake agent (the network peer) calls one tool over the MCP endpoint it is given, then answers.
    const agentServer = createServer((req, res) => {
      let raw = ''
      req.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8')
      })
      req.on('end', async () => {
        const body = JSON.parse(raw) as { tools: { mcpUrl: string } }
        const client = new Client({ name: 'fake-agent', version: '1' })
        await client.connect(new StreamableHTTPClientTransport(new URL(body.tools.mcpUrl)))
        await client.callTool({ name: 'lookup', arguments: { word: 'otel' } })
        await client.close()
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer: 'a standard' }))
      })
    })
    await new Promise<void>((resolve) => agentServer.listen(0, '127.0.0.1', resolve))
    try {
      const agent = createExternalAgent({ url: `http://127.0.0.1:${(agentServer.address() as AddressInfo).port}/run`, id: 'agent:fake' })
      const traceId = await traceTask({ benchmark: 'unit', taskId: 'ext', agent: agent.id }, async (span) => {
        const trace = await runExternalAgent({ agent, task: { taskId: 'ext' }, prompt: 'What is otel?', tools: [lookup], instructions: 'Be brief.' })
        expect(trace.toolCalls).toHaveLength(1)
        return span.traceId
      })
      await flushTracing()
      const tool = receiver.spans.find((span) => span.name === 'execute_tool lookup') as ReceivedSpan
      expect(tool.traceId).toBe(traceId)
      const root = receiver.spans.find((span) => span.parentSpanId === '' && span.traceId === traceId) as ReceivedSpan
      expect(childrenOf(receiver.spans, root).map((span) => span.name)).toEqual(['execute_tool lookup'])
    } finally {
      agentServer.closeAllConnections()
      await new Promise<void>((resolve) => agentServer.close(() => resolve()))
    }
  })
})
