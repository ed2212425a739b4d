import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startVitest } from 'vitest/node'
import { FIXTURE_CONFIG, REPO_ROOT, fixtureEnv, fixtureResponder, scratchDir, withEnv } from '../../fixtures/arte-e2e/harness.ts'
import { ArteReporter } from '../arte/vitest/reporter.ts'
import { REDACTED } from '../core/redact.ts'
import { outputRecorder } from '../testing/output-recorder.ts'
import { lastUserText, scriptedError, scriptedToolCalls, startScriptedServer } from '../testing/scripted-server.ts'
import { ReportReporter } from './report-reporter.ts'
import { scaledMs } from '../testing/time-scale.ts'

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('no key in any file or stream a run writes (ART-E fixture, scripted server, every reporter)', () => {
  it(
    'redacts a self-chosen letters-only key and a short key (whole words) in every file and stream the run writes',
    async () => {
      // A local server's self-chosen key (letters only) and a short one (`ollama`), both echoed back in answers.
      const LETTERS = 'localsecretkey'
      const SHORT = 'ollama'
      const run = scratchDir('arte-redaction-by-value')
      try {
        const responder = fixtureResponder()
        await using server = await startScriptedServer((request, index) => {
          const question = lastUserText(request)
          if (question.includes('catering'))
            return scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer: `Harbor Deli, key ${LETTERS} and ${SHORT}`, sources: [] } }])
          if (question.includes('chairs'))
            return scriptedError(401, { body: { error: { message: `Incorrect API key provided: ${LETTERS} (${SHORT}).`, type: 'invalid_request_error' } } })
          return responder(request, index)
        })
        const junit = join(run.dir, 'junit.xml')
        const jobSummary = join(run.dir, 'job-summary.md')
        const env = fixtureEnv(server.baseURL, run.dir, {
          OPENAI_API_KEY: LETTERS,
          LOCAL_LLM_TOKEN: SHORT,
          BENCH_LLM_LOG_DIR: join(run.dir, 'llm-logs'),
          BENCH_CACHE: 'read-write',
          BENCH_CACHE_DIR: join(run.dir, 'cassettes'),
          GITHUB_STEP_SUMMARY: jobSummary,
        })
        const stdout = outputRecorder()
        const stderr = outputRecorder()
        await withEnv(env, async () => {
          const saved = process.exitCode
          const vitest = await startVitest(
            'test',
            [],
            {
              config: FIXTURE_CONFIG,
              root: REPO_ROOT,
              watch: false,
              run: true,
              reporters: ['default', new ArteReporter(), new ReportReporter(), ['junit', { includeConsoleOutput: true }]],
              outputFile: { junit },
            },
            {},
            { stdout: stdout.stream, stderr: stderr.stream },
          )
          await vitest.close()
          process.exitCode = saved
        })
        expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${LETTERS}`)
        const written = filesUnder(run.dir)
        for (const kind of ['results.json', 'traces.db', 'report.html', 'junit.xml', 'job-summary.md', 'llm-logs', 'cassettes', 'history']) {
          expect(
            written.some((file) => file.includes(kind)),
            `the run wrote ${kind}`,
          ).toBe(true)
        }
        const shortWord = new RegExp(`\\b${SHORT}\\b`)
        const leaks = written.flatMap((file) => {
          const text = readFileSync(file).toString('latin1')
          const name = relative(run.dir, file)
          return [...(text.includes(LETTERS) ? [`${name}: key`] : []), ...(shortWord.test(text) ? [`${name}: short key`] : [])]
        })
        expect(leaks).toEqual([])
        const console = stdout.text() + stderr.text()
        expect(console.includes(LETTERS)).toBe(false)
        expect(shortWord.test(console)).toBe(false)
        expect(readFileSync(join(run.dir, 'results.json'), 'utf8')).toContain(`Harbor Deli, key ${REDACTED} and ${REDACTED}`)
      } finally {
        run.remove()
      }
    },
    scaledMs(120_000),
  )
})
