import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CallLog, REDACTED, pruneCallLogs, readCallLog, redactFields } from './call-log.ts'

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

  it('writes no given secret (from 6 characters, as every secret, also JSON-escaped) and no value of a secret-named field at any depth', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-secrets-'))
    const log = new CallLog(dir, ['k"1\\2-x', 'ab'])
    const response = { echoed: 'a k"1\\2-x b', nested: [{ headers: { Authorization: 'Bearer tok-zzz', accept: 'json' } }], note: 'ab' }
    const base = {
      startedAt: '2025-01-01T00:00:00.000Z',
      model: 'm',
      baseURL: null,
      purpose: null,
      cached: false,
      cacheKey: null,
      latencyMs: 1,
      retries: 0,
      attempts: [],
      usage: null,
    }
    log.write({ ...base, request: { messages: [{ role: 'user', content: 'k"1\\2-x' }] }, outcome: { kind: 'response', response } })
    log.close()
    const text = readFileSync(log.file, 'utf8')
    expect(text).not.toContain('k"1\\2-x')
    expect(text).not.toContain(JSON.stringify('k"1\\2-x').slice(1, -1))
    expect(text).not.toContain('tok-zzz')
    const [call] = [...readCallLog(dir)]
    expect(call?.entry.request).toEqual({ messages: [{ role: 'user', content: REDACTED }] })
    expect(call?.entry.outcome).toEqual({
      kind: 'response',
      response: { echoed: `a ${REDACTED} b`, nested: [{ headers: { Authorization: REDACTED, accept: 'json' } }], note: 'ab' },
    })
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
    const call = (tools: unknown[]) => ({
      startedAt: '2025-01-01T00:00:00.000Z',
      model: 'm',
      baseURL: null,
      purpose: null,
      cached: false,
      cacheKey: null,
      latencyMs: 1,
      retries: 0,
      attempts: [],
      request: { messages: [], tools },
      outcome: { kind: 'response' as const, response: {} },
      usage: null,
    })
    for (const tools of [toolsOf('inbox a', query), toolsOf('inbox a', query), toolsOf('inbox b', query), toolsOf('inbox a', other)]) log.write(call(tools))
    log.close()
    const lines = readFileSync(log.file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; hash?: string; toolsRef?: string })
    expect(lines.filter((line) => line.kind === 'tools')).toHaveLength(3)
    expect(lines.filter((line) => line.kind === 'call').map((line) => line.toolsRef)).toEqual([lines[0]?.hash, lines[0]?.hash, lines[3]?.hash, lines[5]?.hash])
    expect([...readCallLog(dir)].map((logged) => (logged.entry.request as { tools: unknown }).tools)).toEqual([
      toolsOf('inbox a', query),
      toolsOf('inbox a', query),
      toolsOf('inbox b', query),
      toolsOf('inbox a', other),
    ])
  })

  it('tells apart tools that differ in strict, in unfrozen parameters, or in fields of another shape', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-tools-'))
    const log = new CallLog(dir)
    const query = Object.freeze({ type: 'object', properties: Object.freeze({ q: Object.freeze({ type: 'string' }) }) })
    const loose = { type: 'object', properties: { q: { type: 'string' } } as Record<string, unknown> }
    const call = (tools: unknown[]) => ({
      startedAt: '2025-01-01T00:00:00.000Z',
      model: 'm',
      baseURL: null,
      purpose: null,
      cached: false,
      cacheKey: null,
      latencyMs: 1,
      retries: 0,
      attempts: [],
      request: { messages: [], tools },
      outcome: { kind: 'response' as const, response: {} },
      usage: null,
    })
    const sent = [
      [{ type: 'function', function: { name: 'search', description: 'd', parameters: query } }],
      [{ type: 'function', function: { name: 'search', description: 'd', parameters: query, strict: true } }],
      [{ type: 'function', function: { name: 'search', description: 'd', parameters: query } }],
      [{ type: 'function', function: { name: 'search', parameters: query } }],
      [{ type: 'function', function: { name: 'search', description: 'd', parameters: query }, cache_control: { type: 'ephemeral' } }],
      [{ type: 'function', function: { name: 'search', description: 'd', parameters: { ...loose } } }],
    ]
    for (const tools of sent) log.write(call(tools))
    loose.properties = { id: { type: 'string' } }
    sent.push([{ type: 'function', function: { name: 'search', description: 'd', parameters: { ...loose } } }])
    log.write(call(sent.at(-1) ?? []))
    log.close()
    const lines = readFileSync(log.file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; hash?: string; toolsRef?: string })
    const refs = lines.filter((line) => line.kind === 'call').map((line) => line.toolsRef)
    expect(new Set(refs).size).toBe(6)
    expect(refs[2]).toBe(refs[0])
    expect([...readCallLog(dir)].map((logged) => (logged.entry.request as { tools: unknown }).tools)).toEqual(sent)
  })
})

