import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { ARTE_METRIC_NAMES, readArteResults, type ArteResults } from '../arte/results/results.ts'
import { ArteReporter } from '../arte/vitest/reporter.ts'
import { SummarySchema, type Summary } from '../mpcbench/summary/summary.ts'
import MpcbenchReporter from '../mpcbench/vitest/reporter.ts'
import { NO_BROWSER_MESSAGE, systemChromium } from '../testing/system-browser.ts'
import { formatArteMetric } from './arte-view.ts'
import { command as reportCommand } from './cli/report.ts'
import { ReportReporter } from './report-reporter.ts'
import { scaledMs } from '../testing/time-scale.ts'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

interface Run {
  dir: string
  results: ArteResults
  summary: Summary
  html: string
  page: string
}

let run: Run

/** The JSON the page embeds (`<script id="report-data">`). */
function embedded(html: string): {
  arte: Array<{ results: unknown; traces: Record<string, unknown> }>
  mpcbench: Array<{ summary: unknown; tasks: unknown[] }>
} {
  const match = /<script id="report-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)
  if (match?.[1] === undefined) throw new Error('no embedded report data')
  return JSON.parse(match[1])
}

/** `data-value` of every element with attribute `name="key"`, as a map. */
function dataValues(html: string, name: string): Map<string, string> {
  const map = new Map<string, string>()
  for (const match of html.matchAll(new RegExp(`${name}="([^"]+)" data-value="([^"]*)">([^<]*)<`, 'g'))) map.set(match[1] as string, `${match[2]}|${match[3]}`)
  return map
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-e2e-'))
  for (const name of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GEMINI_API_KEY',
    'OPENAI_BASE_URL',
    'BENCH_AGENT_MODEL',
    'BENCH_JUDGE_MODEL',
    'ARTE_THRESHOLDS',
    'GITHUB_STEP_SUMMARY',
  ]) {
    vi.stubEnv(name, '')
  }
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
  run = {
    dir,
    results: readArteResults(join(dir, 'arte/results.json')),
    summary: SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))),
    html: readFileSync(page, 'utf8'),
    page,
  }
}, scaledMs(240_000))

afterAll(() => {
  vi.unstubAllEnvs()
})

