import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { FIXTURE_USAGE, arteTaskResult } from '../../fixtures/arte-results/task-result.ts'
import type { AgentTrace } from '../agent/trace.ts'
import { computeArteMetrics, type ArteResults, type ArteTaskResult } from '../arte/results/results.ts'
import { TraceStore } from '../arte/results/trace-store.ts'
import { ConfigError, InvalidFormatError } from '../core/errors.ts'
import { REDACTED, registerSecret } from '../core/redact.ts'
import { addUsage } from '../llm/types.ts'
import type { Summary } from '../mpcbench/summary/summary.ts'
import { judgeResultFileName, runLogFileName } from '../mpcbench/tasks/file-names.ts'
import { JudgeResultFileSchema, type JudgeResultFile } from '../mpcbench/judge/judge-result.ts'
import { RunLogSchema, type RunLog } from '../mpcbench/run/run-log.ts'
import { arteComparable } from '../arte/results/comparable.ts'
import { pairMpcbenchRuns } from '../mpcbench/summary/comparable.ts'
import { compareRuns } from '../stats/compare-runs.ts'
import { command as reportCommand } from './cli/report.ts'
import { compareArteRuns, compareMpcbenchRuns } from './compare-runs.ts'
import { ReportReporter } from './report-reporter.ts'
import type { Vitest } from 'vitest/node'
import { buildArteSection, buildMpcbenchSection, classifyResults, readResultsFile, type ResultsFile } from './report-data.ts'
import { renderReport } from './render-report.ts'
import { buildReportData } from './write-report.ts'
import { arteRerunDelta, mpcbenchRerunDelta } from './rerun-delta.ts'
import { appendStepSummary, stepSummaryMarkdown } from './step-summary.ts'
import { reportSettingsFromEnv } from './report-settings.ts'
import { NO_BROWSER_MESSAGE, systemChromium } from '../testing/system-browser.ts'

const usage = FIXTURE_USAGE

function task(taskId: string, exactMatch: boolean, semanticScore: number, agentAnswer = 'an answer'): ArteTaskResult {
  return arteTaskResult(taskId, exactMatch, { semanticScore, agentAnswer })
}

/** A task an interrupted run never ran: no answer and scores of 0, which the metrics leave out. */
function notRunTask(taskId: string): ArteTaskResult {
  return {
    ...task(taskId, false, 0, ''),
    traceId: '',
    executionTimeMs: 0,
    outcome: { kind: 'not-run', reason: 'the run was interrupted before this task ran' },
  }
}

/** Bar values of one chart of the page, by `data-chart` id. */
function chartBars(html: string, chart: string): Array<{ series: string; category: string; value: number }> {
  const svg = new RegExp(`data-chart="${chart}"[\\s\\S]*?</svg>`).exec(html)?.[0] ?? ''
  return [...svg.matchAll(/<rect class="bar" data-series="([^"]*)" data-category="([^"]*)" data-value="(\d+)"/g)].map((m) => ({
    series: m[1] ?? '',
    category: m[2] ?? '',
    value: Number(m[3]),
  }))
}

function arteResults(tasks: ArteTaskResult[], startedAt = '2026-01-02T00:00:00.000Z'): ArteResults {
  return {
    ...computeArteMetrics(tasks),
    usage: { ...usage, totalTokens: 15 * tasks.length, calls: tasks.length },
    config: { model: 'openai/gpt-x', modelKind: 'llm', split: 'test', dataset: 'rows.jsonl', startedAt, finishedAt: startedAt },
    testRunEndReason: 'passed',
    thresholds: [],
    taskResults: tasks,
  }
}

function arteFile(results: ArteResults, extra: Record<string, unknown> = {}): Extract<ResultsFile, { kind: 'arte' }> {
  const classified = classifyResults({ ...results, ...extra }, 'results.json')
  if (classified?.kind !== 'arte') throw new Error('not ART-E results')
  return classified
}

function summary(requirements: Array<number | null>, generatedAt = '2026-01-02T00:00:00.000Z'): Summary {
  const scored = requirements.filter((r) => r !== null)
  return {
    generated_at: generatedAt,
    tests: requirements.length,
    rows: [
      {
        agent_model: 'a',
        agent_model_kind: 'llm',
        judge_model: 'j',
        judge_kind: 'llm',
        task_type: 'planning',
        count: requirements.length,
        scored: scored.length,
        failures: requirements.length - scored.length,
        unjudged_answer_requirements_satisfaction: 0,
        unjudged_source_grounded_reasoning: 0,
        mean_answer_requirements_satisfaction: scored.length === 0 ? null : scored.reduce((x, y) => x + y, 0) / scored.length,
        mean_source_grounded_reasoning: 3,
      },
    ],
    scores: {
      'agent=a__judge=j': requirements.map((r, i) => ({
        task_id: `t${i}`,
        task_type: 'planning',
        answer_requirements_satisfaction: r,
        source_grounded_reasoning: r === null ? null : 3,
        error: r === null ? 'judge-error: no JSON' : null,
      })),
    },
    usage: { agents: usage, judges: usage, total: { ...usage, totalTokens: 30, calls: 2 } },
  }
}

describe('renderReport', () => {
  it('embeds the data so that no value can end the script element, and reads back equal', () => {
    const hostile = 'x </script><script>alert(1)</script> \u2028 done'
    const results = arteResults([task('1', true, 1), task('2', false, 0.25, hostile)])
    const html = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(results), {})], mpcbench: [] })
    expect(html.match(/<script/g)).toHaveLength(2)
    const json = /<script id="report-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
    expect(JSON.parse(json).arte[0].results).toEqual(results)
    expect(html).toContain('x &#60;/script&#62;&#60;script&#62;alert(1)')
  })

  it('shows confidence intervals, pass^k and grader suspects only when the results carry them', () => {
    const results = arteResults([task('1', true, 1), task('2', false, 0.5)])
    const plain = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(results), {})], mpcbench: [] })
    expect(plain).not.toContain('data-ci=')
    expect(plain).not.toContain('pass^k')
    const extra = {
      confidenceIntervals: { exactMatchAccuracy: { low: 0.1, high: 0.9, level: 0.95, method: 'bootstrap' }, avgSemanticScore: null },
      passHatK: { '1': 0.5, '2': 0.25 },
      graderSuspects: ['2'],
      notRunTasks: 3,
    }
    const html = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(results, extra), {})], mpcbench: [] })
    expect(html).toContain('data-ci="exactMatchAccuracy" title="95% confidence interval (bootstrap)">[0.100, 0.900]')
    expect(html).toContain('<th>95% CI</th>')
    expect(html).toContain('data-pass-hat-k="2" data-value="0.25">0.250')
    expect(html).not.toContain('data-pass-hat-k-tasks')
    // Results written before pass^k had intervals: the values alone.
    expect(html).not.toContain('data-pass-hat-k-ci')
    const fewer = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(results, { ...extra, passHatKTasks: 1 }), {})], mpcbench: [] })
    expect(fewer).toContain('data-pass-hat-k-tasks="1">over the 1 task(s) with an outcome in every trial')
    const method = 'percentile bootstrap over 2 task(s), 2000 resamples, seed 20260311'
    const passHatKCi = { '1': { low: 0, high: 1, level: 0.95, method }, '2': { low: 0, high: 0.5, level: 0.95, method } }
    const withCi = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(results, { ...extra, trials: 2, passHatKCi }), {})], mpcbench: [] })
    expect(withCi).toContain(
      `data-pass-hat-k="2" data-value="0.25">0.250<br><span class="ci" data-pass-hat-k-ci data-low="0" data-high="0.5" title="95% confidence interval (${method})">[0.000, 0.500]</span></td>`,
    )
    expect(withCi).toContain('data-pass-hat-k="1" data-value="0.5">0.500<br><span class="ci" data-pass-hat-k-ci data-low="0" data-high="1"')
    expect(html).toContain('Grader suspects (tasks an empty answer passes): 2')
    expect(html).toContain('data-metric="notRunTasks" data-value="3"')
  })

  it("shows the scores that compare with OpenPipe's (sources, LLM judge) and the judge's spending only when the results carry them", () => {
    const tasks = [
      { ...task('1', true, 1), sourcesCorrect: true },
      { ...task('2', false, 0.5), sourcesCorrect: false },
    ]
    const plain = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(arteResults(tasks)), {})], mpcbench: [] })
    expect(plain).not.toContain('data-metric="sourcesAccuracy"')
    expect(plain).not.toContain('data-metric="llmJudgeAccuracy"')
    const judged = {
      ...arteResults(tasks),
      sourcesAccuracy: 0.5,
      llmJudgeAccuracy: 1,
      llmJudge: { model: 'scripted/judge', judgedTasks: 1, errors: 1, usage: { ...usage, totalTokens: 42, calls: 2 } },
    }
    const html = renderReport({
      generatedAt: 'now',
      arte: [
        buildArteSection(
          arteFile(judged, {
            confidenceIntervals: { exactMatchAccuracy: null, avgSemanticScore: null, sourcesAccuracy: { low: 0, high: 1, level: 0.95, method: 'bootstrap' } },
          }),
          {},
        ),
      ],
      mpcbench: [],
    })
    expect(html).toContain('data-metric="sourcesAccuracy" data-value="0.5">0.500</td><td> <span class="muted">(1/2, OpenPipe')
    expect(html).toContain('data-ci="sourcesAccuracy"')
    // How many tasks the judge covered and how many it erred on, said once (the coverage warning says it).
    const judgeRow = /<tr><th scope="row">llmJudgeAccuracy<\/th>[\s\S]*?<\/tr>/.exec(html)?.[0] ?? ''
    expect(judgeRow).toContain(
      'data-metric="llmJudgeAccuracy" data-value="1">1.000</td><td> <span class="muted">(scripted/judge)</span> <span class="warn" data-judge-coverage>over 1 judged of 2 task(s); 1 judge error(s)',
    )
    expect(judgeRow.match(/judged/g)).toHaveLength(1)
    expect(judgeRow.match(/judge error/g)).toHaveLength(1)
    const allJudged = renderReport({
      generatedAt: 'now',
      arte: [buildArteSection(arteFile({ ...judged, llmJudge: { ...judged.llmJudge, judgedTasks: 2, errors: 0 } }), {})],
      mpcbench: [],
    })
    expect(allJudged).toContain(
      'data-metric="llmJudgeAccuracy" data-value="1">1.000</td><td> <span class="muted">(scripted/judge, over 2 judged task(s))</span></td>',
    )
    expect(html).toContain('data-usage="judgeTotalTokens" data-value="42">42</span> tokens, 2 calls')
  })

  it("shows an MPCBench row's pass^k, and how many tasks it is over when some lack an outcome in a trial", () => {
    const render = (tasks: number) => {
      const base = summary([4, 5, 2])
      const rows = base.rows.map((row) => ({ ...row, trials: 2, pass_hat_k: { '1': 0.5, '2': 0.5 }, pass_hat_k_tasks: tasks }))
      const file = classifyResults({ ...base, rows }, 'summary.json')
      if (file?.kind !== 'mpcbench') throw new Error('not a summary')
      return renderReport({ generatedAt: 'now', arte: [], mpcbench: [buildMpcbenchSection(file, {})] })
    }
    expect(render(3)).toContain('pass^1 0.500 · pass^2 0.500')
    expect(render(3)).not.toContain('with an outcome in every trial')
    expect(render(2)).toContain('pass^1 0.500 · pass^2 0.500 (over 2 task(s) with an outcome in every trial)')
    expect(render(3)).not.toContain('data-pass-hat-k-ci')
    // With pass^k's intervals (summaries written since they exist): each beside its value.
    const base = summary([4, 5, 2])
    const method = 'percentile bootstrap over 3 task(s), 2000 resamples, seed 20260311'
    const pass_hat_k_ci = { '1': { low: 0.166667, high: 0.833333, level: 0.95, method }, '2': { low: 0, high: 1, level: 0.95, method } }
    const rows = base.rows.map((row) => ({ ...row, trials: 2, pass_hat_k: { '1': 0.5, '2': 0.5 }, pass_hat_k_tasks: 3, pass_hat_k_ci }))
    const file = classifyResults({ ...base, rows }, 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const html = renderReport({ generatedAt: 'now', arte: [], mpcbench: [buildMpcbenchSection(file, {})] })
    expect(html).toContain(
      `pass^1 0.500 <span class="ci" data-pass-hat-k-ci="1" title="95% confidence interval (${method})">[0.167, 0.833]</span> · pass^2 0.500 <span class="ci" data-pass-hat-k-ci="2" title="95% confidence interval (${method})">[0.000, 1.000]</span>`,
    )
  })

  it('shows the invalid task files of an MPCBench summary and their count', () => {
    const base = summary([4, 5, 2])
    const invalid = {
      task_counts: { selected: 3, completed: 3, failed: 0, not_run: 0, invalid: 1 },
      invalid_task_files: [{ task_file: 'tasks/planning/broken.json', task_type: 'planning', message: 'Invalid task broken.json' }],
    }
    const file = classifyResults({ ...base, ...invalid }, 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const html = renderReport({ generatedAt: 'now', arte: [], mpcbench: [buildMpcbenchSection(file, {})] })
    expect(html).toContain('task_counts: <code>{&#34;selected&#34;:3,&#34;completed&#34;:3,&#34;failed&#34;:0,&#34;not_run&#34;:0,&#34;invalid&#34;:1}')
    expect(html).toMatch(/invalid_task_files: <code>[^<]*tasks\/planning\/broken\.json/)
  })

  it('embeds the results as written, keeping fields newer reporters add (trialResults per task)', () => {
    const results = arteResults([task('1', true, 1)])
    const trialResults = [{ trial: 1, exactMatch: true, semanticScore: 1, agentAnswer: 'a', traceId: 'trace-1', executionTimeMs: 5 }]
    const raw = { ...results, trials: 2, taskResults: results.taskResults.map((t) => ({ ...t, trialResults })) }
    const html = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(raw as ArteResults), {})], mpcbench: [] })
    const json = /<script id="report-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
    expect(JSON.parse(json).arte[0].results).toEqual(raw)
  })

  it('shows an MPCBench row interval wherever the summary puts it', () => {
    const base = summary([4, 2])
    const raw = {
      ...base,
      rows: base.rows.map((row) => ({
        ...row,
        ci: { answer_requirements_satisfaction: { low: 1.5, high: 4.5, level: 0.95, method: 'bootstrap' }, source_grounded_reasoning: null },
      })),
    }
    const file = classifyResults(raw, 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const html = renderReport({ generatedAt: 'now', arte: [], mpcbench: [buildMpcbenchSection(file, {})] })
    expect(html).toContain('<span class="ci">[1.50, 4.50]</span>')
    expect(html).toContain('data-row="0" data-field="mean_answer_requirements_satisfaction" data-value="3"')
  })
})

