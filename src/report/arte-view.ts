import { ARTE_METRIC_NAMES, type ArteTaskResult } from '../arte/results/results.ts'
import { NO_VERDICT, judgeCoverageText } from '../arte/results/format-statistics.ts'
import { formatCachedPart, paidCostUsd } from '../llm/usage.ts'
import { compareArteRuns } from './compare-runs.ts'
import { renderComparison, skippedHistoryLine } from './comparison-view.ts'
import { escapeHtml, fixed, money, thousands } from './html.ts'
import type { ArteSection, Interval } from './report-data.ts'
import { barChart, histogram01, histogram01Labels, timeBins } from './svg-chart.ts'
import { TASK_TABLE_PAGE_ROWS, taskTableOpen, unlistedNote } from './task-table.ts'

/** How each ART-E metric is shown: decimals, or a whole number. */
const METRIC_FORMAT: Record<string, (value: number) => string> = {
  exactMatchAccuracy: (v) => fixed(v, 3),
  avgSemanticScore: (v) => fixed(v, 3),
  avgExecutionTimeMs: (v) => thousands(v),
  completedTasks: (v) => String(v),
  failedTasks: (v) => String(v),
  totalTasks: (v) => String(v),
  totalTimeMs: (v) => thousands(v),
  sourcesAccuracy: (v) => fixed(v, 3),
  llmJudgeAccuracy: (v) => fixed(v, 3),
}

/** The scores that compare with OpenPipe's, shown under the doc's metrics when the results carry them. */
export const ARTE_OPENPIPE_SCORE_NAMES = ['sourcesAccuracy', 'llmJudgeAccuracy'] as const

/** An ART-E metric as the page shows it (also used by the tests that compare the page with results.json). */
export function formatArteMetric(name: string, value: number): string {
  return (METRIC_FORMAT[name] ?? ((v: number) => String(v)))(value)
}

function interval(ci: Interval | undefined, digits: number): string {
  if (ci === undefined) return ''
  return `[${fixed(ci.low, digits)}, ${fixed(ci.high, digits)}]`
}

function intervalTitle(ci: Interval | undefined): string {
  if (ci === undefined) return ''
  const level = ci.level === undefined ? '' : `${Math.round(ci.level * 100)}% `
  return `${level}confidence interval${ci.method === undefined ? '' : ` (${ci.method})`}`
}

/**
 * A pass^j's interval under its value in the pass^k table (`[0.313, 0.832]`, its level and method on hover), or
 * nothing for results without one (older results, one trial).
 */
function passHatKInterval(ci: Interval | undefined): string {
  if (ci === undefined) return ''
  return `<br><span class="ci" data-pass-hat-k-ci data-low="${ci.low}" data-high="${ci.high}" title="${escapeHtml(intervalTitle(ci))}">${interval(ci, 3)}</span>`
}

/** How a task's LLM judge verdict is shown in its cell (the page's script writes the same: `KINDS.arte.judge`). */
export interface JudgeVerdictCell {
  text: '✓' | '✗' | 'error' | '-'
  cls: string
  /** Sorts correct, wrong, error, none. */
  sortValue: number
  /** The judge's error, on hover. */
  title?: string
}

/** A task's LLM judge verdict: ✓ correct, ✗ not correct, `error` (no verdict, its message on hover), `-` not run or not judged. */
export function judgeVerdict(task: Pick<ArteTaskResult, 'outcome' | 'llmJudgeCorrect' | 'llmJudgeError'>): JudgeVerdictCell {
  if (task.outcome.kind === 'not-run') return { text: '-', cls: 'num', sortValue: -1 }
  if (task.llmJudgeError !== undefined)
    return { text: 'error', cls: 'num warn', sortValue: -0.5, title: `${task.llmJudgeError.code}: ${task.llmJudgeError.message}` }
  if (task.llmJudgeCorrect === true) return { text: '✓', cls: 'num pass', sortValue: 1 }
  if (task.llmJudgeCorrect === false) return { text: '✗', cls: 'num fail', sortValue: 0 }
  return { text: '-', cls: 'num', sortValue: -1 }
}

