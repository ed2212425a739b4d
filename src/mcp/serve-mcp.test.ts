import { request } from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, toOpenAITool, toolTable } from '../tools/define-tool.ts'
import { executeToolCall } from '../tools/execute-tool-call.ts'
import type { McpToolCall } from './create-mcp-tool-server.ts'
import { type McpHttpEndpoint, serveMcpHttp } from './serve-mcp.ts'

const tools = [
  defineTool({
    name: 'Calc.add',
    description: 'Adds two numbers.',
    parameters: z.object({ a: z.number(), b: z.number().default(0).describe('second term') }),
    handler: ({ a, b }) => ({ sum: a + b }),
  }),
  defineTool({
    name: 'explode',
    description: 'Always fails.',
    parameters: z.object({}),
    handler: () => {
      throw new Error('boom')
    },
  }),
]

describe('serveMcpHttp', () => {
  let endpoint: McpHttpEndpoint
  const calls: McpToolCall[] = []
  let client: Client

  beforeAll(async () => {
    let now = 1_000
    endpoint = await serveMcpHttp(tools, { onToolCall: (call) => calls.push(call), clock: () => (now += 5) })
    client = new Client({ name: 'serve-mcp-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)))
  })

  afterAll(async () => {
    await client?.close()
    await endpoint?.close()
  })

  it("serves on 127.0.0.1 and lists wire names with the model's JSON Schemas", async () => {
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    const { tools: listed } = await client.listTools()
    expect(listed.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema }))).toEqual(
      tools.map((tool) => toOpenAITool(tool).function),
    )
  })

  it('runs calls as the agent loop does and reports each one', async () => {
    const ok = await client.callTool({ name: 'Calc__add', arguments: { a: 2 } })
    expect(ok).toMatchObject({ content: [{ type: 'text', text: '{"sum":2}' }] })
    expect(ok.isError).toBeUndefined()
    const failed = await client.callTool({ name: 'explode', arguments: {} })
    expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Error: explode failed: boom' }] })
    expect(calls).toEqual([
      { name: 'Calc.add', arguments: { a: 2 }, result: { sum: 2 }, status: 'ok', startedAt: new Date(1_005).toISOString(), durationMs: 5 },
      { name: 'explode', arguments: {}, result: 'Error: explode failed: boom', status: 'tool-error', startedAt: new Date(1_015).toISOString(), durationMs: 5 },
    ])
  })

  it('answers an unknown tool, an undeclared argument and bad arguments as the agent loop does: isError results with its messages, recorded', async () => {
    const table = toolTable(tools)
    const cases: Array<[string, Record<string, unknown>]> = [
      ['no_such_tool', {}],
      ['Calc__add', { a: 1, inbox: 'other@corp.test' }],
      ['Calc__add', { a: 'one' }],
    ]
    for (const [name, args] of cases) {
      const local = await executeToolCall(table, name, JSON.stringify(args))
      const remote = await client.callTool({ name, arguments: args })
      expect(local).not.toBe('aborted')
      if (local === 'aborted') return
      expect(local.status).not.toBe('ok')
      expect(remote).toMatchObject({ isError: true, content: [{ type: 'text', text: local.content }] })
      expect(calls.at(-1)).toMatchObject({ arguments: args, result: local.result, status: local.status })
    }
  })

  it('answers other paths, other methods and foreign Host headers with an error', async () => {
    const base = endpoint.url.replace(/\/mcp$/, '')
    expect((await fetch(`${base}/other`, { method: 'POST' })).status).toBe(404)
    expect((await fetch(endpoint.url)).status).toBe(405)
    const rebinding = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
      const req = request(
        endpoint.url,
        {
          method: 'POST',
          headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.end(body)
    })
    expect(rebinding).toBe(403)
  })
})

describe('serveMcpHttp with maxMessageBytes', () => {
  it('answers a body over the limit with 413, and serves the next request', async () => {
    await using endpoint = await serveMcpHttp(tools, { maxMessageBytes: 2000 })
    const post = (body: string) =>
      fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body })
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'Calc__add', arguments: { a: 1, pad: 'x'.repeat(3000) } } })
    expect((await post(big)).status).toBe(413)
    const listed = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }))
    expect(listed.status).toBe(200)
  })
})
