import { formatCachedPart, paidCostUsd } from '../llm/usage.ts'
import { firstTrials } from '../mpcbench/summary/summary-statistics.ts'
import { compareMpcbenchRuns } from './compare-runs.ts'
import { renderComparison, skippedHistoryLine } from './comparison-view.ts'
import { escapeHtml, fixed, money, thousands } from './html.ts'
import { IntervalSchema, type Interval, type MpcbenchSection } from './report-data.ts'
import { barChart } from './svg-chart.ts'
import { TASK_TABLE_PAGE_ROWS, taskTableOpen, unlistedNote } from './task-table.ts'

/** The two MPCBench axes: summary key, mean column and short label. */
export const MPCBENCH_AXES = [
  { key: 'answer_requirements_satisfaction', mean: 'mean_answer_requirements_satisfaction', label: 'requirements' },
  { key: 'source_grounded_reasoning', mean: 'mean_source_grounded_reasoning', label: 'grounding' },
] as const

/**
 * The interval of one axis in a summary row, wherever a newer reporter put it: `ci: {axis: {low, high}}`,
 * `ci: {mean_axis: ...}` or `ci_axis`. `undefined` when the row has none.
 */
export function rowInterval(row: Record<string, unknown>, axis: (typeof MPCBENCH_AXES)[number]): Interval | undefined {
  const candidates: unknown[] = []
  const ci = row.ci
  if (ci !== null && typeof ci === 'object') {
    const record = ci as Record<string, unknown>
    candidates.push(record[axis.key], record[axis.mean], record[axis.label])
  }
  candidates.push(row[`ci_${axis.key}`], row[`${axis.mean}_ci`])
  for (const candidate of candidates) {
    const parsed = IntervalSchema.safeParse(candidate)
    if (parsed.success) return parsed.data
  }
  return undefined
}

/** A summary row's interval of pass^j (`pass_hat_k_ci`), when the row has a well-formed one. */
function passHatKInterval(row: Record<string, unknown>, k: string): Interval | undefined {
  const cis = row.pass_hat_k_ci
  if (cis === null || typeof cis !== 'object') return undefined
  const parsed = IntervalSchema.safeParse((cis as Record<string, unknown>)[k])
  return parsed.success ? parsed.data : undefined
}

function extraCells(row: Record<string, unknown>): string {
  const passHatK = row.pass_hat_k ?? row.passHatK
  if (passHatK === null || typeof passHatK !== 'object') return ''
  const values = Object.entries(passHatK as Record<string, unknown>)
    .map(([k, v]) => {
      const ci = passHatKInterval(row, k)
      const level = ci?.level === undefined ? '' : `${Math.round(ci.level * 100)}% `
      const title = ci === undefined ? '' : `${level}confidence interval${ci.method === undefined ? '' : ` (${ci.method})`}`
      const ciText =
        ci === undefined
          ? ''
          : ` <span class="ci" data-pass-hat-k-ci="${escapeHtml(k)}" title="${escapeHtml(title)}">[${fixed(ci.low, 3)}, ${fixed(ci.high, 3)}]</span>`
      return `pass^${escapeHtml(k)} ${typeof v === 'number' ? fixed(v, 3) : '-'}${ciText}`
    })
    .join(' · ')
  const tasks = row.pass_hat_k_tasks
  return typeof tasks === 'number' && tasks !== row.count ? `${values} (over ${tasks} task(s) with an outcome in every trial)` : values
}

/**
 * What a task's outcome cell says when the run log under its file name is another run's (a later run overwrote the
 * summary's own): the cell shows no outcome, tool calls or time of that run, and the opened task says why.
 */
export const OTHER_RUN_LOG_MARK = '(log overwritten)'

/** Counts of integer scores 0-5. */
function scoreCounts(values: Array<number | null>): number[] {
  const counts = [0, 0, 0, 0, 0, 0]
  for (const value of values) if (value !== null && value >= 0 && value <= 5) counts[Math.round(value)] = (counts[Math.round(value)] ?? 0) + 1
  return counts
}

