import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { EvalReporter } from '../eval/eval-reporter.ts'
import { EvalResultsSchema } from '../results/eval-results.ts'
import { startOtlpReceiver } from '../testing/otlp-receiver.ts'
import { type ReceivedRequest, scriptedText, startScriptedServer } from '../testing/scripted-server.ts'
import { ReportReporter } from './report-reporter.ts'

const root = fileURLToPath(new URL('../../fixtures/describe-eval-judge/', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })
let dir: string | undefined

afterEach(() => {
  vi.unstubAllEnvs()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

/** Scripted replies (not model output): the agent answers, the judge gives 4 of 5. */
function respond(request: ReceivedRequest) {
  return scriptedText(request.body.model === 'scripted-judge' ? JSON.stringify({ score: 4, reason: 'scripted judge' }) : 'Paris')
}

describe('the report of a traced eval (fixtures/describe-eval-judge, OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  it("shows each case row's OpenTelemetry trace id, the one the receiver got, as ART-E's and MPCBench's task rows do", async () => {
    await using server = await startScriptedServer(respond)
    await using receiver = await startOtlpReceiver()
    dir = mkdtempSync(join(tmpdir(), 'eval-otel-report-'))
    const page = join(dir, 'report', 'index.html')
    const env: Record<string, string> = {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'test-key',
      BENCH_LLM_MAX_RETRIES: '0',
      BENCH_LLM_LOG_DIR: 'off',
      BENCH_CACHE: 'off',
      BENCH_TRIALS: '',
      BENCH_RESUME: '',
      BENCH_REPORT: '',
      GITHUB_STEP_SUMMARY: '',
      EVAL_OUTPUT_DIR: join(dir, 'evals'),
      BENCH_HISTORY_DIR: join(dir, 'history'),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
    }
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
    const vitest = await startVitest(
      'test',
      [],
      { root, watch: false, reporters: [new EvalReporter({ silent: true }), new ReportReporter({ outputFile: page })] },
      {},
      { stdout: quiet(), stderr: quiet() },
    )
    await vitest.close()

    const results = EvalResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'evals', 'capitals-judged', 'results.json'), 'utf8')))
    const traces = new Set(receiver.spans.filter((span) => span.parentSpanId === '').map((span) => span.traceId))
    expect(results.taskResults).toHaveLength(2)
    const html = readFileSync(page, 'utf8')
    for (const row of results.taskResults) {
      expect(traces.has(row.otelTraceId as string), row.id).toBe(true)
      expect(html).toContain(`<tr class="eval-case" data-id="${row.id}" data-trial="1" data-otel-trace-id="${row.otelTraceId}">`)
      expect(html).toContain(`<code class="otel-trace-id">${row.otelTraceId}</code>`)
    }
    expect(html).toContain('<th>OpenTelemetry trace</th>')
  }, 120_000)
})