describe('call log conversations', () => {
  const call = (messages: unknown[], n = 0) => ({
    startedAt: `2025-01-01T00:00:0${n}.000Z`,
    model: 'm',
    baseURL: null,
    purpose: null,
    cached: false,
    cacheKey: null,
    latencyMs: 1,
    retries: 0,
    attempts: [],
    request: { model: 'm', messages: [...messages], temperature: 0 },
    outcome: { kind: 'response' as const, response: {} },
    usage: null,
  })
  type Line = { kind: string; id?: string; messagesFrom?: { call: string; count: number }; request?: { messages: unknown[] } }
  const linesOf = (file: string): Line[] =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line)

  it('writes each message of a conversation once and reads every call back with all its messages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-conversation-'))
    const log = new CallLog(dir)
    const system = { role: 'system', content: 'You answer questions about one mailbox. '.repeat(20) }
    const other = { role: 'system', content: 'Another run.' }
    const a: unknown[] = [system, { role: 'user', content: 'question a' }]
    const b: unknown[] = [other, { role: 'user', content: 'question b' }]
    const sent: unknown[][] = []
    const send = (messages: unknown[]) => {
      sent.push([...messages])
      log.write(call(messages, sent.length))
    }
    send(a)
    send(b)
    a.push(
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'search', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 't1', content: '[]' },
    )
    send(a)
    b.push({ role: 'assistant', content: 'b done' })
    send(b)
    a.push({ role: 'assistant', content: 'a done' })
    send(a)
    log.close()
    const text = readFileSync(log.file, 'utf8')
    expect(text.split('You answer questions about one mailbox.').length - 1).toBe(20)
    const lines = linesOf(log.file)
    expect(lines.map((line) => line.messagesFrom?.count ?? 0)).toEqual([0, 0, 2, 2, 4])
    expect(lines[2]?.messagesFrom?.call).toBe(lines[0]?.id)
    expect(lines[4]?.messagesFrom?.call).toBe(lines[2]?.id)
    expect(lines[4]?.request?.messages).toEqual([{ role: 'assistant', content: 'a done' }])
    const read = [...readCallLog(dir)]
    expect(read.map((logged) => (logged.entry.request as { messages: unknown[] }).messages)).toEqual(sent)
    expect(read.map((logged) => logged.entry.request)).toEqual(sent.map((messages) => ({ model: 'm', messages, temperature: 0 })))
  })

  it('writes each line as JSON.stringify writes it, messages included (their JSON, computed once, spliced in)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-conversation-'))
    const log = new CallLog(dir)
    const odd = { role: 'user', content: 'line\u2028separator "quoted" \\ and \u0000', toJSON: () => ({ role: 'user', content: 'as toJSON' }) }
    const messages: unknown[] = [{ role: 'system', content: 's' }, undefined, odd, { role: 'user', content: 'é ✓', extra: [1, null, { a: undefined }] }]
    log.write(call(messages, 1))
    messages.push({ role: 'assistant', content: `ends with the marker's look: "\u0000"` })
    log.write(call(messages, 2))
    log.close()
    const [first, second] = readFileSync(log.file, 'utf8').trim().split('\n')
    const parsedFirst = JSON.parse(first ?? '') as { id: string }
    const parsedSecond = JSON.parse(second ?? '') as { id: string }
    expect(first).toBe(JSON.stringify({ kind: 'call', id: parsedFirst.id, ...call(messages.slice(0, 4), 1) }))
    const continued = call(messages, 2)
    expect(second).toBe(
      JSON.stringify({
        kind: 'call',
        id: parsedSecond.id,
        messagesFrom: { call: parsedFirst.id, count: 4 },
        ...continued,
        request: { ...continued.request, messages: messages.slice(4) },
      }),
    )
  })

  it('writes a call in full when an earlier message of its conversation was changed in place or dropped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-conversation-'))
    const log = new CallLog(dir)
    const system = { role: 'system', content: 'system' }
    const result = { role: 'tool', tool_call_id: 't1', content: 'a long search result' }
    const messages: unknown[] = [system, { role: 'user', content: 'q' }, result]
    const sent: unknown[][] = []
    const send = () => {
      sent.push(structuredClone(messages))
      log.write(call(messages))
    }
    send()
    result.content = '[elided]'
    messages.push({ role: 'assistant', content: 'next' })
    send()
    messages.splice(1, 1)
    send()
    log.close()
    expect(linesOf(log.file).map((line) => line.messagesFrom)).toEqual([undefined, undefined, undefined])
    expect([...readCallLog(dir)].map((logged) => (logged.entry.request as { messages: unknown[] }).messages)).toEqual(sent)
  })

  it('says which messages are missing when the call a line continues cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-conversation-'))
    const log = new CallLog(dir)
    const messages: unknown[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'q' },
    ]
    log.write(call(messages))
    messages.push({ role: 'assistant', content: 'a' })
    log.write(call(messages))
    log.close()
    const [first, second] = readFileSync(log.file, 'utf8').trim().split('\n')
    writeFileSync(log.file, `${first?.slice(0, 20)}\n${second}\n`)
    const [only] = [...readCallLog(dir)]
    expect((only?.entry.request as { messages: unknown[] } | undefined)?.messages).toEqual([
      expect.stringMatching(/^\[the first 2 messages, those of call .+, not found\]$/),
      { role: 'assistant', content: 'a' },
    ])
  })
})

describe('call log rotation', () => {
  const entry = {
    startedAt: '2025-01-01T00:00:00.000Z',
    model: 'm',
    baseURL: null,
    purpose: null,
    cached: false,
    cacheKey: null,
    latencyMs: 1,
    retries: 0,
    attempts: [],
    request: {},
    outcome: { kind: 'response' as const, response: {} },
    usage: null,
  }

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
