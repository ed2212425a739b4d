import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CallLog, REDACTED, pruneCallLogs, readCallLog, redactFields, redactSecrets } from './call-log.ts'

describe('call log redaction', () => {
  it('redacts secret-named fields at any depth', () => {
    expect(redactFields({ headers: { Authorization: 'Bearer x', 'x-api-key': 'y', accept: 'json' }, list: [{ api_key: 'z' }] })).toEqual({
      headers: { Authorization: REDACTED, 'x-api-key': REDACTED, accept: 'json' },
      list: [{ api_key: REDACTED }],
    })
  })

  it('copies only what holds a secret-named field, never changing its input', () => {
    const clean = { request: { messages: [{ role: 'user', content: 'hi' }] }, usage: null }
    expect(redactFields(clean)).toBe(clean)
    const input = { request: clean.request, options: { headers: { 'api-key': 'k' } } }
    const out = redactFields(input) as typeof input
    expect(out).toEqual({ request: clean.request, options: { headers: { 'api-key': REDACTED } } })
    expect(out.request).toBe(clean.request)
    expect(input.options.headers['api-key']).toBe('k')
  })

  it('replaces every occurrence of a secret value, also JSON-escaped', () => {
    expect(redactSecrets('a sk-1"2 b sk-1\\"2 c', ['sk-1"2'])).toBe(`a ${REDACTED} b ${REDACTED} c`)
    expect(redactSecrets('abc', ['ab'])).toBe('abc')
  })

  it('appends one redacted line per call to one file, with the tool schemas once, and reads each call back whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-'))
    const log = new CallLog(dir, ['sk-very-secret'])
    const tools = [{ type: 'function', function: { name: 'search', parameters: { type: 'object' } } }]
    const entry = (n: number) => ({
      startedAt: `2025-01-01T00:00:0${n}.000Z`,
      model: 'm',
      baseURL: 'http://x',
      purpose: 'judge: a/b',
      cached: false,
      cacheKey: null,
      latencyMs: 1,
      retries: 0,
      attempts: [],
      request: { messages: [{ role: 'user', content: `key sk-very-secret ${n}` }], tools, apiKey: 'other' },
      outcome: { kind: 'error' as const, code: 'ERR_MODEL_AUTH', message: 'bad key sk-very-secret', status: 401 },
      usage: null,
    })
    const ids = [log.write(entry(1)), log.write(entry(2)), log.write(entry(3))]
    expect(readdirSync(dir)).toEqual([basename(log.file)])
    const text = readFileSync(log.file, 'utf8')
    expect(text.trim().split('\n')).toHaveLength(4)
    expect(text.match(/"parameters"/g)).toHaveLength(1)
    expect(text).not.toContain('sk-very-secret')
    expect(text).not.toContain('other')
    const calls = [...readCallLog(dir)]
    expect(calls.map((c) => c.id)).toEqual(ids)
    expect(calls[1]?.entry.outcome).toEqual({ kind: 'error', code: 'ERR_MODEL_AUTH', message: `bad key ${REDACTED}`, status: 401 })
    expect(calls[2]?.entry.request).toEqual({ messages: [{ role: 'user', content: `key ${REDACTED} 3` }], tools, apiKey: REDACTED })
  })
})

describe('call log tool schemas', () => {
  it('writes the tools of per-task arrays once per content: shared frozen parameter schemas, per-task descriptions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-tools-'))
    const log = new CallLog(dir)
    const query = Object.freeze({ type: 'object', properties: Object.freeze({ q: Object.freeze({ type: 'string' }) }) })
    const other = Object.freeze({ type: 'object', properties: Object.freeze({ id: Object.freeze({ type: 'string' }) }) })
    const toolsOf = (description: string, parameters: object) => [{ type: 'function', function: { name: 'search', description, parameters } }]
    const call = (tools: unknown[]) => ({ startedAt: '2025-01-01T00:00:00.000Z', model: 'm', baseURL: null, purpose: null, cached: false, cacheKey: null, latencyMs: 1, retries: 0, attempts: [], request: { messages: [], tools }, outcome: { kind: 'response' as const, response: {} }, usage: null })
    for (const tools of [toolsOf('inbox a', query), toolsOf('inbox a', query), toolsOf('inbox b', query), toolsOf('inbox a', other)]) log.write(call(tools))
    log.close()
    const lines = readFileSync(log.file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; hash?: string; toolsRef?: string })
    expect(lines.filter((line) => line.kind === 'tools')).toHaveLength(3)
    expect(lines.filter((line) => line.kind === 'call').map((line) => line.toolsRef)).toEqual([lines[0]?.hash, lines[0]?.hash, lines[3]?.hash, lines[5]?.hash])
    expect([...readCallLog(dir)].map((logged) => (logged.entry.request as { tools: unknown }).tools)).toEqual([toolsOf('inbox a', query), toolsOf('inbox a', query), toolsOf('inbox b', query), toolsOf('inbox a', other)])
  })
})

describe('call log rotation', () => {
  const entry = { startedAt: '2025-01-01T00:00:00.000Z', model: 'm', baseURL: null, purpose: null, cached: false, cacheKey: null, latencyMs: 1, retries: 0, attempts: [], request: {}, outcome: { kind: 'response' as const, response: {} }, usage: null }

  /** Files of earlier runs, named as the log names them, last written an hour ago. */
  function earlierRuns(dir: string, count: number): string[] {
    const hourAgo = new Date(Date.now() - 3_600_000)
    return Array.from({ length: count }, (_, i) => {
      const name = `2024-01-0${i + 1}T00-00-00-000Z-100-0-abcd.jsonl`
      writeFileSync(join(dir, name), '')
      utimesSync(join(dir, name), hourAgo, hourAgo)
      return name
    })
  }

  it('keeps the newest files when a log starts, counting its own, and leaves other files and files in use alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-keep-'))
    const old = earlierRuns(dir, 5)
    writeFileSync(join(dir, 'notes.txt'), 'not a log')
    writeFileSync(join(dir, '2023-12-31T00-00-00-000Z-200-0-beef.jsonl'), '') // oldest by name, but written just now: another process's
    const log = new CallLog(dir, [], { keep: 3 })
    log.write(entry)
    expect(readdirSync(dir).sort()).toEqual([old[3], old[4], '2023-12-31T00-00-00-000Z-200-0-beef.jsonl', basename(log.file), 'notes.txt'].sort())
  })

  it('keeps every file with keep 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-keep-'))
    earlierRuns(dir, 4)
    new CallLog(dir, [], { keep: 0 }).write(entry)
    expect(readdirSync(dir)).toHaveLength(5)
    expect(pruneCallLogs(dir, 0)).toEqual([])
    expect(pruneCallLogs(dir, 2)).toHaveLength(3)
  })
})
