import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { describeWithSharedData } from '../../testing/shared-data.ts'
import { childrenOf, type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../../testing/otlp-receiver.ts'
import { type MpcbenchV2Summary, MpcbenchV2SummarySchema } from '../scoring/summary.ts'
import MpcbenchV2Reporter from './reporter.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const IDS = ['instance_level1_exp1_000', 'instance_level1_exp1_001']

describeWithSharedData('MPCBench v2 with OTEL_EXPORTER_OTLP_ENDPOINT (level 1, the baseline, two trials)', () => {
  let receiver: OtlpReceiver
  let summary: MpcbenchV2Summary
  let output = ''

  /** The level 1 bench file run through Vitest's worker threads, its spans sent over OTLP/HTTP (JSON) to a real receiver. */
  beforeAll(async () => {
    receiver = await startOtlpReceiver()
    const dir = mkdtempSync(join(tmpdir(), 'v2-otel-'))
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'OPENAI_BASE_URL', 'BENCH_AGENT_MODEL', 'GITHUB_STEP_SUMMARY', 'BENCH_REPORT'])
      vi.stubEnv(name, '')
    for (const name of [
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'OTEL_EXPORTER_OTLP_HEADERS',
      'OTEL_SERVICE_NAME',
      'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT',
    ])
      vi.stubEnv(name, '')
    for (const name of [
      'MPCBENCH_V2_SUFFIX',
      'MPCBENCH_V2_DATA_DIR',
      'MPCBENCH_V2_WORLD',
      'MPCBENCH_V2_INSTANCES',
      'MPCBENCH_V2_ORACLE',
      'MPCBENCH_V2_SUMMARY',
      'MPCBENCH_V2_OUTPUT',
      'MPCBENCH_V2_MAX_TURNS',
    ])
      vi.stubEnv(name, undefined)
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.endpoint)
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json')
    vi.stubEnv('BENCH_ONLY', 'mpcbench-v2')
    vi.stubEnv('MPCBENCH_V2_MODEL', 'baseline')
    vi.stubEnv('MPCBENCH_V2_IDS', IDS.join(','))
    vi.stubEnv('BENCH_TRIALS', '2')
    vi.stubEnv('BENCH_HISTORY_DIR', join(dir, 'history'))
    vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
    vi.stubEnv('BENCH_CACHE', 'off')
    const capture = () =>
      new Writable({
        write: (chunk, _encoding, done) => {
          output += String(chunk)
          done()
        },
      })
    const vitest = await startVitest(
      'test',
      ['bench/mpcbench-v2/level1.eval.ts'],
      {
        root: repo,
        config: join(repo, 'vitest.config.ts'),
        project: ['bench'],
        watch: false,
        reporters: [new MpcbenchV2Reporter({ outputFile: join(dir, 'summary.json'), print: false })],
      },
      {},
      { stdout: capture(), stderr: capture() },
    )
    await vitest.close()
    summary = MpcbenchV2SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
  }, 300_000)

  afterAll(async () => {
    vi.unstubAllEnvs()
    await receiver?.close()
  })

  it('each instance x trial is one trace: an invoke_agent root with its id, trial, scores and pass, chat and execute_tool spans under it', () => {
    const results = summary.levels.flatMap((level) => level.results)
    expect(
      results.map((r) => `${r.instanceId}#${r.trial}`),
      output,
    ).toEqual([`${IDS[0]}#1`, `${IDS[0]}#2`, `${IDS[1]}#1`, `${IDS[1]}#2`])
    const roots = receiver.spans.filter((span) => span.parentSpanId === '' && span.attributes['bench.benchmark'] === 'mpcbench-v2')
    expect(roots).toHaveLength(4)
    for (const result of results) {
      expect(result.otelTraceId, `${result.instanceId} trial ${result.trial}`).toMatch(/^[0-9a-f]{32}$/)
      const root = roots.find((span) => span.traceId === result.otelTraceId) as ReceivedSpan
      expect(root, `${result.instanceId} trial ${result.trial}`).toBeDefined()
      expect(root.name).toBe('invoke_agent baseline')
      expect(root.attributes).toMatchObject({
        'gen_ai.operation.name': 'invoke_agent',
        'bench.task.id': result.instanceId,
        'bench.trial': result.trial,
        'bench.mpcbench_v2.level': 1,
        'bench.score.f1': result.metrics?.f1,
        'bench.score.precision': result.metrics?.precision,
        'bench.score.recall': result.metrics?.recall,
        'bench.score.exact_match': result.metrics?.exact_match === true ? 1 : 0,
        'bench.task.passed': result.metrics?.exact_match === true,
        'bench.task.outcome': 'answered',
      })
      // The harness's own loop over src/llm: each model call is a chat span inside the instance's span, as is each tool call.
      const children = childrenOf(receiver.spans, root)
      expect(children.filter((span) => span.name === 'chat baseline').length).toBeGreaterThan(0)
      const tools = children.filter((span) => span.name.startsWith('execute_tool '))
      expect(tools.map((span) => span.attributes['gen_ai.tool.name'])).toEqual(
        expect.arrayContaining(['get_current_time', 'get_calendar_events', 'get_policy_rules']),
      )
      for (const tool of tools) expect(tool.name).toBe(`execute_tool ${tool.attributes['gen_ai.tool.name']}`)
    }
  })
})
