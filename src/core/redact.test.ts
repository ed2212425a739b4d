import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { writeFileAtomic, writeJsonAtomic } from './atomic-write.ts'
import { ConfigError } from './errors.ts'
import { REDACTED, createRedactor, redact, redactJson, redactJsonText, redactUrl, registerSecret, secretsFromEnv, urlSecrets } from './redact.ts'
import { resolveInside } from './paths.ts'

const dir = mkdtempSync(join(tmpdir(), 'redact-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => {
  vi.unstubAllEnvs()
})

describe('redact', () => {
  it('finds secrets in secret-named variables and in URL-valued ones', () => {
    expect(secretsFromEnv({ MY_API_KEY: 'abc123xyz', GH_TOKEN: 'ghp_0123456789', HOME: '/home/me', NODE_ENV: 'production', DEPLOY_KEY: 'default' })).toEqual([
      'abc123xyz',
      'ghp_0123456789',
    ])
    expect(urlSecrets('https://bob:hunter22@h.example/v1?api-version=1&api-key=k-123456')).toEqual(expect.arrayContaining(['hunter22', 'k-123456']))
    expect(secretsFromEnv({ OPENAI_BASE_URL: 'https://h.example/v1?key=k-987654' })).toContain('k-987654')
  })

  it('takes the value of every *_API_KEY, *_TOKEN and *_SECRET variable as a secret, whatever its characters', () => {
    const env = {
      OPENAI_API_KEY: 'localsecretkey',
      LOCAL_TOKEN: 'ollama',
      APP_SECRET: 'Password',
      DB_PASSWORD: 'hunter',
      SORT_KEY: 'date',
      TINY_TOKEN: 'EMPTY',
    }
    expect(secretsFromEnv(env).sort()).toEqual(['Password', 'hunter', 'localsecretkey', 'ollama'])
    expect(redact('the server echoed localsecretkey, and xlocalsecretkeyx', env)).toBe(`the server echoed ${REDACTED}, and x${REDACTED}x`)
    // Under 8 characters: only where it stands as a whole word.
    expect(redact('ollama said ollama; not ollamas, not my_ollama, "ollama"', env)).toBe(
      `${REDACTED} said ${REDACTED}; not ollamas, not my_ollama, "${REDACTED}"`,
    )
    expect(redact(JSON.stringify({ a: 'line\nollama\tollama' }), env)).toBe(JSON.stringify({ a: `line\n${REDACTED}\t${REDACTED}` }))
    // Under 6 characters nothing is a secret: placeholders such as `test` or `EMPTY` would garble ordinary text.
    expect(redact('{"split": "test"} EMPTY none', { A_TOKEN: 'test', B_TOKEN: 'EMPTY', C_TOKEN: 'none' })).toBe('{"split": "test"} EMPTY none')
  })

  it('keeps JSON valid when a numeric secret stands as a number', () => {
    const env = { PIN_TOKEN: '424242', LONG_TOKEN: '12345678901' }
    const text = `${JSON.stringify({ count: 424242, big: 12345678901, note: 'pin 424242 and 12345678901' }, null, 2)}\n`
    const clean = redactJsonText(text, 2, env)
    expect(JSON.parse(clean)).toEqual({ count: 424242, big: 12345678901, note: `pin ${REDACTED} and ${REDACTED}` })
    expect(clean.endsWith('}\n')).toBe(true)
    expect(redactJson({ count: 424242, note: '424242' }, env)).toEqual({ count: 424242, note: REDACTED })
    expect(createRedactor(env).redactJsonText(JSON.stringify({ n: 424242, s: 'x 424242' }))).toBe(JSON.stringify({ n: 424242, s: `x ${REDACTED}` }))
  })

  it('a file written with writeFileAtomic or writeJsonAtomic holds no letters-only or short key', () => {
    vi.stubEnv('OPENAI_API_KEY', 'localsecretkey')
    vi.stubEnv('LOCAL_LLM_TOKEN', 'ollama')
    writeJsonAtomic(join(dir, 'letters.json'), { answer: 'key localsecretkey and ollama' })
    writeFileAtomic(join(dir, 'letters.txt'), 'key localsecretkey and ollama')
    expect(JSON.parse(readFileSync(join(dir, 'letters.json'), 'utf8'))).toEqual({ answer: `key ${REDACTED} and ${REDACTED}` })
    expect(readFileSync(join(dir, 'letters.txt'), 'utf8')).toBe(`key ${REDACTED} and ${REDACTED}`)
  })

  it('is applied to every file we write and to every error we throw', () => {
    vi.stubEnv('ACME_API_KEY', 'sk-acme-0011223344')
    writeJsonAtomic(join(dir, 'out.json'), { echoed: 'provider said: bad key sk-acme-0011223344', nested: [{ authorization: 'Bearer abc.def' }] })
    const text = readFileSync(join(dir, 'out.json'), 'utf8')
    expect(text).not.toContain('sk-acme-0011223344')
    expect(text).not.toContain('abc.def')
    expect(JSON.parse(text)).toEqual({ echoed: `provider said: bad key ${REDACTED}`, nested: [{ authorization: REDACTED }] })
    const error = new ConfigError('key sk-acme-0011223344 rejected by https://u:pw-secret-1@h.example', { hint: 'Check ACME_API_KEY.' })
    expect(error.message).not.toContain('sk-acme-0011223344')
    expect(error.message).not.toContain('pw-secret-1')
    expect(error.message).toContain('Check ACME_API_KEY.')
  })

  it('a redactor reads the environment once and still sees secrets registered later', () => {
    const env: Record<string, string> = { ACME_API_KEY: 'sk-acme-snapshot-1' }
    const redactor = createRedactor(env)
    env.OTHER_TOKEN = 'tok-added-later-22'
    expect(redactor.redact('sk-acme-snapshot-1 tok-added-later-22')).toBe(`${REDACTED} tok-added-later-22`)
    registerSecret('registered-later-77')
    expect(redactor.redactJson({ a: 'x registered-later-77 sk-acme-snapshot-1' })).toEqual({ a: `x ${REDACTED} ${REDACTED}` })
    expect(redact('tok-added-later-22', env)).toBe(REDACTED)
  })

  it('redacts the JSON-escaped form of a secret whose first characters JSON escapes, in a text without the raw form', () => {
    const env = { ACME_API_KEY: 'a"b\\c-secret-99' }
    const line = JSON.stringify({ echoed: `key ${env.ACME_API_KEY} rejected` })
    expect(line).not.toContain(env.ACME_API_KEY)
    expect(createRedactor(env).redact(line)).toBe(JSON.stringify({ echoed: `key ${REDACTED} rejected` }))
    expect(redact(line, env)).toBe(JSON.stringify({ echoed: `key ${REDACTED} rejected` }))
  })

  it("a redactor's extra secrets count for it alone, from 6 characters", () => {
    const redactor = createRedactor({}, ['k-4242', 'abcde', 'sk-"extra"-key'])
    expect(redactor.redact(`k-4242 abcde ${JSON.stringify('sk-"extra"-key')}`)).toBe(`${REDACTED} abcde "${REDACTED}"`)
    expect(createRedactor({}).redact('k-4242')).toBe('k-4242')
  })

  it('redacts URL userinfo and secret query values wherever they are in a long text, and leaves other URLs alone', () => {
    const line = `{"baseURL":"http://127.0.0.1:4000/v1","note":"see https://h.example/a?b=1 and mail bob@h.example","x":"${'word '.repeat(2000)}"}`
    expect(redactUrl(line)).toBe(line)
    expect(redactUrl(`${line} git+ssh://deploy:pw-1234567@git.example/repo s3://bucket/key?token=abc123`)).toBe(
      `${line} git+ssh://${REDACTED}@git.example/repo s3://bucket/key?token=${REDACTED}`,
    )
    // Userinfo ends at the first '@'; a '/' before it means a path, not userinfo.
    expect(redactUrl('https://u:p@h.example/x@y https://h.example/a:b@c')).toBe(`https://${REDACTED}@h.example/x@y https://h.example/a:b@c`)
    expect(redactUrl('1http://u:p@h')).toBe('1http://u:p@h')
    expect(redactUrl('x.http://u:p@h')).toBe(`x.http://${REDACTED}@h`)
  })

  it('redacts registered secrets and JSON values', () => {
    registerSecret('registered-secret-42')
    expect(redactJson({ a: ['x registered-secret-42 y'] })).toEqual({ a: [`x ${REDACTED} y`] })
    expect(redact('nothing to hide')).toBe('nothing to hide')
  })
})

describe('resolveInside', () => {
  it('joins plain names and refuses to leave the root', () => {
    expect(resolveInside(dir, 'a_b.json', 'name')).toBe(join(dir, 'a_b.json'))
    expect(resolveInside(dir, '..a.json', 'name')).toBe(join(dir, '..a.json'))
    expect(() => resolveInside(dir, '../x.json', 'scenario_id "../x"')).toThrow(/scenario_id "\.\.\/x" resolves to .* outside/)
    expect(() => resolveInside(dir, '/etc/passwd', 'name')).toThrow(/outside/)
  })
})