describe('comparison with the previous run', () => {
  it('finds the newest earlier run in the history folder, skipping the current one, and lists flips', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-history-'))
    const before = arteResults([task('1', false, 0.2), task('2', true, 1), task('3', false, 0.5)], '2026-01-01T00:00:00.000Z')
    const now = arteResults([task('1', true, 1), task('2', false, 0.4), task('3', false, 0.7), task('4', true, 1)])
    const older = arteResults([task('1', true, 1)], '2025-01-01T00:00:00.000Z')
    for (const [name, results, time] of [
      ['run-a', older, 1_000],
      ['run-b', before, 2_000],
      ['run-c', now, 3_000],
    ] as const) {
      mkdirSync(join(dir, name, 'arte'), { recursive: true })
      writeFileSync(join(dir, name, 'arte', 'results.json'), JSON.stringify(results))
      utimesSync(join(dir, name), time, time)
    }
    const section = buildArteSection(arteFile(now), { historyDir: dir })
    expect(section.previous?.results.config.startedAt).toBe(before.config.startedAt)
    const comparison = compareArteRuns(before, now)
    expect(comparison.paired).toMatchObject({ tasks: 3, flips: ['1', '2'], improved: ['1'], regressed: ['2'], onlyInB: ['4'], onlyInA: [] })
    expect(comparison.totals.find((m) => m.name === 'totalTasks')?.delta).toBe(1)
    const html = renderReport({ generatedAt: 'now', arte: [section], mpcbench: [] })
    expect(html).toContain('data-compare="flips" data-value="2"')
    // The flip rate with its Wilson interval (2 of the 3 tasks in both runs), as agent-bench compare prints it.
    expect(comparison.paired.flipRateCi).toEqual({ low: 0.20766, high: 0.938508, level: 0.95, method: 'Wilson score interval over 3 task(s)' })
    expect(html).toContain(
      '2 flip(s)</b> (<span data-compare="flip-rate" data-value="0.6666666666666666" data-low="0.20766" data-high="0.938508" title="95% confidence interval (Wilson score interval over 3 task(s))">66.7% [20.8%, 93.9%]</span>)',
    )
    expect(html).toContain('data-compare="regressed" data-value="1"')
  })

  it('shows each MPCBench trial with its own run log (trials after the first log under trial-j/)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-trials-'))
    const runLog = (answer: string) => ({
      task_id: 't0',
      task_type: 'planning',
      user_prompt: 'p',
      tool_trace_steps: [],
      raw_tool_calls: [],
      final_answer: answer,
      rationale: '',
      agent_model: 'a',
      agent_model_file_name: 'a',
      agent_model_kind: 'llm',
      scenario_id: 's',
      task_file: null,
      outcome: { kind: 'answered', via: 'json' },
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 },
      turns: 1,
      trace_id: `trace-${answer}`,
      started_at: '2026-01-01T00:00:00.000Z',
      duration_ms: 1,
    })
    for (const [folder, answer] of [
      ['', 'first'],
      ['trial-2', 'second'],
    ] as const) {
      mkdirSync(join(dir, folder), { recursive: true })
      writeFileSync(join(dir, folder, runLogFileName('t0', 'a')), JSON.stringify(RunLogSchema.parse(runLog(answer))))
    }
    const base = summary([4])
    const [score] = base.scores['agent=a__judge=j'] ?? []
    if (score === undefined) throw new Error('no score')
    const file = classifyResults(
      {
        ...base,
        scores: {
          'agent=a__judge=j': [
            { ...score, trial: 1 },
            { ...score, trial: 2 },
          ],
        },
      },
      'summary.json',
    )
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const section = buildMpcbenchSection(file, { logDir: dir })
    expect(section.tasks.map((task) => [task.trial, task.runLog?.final_answer])).toEqual([
      [1, 'first'],
      [2, 'second'],
    ])
    expect(renderReport({ generatedAt: 'now', arte: [], mpcbench: [section] })).toContain('t0 [trial=2]</td>')
  })

  it.skipIf(systemChromium() === undefined)(
    `a later MPCBench trial's opened run log is headed with its trial, in headless Chromium${systemChromium() === undefined ? ` (${NO_BROWSER_MESSAGE})` : ''}`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'report-trial-heading-'))
      const base = summary([4])
      const [score] = base.scores['agent=a__judge=j'] ?? []
      if (score === undefined) throw new Error('no score')
      const file = classifyResults(
        {
          ...base,
          scores: {
            'agent=a__judge=j': [
              { ...score, trial: 1 },
              { ...score, trial: 2 },
            ],
          },
        },
        'summary.json',
      )
      if (file?.kind !== 'mpcbench') throw new Error('not a summary')
      writeFileSync(join(dir, 'index.html'), renderReport({ generatedAt: 'now', arte: [], mpcbench: [buildMpcbenchSection(file, { logDir: dir })] }))
      const { chromium } = await import('playwright-core')
      const browser = await chromium.launch({ executablePath: systemChromium(), args: ['--no-sandbox'] })
      try {
        const page = await browser.newPage()
        await page.goto(pathToFileURL(join(dir, 'index.html')).href)
        await page.locator('tr.task[data-task-index="1"] button.open').click()
        expect(await page.locator('tr.detail .trace h4').first().textContent()).toBe('t0 [trial=2] · agent a · judge j')
      } finally {
        await browser.close()
      }
    },
    60_000,
  )

  it('compares MPCBench summaries on trial 1, as the row means (later trials do not overwrite it)', () => {
    const withTrials = (requirements: number[], later: number) => {
      const base = summary(requirements)
      const pair = base.scores['agent=a__judge=j'] ?? []
      const trials = pair.flatMap((score) => [2, 3].map((trial) => ({ ...score, trial, answer_requirements_satisfaction: later })))
      return { ...base, scores: { 'agent=a__judge=j': [...pair.map((score) => ({ ...score, trial: 1 })), ...trials] } }
    }
    const comparison = compareMpcbenchRuns(withTrials([4, 2], 1), withTrials([4, 5], 5)).paired
    expect(comparison.flips).toEqual(['t1 [agent=a] [judge=j]'])
    expect(comparison.improved).toEqual(['t1 [agent=a] [judge=j]'])
    const lines = mpcbenchRerunDelta(withTrials([4, 2], 1), withTrials([4, 5], 5))
    expect(lines[0]).toMatch(/^MPCBench rerun of 2 task\(s\)/)
    expect(lines.slice(1)).toEqual(['  t1 [agent=a, judge=j]: requirements 2 → 5, grounding 3 → 3'])
  })

  it('compares MPCBench summaries by task and pair (pass = requirements >= 4)', () => {
    const comparison = compareMpcbenchRuns(summary([4, 2, 3]), summary([3, 4, 3]))
    expect(comparison.paired.flips).toEqual(['t0 [agent=a] [judge=j]', 't1 [agent=a] [judge=j]'])
    expect(comparison.paired.regressed).toEqual(['t0 [agent=a] [judge=j]'])
    expect(comparison.paired.metrics.answer_requirements_satisfaction?.delta).toBeCloseTo(1 / 3)
    expect(comparison.totals[0]?.delta).toBeCloseTo(1 / 3)
  })

  it('leaves ART-E tasks an interrupted run never ran out of flips and regressions, and says how many', () => {
    const ids = Array.from({ length: 10 }, (_, i) => String(i + 1))
    const before = arteResults(
      ids.map((id) => task(id, true, 1)),
      '2026-01-01T00:00:00.000Z',
    )
    const now = arteResults(ids.map((id, i) => (i < 5 ? task(id, true, 1) : notRunTask(id))))
    expect(now.exactMatchAccuracy).toBe(1)
    const comparison = compareArteRuns(before, now).paired
    expect(comparison).toMatchObject({ tasks: 5, leftOut: ['6', '7', '8', '9', '10'], flips: [], improved: [], regressed: [], onlyInB: [], onlyInA: [] })
    expect(comparison.metrics.exactMatchAccuracy?.delta).toBe(0)
    const section = { ...buildArteSection(arteFile(now), {}), previous: { file: 'before.json', results: before } }
    const html = renderReport({ generatedAt: 'now', arte: [section], mpcbench: [] })
    expect(html).toContain('data-compare="regressed" data-value="0"')
    expect(html).toContain('data-compare="shared" data-value="5"')
    expect(html).toContain('<span data-compare="left-out" data-value="5">5 left out (not run or unjudged in one of the runs)</span>')
  })

  it('leaves an MPCBench task the judge did not score out of flips and moves; an axis unjudged on one side moves nothing', () => {
    const comparison = compareMpcbenchRuns(summary([4, 4, 4]), summary([4, null, 2])).paired
    expect(comparison).toMatchObject({
      tasks: 2,
      leftOut: ['t1 [agent=a] [judge=j]'],
      flips: ['t2 [agent=a] [judge=j]'],
      regressed: ['t2 [agent=a] [judge=j]'],
      improved: [],
    })
    const before = summary([4])
    const after = summary([4])
    for (const score of after.scores['agent=a__judge=j'] ?? []) score.source_grounded_reasoning = null
    expect(compareMpcbenchRuns(before, after).paired).toMatchObject({ tasks: 1, leftOut: [], improved: [], regressed: [] })
  })

  it("compares the scores that compare with OpenPipe's: paired deltas, each run's totals, and why a score is not compared", () => {
    const judged = (verdicts: Array<boolean | 'error'>, sources: boolean[], model: string, startedAt?: string): ArteResults => {
      const tasks = verdicts.map((verdict, i) => ({
        ...task(String(i + 1), i === 0, 1),
        sourcesCorrect: sources[i] ?? false,
        ...(verdict === 'error' ? { llmJudgeError: { code: 'JUDGE_REPLY', message: 'neither True nor False' } } : { llmJudgeCorrect: verdict }),
      }))
      const judgedTasks = tasks.filter((t) => t.llmJudgeCorrect !== undefined)
      return {
        ...arteResults(tasks, startedAt),
        sourcesAccuracy: sources.filter(Boolean).length / tasks.length,
        llmJudgeAccuracy: judgedTasks.filter((t) => t.llmJudgeCorrect === true).length / judgedTasks.length,
        llmJudge: { model, judgedTasks: judgedTasks.length, errors: tasks.length - judgedTasks.length, usage },
      }
    }
    const before = judged([true, false, 'error', false], [true, false, false, false], 'judge/one', '2026-01-01T00:00:00.000Z')
    const now = judged([true, true, true, 'error'], [true, true, false, true], 'judge/one')
    const comparison = compareArteRuns(before, now)
    expect(comparison.paired.metrics.sourcesAccuracy).toMatchObject({ a: 0.25, b: 0.75, delta: 0.5, tasks: 4 })
    expect(comparison.paired.metrics.llmJudgeAccuracy).toMatchObject({ a: 0.5, b: 1, delta: 0.5, tasks: 2 })
    expect(comparison.totals.find((m) => m.name === 'sourcesAccuracy')).toMatchObject({ before: 0.25, after: 0.75, delta: 0.5, format: 'score' })
    expect(comparison.totals.find((m) => m.name === 'llmJudgeAccuracy')).toMatchObject({ before: 1 / 3, after: 1, format: 'score' })
    const page = (previous: ArteResults, current: ArteResults) =>
      renderReport({
        generatedAt: 'now',
        arte: [{ ...buildArteSection(arteFile(current), {}), previous: { file: 'before.json', results: previous } }],
        mpcbench: [],
      })
    const html = page(before, now)
    expect(html).toContain('data-delta="sourcesAccuracy" data-value="0.5">+0.500 <span class="ci">')
    expect(html).toContain('data-paired-tasks="llmJudgeAccuracy">2</td>')
    expect(html).toContain(
      '<th scope="row">sourcesAccuracy</th><td class="num">0.250</td><td class="num">0.750</td><td class="num" data-total="sourcesAccuracy" data-value="0.5">+0.500</td>',
    )
    expect(html).toContain('data-compare-note="llmJudgeAccuracy" data-kind="left-out">llmJudgeAccuracy: paired over 2 task(s) judged in both runs; 2 left out')
    expect(html).not.toContain('data-flag="different-judges"')

    const otherJudge = page(before, judged([true, true, true, 'error'], [true, true, false, true], 'judge/two'))
    expect(otherJudge).toContain('<th scope="row">llmJudgeAccuracy <span class="note" data-flag="different-judges">(different judges)</span></th>')
    expect(otherJudge).toContain(
      'data-compare-note="llmJudgeAccuracy" data-kind="different-judges">llmJudgeAccuracy: judged by different models (A: judge/one, B: judge/two)',
    )

    const old = arteResults([task('1', true, 1), task('2', false, 0), task('3', false, 0), task('4', false, 0)], '2026-01-01T00:00:00.000Z')
    const fromOld = page(old, now)
    expect(fromOld).not.toContain('data-delta="sourcesAccuracy"')
    expect(fromOld).toContain(
      'data-kind="not-compared">sourcesAccuracy: not compared, A has no per-task sourcesCorrect (results written before it was measured)</p>',
    )
    expect(fromOld).toContain('data-kind="not-compared">llmJudgeAccuracy: not compared, A was not judged (no ARTE_JUDGE_MODEL)</p>')
    expect(fromOld).toContain(
      '<th scope="row">sourcesAccuracy</th><td class="num">-</td><td class="num">0.750</td><td class="num" data-total="sourcesAccuracy" data-value="">-</td>',
    )
  })

  it('compares the paid cost of the two runs (calls replayed from the response cache cost nothing)', () => {
    const cached = { ...usage, costUsd: 0.02, calls: 10, cached: { ...usage, costUsd: 0.02, calls: 10 } }
    const before = { ...arteResults([task('1', true, 1)], '2026-01-01T00:00:00.000Z'), usage: { ...usage, costUsd: 0.02, calls: 10 } }
    const now = { ...arteResults([task('1', true, 1)]), usage: cached }
    expect(compareArteRuns(before, now).totals.find((m) => m.name === 'paidCostUsd')).toMatchObject({ before: 0.02, after: 0, delta: -0.02 })
  })
})

