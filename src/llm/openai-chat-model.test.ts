import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scriptedError, scriptedRaw, scriptedText, startScriptedServer } from '../testing/scripted-server.ts'
import { readCallLog } from './call-log.ts'
import { createModel } from './create-model.ts'
import { CallAbortedError } from './errors.ts'
import type { ChatRequest } from './types.ts'
import { scaledMs } from '../testing/time-scale.ts'

const hello: ChatRequest = { messages: [{ role: 'user', content: 'Say hi' }] }
const PRICES = { 'test-model': { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 } }

/** The usage of one call whose response carries `usage` (omitted when undefined), priced from `prices`. */
async function usageOf(usage: unknown, prices: Record<string, { inputPerMillion: number; outputPerMillion: number; cachedInputPerMillion?: number }> = PRICES) {
  const body = {
    id: 'scripted-usage',
    object: 'chat.completion',
    created: 0,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
    ...(usage === undefined ? {} : { usage }),
  }
  await using server = await startScriptedServer([scriptedRaw(JSON.stringify(body))])
  const model = createModel('test-model', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: false, cache: { mode: 'off' }, prices })
  return (await model.complete(hello)).usage
}

describe('the usage and cost of a response', () => {
  it('prices input served from the provider prompt cache at the cached-input price', async () => {
    const usage = await usageOf({ prompt_tokens: 1_000_000, completion_tokens: 0, total_tokens: 1_000_000, prompt_tokens_details: { cached_tokens: 800_000 } })
    expect(usage).toMatchObject({ promptTokens: 1_000_000, totalTokens: 1_000_000 })
    expect(usage.costUsd).toBeCloseTo(0.2 * 2 + 0.8 * 0.5)
  })

  it('gives an unknown cost for cached input of a model without a cached-input price, and a full price without cached input', async () => {
    const prices = { 'test-model': { inputPerMillion: 2, outputPerMillion: 8 } }
    expect(
      (await usageOf({ prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010, prompt_tokens_details: { cached_tokens: 500 } }, prices)).costUsd,
    ).toBeNull()
    expect(
      (await usageOf({ prompt_tokens: 1_000_000, completion_tokens: 0, total_tokens: 1_000_000, prompt_tokens_details: { cached_tokens: 0 } }, prices)).costUsd,
    ).toBe(2)
  })

  it('counts reasoning tokens as output once: inside completion_tokens (OpenAI) or reported apart from them', async () => {
    const inside = await usageOf({
      prompt_tokens: 0,
      completion_tokens: 1_000_000,
      total_tokens: 1_000_000,
      completion_tokens_details: { reasoning_tokens: 900_000 },
    })
    expect(inside).toMatchObject({ completionTokens: 1_000_000, totalTokens: 1_000_000, costUsd: 8 })
    const apart = await usageOf({
      prompt_tokens: 10,
      completion_tokens: 100_000,
      total_tokens: 1_000_010,
      completion_tokens_details: { reasoning_tokens: 900_000 },
    })
    expect(apart).toMatchObject({ promptTokens: 10, completionTokens: 1_000_000, totalTokens: 1_000_010 })
    expect(apart.costUsd).toBeCloseTo(8 + 10 * 2e-6)
  })

  it.each([
    ['no usage', undefined],
    ['usage null', null],
    ['usage without token counts', {}],
  ])('a response with %s has an unknown cost, not a cost of 0', async (_name, usage) => {
    expect(await usageOf(usage)).toMatchObject({ costUsd: null, calls: 1 })
  })
})

describe('the call log of a retried call', () => {
  it('keeps the failed attempt when the call is aborted during the retry wait', async () => {
    await using server = await startScriptedServer([scriptedError(429, { headers: { 'retry-after': '30' } }), scriptedText('never')])
    const logDir = mkdtempSync(join(tmpdir(), 'llm-log-'))
    const model = createModel('test-model', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: logDir, cache: { mode: 'off' } })
    const controller = new AbortController()
    const pending = model.complete(hello, { signal: controller.signal }).catch((e: unknown) => e)
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    // Time for the 429 to reach the client, which then waits 30 s to retry (longer on a busy machine).
    await new Promise((resolve) => setTimeout(resolve, scaledMs(50)))
    controller.abort(new Error('test timed out'))
    expect(await pending).toBeInstanceOf(CallAbortedError)
    expect(server.requests).toHaveLength(1)
    const [call] = [...readCallLog(logDir)]
    expect(call?.entry).toMatchObject({
      retries: 0,
      attempts: [{ attempt: 1, reason: 'HTTP 429', delayMs: 30_000 }],
      outcome: { kind: 'error', code: 'ERR_ABORTED' },
    })
  })

  it('counts the retry whose request was in flight when the call was aborted', async () => {
    await using server = await startScriptedServer([scriptedError(503), scriptedText('late', { delayMs: 10_000 })])
    const logDir = mkdtempSync(join(tmpdir(), 'llm-log-'))
    const model = createModel('test-model', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: logDir, cache: { mode: 'off' }, retry: { baseDelayMs: 5 } })
    const controller = new AbortController()
    const pending = model.complete(hello, { signal: controller.signal }).catch((e: unknown) => e)
    while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10))
    controller.abort(new Error('test timed out'))
    expect(await pending).toBeInstanceOf(CallAbortedError)
    const [call] = [...readCallLog(logDir)]
    expect(call?.entry).toMatchObject({ retries: 1, attempts: [{ attempt: 1, reason: 'HTTP 503' }], outcome: { kind: 'error', code: 'ERR_ABORTED' } })
  })
})
