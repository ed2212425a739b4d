import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scriptedError, scriptedText, scriptedToolCalls, startScriptedServer, type Script } from '../testing/scripted-server.ts'
import { type CallLogEntry, readCallLog } from './call-log.ts'
import { type CreateModelOptions, createModel } from './create-model.ts'
import { CacheMissError, CallAbortedError, ModelCallError } from './errors.ts'
import { toRequestBody } from './openai-chat-model.ts'
import { cacheKey, runInCacheScope, trialCacheScope } from './response-cache.ts'
import { addUsage, type ChatRequest } from './types.ts'
import { formatCachedPart } from './usage.ts'
import { scaledMs } from '../testing/time-scale.ts'

const SECRET = 'sk-h3-secret-key-0123456789'
const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

async function setup(script: Script, options: Omit<CreateModelOptions, 'env'> = {}) {
  const server = await startScriptedServer(script)
  const logDir = tempDir('llm-log-')
  const model = createModel('test-model', {
    env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: SECRET },
    callLogDir: logDir,
    cache: { mode: 'off' },
    retry: { baseDelayMs: 5 },
    ...options,
  })
  const logs = (): CallLogEntry[] => [...readCallLog(logDir)].map((call) => call.entry)
  return { server, model, logDir, logs, [Symbol.asyncDispose]: () => server.close() }
}

const hello: ChatRequest = { messages: [{ role: 'user', content: 'Say hi' }], purpose: 'test' }

/** The cassette key of `request` to model `model` (a bare id) at `baseURL`. */
const keyOf = (baseURL: string, request: ChatRequest, scope?: string, model = 'test-model') =>
  cacheKey(baseURL, toRequestBody({ provider: 'custom', wireModel: model }, request), scope)