describe('the HTML report of a bench run (ART-E demo rows + MPCBench planning, baseline × rules)', () => {
  it('is one self-contained file: no external script, style, image or font', () => {
    expect(run.results.totalTasks).toBeGreaterThan(0)
    expect(run.summary.tests).toBeGreaterThan(0)
    expect(run.html).not.toMatch(/<script[^>]+src=|<link[^>]+rel="stylesheet"|https?:\/\/(?!www\.w3\.org\/2000\/svg)/)
    expect(run.html).toContain('<svg class="chart"')
  })

  it('shows the ART-E metrics, usage and per-task scores of results.json', () => {
    const metrics = dataValues(run.html, 'data-metric')
    for (const name of ARTE_METRIC_NAMES) {
      expect(metrics.get(name), name).toBe(`${run.results[name]}|${formatArteMetric(name, run.results[name])}`)
    }
    const usage = dataValues(run.html, 'data-usage')
    expect(usage.get('totalTokens')?.split('|')[0]).toBe(String(run.results.usage.totalTokens))
    expect(usage.get('calls')?.split('|')[0]).toBe(String(run.results.usage.calls))
    const data = embedded(run.html)
    expect(data.arte[0]?.results).toEqual(JSON.parse(readFileSync(join(run.dir, 'arte/results.json'), 'utf8')))
    for (const task of run.results.taskResults) {
      expect(run.html).toContain(`data-task-id="${task.taskId}" data-trace-id="${task.traceId}" data-pass="${task.exactMatch ? 1 : 0}"`)
      expect(data.arte[0]?.traces[task.traceId], `trace of task ${task.taskId}`).toMatchObject({ traceId: task.traceId })
    }
    const bars = [...run.html.matchAll(/data-chart="arte-0-semantic-histogram"[\s\S]*?<\/svg>/g)][0]?.[0] ?? ''
    const counts = [...bars.matchAll(/class="bar"[^>]*data-value="(\d+)"/g)].map((m) => Number(m[1]))
    expect(counts.reduce((a, b) => a + b, 0)).toBe(run.results.totalTasks - run.results.notRunTasks)
  })

  it('shows the MPCBench table of summary.json and every task with its run log and judge result', () => {
    run.summary.rows.forEach((row, i) => {
      for (const field of ['mean_answer_requirements_satisfaction', 'mean_source_grounded_reasoning', 'count', 'scored', 'failures'] as const) {
        const match = new RegExp(`data-row="${i}" data-field="${field}" data-value="([^"]*)"`).exec(run.html)
        expect(match?.[1], `row ${i} ${field}`).toBe(String(row[field] ?? ''))
      }
    })
    const data = embedded(run.html)
    expect(data.mpcbench[0]?.summary).toEqual(JSON.parse(readFileSync(join(run.dir, 'summary.json'), 'utf8')))
    const scored = Object.values(run.summary.scores).flat()
    expect(data.mpcbench[0]?.tasks).toHaveLength(scored.length)
    for (const task of data.mpcbench[0]?.tasks ?? []) expect(task).toMatchObject({ runLog: { task_id: expect.any(String) }, judgeResult: { kind: 'scored' } })
  })

  it('agent-bench report writes the same page from the saved files', async () => {
    const out = join(run.dir, 'cli/index.html')
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    const code = await reportCommand.run([
      '--results',
      join(run.dir, 'arte/results.json'),
      '--results',
      join(run.dir, 'summary.json'),
      '--traces-db',
      join(run.dir, 'arte/traces.db'),
      '--log-dir',
      join(run.dir, 'logs'),
      '--history',
      join(run.dir, 'history'),
      '--out',
      out,
    ])
    expect(code).toBe(0)
    expect(log.mock.calls[0]?.[0]).toMatch(/^Report written to .*cli\/index\.html \(ART-E .*results\.json, MPCBench .*summary\.json\)$/)
    log.mockRestore()
    const html = readFileSync(out, 'utf8')
    const strip = (page: string) => page.replace(/generated [^<]+/, '').replace(/"generatedAt":"[^"]+"/, '')
    expect(strip(html).replaceAll(run.dir, 'DIR')).toBe(strip(run.html).replaceAll(run.dir, 'DIR'))
  })

  it.skipIf(systemChromium() === undefined)(
    `opens in headless Chromium: numbers, a plot, a trace, a run log, sorting and filtering, no console errors${systemChromium() === undefined ? ` (${NO_BROWSER_MESSAGE})` : ''}`,
    async () => {
      const { chromium } = await import('playwright-core')
      const browser = await chromium.launch({ executablePath: systemChromium(), args: ['--no-sandbox'] })
      try {
        const page = await browser.newPage()
        const problems: string[] = []
        page.on('console', (message) => {
          if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`)
        })
        page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
        page.on('request', (request) => {
          if (!request.url().startsWith('file:') && !request.url().startsWith('data:')) problems.push(`request: ${request.url()}`)
        })
        await page.goto(pathToFileURL(run.page).href)

        for (const name of ['exactMatchAccuracy', 'avgSemanticScore', 'totalTasks'] as const) {
          await expect.poll(() => page.locator(`[data-metric="${name}"]`).textContent()).toBe(formatArteMetric(name, run.results[name]))
        }
        const first = run.summary.rows[0]
        expect(await page.locator('[data-row="0"][data-field="mean_answer_requirements_satisfaction"]').textContent()).toContain(
          first?.mean_answer_requirements_satisfaction?.toFixed(2),
        )
        expect(await page.locator('svg.chart rect.bar').count()).toBeGreaterThan(0)
        expect((await page.locator('svg.chart').first().boundingBox())?.height ?? 0).toBeGreaterThan(50)

        const arte = page.locator('section[data-bench="arte"]')
        const task = run.results.taskResults[0]
        await arte.locator(`tr.task[data-task-id="${task?.taskId}"] button.open`).click()
        const trace = arte.locator('tr.detail .trace')
        await expect.poll(() => trace.textContent()).toContain(task?.question)
        expect(await trace.locator('li.msg').count()).toBeGreaterThan(1)
        expect(await trace.locator('table.calls tr.call').count()).toBeGreaterThan(0)

        const mpc = page.locator('section[data-bench="mpcbench"]')
        await mpc.locator('tr.task button.open').first().click()
        const log = mpc.locator('tr.detail .trace')
        await expect.poll(() => log.textContent()).toContain('answer_requirements_satisfaction')
        expect(await log.locator('.justification').count()).toBe(2)

        await arte.locator('input.filter').fill(task?.question ?? '')
        expect(await arte.locator('tr.task:not([hidden])').count()).toBe(1)
        await arte.locator('input.filter').fill('')
        await arte.locator('th', { hasText: 'Jaccard' }).click()
        const scores = await arte.locator('tr.task td[data-field="semanticScore"]').allTextContents()
        expect(scores.map(Number)).toEqual([...scores.map(Number)].sort((a, b) => a - b))

        expect(problems).toEqual([])
      } finally {
        await browser.close()
      }
    },
    60_000,
  )
})
