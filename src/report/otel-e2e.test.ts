import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { readArteResults, type ArteResults } from '../arte/results/results.ts'
import { ArteReporter } from '../arte/vitest/reporter.ts'
import { SummarySchema, type Summary } from '../mpcbench/summary/summary.ts'
import MpcbenchReporter from '../mpcbench/vitest/reporter.ts'
import { childrenOf, type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../testing/otlp-receiver.ts'
import { ReportReporter } from './report-reporter.ts'
import { scaledMs } from '../testing/time-scale.ts'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

let receiver: OtlpReceiver
let results: ArteResults
let summary: Summary
let html: string
let runBench: (resume: boolean) => Promise<void>

/**
 * The offline bench (ART-E demo rows and MPCBench planning, the baseline agent and the `rules` judge) run with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a real OTLP/HTTP receiver and `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`:
 * the spans come from Vitest's worker threads, flushed in the glue's `afterAll`.
 */
beforeAll(async () => {
  receiver = await startOtlpReceiver()
  const dir = mkdtempSync(join(tmpdir(), 'otel-e2e-'))
  for (const name of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GEMINI_API_KEY',
    'OPENAI_BASE_URL',
    'BENCH_AGENT_MODEL',
    'BENCH_JUDGE_MODEL',
    'ARTE_THRESHOLDS',
    'GITHUB_STEP_SUMMARY',
    'BENCH_TRIALS',
    'BENCH_RESUME',
  ]) {
    vi.stubEnv(name, '')
  }
  for (const name of [
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'OTEL_EXPORTER_OTLP_HEADERS',
    'OTEL_SERVICE_NAME',
    'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT',
  ])
    vi.stubEnv(name, '')
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.endpoint)
  vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json')
  vi.stubEnv('ARTE_DB', join(dir, 'arte/mail.db'))
  vi.stubEnv('ARTE_MAILDIR', join(repo, 'data/demo-mailbox/maildir'))
  vi.stubEnv('ARTE_DATASET', '')
  vi.stubEnv('ARTE_LIMIT', '')
  vi.stubEnv('ARTE_SPLIT', '')
  vi.stubEnv('BENCH_REPORT', '')
  vi.stubEnv('ARTE_OUTPUT', join(dir, 'arte/results.json'))
  vi.stubEnv('ARTE_TRACES_DB', join(dir, 'arte/traces.db'))
  vi.stubEnv('MPCBENCH_LOG_DIR', join(dir, 'logs'))
  vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
  vi.stubEnv('BENCH_CACHE', 'off')
  const page = join(dir, 'report/index.html')
  runBench = async (resume) => {
    vi.stubEnv('BENCH_RESUME', resume ? '1' : '')
    const vitest = await startVitest(
      'test',
      ['bench/arte/', 'bench/planning/planning.eval.ts'],
      {
        root: repo,
        config: join(repo, 'vitest.config.ts'),
        project: ['bench'],
        watch: false,
        reporters: [
          new ArteReporter({ silent: true }),
          new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), print: false }),
          new ReportReporter({ outputFile: page, historyDir: join(dir, 'history') }),
        ],
      },
      {},
      { stdout: quiet(), stderr: quiet() },
    )
    await vitest.close()
    results = readArteResults(join(dir, 'arte/results.json'))
    summary = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
    html = readFileSync(page, 'utf8')
  }
  await runBench(false)
}, scaledMs(300_000))

afterAll(async () => {
  vi.unstubAllEnvs()
  await receiver?.close()
})

const rootsOf = (benchmark: string): ReceivedSpan[] =>
  receiver.spans.filter((span) => span.parentSpanId === '' && span.attributes['bench.benchmark'] === benchmark)

