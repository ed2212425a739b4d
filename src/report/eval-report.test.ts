import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { startVitest } from 'vitest/node'
import { EvalReporter } from '../eval/eval-reporter.ts'
import { NO_BROWSER_MESSAGE, systemChromium } from '../testing/system-browser.ts'
import { ReportReporter } from './report-reporter.ts'
import { command as reportCommand } from './cli/report.ts'
import { scaledMs } from '../testing/time-scale.ts'

const root = fileURLToPath(new URL('../../fixtures/eval-results/', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })
const VARIABLES = ['BENCH_TRIALS', 'EVAL_OUTPUT_DIR', 'BENCH_HISTORY_DIR', 'GITHUB_STEP_SUMMARY', 'EVAL_FIXTURE_VARIANT', 'BENCH_REPORT'] as const
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]))
afterAll(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name]
    else process.env[name] = saved[name]
  }
})

const dir = mkdtempSync(join(tmpdir(), 'eval-report-'))
const page = join(dir, 'report', 'index.html')
const summary = join(dir, 'step-summary.md')

/** Runs the fixture's evals with the eval reporter, then the report reporter (as the default reporters list them). */
async function run(variant: 'a' | 'b'): Promise<void> {
  Object.assign(process.env, {
    BENCH_TRIALS: '2',
    EVAL_OUTPUT_DIR: join(dir, 'evals'),
    BENCH_HISTORY_DIR: join(dir, 'history'),
    GITHUB_STEP_SUMMARY: summary,
    EVAL_FIXTURE_VARIANT: variant,
  })
  const vitest = await startVitest(
    'test',
    [],
    { root, watch: false, reporters: [new EvalReporter({ silent: true }), new ReportReporter({ outputFile: page })] },
    {},
    { stdout: quiet(), stderr: quiet() },
  )
  await vitest.close()
}

/** The data the page embeds (`<script id="report-data">`). */
function embedded(): {
  evals: Array<{ results: { name: string; trials: number }; comparison?: { improved: string[]; regressed: string[]; flips: string[]; pValue: number | null } }>
} {
  const html = readFileSync(page, 'utf8')
  const json = /<script id="report-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}'
  return JSON.parse(json)
}

describe('the report of evals (fixtures/eval-results, two runs)', () => {
  it(
    'shows a section per eval with metrics, pass^k, the cases and, on the second run, the comparison with the first; the job summary lists it',
    async () => {
      await run('a')
      const first = readFileSync(page, 'utf8')
      expect(first).toContain('<h2>Eval: capitals</h2>')
      expect(first).toContain('<h2>Eval: slow</h2>')
      expect(first).toContain('No earlier run of this eval in the run history')
      expect(first).toMatch(/data-eval-pass-hat-k/)
      expect(first.match(/<tr class="eval-case" /g)).toHaveLength(4 * 2 + 1)
      // Without OpenTelemetry no row has a trace id, and no trace column is shown (src/eval/describe-eval-judge.test.ts: with).
      expect(first.match(/<tr class="eval-case" [^>]*>/g)?.filter((row) => row.includes('data-otel-trace-id'))).toEqual([])
      expect(first).not.toContain('<th>OpenTelemetry trace</th>')
      expect(first).toContain('data-chart="eval-0-score-histogram"')
      expect(
        embedded()
          .evals.map((section) => section.results.name)
          .sort(),
      ).toEqual(['capitals', 'slow'])

      await run('b')
      const capitals = embedded().evals.find((section) => section.results.name === 'capitals')
      // Trial 1: fr passed and now fails, xx failed and now passes.
      expect(capitals?.comparison).toMatchObject({ flips: ['fr', 'xx'], improved: ['xx'], regressed: ['fr'] })
      expect(readFileSync(page, 'utf8')).toContain('Compared with the previous run')
      const markdown = readFileSync(summary, 'utf8')
      expect(markdown).toContain('## Eval · capitals · 4 case(s) × 2 trial(s)')
      expect(markdown).toContain('| passRate | 0.750 |')
      expect(markdown).toContain('Since the previous run: passRate ±0.000')
      expect(markdown).toContain('improved 1, regressed 1')

      // `agent-bench report --results` writes the same section from the saved file, with the comparison from the history.
      const saved = join(dir, 'saved.html')
      expect(await reportCommand.run(['--results', join(dir, 'evals', 'capitals', 'results.json'), '--out', saved, '--history', join(dir, 'history')])).toBe(0)
      const html = readFileSync(saved, 'utf8')
      expect(html).toContain('<h2>Eval: capitals</h2>')
      expect(html).toContain('Compared with the previous run')
    },
    scaledMs(240_000),
  )

  const chromium = systemChromium()
  it.skipIf(chromium === undefined)(
    `the page shows the eval sections in headless Chromium without errors${chromium === undefined ? ` (${NO_BROWSER_MESSAGE})` : ''}`,
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
        expect(await tab.locator('section[data-eval="capitals"] h2').textContent()).toBe('Eval: capitals')
        expect(await tab.locator('section[data-eval="capitals"] tr.eval-case').count()).toBe(8)
        expect(await tab.locator('section[data-eval="capitals"] [data-eval-compare]').isVisible()).toBe(true)
        // The page is never wider than the window.
        expect(await tab.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true)
        if (process.env.EVAL_REPORT_SCREENSHOT !== undefined) await tab.screenshot({ path: process.env.EVAL_REPORT_SCREENSHOT, fullPage: true })
        expect(problems).toEqual([])
      } finally {
        await browser.close()
      }
    },
    scaledMs(120_000),
  )
})
