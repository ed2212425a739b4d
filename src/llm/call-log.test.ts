import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CallLog, REDACTED, redactFields, redactSecrets } from './call-log.ts'

describe('call log redaction', () => {
  it('redacts secret-named fields at any depth', () => {
    expect(redactFields({ headers: { Authorization: 'Bearer x', 'x-api-key': 'y', accept: 'json' }, list: [{ api_key: 'z' }] })).toEqual({
      headers: { Authorization: REDACTED, 'x-api-key': REDACTED, accept: 'json' },
      list: [{ api_key: REDACTED }],
    })
  })

  it('replaces every occurrence of a secret value, also JSON-escaped', () => {
    expect(redactSecrets('a sk-1"2 b sk-1\\"2 c', ['sk-1"2'])).toBe(`a ${REDACTED} b ${REDACTED} c`)
    expect(redactSecrets('abc', ['ab'])).toBe('abc')
  })

  it('writes one redacted JSON file per call', () => {
    const dir = mkdtempSync(join(tmpdir(), 'call-log-'))
    const file = new CallLog(dir, ['sk-very-secret']).write({
      startedAt: '2025-01-01T00:00:00.000Z',
      model: 'm',
      baseURL: 'http://x',
      purpose: 'judge: a/b',
      cached: false,
      cacheKey: null,
      latencyMs: 1,
      retries: 0,
      attempts: [],
      request: { messages: [{ role: 'user', content: 'key sk-very-secret' }], apiKey: 'other' },
      outcome: { kind: 'error', code: 'ERR_MODEL_AUTH', message: 'bad key sk-very-secret', status: 401 },
      usage: null,
    })
    expect(file).toMatch(/2025-01-01T00-00-00-000Z-judge_a_b-[0-9a-f]{8}\.json$/)
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain('sk-very-secret')
    expect(text).not.toContain('other')
    expect(JSON.parse(text).outcome.message).toBe(`bad key ${REDACTED}`)
  })
})
