import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { type EvalResults, EvalResultsSchema } from '../results/eval-results.ts'
import { childrenOf, type ReceivedSpan, startOtlpReceiver } from '../testing/otlp-receiver.ts'
import { type ReceivedRequest, lastUserText, scriptedText, startScriptedServer } from '../testing/scripted-server.ts'
import { EvalReporter } from './eval-reporter.ts'

const root = fileURLToPath(new URL('../../fixtures/describe-eval-judge/', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })
const dirs: string[] = []

afterEach(() => {
  vi.unstubAllEnvs()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/**
 * The scripted server of the fixture: the agent (`scripted-agent`) answers the capital, the judge (`scripted-judge`)
 * gives 4 of 5. Scripted replies, not model output.
 */
function respond(request: ReceivedRequest) {
  if (request.body.model === 'scripted-judge') return scriptedText(JSON.stringify({ score: 4, reason: 'scripted judge: right city' }))
  return scriptedText(lastUserText(request).includes('Peru') ? 'Lima' : 'Paris')
}

/** Runs fixtures/describe-eval-judge with the eval reporter; returns the folder of its results, call log and cassettes. */
async function runFixture(baseURL: string, env: Record<string, string>, dir: string): Promise<EvalResults> {
  vi.stubEnv('OPENAI_BASE_URL', baseURL)
  vi.stubEnv('OPENAI_API_KEY', 'test-key')
  vi.stubEnv('BENCH_LLM_MAX_RETRIES', '0')
  vi.stubEnv('BENCH_LLM_LOG_DIR', join(dir, 'llm-log'))
  vi.stubEnv('EVAL_OUTPUT_DIR', join(dir, 'evals'))
  vi.stubEnv('BENCH_HISTORY_DIR', join(dir, 'history'))
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', '')
  vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '')
  vi.stubEnv('BENCH_TRIALS', '')
  vi.stubEnv('BENCH_CACHE', '')
  vi.stubEnv('BENCH_RESUME', '')
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  const vitest = await startVitest(
    'test',
    [],
    { root, watch: false, reporters: [new EvalReporter({ silent: true })] },
    {},
    { stdout: quiet(), stderr: quiet() },
  )
  await vitest.close()
  return EvalResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'evals', 'capitals-judged', 'results.json'), 'utf8')))
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

