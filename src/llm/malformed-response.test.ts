import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Script, scriptedRaw, scriptedText, startScriptedServer, truncatedCompletion } from '../testing/scripted-server.ts'
import { createModel } from './create-model.ts'
import { ModelCallError } from './errors.ts'
import type { ChatRequest } from './types.ts'
import { scaledMs } from '../testing/time-scale.ts'

const hello: ChatRequest = { messages: [{ role: 'user', content: 'Say hi' }], purpose: 'test' }
/** A completion body whose `choices` are `choices`. */
const withChoices = (choices: unknown) => scriptedRaw(JSON.stringify({ id: 'scripted-x', object: 'chat.completion', created: 0, model: 'm', choices }))
const HTML = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>'

async function setup(script: Script, options: { timeoutMs?: number; maxRetries?: number } = {}) {
  const server = await startScriptedServer(script)
  const logDir = mkdtempSync(join(tmpdir(), 'llm-malformed-'))
  const model = createModel('test-model', {
    env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-malformed-test-key' },
    callLogDir: logDir,
    cache: { mode: 'off' },
    retry: { baseDelayMs: 5 },
    ...options,
  })
  return { server, model, logDir, [Symbol.asyncDispose]: () => server.close() }
}

describe('malformed 200 responses are retried like 5xx', () => {
  it.each([
    ['a truncated JSON body', truncatedCompletion('hello there')],
    ['an HTML page from a proxy', scriptedRaw(HTML, { contentType: 'text/html' })],
    ['JSON without choices', scriptedRaw('{"id":"scripted-x","object":"chat.completion"}')],
    ['an empty body', scriptedRaw('')],
    ['an empty choices list', withChoices([])],
    ['choices[0].message null', withChoices([{ index: 0, message: null, finish_reason: 'stop' }])],
    ['choices[0].message a string', withChoices([{ index: 0, message: 'hi', finish_reason: 'stop' }])],
    [
      'tool_calls that are not a list',
      withChoices([{ index: 0, message: { role: 'assistant', content: null, tool_calls: { id: 'call_1' } }, finish_reason: 'tool_calls' }]),
    ],
  ])('%s, then a good reply: the call succeeds after one retry', async (_name, bad) => {
    await using t = await setup([bad, scriptedText('hi')])
    const result = await t.model.complete(hello)
    expect(result.message.content).toBe('hi')
    expect(t.server.requests).toHaveLength(2)
    const log = JSON.parse(readFileSync(join(t.logDir, readdirSync(t.logDir)[0] ?? ''), 'utf8'))
    expect(log.retries).toBe(1)
    expect(log.attempts[0].reason).toMatch(/^malformed response: /)
  })

  it('gives up after the retries with an error naming the provider and what came back', async () => {
    await using t = await setup(
      Array.from({ length: 3 }, () => scriptedRaw(HTML, { contentType: 'text/html' })),
      { maxRetries: 2 },
    )
    const error = await t.model.complete(hello).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ModelCallError)
    expect(error).toMatchObject({ code: 'ERR_MODEL_RESPONSE', retries: 2, status: 200 })
    const message = (error as Error).message
    expect(message).toContain('provider custom')
    expect(message).toContain(t.server.baseURL)
    expect(message).toContain('an HTML page, not JSON (text/html')
    expect(message).toContain('502 Bad Gateway')
    expect(t.server.requests).toHaveLength(3)
  })

  it('a body that stalls after the headers times out and is retried', async () => {
    await using t = await setup([scriptedRaw('{"id":"scripted-stall","choi', { stallAfterHeaders: true }), scriptedText('hi')], { timeoutMs: 300 })
    const result = await t.model.complete(hello)
    expect(result.message.content).toBe('hi')
    expect(t.server.requests).toHaveLength(2)
  })
})

describe('a well-formed reply is returned as it came, never retried', () => {
  it('null content and no tool calls (an empty answer is what the model answered)', async () => {
    await using t = await setup([
      withChoices([{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'length' }]),
      scriptedText('a second chance'),
    ])
    const result = await t.model.complete(hello)
    expect(result).toMatchObject({ message: { content: null }, finishReason: 'length' })
    expect(t.server.requests).toHaveLength(1)
  })
})

describe('a call ends by its deadline, retries included', () => {
  it('stops retrying a hanging server before the deadline, whatever the timeout and retries', async () => {
    await using t = await setup(() => ({ kind: 'reply', content: 'late', delayMs: 60_000 }), { timeoutMs: 120_000, maxRetries: 4 })
    const started = Date.now()
    const error = await t.model.complete(hello, { deadline: started + 1500 }).catch((e: unknown) => e)
    const elapsed = Date.now() - started
    expect(error).toMatchObject({ code: 'ERR_MODEL_TIMEOUT' })
    expect((error as Error).message).toMatch(/no time left before the test timeout/)
    // Well before the hanging reply (60 s); the margin past the deadline scales with the machine's load (docs/contributing.md).
    expect(elapsed).toBeLessThan(1500 + scaledMs(5_000))
    expect(elapsed).toBeGreaterThanOrEqual(1000)
  })

  it('sends nothing when the deadline leaves no time for an attempt', async () => {
    await using t = await setup([scriptedText('hi')])
    const error = await t.model.complete(hello, { deadline: Date.now() + 10 }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'ERR_MODEL_TIMEOUT' })
    expect((error as Error).message).toMatch(/not sent: less than 1000 ms left before the test timeout/)
    expect(t.server.requests).toHaveLength(0)
  })
})