describe('createModel (OpenAI-compatible client)', () => {
  it('maps the request (tools, json schema, temperature, max tokens) and the reply with usage', async () => {
    await using t = await setup([scriptedToolCalls([{ name: 'lookup', arguments: { q: 'x' } }], { usage: { prompt_tokens: 12, completion_tokens: 4 } })])
    const result = await t.model.complete({
      ...hello,
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
      temperature: 0,
      maxTokens: 64,
      responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object' } },
    })
    const body = t.server.requests[0]?.body
    expect(body).toMatchObject({
      model: 'test-model',
      temperature: 0,
      max_tokens: 64,
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' } } },
    })
    expect(body?.tools?.[0]?.function.name).toBe('lookup')
    expect(t.model.kind).toBe('llm')
    expect(result).toMatchObject({ model: 'scripted:test-model', finishReason: 'tool_calls', cached: false })
    expect(result.usage).toEqual({ promptTokens: 12, completionTokens: 4, totalTokens: 16, costUsd: null, calls: 1 })
    expect(result.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } })
  })

  it('asks OpenAI models for strict structured outputs when the request says so; other servers get the schema alone', () => {
    const strict: ChatRequest = { ...hello, responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } }
    expect(toRequestBody({ provider: 'openai', wireModel: 'gpt-4.1' }, strict).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'out', schema: { type: 'object' }, strict: true },
    })
    expect(toRequestBody({ provider: 'custom', wireModel: 'llama3.1:8b' }, strict).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'out', schema: { type: 'object' } },
    })
    expect(toRequestBody({ provider: 'anthropic', wireModel: 'claude-sonnet-4-5' }, strict).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'out', schema: { type: 'object' } },
    })
    const loose: ChatRequest = { ...hello, responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object' } } }
    expect(toRequestBody({ provider: 'openai', wireModel: 'gpt-4.1' }, loose).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'out', schema: { type: 'object' } },
    })
  })

  it('prices calls from the table, overridable', async () => {
    await using t = await setup([scriptedText('hi', { usage: { prompt_tokens: 1_000_000, completion_tokens: 1_000_000 } })], {
      prices: { 'test-model': { inputPerMillion: 1, outputPerMillion: 3 } },
    })
    expect((await t.model.complete(hello)).usage.costUsd).toBe(4)
  })

  it('honors retry-after on a 429, then succeeds; the log records the retry', async () => {
    await using t = await setup([scriptedError(429, { headers: { 'retry-after-ms': '300' } }), scriptedText('hi')])
    const started = performance.now()
    const result = await t.model.complete(hello)
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
    expect(result.message.content).toBe('hi')
    expect(t.server.requests).toHaveLength(2)
    const [entry] = t.logs()
    expect(entry).toMatchObject({ retries: 1, cached: false, purpose: 'test', attempts: [{ reason: 'HTTP 429', delayMs: 300 }], outcome: { kind: 'response' } })
  })

  it('retries 5xx, timeouts and dropped connections', async () => {
    await using t = await setup([scriptedError(503), scriptedText('slow', { delayMs: 5_000 }), { kind: 'drop' }, scriptedText('hi')], { timeoutMs: 500 })
    const result = await t.model.complete(hello)
    expect(result.message.content).toBe('hi')
    const [entry] = t.logs()
    expect(entry?.attempts.map((a) => a.reason.split(':')[0])).toEqual(['HTTP 503', 'timeout', 'connection error'])
  })

  it('does not retry a 400 and gives a coded error; failures are logged too', async () => {
    await using t = await setup([scriptedError(400, { body: { error: { message: 'bad tools' } } })])
    const error = await t.model.complete(hello).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ModelCallError)
    expect(error).toMatchObject({ code: 'ERR_MODEL_REQUEST', status: 400, retries: 0 })
    expect(t.server.requests).toHaveLength(1)
    expect(t.logs()[0]?.outcome).toMatchObject({ kind: 'error', code: 'ERR_MODEL_REQUEST', status: 400 })
  })

  it('gives up after maxRetries', async () => {
    await using t = await setup([scriptedError(500), scriptedError(500), scriptedError(500)], { maxRetries: 1 })
    await expect(t.model.complete(hello)).rejects.toMatchObject({ code: 'ERR_MODEL_SERVER', retries: 1 })
    expect(t.server.requests).toHaveLength(2)
  })

  it('rejects soon after an abort (100 ms idle), during a request and during a retry wait', async () => {
    await using t = await setup([scriptedText('late', { delayMs: 600_000 }), scriptedError(429, { headers: { 'retry-after': '30' } })])
    for (let i = 0; i < 2; i++) {
      const controller = new AbortController()
      const pending = t.model.complete(hello, { signal: controller.signal }).catch((e: unknown) => e)
      await new Promise((resolve) => setTimeout(resolve, 100))
      const abortedAt = performance.now()
      controller.abort(new Error('test timed out'))
      const error = await pending
      // Far sooner than the reply (10 min) or the retry wait (30 s): a wide bound that only a wait for either breaks,
      // not a busy machine (about 1 ms idle).
      expect(performance.now() - abortedAt).toBeLessThan(scaledMs(3_000))
      expect(error).toBeInstanceOf(CallAbortedError)
    }
  })

  it('never writes the API key to the call log', async () => {
    await using t = await setup([scriptedText(`echo ${SECRET}`), scriptedError(401)])
    await t.model.complete({ messages: [{ role: 'user', content: `my key is ${SECRET}` }] })
    await t.model.complete(hello).catch(() => undefined)
    expect(t.server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`)
    const files = readdirSync(t.logDir)
    expect(files).toHaveLength(1)
    const text = readFileSync(join(t.logDir, files[0] ?? ''), 'utf8')
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain(SECRET.slice(3))
    expect(text).toContain('[REDACTED]')
    expect([...readCallLog(t.logDir)].map((call) => call.entry.outcome.kind)).toEqual(['response', 'error'])
  })
})

describe('response cache', () => {
  it('records in read-write mode and replays without an HTTP call', async () => {
    const cacheDir = tempDir('cassettes-')
    await using t = await setup([scriptedText('recorded reply')], { cache: { mode: 'read-write', dir: cacheDir } })
    const first = await t.model.complete(hello)
    expect(first.cached).toBe(false)
    const key = keyOf(t.server.baseURL, hello)
    const cassette = JSON.parse(readFileSync(join(cacheDir, `${key}.json`), 'utf8'))
    expect(cassette).toMatchObject({ key, model: 'test-model', recordedFrom: 'scripted-server', response: { id: 'scripted-0' } })

    // Replay needs no key.
    const replay = createModel('test-model', { env: { OPENAI_BASE_URL: t.server.baseURL }, callLogDir: t.logDir, cache: { mode: 'replay', dir: cacheDir } })
    const second = await replay.complete({ ...hello, purpose: 'another label' })
    const { cached: _, ...counts } = first.usage
    expect(second).toEqual({ ...first, cached: true, usage: { ...first.usage, cached: counts } })
    expect(formatCachedPart(addUsage(first.usage, second.usage))).toBe(
      `; 1 call(s) paid, 1 replayed from the cache (${counts.totalTokens} tokens, unknown cost)`,
    )
    expect(t.server.requests).toHaveLength(1)
    expect(t.logs().filter((entry) => entry.cached)).toHaveLength(1)
  })

  it('keys ignore object key order but not content', () => {
    const a: ChatRequest = { messages: [{ role: 'user', content: 'x' }], temperature: 0 }
    const b = { temperature: 0, messages: [{ content: 'x', role: 'user' }] } as ChatRequest
    const url = 'http://127.0.0.1:1234/v1'
    expect(keyOf(url, a)).toBe(keyOf(url, b))
    expect(keyOf(url, a)).toBe(keyOf(`${url}/`, { ...a, purpose: 'a label' }))
    expect(keyOf(url, a)).not.toBe(keyOf(url, { ...a, temperature: 1 }))
    expect(keyOf(url, a)).not.toBe(keyOf(url, a, undefined, 'other'))
    expect(keyOf(url, a)).not.toBe(keyOf('http://127.0.0.1:1235/v1', a))
    expect(keyOf(url, a)).not.toBe(keyOf(`${url}?api-version=2`, a))
    const tool = (description: string) => ({ type: 'function' as const, function: { name: 'f', description, parameters: { type: 'object' } } })
    expect(keyOf(url, { ...a, tools: [tool('one')] })).not.toBe(keyOf(url, { ...a, tools: [tool('two')] }))
    expect(keyOf(url, { ...a, maxTokens: 5 })).not.toBe(keyOf(url, { ...a, maxTokens: 6 }))
    expect(keyOf(url, a)).not.toBe(keyOf(url, { ...a, responseFormat: { type: 'json_object' } }))
  })

  it('a scope (a trial after the first) has cassettes of its own', async () => {
    const a: ChatRequest = { messages: [{ role: 'user', content: 'x' }], temperature: 0 }
    const url = 'http://127.0.0.1:1234/v1'
    expect(keyOf(url, a, 'trial-2')).not.toBe(keyOf(url, a))
    expect(keyOf(url, a, 'trial-2')).not.toBe(keyOf(url, a, 'trial-3'))
    expect([undefined, 1, 2, 3].map(trialCacheScope)).toEqual([undefined, undefined, 'trial-2', 'trial-3'])

    const cacheDir = tempDir('cassettes-')
    await using t = await setup([scriptedText('trial 1 reply'), scriptedText('trial 2 reply')], { cache: { mode: 'read-write', dir: cacheDir } })
    expect((await t.model.complete(hello)).message.content).toBe('trial 1 reply')
    expect((await t.model.complete(hello, { cacheScope: 'trial-2' })).message.content).toBe('trial 2 reply')
    expect(JSON.parse(readFileSync(join(cacheDir, `${keyOf(t.server.baseURL, hello, 'trial-2')}.json`), 'utf8'))).toMatchObject({ scope: 'trial-2' })
    const replay = createModel('test-model', { env: { OPENAI_BASE_URL: t.server.baseURL }, callLogDir: t.logDir, cache: { mode: 'replay', dir: cacheDir } })
    expect((await replay.complete(hello, { cacheScope: 'trial-2' })).message.content).toBe('trial 2 reply')
    expect((await replay.complete(hello)).message.content).toBe('trial 1 reply')
    const miss = await replay.complete(hello, { cacheScope: 'trial-3' }).catch((e: unknown) => e)
    expect(miss).toBeInstanceOf(CacheMissError)
    expect(String((miss as Error).message)).toContain('scope trial-3')
    expect(t.server.requests).toHaveLength(2)
  })

  it("a call inside runInCacheScope (describeEval's task of a later trial) records and replays in that scope", async () => {
    const cacheDir = tempDir('cassettes-')
    await using t = await setup([scriptedText('trial 1 reply'), scriptedText('trial 2 reply')], { cache: { mode: 'read-write', dir: cacheDir } })
    expect((await runInCacheScope(trialCacheScope(1), () => t.model.complete(hello))).message.content).toBe('trial 1 reply')
    expect(
      (
        await runInCacheScope(trialCacheScope(2), async () => {
          await Promise.resolve()
          return t.model.complete(hello)
        })
      ).message.content,
    ).toBe('trial 2 reply')
    expect(JSON.parse(readFileSync(join(cacheDir, `${keyOf(t.server.baseURL, hello, 'trial-2')}.json`), 'utf8'))).toMatchObject({ scope: 'trial-2' })
    // Replayed in its scope: no new request.
    expect((await runInCacheScope('trial-2', () => t.model.complete(hello))).message.content).toBe('trial 2 reply')
    expect(t.server.requests).toHaveLength(2)
  })

  it('a cassette without a usable response is an error naming its file', async () => {
    const cacheDir = tempDir('cassettes-')
    await using t = await setup([scriptedText('never')], { cache: { mode: 'replay', dir: cacheDir } })
    const key = keyOf(t.server.baseURL, hello)
    writeFileSync(
      join(cacheDir, `${key}.json`),
      JSON.stringify({ cacheVersion: 2, key, model: 'test-model', request: {}, response: { id: 'x', choices: [] }, recordedAt: '', recordedFrom: 'hand' }),
    )
    const error = await t.model.complete(hello).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'ERR_INVALID_FORMAT', file: join(cacheDir, `${key}.json`) })
    expect(String((error as Error).message)).toContain(`${key}.json`)
    expect(t.server.requests).toHaveLength(0)
  })

  it('a replay miss names the request and makes no call', async () => {
    await using t = await setup([scriptedText('never')], { cache: { mode: 'replay', dir: tempDir('cassettes-') } })
    const error = await t.model.complete({ messages: [{ role: 'user', content: 'Who signed the Raptor memo?' }], purpose: 'agent' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CacheMissError)
    expect(String((error as Error).message)).toMatch(/test-model.*purpose agent.*Who signed the Raptor memo\?.*key [0-9a-f]{64}/)
    expect(t.server.requests).toHaveLength(0)
  })
})

describe('createModel ids', () => {
  it('refuses the built-in `baseline` agent and names a missing key', () => {
    expect(() => createModel('baseline')).toThrow(/built-in non-LLM agent/)
    expect(() => createModel('openai/gpt-4.1', { env: {} })).toThrow(/OPENAI_API_KEY/)
    expect(createModel('openai/gpt-4.1', { env: {}, cache: { mode: 'replay' }, callLogDir: false }).id).toBe('openai/gpt-4.1')
  })
})
