import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../tools/define-tool.ts'
import { createExternalAgent, runExternalAgent } from './external-agent.ts'

const tools = [
  defineTool({ name: 'Notes.find', description: 'Finds notes.', parameters: z.object({ word: z.string() }), handler: ({ word }) => [`note about ${word}`] }),
]

type Handler = (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void | Promise<void>

const servers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of servers.splice(0)) await close()
})

/** A fake external agent (the network peer): `handler` answers each POST. */
async function fakeAgent(handler: Handler): Promise<{ url: string; requests: Array<{ body: Record<string, unknown>; headers: IncomingMessage['headers'] }> }> {
  const requests: Array<{ body: Record<string, unknown>; headers: IncomingMessage['headers'] }> = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>
      requests.push({ body, headers: req.headers })
      void handler(body, req, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/run`, requests }
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

const run = (url: string, extra: Partial<Parameters<typeof createExternalAgent>[0]> = {}, signal?: AbortSignal) =>
  runExternalAgent({
    agent: createExternalAgent({ url, retryPolicy: { baseDelayMs: 1, maxDelayMs: 1 }, ...extra }),
    task: { taskId: 't1', question: 'What is in the notes?' },
    prompt: 'What is in the notes?',
    tools,
    instructions: 'Be brief.',
    ...(signal === undefined ? {} : { signal }),
  })

describe('runExternalAgent', () => {
  it('posts the task with the MCP URL, records every tool call the agent makes there, and takes its answer', async () => {
    const agent = await fakeAgent(async (body, _req, res) => {
      const client = new Client({ name: 'fake-agent', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL((body.tools as { mcpUrl: string }).mcpUrl)))
      expect(client.getInstructions()).toBe('Be brief.')
      await client.callTool({ name: 'Notes__find', arguments: { word: 'tea' } })
      await client.callTool({ name: 'Notes__find', arguments: {} })
      await client.close()
      json(res, 200, { answer: 'tea', sources: ['n1'], rationale: 'the note says so', trace: { steps: 2 } })
    })
    const trace = await run(agent.url, { id: 'my-agent', headers: { 'X-Workspace-Id': 'ws1' }, body: { agentId: 'a1' } })
    expect(agent.requests[0]?.body).toMatchObject({
      agentId: 'a1',
      taskId: 't1',
      question: 'What is in the notes?',
      tools: { mcpUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/) },
    })
    expect(agent.requests[0]?.headers['x-workspace-id']).toBe('ws1')
    expect(trace.outcome).toEqual({ kind: 'answered', answer: 'tea', sources: ['n1'], rationale: 'the note says so', via: 'json' })
    expect(trace).toMatchObject({ model: 'my-agent', turns: 3, agentTrace: { steps: 2 } })
    expect(trace.toolCalls.map(({ id, turn, name, arguments: args, result, status }) => ({ id, turn, name, args, result, status }))).toEqual([
      { id: 'mcp_1', turn: 1, name: 'Notes.find', args: { word: 'tea' }, result: ['note about tea'], status: 'ok' },
      { id: 'mcp_2', turn: 2, name: 'Notes.find', args: {}, result: expect.stringContaining('invalid arguments for Notes__find'), status: 'invalid-arguments' },
    ])
    expect(trace.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant'])
  })

  it('does not follow a redirect to another origin: the other host gets nothing, the error names the target', async () => {
    const elsewhere = await fakeAgent((_body, _req, res) => json(res, 200, { answer: 'from the other host' }))
    const agent = await fakeAgent((_body, _req, res) => {
      res.writeHead(307, { location: elsewhere.url })
      res.end()
    })
    const trace = await run(agent.url, { headers: { 'X-Workspace-Id': 'ws1' } })
    expect(trace.outcome).toMatchObject({
      kind: 'error',
      code: 'ERR_AGENT_REDIRECT',
      message: expect.stringContaining(`redirected (HTTP 307) to ${elsewhere.url}, on another origin`),
    })
    expect(elsewhere.requests).toEqual([])
    expect(agent.requests).toHaveLength(1)
  })

  it('follows a same-origin redirect with the same POST, at most 3 times', async () => {
    const agent = await fakeAgent((body, req, res) => {
      if (req.url === '/run') {
        res.writeHead(308, { location: '/v2/run' })
        res.end()
      } else json(res, 200, { answer: `answered at ${req.url} for ${String(body.taskId)}` })
    })
    const trace = await run(agent.url, { headers: { 'X-Workspace-Id': 'ws1' } })
    expect(trace.outcome).toMatchObject({ kind: 'answered', answer: 'answered at /v2/run for t1' })
    expect(agent.requests[1]?.headers['x-workspace-id']).toBe('ws1')
    const loop = await fakeAgent((_body, req, res) => {
      res.writeHead(302, { location: `/hop${req.url}` })
      res.end()
    })
    const looped = await run(loop.url, { maxRetries: 0 })
    expect(looped.outcome).toMatchObject({ kind: 'error', code: 'ERR_AGENT_REDIRECT', message: expect.stringContaining('redirected more than 3 times') })
    expect(loop.requests).toHaveLength(4)
  })

  it('retries a 500 and answers', async () => {
    let calls = 0
    const agent = await fakeAgent((_body, _req, res) => (++calls === 1 ? json(res, 500, 'oops') : json(res, 200, { answer: 'ok' })))
    const trace = await run(agent.url)
    expect(trace.outcome).toMatchObject({ kind: 'answered', answer: 'ok', sources: [] })
    expect(calls).toBe(2)
  })

  it('fails clearly on a body that is not JSON, JSON of the wrong shape, and a 500 after the retries', async () => {
    const notJson = await fakeAgent((_b, _r, res) => json(res, 200, '<html>hello</html>'))
    expect((await run(notJson.url)).outcome).toEqual({
      kind: 'error',
      code: 'ERR_AGENT_REPLY',
      message: expect.stringContaining('answered with a body that is not JSON: <html>hello</html>'),
    })
    const wrongShape = await fakeAgent((_b, _r, res) => json(res, 200, { final_answer: 'x' }))
    const shape = (await run(wrongShape.url)).outcome
    expect(shape).toMatchObject({ kind: 'error', code: 'ERR_AGENT_REPLY' })
    expect(shape.kind === 'error' && shape.message).toMatch(/wrong shape:\n.*answer/s)
    const failing = await fakeAgent((_b, _r, res) => json(res, 500, { error: 'kaput' }))
    const failed = (await run(failing.url, { maxRetries: 2 })).outcome
    expect(failed).toMatchObject({ kind: 'error', code: 'ERR_AGENT_HTTP' })
    expect(failed.kind === 'error' && failed.message).toMatch(/^Agent http:.* answered HTTP 500: \{"error":"kaput"\} \(after 2 retries\)\n {2}Fix: /)
    expect(failing.requests).toHaveLength(3)
  })

  it('times out a hanging agent, and aborts with the signal', async () => {
    const hang = await fakeAgent(() => {})
    const timedOut = (await run(hang.url, { timeoutMs: 200, maxRetries: 0 })).outcome
    expect(timedOut).toMatchObject({ kind: 'error', code: 'ERR_AGENT_TIMEOUT', message: expect.stringContaining('did not answer within 200 ms') })
    // The agent timeout bounded the wait: raising it is the fix.
    expect(timedOut.kind === 'error' && timedOut.message).toMatch(/\n {2}Fix: .*raise the timeout \(--agent-timeout-ms/)
    const byDeadline = await runExternalAgent({
      agent: createExternalAgent({ url: hang.url, timeoutMs: 60_000, maxRetries: 0 }),
      task: { taskId: 't1' },
      prompt: 'q',
      tools,
      deadline: Date.now() + 200,
    })
    expect(byDeadline.outcome).toMatchObject({
      kind: 'error',
      code: 'ERR_AGENT_TIMEOUT',
      message: expect.stringMatching(/within \d+ ms \(what was left before the test's deadline\)/),
    })
    // The test's deadline bounded it: the fix names the test timeout, not --agent-timeout-ms (which cannot lift it).
    const deadlineFix = byDeadline.outcome.kind === 'error' ? (byDeadline.outcome.message.split('\n  Fix: ')[1] ?? '') : ''
    expect(deadlineFix).toContain('raise the test timeout (BENCH_TEST_TIMEOUT_MS')
    expect(deadlineFix).not.toMatch(/raise the timeout \(--agent-timeout-ms/)
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('test timed out')), 100)
    const aborted = await run(hang.url, { timeoutMs: 60_000 }, controller.signal)
    expect(aborted.outcome).toEqual({ kind: 'aborted', reason: 'test timed out' })
  })

  it('drops every tool call of a failed attempt, also one in flight at the retry and one its agent makes after it', async () => {
    let started!: () => void
    const slowStarted = new Promise<void>((resolve) => (started = resolve))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const gated = [
      ...tools,
      defineTool({
        name: 'slow',
        description: 'Waits for the gate.',
        parameters: z.object({}),
        handler: async () => {
          started()
          await gate
          return 'slow done'
        },
      }),
    ]
    let firstClient: Client | undefined
    const urls: string[] = []
    const agent = await fakeAgent(async (body, _req, res) => {
      const mcpUrl = (body.tools as { mcpUrl: string }).mcpUrl
      urls.push(mcpUrl)
      if (urls.length === 1) {
        firstClient = new Client({ name: 'first-attempt', version: '1' })
        await firstClient.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)))
        void firstClient.callTool({ name: 'slow', arguments: {} }).catch(() => {})
        await slowStarted
        json(res, 503, 'overloaded')
        return
      }
      release()
      await firstClient?.callTool({ name: 'Notes__find', arguments: { word: 'late' } }).catch(() => {})
      const client = new Client({ name: 'second-attempt', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)))
      await client.callTool({ name: 'Notes__find', arguments: { word: 'tea' } })
      await client.close()
      json(res, 200, { answer: 'tea' })
    })
    const trace = await runExternalAgent({
      agent: createExternalAgent({ url: agent.url, maxRetries: 1, retryPolicy: { baseDelayMs: 1, maxDelayMs: 1 } }),
      task: { taskId: 't1' },
      prompt: 'q',
      tools: gated,
    })
    await firstClient?.close()
    expect(trace.outcome).toMatchObject({ kind: 'answered', answer: 'tea' })
    expect(trace.toolCalls.map((call) => call.arguments)).toEqual([{ word: 'tea' }])
    expect(trace.turns).toBe(2)
    expect(urls[1]).not.toBe(urls[0])
  })

  it('fails a reply longer than maxReplyBytes without reading it all, and does not retry it', async () => {
    const big = JSON.stringify({ answer: 'x', trace: 'step '.repeat(100_000) })
    const chunked = await fakeAgent((_b, _r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      for (let at = 0; at < big.length; at += 10_000) res.write(big.slice(at, at + 10_000))
      res.end()
    })
    const trace = await run(chunked.url, { maxReplyBytes: 64 * 1024 })
    expect(trace.outcome).toMatchObject({
      kind: 'error',
      code: 'ERR_AGENT_REPLY',
      message: expect.stringMatching(/answered with a body over 65,536 bytes \(not read further\): \{"answer":"x".*\n {2}Fix: .*`trace` is optional/s),
    })
    expect(chunked.requests).toHaveLength(1)
    const declared = await fakeAgent((_b, _r, res) => json(res, 200, big))
    expect((await run(declared.url, { maxReplyBytes: 64 * 1024 })).outcome).toMatchObject({
      kind: 'error',
      code: 'ERR_AGENT_REPLY',
      message: expect.stringContaining('over 65,536 bytes'),
    })
    expect((await run(declared.url, { maxReplyBytes: big.length })).outcome).toMatchObject({ kind: 'answered', answer: 'x' })
  })

  it("does not POST again when the test's deadline leaves no time for another attempt", async () => {
    const hang = await fakeAgent(() => {})
    const trace = await runExternalAgent({
      agent: createExternalAgent({ url: hang.url, timeoutMs: 1_000, maxRetries: 3, retryPolicy: { baseDelayMs: 1, maxDelayMs: 1 } }),
      task: { taskId: 't1' },
      prompt: 'q',
      tools,
      deadline: Date.now() + 1_500,
    })
    expect(trace.outcome).toMatchObject({
      kind: 'error',
      code: 'ERR_AGENT_TIMEOUT',
      message: expect.stringMatching(/did not answer within \d+ ms.* \(no time left before the test's deadline to retry\)\n/),
    })
    expect(hang.requests).toHaveLength(1)
  })

  it('on abort, cuts the POST (the agent sees it closed) and closes the MCP endpoint', async () => {
    let mcpUrl = ''
    let closedByHarness!: () => void
    const cut = new Promise<void>((resolve) => (closedByHarness = resolve))
    const agent = await fakeAgent((body, _req, res) => {
      mcpUrl = (body.tools as { mcpUrl: string }).mcpUrl
      res.on('close', closedByHarness)
    })
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('Ctrl-C')), 200)
    const trace = await run(agent.url, { timeoutMs: 60_000 }, controller.signal)
    expect(trace.outcome).toEqual({ kind: 'aborted', reason: 'Ctrl-C' })
    await cut
    await expect(fetch(mcpUrl, { method: 'POST' })).rejects.toThrow()
    expect(agent.requests).toHaveLength(1)
  })

  it('reports an unreachable agent', async () => {
    const gone = await fakeAgent(() => {})
    await servers.pop()?.()
    const trace = await run(gone.url, { maxRetries: 0 })
    expect(trace.outcome).toMatchObject({ kind: 'error', code: 'ERR_AGENT_UNREACHABLE' })
  })
})
