import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import type { ResultsRow } from '../mpcbench-v2/scoring/results-row.ts'
import { type MpcbenchV2Summary, summarizeLevel } from '../mpcbench-v2/scoring/summary.ts'
import MpcbenchV2Reporter from '../mpcbench-v2/vitest/reporter.ts'
import { describeWithSharedData } from '../testing/shared-data.ts'
import { NO_BROWSER_MESSAGE, systemChromium } from '../testing/system-browser.ts'
import { command as reportCommand } from './cli/report.ts'
import { renderReport } from './render-report.ts'
import { ReportReporter } from './report-reporter.ts'
import { stepSummaryMarkdown } from './step-summary.ts'
import { buildReportData } from './write-report.ts'

const repo = fileURLToPath(new URL('../../', import.meta.url))

function row(id: string, f1: number | null): ResultsRow {
  if (f1 === null) return { instance_id: id, metrics: null, pred: null, gold: null, error: 'Tool execution failed: boom' }
  return {
    instance_id: id,
    metrics: { f1, precision: f1, recall: f1, exact_match: f1 === 1 },
    pred: [['2026-01-05T09:00:00-05:00', '2026-01-05T09:30:00-05:00']],
    gold: [['2026-01-05T09:00:00-05:00', '2026-01-05T09:30:00-05:00']],
    error: null,
  }
}

function summary(rows: ResultsRow[], generatedAt: string, traceIds: Array<string | undefined> = []): MpcbenchV2Summary {
  const level = summarizeLevel({
    level: 2,
    worldId: 'world_level2_exp1',
    model: 'openai/gpt-4o',
    modelKind: 'llm',
    trials: new Map(rows.map((r) => [r.instance_id, [r]])),
    traceIds: new Map(rows.map((r, i) => [r.instance_id, [traceIds[i]]])),
  })
  return { benchmark: 'mpcbench-v2', upstream: 'SeokwonJung-Jay/MPCBench@e398410', generatedAt, levels: [level] }
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('the report of an MPCBench v2 summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'v2-report-'))
  const history = join(dir, 'history')
  const before = summary([row('a', 1), row('b', 0.5), row('c', 1)], '2026-01-01T00:00:00.000Z')
  mkdirSync(join(history, '2026-01-01T00-00-00-000Z', 'mpcbench-v2'), { recursive: true })
  writeFileSync(join(history, '2026-01-01T00-00-00-000Z', 'mpcbench-v2', 'summary.json'), JSON.stringify(before))
  const now = summary([row('a', 1), row('b', 1), row('c', 0.25), row('d', null)], '2026-01-02T00:00:00.000Z', ['f'.repeat(32)])
  const file = join(dir, 'summary.json')
  writeFileSync(file, JSON.stringify(now))

  it('shows Avg F1 and EM rate with intervals and pass^k per level x model, every instance, and the comparison with the previous run', async () => {
    vi.stubEnv('BENCH_TRACE_URL', 'http://localhost:16686/trace/')
    const { readResultsFile } = await import('./report-data.ts')
    const data = buildReportData({ results: [readResultsFile(file)], sources: { historyDir: history }, displayRoot: dir })
    const html = renderReport(data)
    const level = now.levels[0]
    if (level === undefined) throw new Error('no level')
    expect(html).toContain('<h2>MPCBench v2 (scheduling levels 1-3)</h2>')
    expect(html).toContain('<a href="#mpcbench-v2-0">MPCBench v2</a>')
    // Upstream's averages are over the scored instances (d failed): F1 (1 + 1 + 0.25) / 3, EM 2 of 3.
    expect(html).toContain(`data-v2-avg-f1="${level.avgF1}">0.75 <span class="ci">[${level.avgF1Ci?.low.toFixed(2)}, ${level.avgF1Ci?.high.toFixed(2)}]</span>`)
    expect(html).toContain(`data-v2-em-rate="${2 / 3}">67% <span class="ci">[`)
    expect(html).toContain('pass^1 0.50')
    expect(html.match(/<tr class="v2-instance" /g)).toHaveLength(4)
    expect(html).toContain('<td class="error">Tool execution failed: boom</td>')
    expect(html).toContain(
      `<a href="http://localhost:16686/trace/${'f'.repeat(32)}" title="${'f'.repeat(32)}" target="_blank" rel="noopener"><code>ffffffff…</code></a>`,
    )
    // Paired by instance id with the kept run: b improved (now exact), c regressed; d is new.
    const comparison = data.mpcbenchV2?.[0]?.previous?.comparisons[0]?.comparison
    expect(comparison).toMatchObject({ tasks: 3, improved: ['b'], regressed: ['c'], onlyInB: ['d'], primaryMetric: 'f1' })
    expect(html).toContain('data-v2-flips="2"')
    expect(html).toContain(`data-v2-delta="f1" data-value="${comparison?.metrics.f1?.delta}"`)

    const markdown = stepSummaryMarkdown(data, 'report/index.html')
    expect(markdown).toContain('## MPCBench v2 · 1 level × model')
    expect(markdown).toContain(
      `| 2 | world_level2_exp1 | openai/gpt-4o | 3 | 0.75 [${level.avgF1Ci?.low.toFixed(2)}, ${level.avgF1Ci?.high.toFixed(2)}] | 0.67 [`,
    )
    expect(markdown).toContain('Since the previous run (level 2 world_level2_exp1 openai/gpt-4o): F1 ')
    expect(markdown).toContain('improved 1, regressed 1')
    expect(markdown).toContain('| c | openai/gpt-4o | 0.25 |')
    expect(markdown).toContain('| d | openai/gpt-4o | - | Tool execution failed: boom |')
  })

  it('shows the trace id to paste into a viewer when BENCH_TRACE_URL is unset; `agent-bench report --results` reads the summary', async () => {
    vi.stubEnv('BENCH_TRACE_URL', '')
    const out = join(dir, 'page.html')
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      expect(await reportCommand.run(['--results', file, '--out', out, '--history', history])).toBe(0)
    } finally {
      log.mockRestore()
    }
    const html = readFileSync(out, 'utf8')
    expect(html).toContain(`data-otel-trace-id="${'f'.repeat(32)}"`)
    expect(html).toContain(`<span title="${'f'.repeat(32)}: paste it in the trace viewer's search`)
    expect(html).not.toContain('localhost:16686')
    expect(html).toContain('Compared with the previous run')
  })

  it('names the file and the field of a v2 summary it cannot read', async () => {
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, JSON.stringify({ ...now, levels: [{ ...now.levels[0], results: undefined }] }))
    const { readResultsFile } = await import('./report-data.ts')
    expect(() => readResultsFile(bad)).toThrow(`${bad} is not a valid MPCBench v2 summary (levels.0.results:`)
  })
})