describe('charts', () => {
  it('MPCBench score distribution counts trial 1 of each task, as the row n and means, and says so', () => {
    const base = summary([5, 5])
    const pair = base.scores['agent=a__judge=j'] ?? []
    const trials = pair.flatMap((score) => [2, 3].map((trial) => ({ ...score, trial, answer_requirements_satisfaction: 1 })))
    const file = classifyResults({ ...base, scores: { 'agent=a__judge=j': [...pair, ...trials] } }, 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const html = renderReport({ generatedAt: 'now', arte: [], mpcbench: [buildMpcbenchSection(file, {})] })
    const bars = chartBars(html, 'mpcbench-0-scores-0').filter((bar) => bar.series === 'requirements' && bar.value > 0)
    expect(bars).toEqual([{ series: 'requirements', category: '5', value: 2 }])
    expect(html).toContain('tasks (trial 1)</text>')
    expect(html).toContain('Trial 1 of each task, as the means and n above')
    const single = classifyResults(base, 'summary.json')
    if (single?.kind !== 'mpcbench') throw new Error('not a summary')
    expect(renderReport({ generatedAt: 'now', arte: [], mpcbench: [buildMpcbenchSection(single, {})] })).not.toContain('trial 1')
  })

  it('ART-E histograms count the tasks that ran, as the metrics do', () => {
    const results = arteResults([task('1', true, 1), task('2', false, 0.5), notRunTask('3'), notRunTask('4')])
    const html = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(results), {})], mpcbench: [] })
    const semantic = chartBars(html, 'arte-0-semantic-histogram')
    expect(semantic.reduce((sum, bar) => sum + bar.value, 0)).toBe(2)
    expect(semantic.find((bar) => bar.category === '0.0-0.1')?.value).toBe(0)
    expect(chartBars(html, 'arte-0-time-histogram').reduce((sum, bar) => sum + bar.value, 0)).toBe(2)
  })
})