describe('npm run bench with OTEL_EXPORTER_OTLP_ENDPOINT and http/json (baseline agent, rules judge)', () => {
  it('ART-E: one trace per task, its root carrying the task id and scores, with chat (baseline) and execute_tool spans under it', () => {
    expect(results.taskResults.length).toBeGreaterThan(0)
    const roots = rootsOf('arte')
    expect(roots).toHaveLength(results.taskResults.length)
    for (const task of results.taskResults) {
      expect(task.otelTraceId, `task ${task.taskId}`).toMatch(/^[0-9a-f]{32}$/)
      const inTrace = roots.filter((span) => span.traceId === task.otelTraceId)
      expect(inTrace, `task ${task.taskId}`).toHaveLength(1)
      const root = inTrace[0] as ReceivedSpan
      expect(root.name).toBe('invoke_agent baseline')
      expect(root.resource['service.name']).toBe('vitest-agent-bench')
      expect(root.attributes).toMatchObject({
        'gen_ai.operation.name': 'invoke_agent',
        'bench.task.id': task.taskId,
        'bench.trial': 1,
        'bench.score.exact_match': task.exactMatch ? 1 : 0,
        'bench.score.semantic_score': task.semanticScore,
        'bench.task.passed': task.exactMatch === true,
      })
      const children = childrenOf(receiver.spans, root)
      const chats = children.filter((span) => span.name === 'chat baseline')
      expect(chats.length, `task ${task.taskId}`).toBeGreaterThan(0)
      for (const chat of chats) {
        // The baseline is not an LLM: its provider is the harness's own label, and it uses no tokens.
        expect(chat.attributes).toMatchObject({
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'vitest-agent-bench.baseline',
          'gen_ai.request.model': 'baseline',
          'gen_ai.usage.input_tokens': 0,
          'gen_ai.usage.output_tokens': 0,
        })
      }
      const tools = children.filter((span) => span.name.startsWith('execute_tool '))
      expect(tools.length, `task ${task.taskId}`).toBeGreaterThan(0)
      for (const tool of tools) expect(tool.name).toBe(`execute_tool ${tool.attributes['gen_ai.tool.name']}`)
      expect(tools.map((tool) => tool.attributes['gen_ai.tool.name'])).toContain('search_emails')
    }
    // Content capture is off by default.
    expect(receiver.spans.some((span) => 'gen_ai.input.messages' in span.attributes || 'gen_ai.tool.call.arguments' in span.attributes)).toBe(false)
  })

  it('MPCBench: one trace per task × agent with its judges (bench.judge) and scores; the summary and run logs name it', () => {
    const scores = Object.values(summary.scores).flat()
    expect(scores.length).toBeGreaterThan(0)
    const roots = rootsOf('mpcbench')
    expect(roots).toHaveLength(scores.length)
    for (const score of scores) {
      const root = roots.find((span) => span.traceId === score.otel_trace_id) as ReceivedSpan
      expect(root, `task ${score.task_id}`).toBeDefined()
      expect(root.attributes).toMatchObject({ 'bench.task.id': score.task_id, 'gen_ai.agent.name': 'baseline' })
      if (score.answer_requirements_satisfaction !== null)
        expect(root.attributes['bench.score.rules.answer_requirements_satisfaction']).toBe(score.answer_requirements_satisfaction)
      // Passed as pass^k and compare count it: requirements >= 4, not merely judged.
      expect(root.attributes['bench.task.passed'], `task ${score.task_id}`).toBe((score.answer_requirements_satisfaction ?? -1) >= 4)
      const names = childrenOf(receiver.spans, root).map((span) => span.name)
      expect(names).toContain('chat baseline')
      expect(names).toContain('bench.judge')
      expect(names.some((name) => name.startsWith('execute_tool '))).toBe(true)
    }
  })

  it("the report's task rows carry each task's trace id", () => {
    for (const task of results.taskResults) expect(html).toContain(`data-otel-trace-id="${task.otelTraceId}"`)
    const first = Object.values(summary.scores).flat()[0]
    expect(html).toContain(`data-otel-trace-id="${first?.otel_trace_id}"`)
  })

  it('BENCH_RESUME=1: each resumed task is a short root span marked bench.resumed_from, with its stored scores and no model or tool call; the results carry its trace id', async () => {
    const first = { arte: new Map(results.taskResults.map((task) => [task.taskId, task])), mpcbench: Object.values(summary.scores).flat() }
    const before = receiver.spans.length
    await runBench(true)
    const spans = receiver.spans.slice(before)
    const roots = (benchmark: string) => spans.filter((span) => span.parentSpanId === '' && span.attributes['bench.benchmark'] === benchmark)

    expect(results.taskResults.length).toBe(first.arte.size)
    expect(roots('arte')).toHaveLength(results.taskResults.length)
    for (const task of results.taskResults) {
      expect(task.resumedFrom, `task ${task.taskId}`).toBeDefined()
      const root = roots('arte').find((span) => span.traceId === task.otelTraceId) as ReceivedSpan
      expect(root, `task ${task.taskId}`).toBeDefined()
      expect(task.otelTraceId).not.toBe(first.arte.get(task.taskId)?.otelTraceId)
      expect(root.attributes).toMatchObject({
        'bench.task.id': task.taskId,
        'bench.resumed_from': task.resumedFrom,
        'bench.score.exact_match': task.exactMatch ? 1 : 0,
        'bench.score.semantic_score': task.semanticScore,
        'bench.task.passed': task.exactMatch === true,
      })
      expect(childrenOf(spans, root), `task ${task.taskId}`).toEqual([])
    }

    const scores = Object.values(summary.scores).flat()
    expect(scores).toHaveLength(first.mpcbench.length)
    expect(roots('mpcbench')).toHaveLength(scores.length)
    for (const score of scores) {
      const root = roots('mpcbench').find((span) => span.traceId === score.otel_trace_id) as ReceivedSpan
      expect(root, `task ${score.task_id}`).toBeDefined()
      const earlier = first.mpcbench.find((row) => row.task_id === score.task_id)
      expect(root.attributes).toMatchObject({ 'bench.task.id': score.task_id, 'bench.resumed_trace_id': earlier?.otel_trace_id })
      expect(String(root.attributes['bench.resumed_from'])).toMatch(/\.json$/)
      if (score.answer_requirements_satisfaction !== null)
        expect(root.attributes['bench.score.rules.answer_requirements_satisfaction']).toBe(score.answer_requirements_satisfaction)
      // Passed as pass^k and compare count it: requirements >= 4, not merely judged.
      expect(root.attributes['bench.task.passed'], `task ${score.task_id}`).toBe((score.answer_requirements_satisfaction ?? -1) >= 4)
      expect(childrenOf(spans, root), `task ${score.task_id}`).toEqual([])
    }
  }, 300_000)
})