/** The MPCBench part of the page for one summary; `index` makes its element ids unique. */
export function renderMpcbenchSection(section: MpcbenchSection, index: number): string {
  const { summary } = section
  const id = `mpcbench-${index}`
  const hasCi = section.rawRows.some((row) => MPCBENCH_AXES.some((axis) => rowInterval(row, axis) !== undefined))
  const hasExtra = section.rawRows.some((row) => extraCells(row) !== '')
  const rows = summary.rows.map((row, i) => {
    const raw = section.rawRows[i] ?? {}
    const agent = row.agent_model_kind === 'baseline' ? `${escapeHtml(row.agent_model)} <span class="muted">(not an LLM)</span>` : escapeHtml(row.agent_model)
    const judge = row.judge_kind === 'rules' ? `${escapeHtml(row.judge_model)} <span class="muted">(not an LLM)</span>` : escapeHtml(row.judge_model)
    const axisCells = MPCBENCH_AXES.map((axis) => {
      const value = row[axis.mean]
      const ci = rowInterval(raw, axis)
      const ciText = hasCi ? ` <span class="ci">${ci === undefined ? '' : `[${fixed(ci.low, 2)}, ${fixed(ci.high, 2)}]`}</span>` : ''
      return `<td class="num" data-row="${i}" data-field="${axis.mean}" data-value="${value ?? ''}">${fixed(value, 2)}${ciText}</td>`
    }).join('')
    return `<tr><td>${agent}</td><td>${judge}</td><td>${escapeHtml(row.task_type)}</td>${axisCells}<td class="num" data-row="${i}" data-field="count" data-value="${row.count}">${row.count}</td><td class="num" data-row="${i}" data-field="scored" data-value="${row.scored}">${row.scored}</td><td class="num" data-row="${i}" data-field="failures" data-value="${row.failures}">${row.failures}</td>${hasExtra ? `<td>${extraCells(raw)}</td>` : ''}</tr>`
  })
  // Trial 1 of each task, as the row means and n (later trials would count a task more than once).
  const firstTrialTasks = firstTrials(section.tasks)
  const moreTrials = firstTrialTasks.length < section.tasks.length
  const pairs = [...new Set(firstTrialTasks.map((task) => `${task.agentModel}\u0000${task.judgeModel}`))]
  const charts = pairs.map((pair, p) => {
    const [agent = '', judge = ''] = pair.split('\u0000')
    const tasks = firstTrialTasks.filter((task) => task.agentModel === agent && task.judgeModel === judge)
    const caption = `<figcaption>agent <b>${escapeHtml(agent)}</b> × judge <b>${escapeHtml(judge)}</b></figcaption>`
    if (tasks.every((task) => task.requirements === null && task.grounding === null)) {
      return `<figure class="chart">${caption}<p class="note" data-empty="${id}-scores-${p}">No score from this judge (${tasks.length} task(s), none judged): nothing to chart.</p></figure>`
    }
    const chart = barChart({
      id: `${id}-scores-${p}`,
      title: `Score distribution, agent ${agent} × judge ${judge}`,
      categories: ['0', '1', '2', '3', '4', '5'],
      series: [
        { name: 'requirements', color: '#3b6fd8', values: scoreCounts(tasks.map((task) => task.requirements)) },
        { name: 'grounding', color: '#d8873b', values: scoreCounts(tasks.map((task) => task.grounding)) },
      ],
      xLabel: 'score (0-5)',
      yLabel: moreTrials ? 'tasks (trial 1)' : 'tasks',
      width: 420,
    })
    return `<figure class="chart">${caption}${chart}</figure>`
  })
  // The first page of rows; the page's script lists the others from the embedded tasks, as these are written
  // (client-script.ts, `KINDS.mpcbench.row`).
  const taskRows = section.tasks.slice(0, TASK_TABLE_PAGE_ROWS).map((task, t) => {
    const pass = task.requirements !== null && task.requirements >= 4
    const outcome = task.runLog?.outcome.kind ?? '-'
    const name = task.trial === undefined ? task.taskId : `${task.taskId} [trial=${task.trial}]`
    return `<tr class="task" data-task-index="${t}" data-task-id="${escapeHtml(task.taskId)}"${task.otelTraceId === undefined ? '' : ` data-otel-trace-id="${escapeHtml(task.otelTraceId)}"`} data-pass="${pass ? '1' : '0'}">
<td class="id" data-sort-value="${escapeHtml(name)}"><button type="button" class="open" aria-expanded="false" title="show the run log and the judge's reasons">▸</button> ${escapeHtml(name)}</td>
<td>${escapeHtml(task.taskType)}</td><td>${escapeHtml(task.agentModel)}</td><td>${escapeHtml(task.judgeModel)}</td>
<td class="num" data-field="requirements" data-sort-value="${task.requirements ?? -1}">${task.requirements ?? '-'}</td>
<td class="num" data-field="grounding" data-sort-value="${task.grounding ?? -1}">${task.grounding ?? '-'}</td>
<td data-sort-value="${escapeHtml(outcome)}">${escapeHtml(outcome)}${task.otherRunLog === undefined ? '' : ` <span class="note" data-other-run="log" title="${escapeHtml(task.otherRunLog.why)}">${OTHER_RUN_LOG_MARK}</span>`}${task.error === null ? '' : ` <span class="fail">${escapeHtml(task.error)}</span>`}</td>
<td class="num" data-sort-value="${task.runLog?.raw_tool_calls.length ?? -1}">${task.runLog?.raw_tool_calls.length ?? '-'}</td>
<td class="num" data-sort-value="${task.runLog?.duration_ms ?? -1}">${task.runLog === undefined ? '-' : thousands(task.runLog.duration_ms)}</td></tr>`
  })
  const usage = summary.usage
  const isEmpty = (value: unknown): boolean => value === null || (Array.isArray(value) && value.length === 0)
  // Fields newer reporters add, shown as written; empty lists (no grader suspects, nothing unfinished) are left out.
  const extras = Object.entries(section.rawExtras)
    .filter(([, value]) => !isEmpty(value))
    .map(([key, value]) => `<p class="${/suspect/i.test(key) ? 'warn' : 'meta'}">${escapeHtml(key)}: <code>${escapeHtml(JSON.stringify(value))}</code></p>`)
    .join('')
  const comparison =
    section.previous === undefined
      ? skippedHistoryLine(section.skippedHistory, false)
      : renderComparison(
          compareMpcbenchRuns(section.previous.summary, summary),
          section.previous.file,
          section.previous.summary.generated_at,
          `${id}-compare`,
          section.skippedHistory,
        )
  return `<section class="bench" id="${id}" data-bench="mpcbench" data-index="${index}">
<h2>MPCBench <span class="muted">· ${escapeHtml(section.file)}</span></h2>
<p class="meta">${summary.tests} test(s) · ${escapeHtml(summary.generated_at)} · tokens <span data-usage="totalTokens" data-value="${usage.total.totalTokens}">${thousands(usage.total.totalTokens)}</span> (agents ${thousands(usage.agents.totalTokens)}, judges ${thousands(usage.judges.totalTokens)}) in ${thousands(usage.total.calls)} call(s) · cost <span data-usage="paidCostUsd" data-value="${paidCostUsd(usage.total) ?? ''}">${money(paidCostUsd(usage.total))}</span>${usage.total.cached === undefined ? '' : ' paid'}${escapeHtml(formatCachedPart(usage.total))}</p>
${section.notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('\n')}
${extras}
${section.tasks.length === 0 && summary.rows.length === 0 ? `<p class="note" data-empty="${id}">This summary holds no judged test (${summary.tests} test(s)): no scores, charts or tasks to show.</p>` : ''}
<h3>Mean scores (0-5) per agent × judge × task type</h3>
<div class="scroll"><table class="metrics summary-rows"><thead><tr><th>agent</th><th>judge</th><th>task type</th><th>requirements</th><th>grounding</th><th>n</th><th>scored</th><th>failed</th>${hasExtra ? '<th></th>' : ''}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div>
<h3>Score distributions per axis</h3>${moreTrials ? '\n<p class="meta">Trial 1 of each task, as the means and n above; the task table lists every trial.</p>' : ''}
<div class="row">${charts.join('')}</div>
${comparison}
<h3>Tasks</h3>
<div class="controls"><input type="search" class="filter" placeholder="filter: task id, type, model…" aria-label="filter tasks">
<select class="status" aria-label="requirements score"><option value="all">all</option><option value="1">requirements ≥ 4</option><option value="0">requirements &lt; 4</option></select>
<span class="count"></span></div>
${unlistedNote(section.tasks.length)}
<div class="scroll tasks-scroll">${taskTableOpen('mpcbench', section.tasks.length)}<thead><tr>
<th data-sort="text">task</th><th data-sort="text">type</th><th data-sort="text">agent</th><th data-sort="text">judge</th><th data-sort="num">requirements</th><th data-sort="num">grounding</th><th data-sort="text">outcome</th><th data-sort="num">tool calls</th><th data-sort="num">time ms</th>
</tr></thead><tbody>
${taskRows.join('\n')}
</tbody></table></div>
</section>`
}