describeWithSharedData('the report of a real MPCBench v2 run (level 1, the baseline, upstream data)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'v2-report-e2e-'))
  const page = join(dir, 'report', 'index.html')
  const stepSummary = join(dir, 'step-summary.md')

  let output = ''
  const capture = () =>
    new Writable({
      write: (chunk, _encoding, done) => {
        output += String(chunk)
        done()
      },
    })

  async function run(ids: string): Promise<void> {
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'OPENAI_BASE_URL', 'BENCH_AGENT_MODEL', 'BENCH_REPORT']) vi.stubEnv(name, '')
    for (const name of [
      'BENCH_TRIALS',
      'MPCBENCH_V2_SUFFIX',
      'MPCBENCH_V2_DATA_DIR',
      'MPCBENCH_V2_WORLD',
      'MPCBENCH_V2_INSTANCES',
      'MPCBENCH_V2_ORACLE',
      'MPCBENCH_V2_SUMMARY',
      'MPCBENCH_V2_OUTPUT',
    ])
      vi.stubEnv(name, undefined)
    vi.stubEnv('BENCH_ONLY', 'mpcbench-v2')
    vi.stubEnv('MPCBENCH_V2_MODEL', 'baseline')
    vi.stubEnv('MPCBENCH_V2_IDS', ids)
    vi.stubEnv('BENCH_HISTORY_DIR', join(dir, 'history'))
    vi.stubEnv('GITHUB_STEP_SUMMARY', stepSummary)
    vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
    vi.stubEnv('BENCH_CACHE', 'off')
    const vitest = await startVitest(
      'test',
      ['bench/mpcbench-v2/level1.eval.ts'],
      {
        root: repo,
        config: join(repo, 'vitest.config.ts'),
        project: ['bench'],
        watch: false,
        reporters: [new MpcbenchV2Reporter({ outputFile: join(dir, 'v2', 'summary.json'), print: false }), new ReportReporter({ outputFile: page })],
      },
      {},
      { stdout: capture(), stderr: capture() },
    )
    await vitest.close()
  }

  it('writes the v2 section from the run, and on the next run compares with the kept one; the job summary lists it', async () => {
    await run('instance_level1_exp1_000,instance_level1_exp1_001,instance_level1_exp1_002')
    expect(existsSync(page), output).toBe(true)
    const first = readFileSync(page, 'utf8')
    expect(first).toContain('<h2>MPCBench v2 (scheduling levels 1-3)</h2>')
    expect(first.match(/<tr class="v2-instance" /g)).toHaveLength(3)
    expect(first).toContain('No earlier MPCBench v2 run in the run history')
    // The baseline matches the oracle on level 1.
    expect(first).toContain('data-v2-avg-f1="1">1.00')
    await run('instance_level1_exp1_001,instance_level1_exp1_002,instance_level1_exp1_004')
    const second = readFileSync(page, 'utf8')
    expect(second).toContain('data-v2-compare="1 world_level1_exp1 baseline"')
    expect(second).toContain('2 instance(s) in both')
    expect(readFileSync(stepSummary, 'utf8')).toContain('| 1 | world_level1_exp1 | baseline (non-LLM) | 3 | 1.00')
  }, 600_000)

  const chromium = systemChromium()
  it.skipIf(chromium === undefined)(
    `renders in headless Chromium without errors${chromium === undefined ? ` (${NO_BROWSER_MESSAGE})` : ''}`,
    async () => {
      const { chromium: launcher } = await import('playwright-core')
      const browser = await launcher.launch({ executablePath: chromium, args: ['--no-sandbox'] })
      try {
        const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } })
        const problems: string[] = []
        tab.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
        tab.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console: ${message.text()}`)
        })
        await tab.goto(pathToFileURL(page).href)
        expect(await tab.locator('section[data-mpcbench-v2] h2').textContent()).toBe('MPCBench v2 (scheduling levels 1-3)')
        expect(await tab.locator('section[data-mpcbench-v2] tr.v2-instance').count()).toBe(3)
        expect(await tab.locator('section[data-mpcbench-v2] [data-v2-levels]').isVisible()).toBe(true)
        expect(await tab.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true)
        if (process.env.MPCBENCH_V2_REPORT_SCREENSHOT !== undefined) await tab.screenshot({ path: process.env.MPCBENCH_V2_REPORT_SCREENSHOT, fullPage: true })
        expect(problems).toEqual([])
      } finally {
        await browser.close()
      }
    },
    120_000,
  )
})