describe('terminal and job-summary output', () => {
  it('watch mode: prints how the rerun tasks moved', () => {
    const lines = arteRerunDelta(arteResults([task('1', false, 0.2), task('2', true, 1)]), arteResults([task('1', true, 1)]))
    expect(lines[0]).toBe('ART-E rerun of 1 task(s) since the last run: exact match 1/1 (was 0/1), semantic 1.000 (was 0.200, +0.800)')
    expect(lines[1]).toBe('  1: EM ✗→✓ semantic 0.200 → 1.000')
    expect(mpcbenchRerunDelta(summary([4, 2]), summary([4, 5]))).toContain('  t1 [agent=a, judge=j]: requirements 2 → 5, grounding 3 → 3')
  })

  it('watch mode: an ART-E task not run in either run is left out, the exact matches count the tasks that ran', () => {
    const ids = Array.from({ length: 10 }, (_, i) => String(i + 1))
    const lines = arteRerunDelta(arteResults(ids.map((id) => task(id, true, 1))), arteResults(ids.map((id, i) => (i < 5 ? task(id, true, 1) : notRunTask(id)))))
    expect(lines).toEqual([
      'ART-E rerun of 5 task(s) since the last run (and 5 left out: not run in one of the two runs): exact match 5/5 (was 5/5), semantic 1.000 (was 1.000, ±0.000)',
      '  no task changed',
    ])
    expect(arteRerunDelta(arteResults([task('1', true, 1)]), arteResults([notRunTask('1')]))).toEqual([
      'ART-E rerun since the last run: no task ran in both runs (and 1 left out: not run in one of the two runs)',
    ])
  })

  it('watch mode: MPCBench means skip unjudged (null) scores, as the row means do', () => {
    const after = summary([5, 5, 5, 5, null])
    expect(after.rows[0]?.mean_answer_requirements_satisfaction).toBe(5)
    expect(mpcbenchRerunDelta(summary([5, 5, 5, 5, 5]), after)[0]).toBe(
      'MPCBench rerun of 5 task(s) since the last run: requirements 5.00 (was 5.00, ±0.00; 1 left out: unjudged in one of the two runs), grounding 3.00 (was 3.00, ±0.00; 1 left out: unjudged in one of the two runs)',
    )
  })

  it('Markdown summary: the paid cost and the part replayed from the response cache, as the terminal reporters say it', () => {
    const cachedUsage = {
      promptTokens: 9000,
      completionTokens: 1000,
      totalTokens: 10000,
      costUsd: 0.021,
      calls: 10,
      cached: { promptTokens: 9000, completionTokens: 1000, totalTokens: 10000, costUsd: 0.021, calls: 10 },
    }
    const results = { ...arteResults([task('1', true, 1)]), usage: cachedUsage }
    const base = summary([4])
    const file = classifyResults({ ...base, usage: { agents: cachedUsage, judges: usage, total: addUsage(cachedUsage, usage) } }, 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const markdown = stepSummaryMarkdown({ generatedAt: 'now', arte: [buildArteSection(arteFile(results), {})], mpcbench: [buildMpcbenchSection(file, {})] })
    expect(markdown).toContain('Tokens 10,000 in 10 call(s), cost $0.0000 paid; 0 call(s) paid, 10 replayed from the cache (10,000 tokens, $0.02 not paid).')
    expect(markdown).toContain(
      'Tokens 10,015 (agents 10,000, judges 15) in 11 call(s), cost $0.0010 paid; 1 call(s) paid, 10 replayed from the cache (10,000 tokens, $0.02 not paid).',
    )
    const plain = stepSummaryMarkdown({ generatedAt: 'now', arte: [buildArteSection(arteFile(arteResults([task('1', true, 1)])), {})], mpcbench: [] })
    expect(plain).toContain('Tokens 15 in 1 call(s), cost $0.0010.')
  })

  it('Markdown summary: a task not run, or one that passed (exact match), is not among the worst tasks', () => {
    const results = arteResults([task('1', true, 1), task('2', false, 0.5), notRunTask('3')])
    const markdown = stepSummaryMarkdown({ generatedAt: 'now', arte: [buildArteSection(arteFile(results), {})], mpcbench: [] })
    expect(markdown).toContain('Worst 1 task(s):')
    expect(markdown).toContain('| 2 | question 2?')
    expect(markdown).not.toContain('| 1 | question 1?')
    expect(markdown).not.toContain('| 3 | question 3?')
    const allPassed = stepSummaryMarkdown({ generatedAt: 'now', arte: [buildArteSection(arteFile(arteResults([task('1', true, 1)])), {})], mpcbench: [] })
    expect(allPassed).not.toContain('Worst')
  })

  it('Markdown summary: metrics, worst tasks with escaped cells, the MPCBench table', () => {
    const results = arteResults([task('1', true, 1), task('2', false, 0, 'a | b')])
    const file = classifyResults(summary([4, null]), 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const markdown = stepSummaryMarkdown(
      { generatedAt: 'now', arte: [buildArteSection(arteFile(results), {})], mpcbench: [buildMpcbenchSection(file, {})] },
      'evaluation/report/index.html',
    )
    expect(markdown).toContain('| exactMatchAccuracy | 0.500 |')
    expect(markdown).toContain('| 2 | question 2? | a \\| b | truth | 0.000 |')
    expect(markdown).toContain('| a | j | planning | 4.00 | 3.00 | 2 | 1 |')
    expect(markdown).toContain('| t1 | a | j | - | - | judge-error: no JSON |')
    expect(markdown).not.toContain('sourcesAccuracy')
  })

  it("Markdown summary: the scores that compare with OpenPipe's, and the judge's spending, when the results carry them", () => {
    const results = {
      ...arteResults([task('1', true, 1), task('2', false, 0)]),
      sourcesAccuracy: 0.5,
      llmJudgeAccuracy: 0.25,
      llmJudge: { model: 'scripted/judge', judgedTasks: 2, errors: 0, usage: { ...usage, totalTokens: 42, calls: 2 } },
    }
    const markdown = stepSummaryMarkdown({ generatedAt: 'now', arte: [buildArteSection(arteFile(results), {})], mpcbench: [] }, 'evaluation/report/index.html')
    expect(markdown).toContain('| sourcesAccuracy | 0.500 |')
    expect(markdown).toContain('| llmJudgeAccuracy | 0.250 |')
    expect(markdown).toContain('Judge scripted/judge: 2 task(s) judged, 0 judge error(s); tokens 42 in 2 call(s)')
  })

  it('Markdown summary and page: a run of selected rows (ARTE_ROWS) says so; a run of every row says nothing', () => {
    const results = arteResults([task('1', true, 1)])
    const openpipe = { ...results, config: { ...results.config, rows: 'openpipe' as const } }
    const markdown = stepSummaryMarkdown({ generatedAt: 'now', arte: [buildArteSection(arteFile(openpipe), {})], mpcbench: [] }, 'evaluation/report/index.html')
    expect(markdown).toContain('## ART-E · openai/gpt-x · 1 task(s) · rows openpipe')
    expect(renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(openpipe), {})], mpcbench: [] })).toContain('· split test · rows openpipe ·')
    expect(stepSummaryMarkdown({ generatedAt: 'now', arte: [buildArteSection(arteFile(results), {})], mpcbench: [] }, 'x')).not.toContain('rows ')
  })
})

describe('appendStepSummary', () => {
  it('appends to the file named by GITHUB_STEP_SUMMARY, and does nothing when it is unset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'step-summary-'))
    const file = join(dir, 'summary.md')
    writeFileSync(file, 'earlier step\n')
    const data = { generatedAt: 'now', arte: [buildArteSection(arteFile(arteResults([task('1', true, 1)])), {})], mpcbench: [] }
    expect(appendStepSummary(data, 'r.html', undefined)).toBeUndefined()
    expect(appendStepSummary(data, 'r.html', reportSettingsFromEnv({ GITHUB_STEP_SUMMARY: file }).stepSummaryFile)).toBe(file)
    const text = readFileSync(file, 'utf8')
    expect(text.startsWith('earlier step\n## ART-E · openai/gpt-x · 1 task(s)')).toBe(true)
    expect(text).toContain('The HTML report (plots, traces) is `r.html`')
  })

  it('writes no secret, whatever the results files hold (the job summary is published with the run)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'step-summary-'))
    const file = join(dir, 'summary.md')
    registerSecret('sk-step-summary-0042')
    const data = {
      generatedAt: 'now',
      arte: [buildArteSection(arteFile(arteResults([task('1', false, 0, 'the key is sk-step-summary-0042')])), {})],
      mpcbench: [],
    }
    expect(stepSummaryMarkdown(data, undefined)).toContain('sk-step-summary-0042')
    appendStepSummary(data, undefined, file)
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain('sk-step-summary-0042')
    expect(text).toContain(`the key is ${REDACTED}`)
  })
})

describe('readResultsFile', () => {
  it('names the file and both expected shapes when a file is neither', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-bad-'))
    const file = join(dir, 'x.json')
    writeFileSync(file, JSON.stringify({ hello: 1 }))
    expect(() => readResultsFile(file)).toThrow(InvalidFormatError)
    expect(() => readResultsFile(file)).toThrow(/x\.json is neither an ART-E results JSON \(.+\) nor an MPCBench summary/)
  })
})