/** The ART-E part of the page for one results file; `index` makes its element ids unique. */
export function renderArteSection(section: ArteSection, index: number): string {
  const { results, extras } = section
  const id = `arte-${index}`
  const exact = results.taskResults.filter((task) => task.exactMatch).length
  const kind = results.config.modelKind === 'baseline' ? ' (baseline, not an LLM)' : results.config.modelKind === 'mixed' ? ' (mixed)' : ''
  const cis = extras.confidenceIntervals ?? {}
  const hasCi = Object.keys(cis).length > 0
  const ranCount = results.totalTasks - (results.notRunTasks ?? 0)
  const judge = results.llmJudge
  // With judge errors: how much the judge covered, and that the accuracy leans toward the unanswered tasks.
  const coverage = judgeCoverageText({ ...results, notRunTasks: results.notRunTasks ?? 0 })
  const scoreNote: Record<string, string> = {
    exactMatchAccuracy: `${exact}/${ranCount}`,
    sourcesAccuracy: `${results.taskResults.filter((task) => task.outcome.kind !== 'not-run' && task.sourcesCorrect === true).length}/${ranCount}, OpenPipe's sources_correct`,
    // The coverage, when there is one, says how many tasks were judged and how many erred: said once, there.
    ...(judge === undefined
      ? {}
      : { llmJudgeAccuracy: coverage === undefined ? `${escapeHtml(judge.model)}, over ${judge.judgedTasks} judged task(s)` : escapeHtml(judge.model) }),
  }
  const judgeWarning = coverage === undefined ? '' : ` <span class="warn" data-judge-coverage>${escapeHtml(coverage)}</span>`
  const metricRow = (name: string, value: number, decimals: boolean): string => {
    const ci = cis[name]
    const note = `${scoreNote[name] === undefined ? '' : ` <span class="muted">(${scoreNote[name]})</span>`}${name === 'llmJudgeAccuracy' ? judgeWarning : ''}`
    return `<tr><th scope="row">${name}</th><td class="num" data-metric="${name}" data-value="${value}">${formatArteMetric(name, value)}</td><td>${note}</td>${
      hasCi ? `<td class="ci" data-ci="${name}" title="${escapeHtml(intervalTitle(ci))}">${interval(ci, decimals ? 3 : 0)}</td>` : ''
    }</tr>`
  }
  const metricRows = [
    ...ARTE_METRIC_NAMES.map((name) => metricRow(name, results[name], name === 'exactMatchAccuracy' || name === 'avgSemanticScore')),
    ...ARTE_OPENPIPE_SCORE_NAMES.flatMap((name) => {
      const value = results[name]
      if (value !== undefined) return [metricRow(name, value, true)]
      // A judge that gave no verdict on any task it was asked about: no value, never a 0.
      if (name !== 'llmJudgeAccuracy' || judge === undefined) return []
      return [
        `<tr><th scope="row">${name}</th><td class="num" data-metric="${name}" data-value="">${NO_VERDICT}</td><td> <span class="muted">(${scoreNote[name]})</span>${judgeWarning}</td>${hasCi ? '<td class="ci"></td>' : ''}</tr>`,
      ]
    }),
  ]
  const usage = results.usage
  const usageRows = [
    [
      'tokens',
      `<span data-usage="totalTokens" data-value="${usage.totalTokens}">${thousands(usage.totalTokens)}</span> (${thousands(usage.promptTokens)} prompt, ${thousands(usage.completionTokens)} completion)`,
    ],
    ['calls', `<span data-usage="calls" data-value="${usage.calls}">${thousands(usage.calls)}</span>`],
    // The paid cost, as the terminal reporter prints it: calls replayed from the response cache cost nothing.
    [
      'cost',
      `<span data-usage="paidCostUsd" data-value="${paidCostUsd(usage) ?? ''}">${money(paidCostUsd(usage))}</span>${usage.cached === undefined ? '' : ' paid'}`,
    ],
  ]
  // As the terminal reporters and the MPCBench part say it.
  if (usage.cached !== undefined && usage.cached.calls > 0) usageRows.push(['replayed', escapeHtml(formatCachedPart(usage).replace(/^; /, ''))])
  // The judge's spending, apart from the agent's (as the terminal reporter prints it).
  if (judge !== undefined) {
    usageRows.push([
      'judge',
      `<span data-usage="judgeTotalTokens" data-value="${judge.usage.totalTokens}">${thousands(judge.usage.totalTokens)}</span> tokens, ${thousands(judge.usage.calls)} calls, <span data-usage="judgePaidCostUsd" data-value="${paidCostUsd(judge.usage) ?? ''}">${money(paidCostUsd(judge.usage))}</span>`,
    ])
  }
  const level = Object.values(cis)[0]?.level
  const ciHeader = hasCi ? `<th>${level === undefined ? '' : `${Math.round(level * 100)}% `}CI</th>` : ''
  const passHatK =
    extras.passHatK === undefined || Object.keys(extras.passHatK).length === 0
      ? ''
      : `<h3>pass^k</h3>${
          extras.passHatKTasks === undefined || extras.passHatKTasks === results.totalTasks
            ? ''
            : `<p class="note" data-pass-hat-k-tasks="${extras.passHatKTasks}">over the ${extras.passHatKTasks} task(s) with an outcome in every trial</p>`
        }<table class="small"><tr>${Object.keys(extras.passHatK)
          .map((k) => `<th>k=${escapeHtml(k)}</th>`)
          .join('')}</tr><tr>${Object.entries(extras.passHatK)
          .map(
            ([k, v]) => `<td class="num" data-pass-hat-k="${escapeHtml(k)}" data-value="${v}">${fixed(v, 3)}${passHatKInterval(results.passHatKCi?.[k])}</td>`,
          )
          .join('')}</tr></table>`
  const suspects =
    extras.graderSuspects === undefined || extras.graderSuspects.length === 0
      ? ''
      : `<p class="warn">Grader suspects (tasks an empty answer passes): ${escapeHtml(extras.graderSuspects.map((s) => (typeof s === 'string' ? s : JSON.stringify(s))).join(', '))}</p>`
  // The tasks the metrics are over: trial 1 (taskResults) of each task that ran (a task not run has no score).
  const ran = results.taskResults.filter((task) => task.outcome.kind !== 'not-run')
  const yLabel = (results.trials ?? 1) > 1 ? 'tasks (trial 1)' : 'tasks'
  const time = timeBins(ran.map((task) => task.executionTimeMs))
  const charts =
    ran.length === 0
      ? `<p class="note" data-empty="arte">${results.totalTasks === 0 ? 'This run has no tasks.' : `No task ran (${results.totalTasks} selected, ${results.notRunTasks ?? 0} not run): there are no scores or times to chart.`}</p>`
      : barChart({
          id: `${id}-semantic-histogram`,
          title: 'Semantic score (Jaccard) per task',
          categories: histogram01Labels(),
          series: [{ name: 'tasks', color: '#3b6fd8', values: histogram01(ran.map((task) => task.semanticScore)) }],
          xLabel: 'semantic score',
          yLabel,
          width: 520,
        }) +
        barChart({
          id: `${id}-time-histogram`,
          title: 'Execution time per task',
          categories: time.labels,
          series: [{ name: 'tasks', color: '#8a63c9', values: time.counts }],
          xLabel: time.unit === 's' ? 'time (s)' : 'time (ms)',
          yLabel,
          width: 360,
        })
  const notRun = results.taskResults.length - ran.length
  // The first page of rows; the page's script lists the others from the embedded results, as these are written
  // (client-script.ts, `KINDS.arte.row`).
  // Each task's LLM judge verdict, in its own column, when the run was judged.
  const judged = results.llmJudge !== undefined || results.taskResults.some((task) => task.llmJudgeCorrect !== undefined || task.llmJudgeError !== undefined)
  const judgeCell = (task: (typeof results.taskResults)[number]): string => {
    if (!judged) return ''
    const verdict = judgeVerdict(task)
    const title = verdict.title === undefined ? '' : ` title="${escapeHtml(verdict.title)}"`
    return `\n<td class="${verdict.cls}" data-field="llmJudge" data-sort-value="${verdict.sortValue}"${title}>${verdict.text}</td>`
  }
  const idCell = (task: (typeof results.taskResults)[number], title: string): string =>
    `<td class="id" data-sort-value="${escapeHtml(task.taskId)}"><button type="button" class="open" aria-expanded="false" title="${title}">▸</button> ${escapeHtml(task.taskId)}</td>`
  // The first page of rows; the page's script lists the others from the embedded results, as these are written
  // (client-script.ts, `KINDS.arte.row`).
  const rows = results.taskResults.slice(0, TASK_TABLE_PAGE_ROWS).map((task, i) => {
    // A task not run has no score: its cells say so instead of showing the zeros the results file holds for it.
    if (task.outcome.kind === 'not-run') {
      return `<tr class="task not-run" data-task-id="${escapeHtml(task.taskId)}" data-trace-id="${escapeHtml(task.traceId)}" data-pass="not-run" data-task-index="${i}">
${idCell(task, 'show the task')}
<td>${escapeHtml(task.question)}</td><td>${escapeHtml(task.groundTruth)}</td><td><span class="muted">(not run: ${escapeHtml(task.outcome.reason)})</span></td>
<td class="num" data-field="exactMatch" data-sort-value="-1">-</td>${judgeCell(task)}
<td class="num" data-field="semanticScore" data-sort-value="-1">-</td>
<td class="num" data-field="executionTimeMs" data-sort-value="-1">-</td>
<td class="num" data-field="totalTokens" data-sort-value="${task.usage.totalTokens}">${thousands(task.usage.totalTokens)}</td></tr>`
    }
    const answer = task.agentAnswer === '' ? `<span class="muted">(no answer: ${escapeHtml(task.outcome.kind)})</span>` : escapeHtml(task.agentAnswer)
    return `<tr class="task" data-task-id="${escapeHtml(task.taskId)}" data-trace-id="${escapeHtml(task.traceId)}"${task.otelTraceId === undefined ? '' : ` data-otel-trace-id="${escapeHtml(task.otelTraceId)}"`} data-pass="${task.exactMatch ? '1' : '0'}" data-task-index="${i}">
${idCell(task, 'show the trace')}
<td>${escapeHtml(task.question)}</td><td>${escapeHtml(task.groundTruth)}</td><td>${answer}</td>
<td class="num ${task.exactMatch ? 'pass' : 'fail'}" data-field="exactMatch" data-sort-value="${task.exactMatch ? 1 : 0}">${task.exactMatch ? '✓' : '✗'}</td>${judgeCell(task)}
<td class="num" data-field="semanticScore" data-sort-value="${task.semanticScore}">${fixed(task.semanticScore, 3)}</td>
<td class="num" data-field="executionTimeMs" data-sort-value="${task.executionTimeMs}">${thousands(task.executionTimeMs)}</td>
<td class="num" data-field="totalTokens" data-sort-value="${task.usage.totalTokens}">${thousands(task.usage.totalTokens)}</td></tr>`
  })
  const judgeErrors = results.taskResults.some((task) => task.outcome.kind !== 'not-run' && task.llmJudgeError !== undefined)
  // With a judge, the status filter also finds where exact match and the judge disagree, and the judge's errors.
  const judgeOptions = judged
    ? `<option value="em-not-judge">EM ✓ but judge ✗</option><option value="judge-not-em">judge ✓ but EM ✗</option>${judgeErrors ? '<option value="judge-error">judge error</option>' : ''}`
    : ''
  const comparison =
    section.previous === undefined
      ? skippedHistoryLine(section.skippedHistory, false)
      : renderComparison(
          compareArteRuns(section.previous.results, results),
          section.previous.file,
          section.previous.results.config.startedAt,
          `${id}-compare`,
          section.skippedHistory,
        )
  return `<section class="bench" id="${id}" data-bench="arte" data-index="${index}">
<h2>ART-E <span class="muted">· ${escapeHtml(section.file)}</span></h2>
<p class="meta">${results.totalTasks} task(s) · model <b>${escapeHtml(results.config.model)}</b>${escapeHtml(kind)} · split ${escapeHtml(results.config.split)}${results.config.rows === undefined || results.config.rows === 'all' ? '' : ` · rows ${escapeHtml(results.config.rows)}`} · ${escapeHtml(results.config.dataset)} · ${escapeHtml(results.config.startedAt)} · run ${escapeHtml(results.testRunEndReason)}</p>
${section.notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('\n')}
<div class="row">
<div><h3>Metrics</h3><div class="scroll"><table class="metrics"><thead><tr><th>metric</th><th>value</th><th></th>${ciHeader}</tr></thead><tbody>${metricRows.join('')}</tbody></table></div>
<div class="scroll"><table class="metrics usage"><tbody>${usageRows.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`).join('')}</tbody></table></div>
${results.thresholds.map((check) => `<p class="${check.passed ? 'pass' : 'fail'}">threshold ${escapeHtml(check.metric)} ${check.op} ${check.value}: ${check.passed ? 'met' : 'NOT met'} (${escapeHtml(formatArteMetric(check.metric, check.measured))})</p>`).join('')}
${passHatK}${suspects}</div>
<div><h3>Distribution</h3>${charts}</div>
</div>
${comparison}
<h3>Tasks</h3>
<div class="controls"><input type="search" class="filter" placeholder="filter: id, question, answer…" aria-label="filter tasks">
<select class="status" aria-label="${judged ? 'exact match and judge verdict' : 'exact match'}"><option value="all">all</option><option value="1">exact match</option><option value="0">no exact match</option>${notRun > 0 ? '<option value="not-run">not run</option>' : ''}${judgeOptions}</select>
<span class="count"></span></div>
${unlistedNote(results.taskResults.length)}
<div class="scroll tasks-scroll">${taskTableOpen('arte', results.taskResults.length, judged)}<thead><tr>
<th data-sort="text">id</th><th>question</th><th>ground truth</th><th>answer</th><th data-sort="num">EM</th>${judged ? `<th data-sort="num" title="the LLM judge's verdict (${escapeHtml(judge?.model ?? 'judge')})">judge</th>` : ''}<th data-sort="num">Jaccard</th><th data-sort="num">time ms</th><th data-sort="num">tokens</th>
</tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div>
</section>`
}