describe('describeEval with an LLM judge (fixtures/describe-eval-judge)', () => {
  it("traces each case as one trace: invoke_agent > the task's chat, bench.judge > the judge's chat; the scores on the root; the results rows carry the trace id", async () => {
    await using server = await startScriptedServer(respond)
    await using receiver = await startOtlpReceiver()
    const dir = tempDir('describe-eval-judge-otel-')
    const results = await runFixture(server.baseURL, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, dir)
    expect(server.requests).toHaveLength(4)

    const roots = receiver.spans.filter((span) => span.parentSpanId === '')
    expect(roots.map((span) => span.attributes['bench.task.id']).sort()).toEqual(['fr', 'pe'])
    // Every span of the run is in one of the two case traces: nothing outside them.
    expect(new Set(receiver.spans.map((span) => span.traceId))).toEqual(new Set(roots.map((span) => span.traceId)))
    for (const rootSpan of roots) {
      const id = String(rootSpan.attributes['bench.task.id'])
      expect(rootSpan.name, id).toBe('invoke_agent capitals judged')
      expect(rootSpan.attributes, id).toMatchObject({ 'bench.benchmark': 'eval', 'bench.score.capitalJudge': 0.8, 'bench.task.passed': true })
      const children = childrenOf(receiver.spans, rootSpan)
      expect(children.map((span) => span.name).sort(), id).toEqual(['bench.judge', 'chat scripted-agent'])
      const judge = children.find((span) => span.name === 'bench.judge') as ReceivedSpan
      expect(judge.attributes, id).toEqual({ 'bench.judge.model': 'scripted-judge', 'bench.judge.kind': 'llm', 'bench.judge.name': 'capitalJudge' })
      const judgeCalls = childrenOf(receiver.spans, judge)
      expect(
        judgeCalls.map((span) => [span.name, span.attributes['bench.purpose']]),
        id,
      ).toEqual([['chat scripted-judge', 'judge-scorer']])
      expect(children.find((span) => span.name === 'chat scripted-agent')?.attributes['bench.purpose'], id).toBe('agent')
    }

    // The results file's rows carry the trace id the receiver got for their case.
    const traceOf = new Map(roots.map((span) => [span.attributes['bench.task.id'], span.traceId]))
    expect(results.taskResults.map((row) => [row.id, row.otelTraceId])).toEqual([
      ['fr', traceOf.get('fr')],
      ['pe', traceOf.get('pe')],
    ])
    for (const row of results.taskResults) expect(row.otelTraceId).toMatch(/^[0-9a-f]{32}$/)
  }, 120_000)

  it("judge calls go through the response cache in the trial's scope and the call log; a replay run calls no model and gives the same scores", async () => {
    await using server = await startScriptedServer(respond)
    const dir = tempDir('describe-eval-judge-cache-')
    const cassettes = join(dir, 'cassettes')
    const recorded = await runFixture(server.baseURL, { BENCH_CACHE: 'read-write', BENCH_CACHE_DIR: cassettes, BENCH_TRIALS: '2' }, dir)
    // 2 cases x 2 trials x (agent + judge): the judge's request of trial 2 is the same as trial 1's, but not replayed from it.
    expect(server.requests).toHaveLength(8)
    const stored = readdirSync(cassettes).map((file) => JSON.parse(readFileSync(join(cassettes, file), 'utf8')) as { model: string; scope?: string })
    expect(stored.map((cassette) => `${cassette.model} ${cassette.scope ?? 'default'}`).sort()).toEqual([
      'scripted-agent default',
      'scripted-agent default',
      'scripted-agent trial-2',
      'scripted-agent trial-2',
      'scripted-judge default',
      'scripted-judge default',
      'scripted-judge trial-2',
      'scripted-judge trial-2',
    ])

    const replayed = await runFixture(server.baseURL, { BENCH_CACHE: 'replay', BENCH_CACHE_DIR: cassettes, BENCH_TRIALS: '2' }, dir)
    expect(server.requests).toHaveLength(8)
    const scores = (results: EvalResults) => results.taskResults.map((row) => [row.id, row.trial, row.scores.capitalJudge])
    expect(scores(replayed)).toEqual(scores(recorded))
    expect(scores(replayed)).toEqual([
      ['fr', 1, 0.8],
      ['fr', 2, 0.8],
      ['pe', 1, 0.8],
      ['pe', 2, 0.8],
    ])

    const logDir = join(dir, 'llm-log')
    const entries = readdirSync(logDir, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.jsonl'))
      .flatMap((file) => readFileSync(join(logDir, file), 'utf8').trim().split('\n'))
      .map((line) => JSON.parse(line) as { purpose: string | null; cached: boolean })
    const judged = entries.filter((entry) => entry.purpose === 'judge-scorer')
    expect(judged.map((entry) => entry.cached).sort()).toEqual([false, false, false, false, true, true, true, true])
  }, 120_000)

  it('BENCH_RESUME=1: a resumed case calls no model and gets a short root span marked bench.resumed_from, with its stored scores and a link to the earlier trace', async () => {
    await using server = await startScriptedServer(respond)
    await using receiver = await startOtlpReceiver()
    const dir = tempDir('describe-eval-judge-resume-')
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }
    const first = await runFixture(server.baseURL, otel, dir)
    const firstTraces = new Map(first.taskResults.map((row) => [row.id, row.otelTraceId]))
    const spansBefore = receiver.spans.length
    const resumed = await runFixture(server.baseURL, { ...otel, BENCH_RESUME: '1' }, dir)
    expect(server.requests).toHaveLength(4)

    const spans = receiver.spans.slice(spansBefore)
    // One span per case, no model call under it.
    expect(spans.map((span) => [span.attributes['bench.task.id'], span.parentSpanId]).sort()).toEqual([
      ['fr', ''],
      ['pe', ''],
    ])
    for (const span of spans) {
      const id = String(span.attributes['bench.task.id'])
      expect(span.name, id).toBe('invoke_agent capitals judged')
      expect(span.attributes, id).toMatchObject({
        'bench.benchmark': 'eval',
        'bench.resumed_from': first.config.runId,
        'bench.resumed_trace_id': firstTraces.get(id),
        'bench.score.capitalJudge': 0.8,
        'bench.task.passed': true,
      })
      expect(span.traceId, id).not.toBe(firstTraces.get(id))
    }
    // The rows say they were resumed and carry this run's trace id (its span links to the earlier trace).
    const traceOf = new Map(spans.map((span) => [span.attributes['bench.task.id'], span.traceId]))
    expect(resumed.taskResults.map((row) => [row.id, row.resumedFrom, row.otelTraceId])).toEqual([
      ['fr', first.config.runId, traceOf.get('fr')],
      ['pe', first.config.runId, traceOf.get('pe')],
    ])
  }, 120_000)
})
