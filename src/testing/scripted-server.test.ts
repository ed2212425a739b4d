import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { lastUserText, scriptedError, scriptedText, scriptedToolCalls, startScriptedServer } from './scripted-server.ts'
import { scaledMs } from './time-scale.ts'

const client = (baseURL: string) => new OpenAI({ baseURL, apiKey: 'sk-scripted-test', maxRetries: 0 })

describe('startScriptedServer', () => {
  it('serves scripted replies in order, labelled as scripted, and records requests', async () => {
    await using server = await startScriptedServer([
      scriptedToolCalls([{ name: 'search', arguments: '{"q": "x"' }]),
      scriptedText('done', { usage: { prompt_tokens: 7, completion_tokens: 3 } }),
    ])
    const openai = client(server.baseURL)
    const first = await openai.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] })
    expect(first.id).toBe('scripted-0')
    expect(first.model).toBe('scripted:m1')
    expect(first.choices[0]?.finish_reason).toBe('tool_calls')
    const call = first.choices[0]?.message.tool_calls?.[0]
    expect(call?.type === 'function' && call.function.arguments).toBe('{"q": "x"')
    const second = await openai.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'again' }] })
    expect(second.choices[0]?.message.content).toBe('done')
    expect(second.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 })
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]?.headers.authorization).toBe('Bearer sk-scripted-test')
    expect(lastUserText(server.requests[1]!)).toBe('again')
  })

  it('sends HTTP errors with headers, and a clear 500 when the script runs out', async () => {
    await using server = await startScriptedServer([scriptedError(429, { headers: { 'retry-after': '3' } })])
    const openai = client(server.baseURL)
    const rateLimited = await openai.chat.completions.create({ model: 'm', messages: [] }).catch((e: unknown) => e)
    expect(rateLimited).toBeInstanceOf(OpenAI.RateLimitError)
    expect((rateLimited as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('3')
    const exhausted = await openai.chat.completions.create({ model: 'm', messages: [] }).catch((e: unknown) => e)
    expect(exhausted).toBeInstanceOf(OpenAI.InternalServerError)
    expect(String((exhausted as Error).message)).toMatch(/script exhausted/)
  })

  it('drops connections and routes by content with a responder', async () => {
    await using server = await startScriptedServer((request) =>
      lastUserText(request) === 'drop' ? { kind: 'drop' } : scriptedText(`echo ${lastUserText(request)}`),
    )
    const openai = client(server.baseURL)
    const dropped = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'drop' }] }).catch((e: unknown) => e)
    expect(dropped).toBeInstanceOf(OpenAI.APIConnectionError)
    const echoed = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'ping' }] })
    expect(echoed.choices[0]?.message.content).toBe('echo ping')
  })

  it('delays replies, and close() cuts a pending one', async () => {
    const server = await startScriptedServer([scriptedText('late', { delayMs: 600_000 })])
    const openai = client(server.baseURL)
    const pending = openai.chat.completions.create({ model: 'm', messages: [] }).catch((e: unknown) => e)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const started = Date.now()
    await server.close()
    expect(await pending).toBeInstanceOf(OpenAI.APIConnectionError)
    expect(Date.now() - started, 'far sooner than the reply (10 min)').toBeLessThan(scaledMs(10_000))
  })
})
