import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startVitest } from 'vitest/node'
import { FIXTURE_CONFIG, REPO_ROOT, fixtureEnv, fixtureResponder, scratchDir, withEnv } from '../../fixtures/arte-e2e/harness.ts'
import { REDACTED, redact, redactUrl } from '../core/redact.ts'
import { lastUserText, scriptedError, scriptedToolCalls, startScriptedServer } from '../testing/scripted-server.ts'
import { ArteReporter } from './vitest/reporter.ts'
import { outputRecorder } from '../testing/output-recorder.ts'
import { scaledMs } from '../testing/time-scale.ts'

const KEY = 'sk-redaction-test-4f9c2a7e1b'
const URL_KEY = 'url-secret-93be1d07aa'

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('redact', () => {
  it('removes env keys, header values and URL secrets', () => {
    const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `https://proxy.example/v1?api-key=${URL_KEY}` }
    expect(redact(`key ${KEY} and ${JSON.stringify(KEY)}`, env)).toBe(`key ${REDACTED} and "${REDACTED}"`)
    expect(redact('Authorization: Bearer abc.def-123', {})).toBe(`Authorization: ${REDACTED}`)
    expect(redact('{"api-key":"zz-top-99"}', {})).toBe(`{"api-key":"${REDACTED}"}`)
    expect(redactUrl('https://bob:hunter22@proxy.example/v1?api-version=2024&api-key=abc123456')).toBe(
      `https://${REDACTED}@proxy.example/v1?api-version=2024&api-key=${REDACTED}`,
    )
    expect(redact(`leaked ${URL_KEY}`, env)).toBe(`leaked ${REDACTED}`)
    expect(redact('the meeting is in room 4B at 10:00', env)).toBe('the meeting is in room 4B at 10:00')
    expect(redact('a production build', { DEPLOY_KEY: 'production' })).toBe('a production build')
  })
})

describe('no secret in anything a run writes (ART-E fixture, scripted server)', () => {
  const scratch = scratchDir('arte-redaction')
  afterAll(() => scratch.remove())

  it(
    'keeps the key (echoed by the server, in the base URL) out of results, traces, call logs, cassettes and console',
    async () => {
      const responder = fixtureResponder()
      await using server = await startScriptedServer((request, index) => {
        const question = lastUserText(request)
        // 103: the provider rejects the key and echoes it; 102: the scripted answer quotes it with its header.
        if (question.includes('chairs'))
          return scriptedError(401, {
            body: { error: { message: `Incorrect API key provided: ${KEY}. Authorization: Bearer ${KEY}`, type: 'invalid_request_error' } },
          })
        if (question.includes('catering'))
          return scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer: `Harbor Deli (Authorization: Bearer ${KEY})`, sources: [] } }])
        return responder(request, index)
      })
      const env = fixtureEnv(`${server.baseURL}?api-key=${URL_KEY}`, scratch.dir, {
        OPENAI_API_KEY: KEY,
        BENCH_LLM_LOG_DIR: join(scratch.dir, 'llm-logs'),
        BENCH_CACHE: 'read-write',
        BENCH_CACHE_DIR: join(scratch.dir, 'cassettes'),
      })
      const stdout = outputRecorder()
      const stderr = outputRecorder()
      await withEnv(env, async () => {
        const saved = process.exitCode
        const vitest = await startVitest(
          'test',
          [],
          { config: FIXTURE_CONFIG, root: REPO_ROOT, watch: false, run: true, reporters: ['default', new ArteReporter()] },
          {},
          { stdout: stdout.stream, stderr: stderr.stream },
        )
        await vitest.close()
        process.exitCode = saved
      })
      // The key and the URL secret were really used.
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(server.requests.every((request) => request.path === '/chat/completions')).toBe(true)
      const written = filesUnder(scratch.dir)
      expect(written.some((file) => file.endsWith('results.json'))).toBe(true)
      expect(written.some((file) => file.includes('llm-logs'))).toBe(true)
      expect(written.some((file) => file.includes('cassettes'))).toBe(true)
      for (const file of written) {
        const text = readFileSync(file).toString('latin1')
        expect(text.includes(KEY), `${file} holds the key`).toBe(false)
        expect(text.includes(URL_KEY), `${file} holds the URL secret`).toBe(false)
      }
      const console = stdout.text() + stderr.text()
      expect(console).toContain('103')
      expect(console.includes(KEY)).toBe(false)
      expect(console.includes(URL_KEY)).toBe(false)
      expect(readFileSync(join(scratch.dir, 'results.json'), 'utf8')).toContain(REDACTED)
    },
    scaledMs(60_000),
  )
})