describe('reportSettingsFromEnv', () => {
  it('reads BENCH_REPORT: a path relative to the root, `off`, or the default', () => {
    expect(reportSettingsFromEnv({}, '/p')).toMatchObject({ file: '/p/evaluation/report/index.html' })
    expect(reportSettingsFromEnv({ BENCH_REPORT: '' }, '/p')).toMatchObject({ file: '/p/evaluation/report/index.html' })
    expect(reportSettingsFromEnv({ BENCH_REPORT: 'out/r.html' }, '/p')).toMatchObject({ file: '/p/out/r.html' })
    expect(reportSettingsFromEnv({ BENCH_REPORT: 'OFF' }, '/p')).toMatchObject({ file: false })
  })

  it('the report reporter refuses a bad BENCH_REPORT_TRACES_MB when the run starts, not after every task ran', () => {
    vi.stubEnv('BENCH_REPORT_TRACES_MB', 'lots')
    try {
      expect(() => new ReportReporter().onInit({ config: { root: tmpdir() } } as Vitest)).toThrow(/BENCH_REPORT_TRACES_MB/)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('reads BENCH_REPORT_TRACES_MB: megabytes of traces, 16 by default, 0 for none; anything else is refused by name', () => {
    expect(reportSettingsFromEnv({}, '/p').traceBudgetChars).toBe(16 * 1024 * 1024)
    expect(reportSettingsFromEnv({ BENCH_REPORT_TRACES_MB: '0.5' }, '/p').traceBudgetChars).toBe(512 * 1024)
    expect(reportSettingsFromEnv({ BENCH_REPORT_TRACES_MB: '0' }, '/p').traceBudgetChars).toBe(0)
    expect(() => reportSettingsFromEnv({ BENCH_REPORT_TRACES_MB: 'lots' }, '/p')).toThrow(/BENCH_REPORT_TRACES_MB/)
    expect(() => reportSettingsFromEnv({ BENCH_REPORT_TRACES_MB: '-1' }, '/p')).toThrow(/BENCH_REPORT_TRACES_MB/)
    expect(() => reportSettingsFromEnv({ BENCH_REPORT_TRACES_MB: 'lots' }, '/p')).toThrow(ConfigError)
    expect(() => reportSettingsFromEnv({ BENCH_REPORT_TRACES_MB: '-3' }, '/p')).toThrow(
      /^Invalid BENCH_REPORT_TRACES_MB="-3": expected a number of megabytes, 0 or more\.\n {2}Fix: Set BENCH_REPORT_TRACES_MB/,
    )
  })
})

describe('traces in the page', () => {
  const traceOf = (traceId: string, words: number): AgentTrace => ({
    traceId,
    model: 'openai/gpt-x',
    modelKind: 'llm',
    messages: [{ role: 'user', content: 'word '.repeat(words) }],
    toolCalls: [],
    outcome: { kind: 'answered', answer: 'a', sources: [], rationale: null, via: 'final-tool' },
    usage,
    turns: 1,
    startedAt: '2026-01-02T00:00:00.000Z',
    durationMs: 5,
  })

  it("holds the failed tasks' traces first, up to the budget, and says how to print the others", () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-traces-'))
    const tracesDb = join(dir, 'traces.db')
    const tasks = Array.from({ length: 10 }, (_, i) => task(String(i + 1), i % 3 !== 0, i % 3 !== 0 ? 1 : 0))
    {
      using store = TraceStore.open(tracesDb)
      for (const t of tasks) {
        if (t.taskId === '4') continue
        store.save({
          runId: 'r',
          taskId: t.taskId,
          question: t.question,
          groundTruth: t.groundTruth,
          agentAnswer: t.agentAnswer,
          exactMatch: t.exactMatch,
          semanticScore: t.semanticScore,
          trace: traceOf(t.traceId, 200),
        })
      }
    }
    const size = JSON.stringify(traceOf('trace-1', 200)).length
    const section = (budget: number | undefined) =>
      buildArteSection(arteFile(arteResults(tasks)), { tracesDb, ...(budget === undefined ? {} : { traceBudgetChars: budget }) })
    const all = section(undefined)
    expect(Object.keys(all.traces)).toHaveLength(9)
    expect(all.notes).toEqual([`1 of 10 trace(s) not found in ${tracesDb}.`])
    // Failed tasks are 1, 4 (no trace stored), 7 and 10: room for four traces takes those three, then task 2.
    const some = section(4 * size + 10)
    expect(Object.keys(some.traces).sort()).toEqual(['trace-1', 'trace-10', 'trace-2', 'trace-7'])
    expect(some.notes).toContain(
      `This page holds the traces of 4 of 10 tasks, failed tasks first (${Math.round((4 * size + 10) / 1024)} KB of traces, BENCH_REPORT_TRACES_MB); \`agent-bench trace <trace id>\` prints any trace of ${tracesDb}.`,
    )
    expect(Object.keys(section(0).traces)).toEqual([])
  })
})

/** The trace of one run of a task, as the ART-E tests store it. */
function storedTrace(traceId: string): AgentTrace {
  return {
    traceId,
    model: 'openai/gpt-x',
    modelKind: 'llm',
    messages: [{ role: 'user', content: 'word '.repeat(200) }],
    toolCalls: [],
    outcome: { kind: 'answered', answer: 'a', sources: [], rationale: null, via: 'final-tool' },
    usage,
    turns: 1,
    startedAt: '2026-01-02T00:00:00.000Z',
    durationMs: 5,
  }
}

/** An interrupted run of `ran` + `notRun` tasks with two trials each (trial 1's trace is also the task's); traces stored for every run. */
function interruptedTrialRun(dir: string, ran: number, notRun: number): { results: ArteResults; raw: Record<string, unknown>; tracesDb: string } {
  const tracesDb = join(dir, 'traces.db')
  const tasks = [
    ...Array.from({ length: ran }, (_, i) => task(String(i + 1), i % 2 === 0, i % 2 === 0 ? 1 : 0.5)),
    ...Array.from({ length: notRun }, (_, i) => notRunTask(String(ran + i + 1))),
  ]
  const trialRuns = (t: ArteTaskResult) =>
    [1, 2].map((trial) => ({
      trial,
      exactMatch: t.exactMatch,
      semanticScore: t.semanticScore,
      agentAnswer: t.agentAnswer,
      traceId: t.traceId === '' ? '' : trial === 1 ? t.traceId : `${t.traceId}-2`,
      executionTimeMs: t.executionTimeMs,
    }))
  {
    using store = TraceStore.open(tracesDb)
    for (const t of tasks) {
      for (const run of trialRuns(t)) {
        if (run.traceId !== '')
          store.save({
            runId: 'r',
            taskId: t.taskId,
            question: t.question,
            groundTruth: t.groundTruth,
            agentAnswer: t.agentAnswer,
            exactMatch: t.exactMatch,
            semanticScore: t.semanticScore,
            trace: storedTrace(run.traceId),
          })
      }
    }
  }
  const results = { ...arteResults(tasks), trials: 2 }
  const raw = { ...results, taskResults: tasks.map((t) => ({ ...t, trialResults: trialRuns(t) })) }
  return { results, raw, tracesDb }
}

describe('the numbers of the page are those of the results files', () => {
  it('counts the traces it holds and misses over the tasks that ran, each once, with trials and tasks not run', () => {
    const { raw, tracesDb } = interruptedTrialRun(mkdtempSync(join(tmpdir(), 'report-trace-count-')), 3, 7)
    const all = buildArteSection(arteFile(raw as ArteResults), { tracesDb })
    expect(all.notes).toEqual([])
    expect(Object.keys(all.traces)).toHaveLength(6)
    const size = JSON.stringify(storedTrace('trace-1')).length
    // Room for two traces: two of the three tasks that ran, failed task first.
    const some = buildArteSection(arteFile(raw as ArteResults), { tracesDb, traceBudgetChars: 2 * size + 10 })
    expect(some.notes).toEqual([expect.stringMatching(/^This page holds the traces of 2 of 3 tasks, failed tasks first/)])
    const missing = buildArteSection(arteFile(raw as ArteResults), { tracesDb: join(tmpdir(), 'report-no-such-dir', 'x.db') })
    expect(missing.notes).toEqual([expect.stringMatching(/^No traces: /)])
  })

  it('shows a task not run as not run, not as a failure with zeros, and lets the filter pick it', () => {
    const results = arteResults([task('1', true, 1), task('2', false, 0.5), notRunTask('3')])
    const html = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(results), {})], mpcbench: [] })
    const row = /<tr class="task not-run" data-task-id="3"[\s\S]*?<\/tr>/.exec(html)?.[0] ?? ''
    expect(row).toContain('data-pass="not-run"')
    expect(row).toContain('(not run: the run was interrupted before this task ran)')
    expect([...row.matchAll(/data-field="(\w+)" data-sort-value="[^"]*">([^<]*)</g)].map((m) => [m[1], m[2]])).toEqual([
      ['exactMatch', '-'],
      ['semanticScore', '-'],
      ['executionTimeMs', '-'],
      ['totalTokens', '15'],
    ])
    expect(html).toContain('<option value="not-run">not run</option>')
    expect(html).toContain('data-task-id="2" data-trace-id="trace-2" data-pass="0"')
  })

  it("lists the first page of a large run's tasks in the markup and embeds every task: the page's script lists the others", () => {
    const tasks = Array.from({ length: 250 }, (_, i) => task(String(i + 1), i % 2 === 0, i % 2 === 0 ? 1 : 0.5))
    const file = classifyResults(summary(Array.from({ length: 250 }, () => 4)), 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const html = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(arteResults(tasks)), {})], mpcbench: [buildMpcbenchSection(file, {})] })
    const arte = /<section class="bench" id="arte-0"[\s\S]*?<\/section>/.exec(html)?.[0] ?? ''
    const mpcbench = /<section class="bench" id="mpcbench-0"[\s\S]*?<\/section>/.exec(html)?.[0] ?? ''
    const pageRows = Number(/<table class="tasks" data-kind="arte" data-tasks="250" data-page-rows="(\d+)">/.exec(arte)?.[1])
    expect(pageRows).toBeLessThan(tasks.length)
    const ids = [...arte.matchAll(/<tr class="task" data-task-id="([^"]+)"/g)].map((m) => m[1])
    expect(ids).toEqual(tasks.slice(0, pageRows).map((t) => t.taskId))
    expect(arte).toContain(`<noscript><p class="note">This page lists the first ${pageRows} of 250 tasks without its script`)
    expect(mpcbench).toContain(`data-tasks="250" data-page-rows="${pageRows}"`)
    expect(mpcbench.match(/<tr class="task"/g)).toHaveLength(pageRows)
    const json = /<script id="report-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
    expect(JSON.parse(json).arte[0].results.taskResults).toHaveLength(tasks.length)
    const small = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(arteResults(tasks.slice(0, 3))), {})], mpcbench: [] })
    expect(small.match(/<tr class="task"/g)).toHaveLength(3)
    expect(small).not.toContain('<noscript>')
  })

  it('writes a threshold as the metrics table writes its metric', () => {
    const results = { ...arteResults([task('1', true, 1), task('2', true, 1), task('3', false, 0)]) }
    results.thresholds = [{ metric: 'exactMatchAccuracy', op: '>=', value: 0.5, measured: results.exactMatchAccuracy, passed: true }]
    const html = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(results), {})], mpcbench: [] })
    expect(html).toContain('data-metric="exactMatchAccuracy" data-value="0.6666666666666666">0.667<')
    expect(html).toContain('threshold exactMatchAccuracy >= 0.5: met (0.667)</p>')
  })

  it('writes the calls replayed from the response cache as the MPCBench part and the terminal do', () => {
    const cachedUsage = {
      promptTokens: 9000,
      completionTokens: 1000,
      totalTokens: 10500,
      costUsd: 0.05,
      calls: 10,
      cached: { promptTokens: 9000, completionTokens: 1000, totalTokens: 10500, costUsd: 0.021, calls: 8 },
    }
    const html = renderReport({
      generatedAt: 'now',
      arte: [buildArteSection(arteFile({ ...arteResults([task('1', true, 1)]), usage: cachedUsage }), {})],
      mpcbench: [],
    })
    expect(html).toContain('<th scope="row">replayed</th><td>2 call(s) paid, 8 replayed from the cache (10,500 tokens, $0.02 not paid)</td>')
  })

  it('compares with the previous run as `agent-bench compare` does: paired deltas with their intervals, flips of pass only', () => {
    const before = arteResults(
      ['1', '2', '3', '4', '5', '6'].map((id, i) => task(id, i < 4, i < 4 ? 1 : 0.5)),
      '2026-01-01T00:00:00.000Z',
    )
    const now = arteResults([
      task('1', false, 0.25),
      task('2', false, 0.5),
      task('3', true, 1),
      task('4', true, 1),
      task('5', false, 0.75),
      notRunTask('6'),
      task('7', true, 1),
    ])
    const expected = compareRuns(arteComparable(before), arteComparable(now))
    const html = renderReport({
      generatedAt: 'now',
      arte: [{ ...buildArteSection(arteFile(now), {}), previous: { file: 'before.json', results: before } }],
      mpcbench: [],
    })
    const sign = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(3)}`
    for (const [name, m] of Object.entries(expected.metrics)) {
      expect(m.ci).not.toBeNull()
      expect(html).toContain(
        `data-delta="${name}" data-value="${m.delta}">${sign(m.delta ?? 0)} <span class="ci">[${sign(m.ci?.low ?? 0)}, ${sign(m.ci?.high ?? 0)}]</span>`,
      )
    }
    expect(html).toContain(`data-compare="shared" data-value="${expected.tasks}"`)
    expect(html).toContain(`data-compare="left-out" data-value="${expected.leftOut.length}"`)
    expect(html).toContain(`data-compare="flips" data-value="${expected.flips.length}"`)
    // Task 5 moved (0.5 → 0.75) without a flip: not among the improved, as in `agent-bench compare`.
    expect(html).toContain(`data-compare="improved" data-value="${expected.improved.length}"`)
    expect(expected.improved).toEqual([])
    expect(html).toContain(`data-compare="regressed" data-value="2"`)
    expect(html).toContain('data-compare="significant" data-value="0"')
  })

  it('gives the verdict with its p-value and test, and colours the primary delta only when significant', () => {
    const page = (before: ArteResults, now: ArteResults) =>
      renderReport({ generatedAt: 'now', arte: [{ ...buildArteSection(arteFile(now), {}), previous: { file: 'before.json', results: before } }], mpcbench: [] })
    const ids = Array.from({ length: 20 }, (_, i) => String(i + 1))
    const before = arteResults(
      ids.map((id) => task(id, false, 0)),
      '2026-01-01T00:00:00.000Z',
    )
    // 4 of 20 improved, none regressed: the interval excludes 0, the sign-flip test gives p = 0.125.
    const four = page(before, arteResults(ids.map((id, i) => task(id, i < 4, i < 4 ? 1 : 0))))
    expect(four).toContain(
      '<p class="meta" data-compare="significant" data-value="0">Not significant: <span data-compare="p-value" data-value="0.125">p = 0.125</span> on the exactMatchAccuracy delta (exact paired sign-flip test by task, 20 task(s), 4 differ); the runs may differ only by chance.</p>',
    )
    expect(four).toContain('<td class="num " data-delta="exactMatchAccuracy" data-value="0.2">')
    expect(four).toContain('<td class="num up" data-delta="avgSemanticScore" data-value="0.2">')
    const six = page(before, arteResults(ids.map((id, i) => task(id, i < 6, i < 6 ? 1 : 0))))
    expect(six).toContain(
      '<p class="note" data-compare="significant" data-value="1"><b>Significant:</b> <span data-compare="p-value" data-value="0.03125">p = 0.0313</span> on the exactMatchAccuracy delta',
    )
    expect(six).toContain('<td class="num up" data-delta="exactMatchAccuracy" data-value="0.3">')
  })

  it('compares two MPCBench summaries of one agent each as `agent-bench compare` does (tasks paired without the agent)', () => {
    const before = summary([5, 4, 5], '2026-01-01T00:00:00.000Z')
    const now = summary([1, 4, 0])
    now.rows = now.rows.map((row) => ({ ...row, agent_model: 'b' }))
    now.scores = { 'agent=b__judge=j': now.scores['agent=a__judge=j'] ?? [] }
    const [a, b] = pairMpcbenchRuns(before, now)
    const expected = compareRuns(a, b)
    expect(expected.tasks).toBe(3)
    const file = classifyResults(now, 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const html = renderReport({
      generatedAt: 'now',
      arte: [],
      mpcbench: [{ ...buildMpcbenchSection(file, {}), previous: { file: 'before.json', summary: before } }],
    })
    expect(html).toContain('data-compare="shared" data-value="3"')
    expect(html).toContain(`data-compare="regressed" data-value="${expected.regressed.length}"`)
    const m = expected.metrics.answer_requirements_satisfaction
    expect(html).toContain(`data-delta="answer_requirements_satisfaction" data-value="${m?.delta}">${m?.delta?.toFixed(3)} <span class="ci">`)
  })

  it('says how many benchmark tasks the MPCBench entries of several judges pair over', () => {
    const judges = (base: Summary): Summary => {
      const scores = base.scores['agent=a__judge=j'] ?? []
      return { ...base, scores: { 'agent=a__judge=j': scores, 'agent=a__judge=k': scores } }
    }
    const before = judges(summary([5, 4, 5], '2026-01-01T00:00:00.000Z'))
    const now = judges(summary([1, 4, 0]))
    const file = classifyResults(now, 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const html = renderReport({
      generatedAt: 'now',
      arte: [],
      mpcbench: [{ ...buildMpcbenchSection(file, {}), previous: { file: 'before.json', summary: before } }],
    })
    expect(html).toContain('data-paired-tasks="answer_requirements_satisfaction">6 <span class="muted" data-clusters="3">of 3 tasks</span></td>')
    expect(html).toContain('(exact paired sign-flip test by task, 3 task(s), 2 differ)')
  })

  it('takes as the previous run the newest kept run that started before this one, never a later one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-previous-'))
    const run = (startedAt: string) => arteResults([task('1', true, 1)], startedAt)
    for (const [name, startedAt, mtime] of [
      ['2026-01-01T00-00-01-000Z', '2026-01-01T00:00:00.000Z', 1_000],
      ['2026-01-02T00-00-01-000Z', '2026-01-02T00:00:00.000Z', 2_000],
      ['2026-01-03T00-00-01-000Z', '2026-01-03T00:00:00.000Z', 3_000],
    ] as const) {
      mkdirSync(join(dir, name), { recursive: true })
      writeFileSync(join(dir, name, 'arte-results.json'), JSON.stringify(run(startedAt)))
      utimesSync(join(dir, name), mtime, mtime)
    }
    expect(buildArteSection(arteFile(run('2026-01-02T00:00:00.000Z')), { historyDir: dir }).previous?.results.config.startedAt).toBe('2026-01-01T00:00:00.000Z')
    expect(buildArteSection(arteFile(run('2026-01-01T00:00:00.000Z')), { historyDir: dir }).previous).toBeUndefined()
  })

  it('reads the run history from BENCH_HISTORY_DIR, where the benchmark reporters keep it (agent-bench report without --history)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-history-env-'))
    expect(reportSettingsFromEnv({ BENCH_HISTORY_DIR: 'runs' }, '/p').historyDir).toBe('/p/runs')
    expect(reportSettingsFromEnv({}, '/p').historyDir).toBe('/p/evaluation/history')
    mkdirSync(join(dir, 'kept', 'run-1'), { recursive: true })
    writeFileSync(join(dir, 'kept', 'run-1', 'arte-results.json'), JSON.stringify(arteResults([task('1', false, 0)], '2026-01-01T00:00:00.000Z')))
    writeFileSync(join(dir, 'results.json'), JSON.stringify(arteResults([task('1', true, 1)])))
    vi.stubEnv('BENCH_HISTORY_DIR', join(dir, 'kept'))
    vi.stubEnv('BENCH_REPORT', '')
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    try {
      expect(await reportCommand.run(['--results', join(dir, 'results.json'), '--traces-db', join(dir, 'none.db'), '--out', join(dir, 'index.html')])).toBe(0)
    } finally {
      log.mockRestore()
      vi.unstubAllEnvs()
    }
    const html = readFileSync(join(dir, 'index.html'), 'utf8')
    expect(html).toContain('Compared with the previous run')
    expect(html).toContain('data-compare="improved" data-value="1"')
  })
})

describe('empty and partial inputs', () => {
  it('says a run has no tasks, or that none ran, instead of charting nothing', () => {
    const render = (results: ArteResults) =>
      renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(results, { passHatK: {} }), {})], mpcbench: [] })
    const none = render(arteResults([]))
    expect(none).toContain('<p class="note" data-empty="arte">This run has no tasks.</p>')
    expect(none).not.toContain('<svg class="chart"')
    expect(none).not.toContain('pass^k')
    const notRun = render(arteResults([notRunTask('1'), notRunTask('2')]))
    expect(notRun).toContain('No task ran (2 selected, 2 not run): there are no scores or times to chart.')
  })

  it('MPCBench: says when a summary holds no judged test, when a judge scored nothing, and when judge results are missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-no-judge-'))
    const empty = classifyResults({ ...summary([]), tests: 0, rows: [], scores: {} }, 'summary.json')
    if (empty?.kind !== 'mpcbench') throw new Error('not a summary')
    expect(renderReport({ generatedAt: 'now', arte: [], mpcbench: [buildMpcbenchSection(empty, {})] })).toContain(
      'This summary holds no judged test (0 test(s))',
    )
    const unjudged = classifyResults(summary([null, null]), 'summary.json')
    if (unjudged?.kind !== 'mpcbench') throw new Error('not a summary')
    const section = buildMpcbenchSection(unjudged, { logDir: dir })
    expect(section.notes).toContain(`2 of 2 judge result(s) not found in ${dir}: the scores shown are the summary's, without the judge's reasons.`)
    const html = renderReport({ generatedAt: 'now', arte: [], mpcbench: [section] })
    expect(html).toContain('No score from this judge (2 task(s), none judged): nothing to chart.')
    expect(html).not.toContain('<svg class="chart"')
  })
})

describe('MPCBench logs of another run (a later run writes the same file names)', () => {
  /** A run log of task `taskId` (agent `a`) that started at `startedAt`, ran `durationMs` and ended `outcome`. */
  function runLog(taskId: string, startedAt: string, durationMs: number, outcome: RunLog['outcome'] = { kind: 'answered', via: 'json' }) {
    return RunLogSchema.parse({
      task_id: taskId,
      task_type: 'planning',
      user_prompt: 'p',
      tool_trace_steps: [],
      raw_tool_calls: [],
      final_answer: `answer of ${startedAt}`,
      rationale: '',
      agent_model: 'a',
      agent_model_file_name: 'a',
      agent_model_kind: 'llm',
      scenario_id: 's',
      task_file: null,
      outcome,
      usage,
      turns: 1,
      trace_id: `trace-${startedAt}`,
      started_at: startedAt,
      duration_ms: durationMs,
    })
  }
  function judgeResult(taskId: string, judgedAt: string, requirements: number, grounding = 3): JudgeResultFile {
    return JudgeResultFileSchema.parse({
      kind: 'scored',
      task_id: taskId,
      agent_model: 'a',
      agent_model_file_name: 'a',
      judge_model: 'j',
      judge_model_file_name: 'j',
      judge_kind: 'llm',
      attempts: 1,
      usage,
      judged_at: judgedAt,
      answer_requirements_satisfaction: { score: requirements, justification: `reasons of ${judgedAt}` },
      source_grounded_reasoning: { score: grounding, justification: 'grounded' },
    })
  }

  it("never shows another run's log or judge result as the summary's: a later one (started after generated_at) or one that disagrees with it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-other-run-'))
    // The summary of a run that ended at 12:33:54 (t0, t1, t2 answered; requirements 4 each, grounding 3).
    const base = summary([4, 4, 4], '2026-11-26T12:33:54.049Z')
    const write = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value))
    // t0: a later run (12:39) overwrote both files: its own time (104 ms) and score (2).
    write(runLogFileName('t0', 'a'), runLog('t0', '2026-11-26T12:39:10.759Z', 104))
    write(judgeResultFileName('t0', 'a', 'j'), judgeResult('t0', '2026-11-26T12:39:10.894Z', 2))
    // t1: the summary's own files.
    write(runLogFileName('t1', 'a'), runLog('t1', '2026-11-26T12:33:50.000Z', 349))
    write(judgeResultFileName('t1', 'a', 'j'), judgeResult('t1', '2026-11-26T12:33:51.000Z', 4))
    // t2: files written before the summary, but not its run's: the log stopped at max-turns (the summary's run
    // answered) and the judge scored 2 (the summary has 4).
    write(runLogFileName('t2', 'a'), runLog('t2', '2026-11-26T12:30:00.000Z', 77, { kind: 'max-turns', maxTurns: 10 }))
    write(judgeResultFileName('t2', 'a', 'j'), judgeResult('t2', '2026-11-26T12:30:01.000Z', 2))
    const file = classifyResults(base, 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const section = buildMpcbenchSection(file, { logDir: dir })
    const [t0, t1, t2] = section.tasks
    expect(t0?.runLog).toBeUndefined()
    expect(t0?.judgeResult).toBeUndefined()
    expect(t0?.otherRunLog?.content.duration_ms).toBe(104)
    expect(t0?.otherRunLog?.why).toBe(
      "This run log was written by a later run (started 2026-11-26T12:39:10.759Z, after this summary was generated at 2026-11-26T12:33:54.049Z); the summary's own log was overwritten.",
    )
    expect(t0?.otherJudgeResult?.why).toContain(
      'This judge result was written by a later run (judged 2026-11-26T12:39:10.894Z, after this summary was generated at 2026-11-26T12:33:54.049Z)',
    )
    expect(t1?.runLog?.duration_ms).toBe(349)
    expect(t1?.judgeResult?.judged_at).toBe('2026-11-26T12:33:51.000Z')
    expect(t1?.otherRunLog).toBeUndefined()
    expect(t1?.otherJudgeResult).toBeUndefined()
    expect(t2?.runLog).toBeUndefined()
    expect(t2?.otherRunLog?.why).toContain('This run log ended "max-turns" but the summary\'s run ended "answered"')
    expect(t2?.otherJudgeResult?.why).toContain('This judge result scores requirements 2, grounding 3, but the summary has requirements 4, grounding 3')
    expect(section.notes).toContain(
      `2 of 3 run log(s) in ${dir} are another run's, not this summary's (written after it was generated at 2026-11-26T12:33:54.049Z, or ending otherwise than it records): ` +
        "a later run overwrote the summary's own. Their tasks show the summary's scores but no outcome, tool calls or time; opened, each says why and shows the other run's log apart.",
    )
    expect(section.notes.some((note) => note.startsWith(`2 of 3 judge result(s) in ${dir} are another run's`))).toBe(true)

    // The table: the summary's scores; no outcome, tool calls or time of the other run, and a mark that says why.
    const html = renderReport({ generatedAt: 'now', arte: [], mpcbench: [section] })
    const row = (id: string) => new RegExp(`<tr class="task"[^>]*data-task-id="${id}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? ''
    expect(row('t0')).toContain('data-field="requirements" data-sort-value="4">4</td>')
    expect(row('t0')).toContain(`<span class="note" data-other-run="log" title="${t0?.otherRunLog?.why.replace(/'/g, '&#39;')}">(log overwritten)</span>`)
    expect(row('t0')).not.toContain('104')
    expect(row('t0')).not.toContain('answered')
    expect(row('t1')).toContain('<td class="num" data-sort-value="349">349</td>')
    expect(row('t1')).not.toContain('data-other-run')
    const shown = (id: string) => row(id).replace(/ title="[^"]*"/g, '')
    expect(shown('t2')).toContain('(log overwritten)')
    expect(shown('t2')).not.toContain('max-turns')
    expect(shown('t2')).not.toContain('>77<')
  })

  it('keeps a log written before the summary that agrees with it (a resumed run reuses earlier logs), and a summary without a time checks nothing by time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-other-run-kept-'))
    writeFileSync(join(dir, runLogFileName('t0', 'a')), JSON.stringify(runLog('t0', '2026-01-01T00:00:00.000Z', 5)))
    writeFileSync(join(dir, judgeResultFileName('t0', 'a', 'j')), JSON.stringify(judgeResult('t0', '2026-01-01T00:00:01.000Z', 4)))
    const file = classifyResults(summary([4], '2026-11-26T12:33:54.049Z'), 'summary.json')
    if (file?.kind !== 'mpcbench') throw new Error('not a summary')
    const [task] = buildMpcbenchSection(file, { logDir: dir }).tasks
    expect(task?.runLog?.duration_ms).toBe(5)
    expect(task?.judgeResult).toBeDefined()
    const noTime = classifyResults(summary([4], 'unknown'), 'summary.json')
    if (noTime?.kind !== 'mpcbench') throw new Error('not a summary')
    expect(buildMpcbenchSection(noTime, { logDir: dir }).tasks[0]?.runLog?.duration_ms).toBe(5)
  })
})

describe('ART-E LLM judge verdicts per task', () => {
  const judgedRun = () => {
    const tasks = [
      { ...task('1', true, 1), llmJudgeCorrect: true },
      { ...task('2', true, 1), llmJudgeCorrect: false },
      { ...task('3', false, 0.2), llmJudgeCorrect: true },
      { ...task('4', false, 0), llmJudgeError: { code: 'ERR_ARTE_JUDGE_REPLY', message: 'The judge replied "Maybe", neither True nor False.' } },
      notRunTask('5'),
    ]
    return { ...arteResults(tasks), llmJudgeAccuracy: 2 / 3, llmJudge: { model: 'judge/model', judgedTasks: 3, errors: 1, usage } }
  }

  it('shows each verdict in a judge column (error with its message on hover), and filters exact match against the judge', () => {
    const html = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(judgedRun()), {})], mpcbench: [] })
    expect(html).toContain('<table class="tasks" data-kind="arte" data-tasks="5" data-page-rows="200" data-judged="1">')
    expect(html).toContain(
      `<th data-sort="num">EM</th><th data-sort="num" title="the LLM judge's verdict (judge/model)">judge</th><th data-sort="num">Jaccard</th>`,
    )
    const cell = (id: string) => new RegExp(`data-task-id="${id}"[\\s\\S]*?(<td[^>]*data-field="llmJudge"[^>]*>[^<]*</td>)`).exec(html)?.[1]
    expect(cell('1')).toBe('<td class="num pass" data-field="llmJudge" data-sort-value="1">✓</td>')
    expect(cell('2')).toBe('<td class="num fail" data-field="llmJudge" data-sort-value="0">✗</td>')
    expect(cell('3')).toBe('<td class="num pass" data-field="llmJudge" data-sort-value="1">✓</td>')
    expect(cell('4')).toBe(
      '<td class="num warn" data-field="llmJudge" data-sort-value="-0.5" title="ERR_ARTE_JUDGE_REPLY: The judge replied &#34;Maybe&#34;, neither True nor False.">error</td>',
    )
    expect(cell('5')).toBe('<td class="num" data-field="llmJudge" data-sort-value="-1">-</td>')
    expect(html).toContain(
      '<option value="em-not-judge">EM ✓ but judge ✗</option><option value="judge-not-em">judge ✓ but EM ✗</option><option value="judge-error">judge error</option>',
    )

    const unjudged = renderReport({ generatedAt: 'now', arte: [buildArteSection(arteFile(arteResults([task('1', true, 1)])), {})], mpcbench: [] })
    expect(unjudged).not.toContain('data-field="llmJudge"')
    expect(unjudged).not.toContain('data-judged="1"')
    expect(unjudged).not.toContain('<option value="em-not-judge">')
  })
})

describe('run history entries that cannot be read', () => {
  it('passes over a truncated history file, compares with the newest readable earlier run, and names the file passed over', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-truncated-history-'))
    const kept = (name: string, text: string) => {
      mkdirSync(join(dir, name), { recursive: true })
      writeFileSync(join(dir, name, 'arte-results.json'), text)
    }
    const older = arteResults([task('1', false, 0)], '2026-01-01T00:00:00.000Z')
    kept('2026-01-01T00-00-00-000Z', JSON.stringify(older))
    kept('2026-01-01T12-00-00-000Z', JSON.stringify(arteResults([task('1', true, 1)], '2026-01-01T12:00:00.000Z')).slice(0, 300))
    // The other benchmark's file of a run is no ART-E run: passed over without a word, even unreadable.
    writeFileSync(join(dir, '2026-01-01T12-00-00-000Z', 'mpcbench-summary.json'), '{')
    const now = arteResults([task('1', true, 1)], '2026-01-02T00:00:00.000Z')
    const section = buildArteSection(arteFile(now), { historyDir: dir })
    expect(section.previous?.results.config.startedAt).toBe('2026-01-01T00:00:00.000Z')
    expect(section.skippedHistory).toEqual([
      { file: join(dir, '2026-01-01T12-00-00-000Z', 'arte-results.json'), reason: expect.stringMatching(/^not valid JSON: /) },
    ])
    const html = renderReport({ generatedAt: 'now', arte: [section], mpcbench: [] })
    const line = /<p class="note" data-compare="skipped" data-value="1">[\s\S]*?<\/p>/.exec(html)?.[0] ?? ''
    expect(line).toContain(
      'Passed over 1 file(s) of the run history that could not be read, so the run compared with is the newest readable one before this run:',
    )
    expect(line).toContain(`<code>${join(dir, '2026-01-01T12-00-00-000Z', 'arte-results.json')}</code> (not valid JSON: `)
    expect(html.indexOf('data-compare="skipped"')).toBeGreaterThan(html.indexOf('Compared with the previous run'))

    // Nothing readable left to compare with: the page says which file it passed over.
    const alone = buildArteSection(arteFile(arteResults([task('1', true, 1)], '2026-01-01T06:00:00.000Z')), { historyDir: dir })
    expect(alone.previous?.results.config.startedAt).toBe('2026-01-01T00:00:00.000Z')
    rmSync(join(dir, '2026-01-01T00-00-00-000Z'), { recursive: true })
    const none = buildArteSection(arteFile(now), { historyDir: dir })
    expect(none.previous).toBeUndefined()
    const noneHtml = renderReport({ generatedAt: 'now', arte: [none], mpcbench: [] })
    expect(noneHtml).not.toContain('Compared with the previous run')
    expect(noneHtml).toContain('No earlier run to compare with could be read from the run history: passed over 1 file(s) that could not be read:')
  })

  it('names a file passed over relative to the page, as the run compared with', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-truncated-history-shown-'))
    mkdirSync(join(dir, 'history', 'run-1'), { recursive: true })
    mkdirSync(join(dir, 'history', 'run-2'), { recursive: true })
    writeFileSync(join(dir, 'history', 'run-1', 'arte-results.json'), JSON.stringify(arteResults([task('1', false, 0)], '2026-01-01T00:00:00.000Z')))
    writeFileSync(join(dir, 'history', 'run-2', 'arte-results.json'), '{"exactMatchAccuracy": 0.5,')
    writeFileSync(join(dir, 'results.json'), JSON.stringify(arteResults([task('1', true, 1)])))
    const data = buildReportData({ results: [readResultsFile(join(dir, 'results.json'))], sources: { historyDir: join(dir, 'history') }, displayRoot: dir })
    expect(data.arte[0]?.previous?.file).toBe(join('history', 'run-1', 'arte-results.json'))
    expect(data.arte[0]?.skippedHistory.map((entry) => entry.file)).toEqual([join('history', 'run-2', 'arte-results.json')])
  })

  it('agent-bench report says on stderr which history file it passed over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-truncated-history-cli-'))
    mkdirSync(join(dir, 'history', 'run-1'), { recursive: true })
    writeFileSync(join(dir, 'history', 'run-1', 'arte-results.json'), '{"exactMatchAccuracy": 0.5,')
    writeFileSync(join(dir, 'results.json'), JSON.stringify(arteResults([task('1', true, 1)])))
    vi.stubEnv('BENCH_REPORT', '')
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const args = [
        '--results',
        join(dir, 'results.json'),
        '--traces-db',
        join(dir, 'none.db'),
        '--history',
        join(dir, 'history'),
        '--out',
        join(dir, 'index.html'),
      ]
      expect(await reportCommand.run(args)).toBe(0)
      expect(error.mock.calls.map((call) => String(call[0]))).toContainEqual(
        expect.stringMatching(/^note: passed over .*run-1\/arte-results\.json in the run history \(not valid JSON: /),
      )
    } finally {
      log.mockRestore()
      error.mockRestore()
      vi.unstubAllEnvs()
    }
  })
})

describe("each run's own totals", () => {
  it('lists the main scores, exactMatchAccuracy and avgSemanticScore, with the intervals the results carry', () => {
    const ci = (low: number, high: number) => ({ low, high, level: 0.95, method: 'Wilson score' })
    const before = {
      ...arteResults([task('1', true, 1), task('2', false, 0.2), task('3', false, 0.4)], '2026-01-01T00:00:00.000Z'),
      confidenceIntervals: { exactMatchAccuracy: ci(0.06, 0.79), avgSemanticScore: ci(0.2, 0.9) },
    }
    const now = {
      ...arteResults([task('1', true, 1), task('2', true, 1), task('3', false, 0.4)]),
      confidenceIntervals: { exactMatchAccuracy: ci(0.21, 0.94), avgSemanticScore: null },
    }
    const totals = compareArteRuns(before, now).totals
    expect(totals.slice(0, 2).map((total) => total.name)).toEqual(['exactMatchAccuracy', 'avgSemanticScore'])
    expect(totals.find((total) => total.name === 'exactMatchAccuracy')).toMatchObject({
      before: 1 / 3,
      after: 2 / 3,
      format: 'score',
      beforeCi: ci(0.06, 0.79),
      afterCi: ci(0.21, 0.94),
    })
    expect(totals.find((total) => total.name === 'avgSemanticScore')).toMatchObject({
      before: 1.6 / 3,
      after: 2.4 / 3,
      format: 'score',
      beforeCi: ci(0.2, 0.9),
    })
    expect(totals.find((total) => total.name === 'avgSemanticScore')?.afterCi).toBeUndefined()
    const html = renderReport({
      generatedAt: 'now',
      arte: [{ ...buildArteSection(arteFile(now), {}), previous: { file: 'before.json', results: before } }],
      mpcbench: [],
    })
    expect(html).toContain(
      '<tr><th scope="row">exactMatchAccuracy</th><td class="num">0.333 <span class="ci" title="95% confidence interval (Wilson score)">[0.060, 0.790]</span></td><td class="num">0.667 <span class="ci" title="95% confidence interval (Wilson score)">[0.210, 0.940]</span></td><td class="num" data-total="exactMatchAccuracy"',
    )
    expect(html).toContain(
      '<tr><th scope="row">avgSemanticScore</th><td class="num">0.533 <span class="ci" title="95% confidence interval (Wilson score)">[0.200, 0.900]</span></td><td class="num">0.800</td>',
    )
  })

  it('gives MPCBench row means with their intervals when the summaries carry them', () => {
    const ci = (low: number, high: number) => ({ low, high, level: 0.95, method: 'bootstrap' })
    const withCi = (requirements: number[], low: number, high: number) => {
      const base = summary(requirements)
      return { ...base, rows: base.rows.map((row) => ({ ...row, ci: { answer_requirements_satisfaction: ci(low, high), source_grounded_reasoning: null } })) }
    }
    const totals = compareMpcbenchRuns(withCi([2, 3], 2, 3), withCi([4, 5], 4, 5)).totals
    expect(totals.find((total) => total.name.endsWith('requirements'))).toMatchObject({ before: 2.5, after: 4.5, beforeCi: ci(2, 3), afterCi: ci(4, 5) })
    expect(totals.find((total) => total.name.endsWith('grounding'))?.beforeCi).toBeUndefined()
  })
})
