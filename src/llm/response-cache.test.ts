import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type ReceivedRequest, scriptedText, startScriptedServer } from '../testing/scripted-server.ts'
import { createModel } from './create-model.ts'
import { CacheMissError } from './errors.ts'
import type { ChatRequest } from './types.ts'

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))
const hello: ChatRequest = { messages: [{ role: 'user', content: 'Say hi' }] }

describe('the response cache key', () => {
  it('keeps two servers that serve the same model name apart', async () => {
    const dir = tempDir('cassettes-')
    await using a = await startScriptedServer(() => scriptedText('the answer of server A'))
    await using b = await startScriptedServer(() => scriptedText('the answer of server B'))
    const at = (baseURL: string) => createModel('llama3.1:8b', { env: { OPENAI_BASE_URL: baseURL }, callLogDir: false, cache: { mode: 'read-write', dir } })
    expect((await at(`${a.baseURL}?api-key=sk-first-0123456789`).complete(hello)).message.content).toBe('the answer of server A')
    const fromB = await at(b.baseURL).complete(hello)
    expect(fromB).toMatchObject({ cached: false, message: { content: 'the answer of server B' } })
    expect(b.requests).toHaveLength(1)
    // Each is replayed for its own server, whatever key its URL carries (a trailing slash names the same server).
    expect((await at(`${a.baseURL}/?api-key=sk-second-0123456789`).complete(hello)).message.content).toBe('the answer of server A')
    expect(a.requests).toHaveLength(1)
  })

  it('keeps the property order of a JSON Schema, which the model sees (structured outputs answer in it)', async () => {
    const dir = tempDir('cassettes-')
    const order = (request: ReceivedRequest) =>
      JSON.stringify(Object.keys((request.body.response_format as { json_schema: { schema: { properties: object } } }).json_schema.schema.properties))
    await using server = await startScriptedServer((request) => scriptedText(order(request)))
    const model = createModel('m', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: false, cache: { mode: 'read-write', dir } })
    const asking = (properties: Record<string, unknown>): ChatRequest => ({
      ...hello,
      responseFormat: { type: 'json_schema', name: 'verdict', schema: { type: 'object', properties } },
    })
    const first = await model.complete(asking({ reasoning: { type: 'string' }, verdict: { type: 'string' } }))
    const second = await model.complete(asking({ verdict: { type: 'string' }, reasoning: { type: 'string' } }))
    expect([first.message.content, second.message.content]).toEqual(['["reasoning","verdict"]', '["verdict","reasoning"]'])
    expect(second.cached).toBe(false)
    // Key order elsewhere (message fields) does not reach the model: the same request built in another order is replayed.
    const reordered = await model.complete({
      responseFormat: asking({ verdict: { type: 'string' }, reasoning: { type: 'string' } }).responseFormat,
      messages: [{ content: 'Say hi', role: 'user' }],
    } as ChatRequest)
    expect(reordered).toMatchObject({ cached: true, message: { content: '["verdict","reasoning"]' } })
    expect(server.requests).toHaveLength(2)
  })

  it('does not read a cassette recorded under the format-1 key (model id and a few fields, no server)', async () => {
    const dir = tempDir('cassettes-')
    const request: ChatRequest = { messages: [{ role: 'user', content: 'x' }], temperature: 0 }
    const v1Key = createHash('sha256')
      .update(JSON.stringify({ maxTokens: null, messages: [{ content: 'x', role: 'user' }], model: 'm', responseFormat: null, temperature: 0, tools: [] }))
      .digest('hex')
    expect(v1Key).toBe('97caa05083bcb8a2b1757d04acaf6952cfb0bd41933b0c516a461c730b288445')
    const stale = {
      id: 'elsewhere',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'recorded from another server' }, finish_reason: 'stop' }],
    }
    writeFileSync(
      join(dir, `${v1Key}.json`),
      JSON.stringify({ key: v1Key, model: 'm', request: {}, response: stale, recordedAt: '', recordedFrom: 'https://other.example/v1' }),
    )
    await using server = await startScriptedServer([scriptedText('never')])
    const model = createModel('m', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: false, cache: { mode: 'replay', dir } })
    const error = await model.complete(request).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CacheMissError)
    expect((error as CacheMissError).message).toContain(`at ${server.baseURL}`)
    expect(server.requests).toHaveLength(0)
  })

  it('records the format version in each cassette', async () => {
    const dir = tempDir('cassettes-')
    await using server = await startScriptedServer([scriptedText('hi')])
    const model = createModel('m', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: false, cache: { mode: 'read-write', dir } })
    await model.complete(hello)
    const [file] = readdirSync(dir)
    expect(JSON.parse(readFileSync(join(dir, file ?? ''), 'utf8'))).toMatchObject({ cacheVersion: 2, recordedFrom: 'scripted-server' })
  })
})

describe('a cassette that cannot be read', () => {
  it.each([
    ['cut short', '{"cacheVersion": 2, "key": "tru'],
    ['of another format version', JSON.stringify({ cacheVersion: 1, key: 'k', model: 'm', request: {}, response: {}, recordedAt: '', recordedFrom: 'x' })],
  ])('%s is an error naming its file, never a replay or a call', async (_name, text) => {
    const dir = tempDir('cassettes-')
    await using server = await startScriptedServer([scriptedText('never')])
    const model = createModel('m', { env: { OPENAI_BASE_URL: server.baseURL }, callLogDir: false, cache: { mode: 'read-write', dir } })
    await model.complete(hello).catch(() => undefined)
    const [file] = readdirSync(dir)
    writeFileSync(join(dir, file ?? ''), text)
    const error = await model.complete(hello).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'ERR_INVALID_FORMAT', file: join(dir, file ?? '') })
    expect(server.requests).toHaveLength(1)
  })
})
