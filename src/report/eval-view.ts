import type { EvalResults } from '../results/eval-results.ts'
import { valueText } from '../results/stored-value.ts'
import type { EvalSection } from './eval-section.ts'
import { escapeHtml, fixed, signed } from './html.ts'
import { barChart, histogram01, histogram01Labels } from './svg-chart.ts'

/** Rows of the per-case table in the page; the rest are in the results file. */
export const EVAL_TABLE_ROWS = 1000

/** Characters of an input, expected value or output shown in a cell. */
const CELL_CHARS = 400

function ci(interval: { low: number; high: number } | null | undefined): string {
  return interval === null || interval === undefined ? '' : `<span class="ci">[${fixed(interval.low)}, ${fixed(interval.high)}]</span>`
}

function clip(value: unknown): string {
  const text = valueText(value)
  return escapeHtml(text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS - 1)}…` : text)
}

function metricsTable(results: EvalResults): string {
  const { passRate } = results.metrics
  const rows = [
    `<tr><th scope="row">passRate</th><td class="num">${fixed(passRate.value)}</td><td>${ci(passRate.ci)}</td></tr>`,
    ...results.scorers.map((scorer) => {
      const metric = results.metrics[scorer]
      return `<tr><th scope="row">${escapeHtml(scorer)}</th><td class="num">${fixed(metric?.mean)}</td><td>${ci(metric?.ci)}</td></tr>`
    }),
  ]
  return `<table class="metrics" data-eval-metrics><thead><tr><th>metric</th><th>value</th><th>95% interval</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

function passHatKTable(results: EvalResults): string {
  const keys = Object.keys(results.passHatK).sort((a, b) => Number(a) - Number(b))
  if (keys.length === 0) return '<p class="note">pass^k: no case has a result in every trial.</p>'
  const rows = keys.map(
    (key) => `<tr><th scope="row">pass^${escapeHtml(key)}</th><td class="num">${fixed(results.passHatK[key])}</td><td>${ci(results.passHatKCi[key])}</td></tr>`,
  )
  return `<table class="metrics" data-eval-pass-hat-k><thead><tr><th>k</th><th>value</th><th>95% interval</th></tr></thead><tbody>${rows.join('')}</tbody><caption class="muted">over ${results.passHatKTasks} case(s), ${results.trials} trial(s) each</caption></table>`
}

function histogram(results: EvalResults, id: string): string {
  const ran = results.taskResults.filter((row) => row.trial === 1 && row.status !== 'not-run')
  if (ran.length === 0) return ''
  return barChart({
    id: `${id}-score-histogram`,
    title: 'Mean score per case (trial 1)',
    categories: histogram01Labels(),
    series: [{ name: 'cases', color: '#3b6fd8', values: histogram01(ran.map((row) => row.mean)) }],
    xLabel: 'mean score',
    yLabel: 'cases',
    width: 520,
  })
}

function caseRows(results: EvalResults): string {
  const shown = results.taskResults.slice(0, EVAL_TABLE_ROWS)
  const traced = shown.some((row) => row.otelTraceId !== undefined)
  const rows = shown.map((row) => {
    const state =
      row.status === 'scored'
        ? row.passed
          ? '<span class="pass">pass</span>'
          : '<span class="fail">fail</span>'
        : `<span class="fail">${escapeHtml(row.status)}</span>`
    const scores = results.scorers.map((scorer) => {
      const score = row.scores[scorer]
      const reason = row.reasons?.[scorer]
      return `<td class="num"${reason === undefined ? '' : ` title="${escapeHtml(reason)}"`}>${score === undefined ? '-' : fixed(score)}</td>`
    })
    const error = row.error === undefined ? '' : `${escapeHtml(row.error.code)}: ${clip(row.error.message)}`
    const resumed = row.resumedFrom === undefined ? '' : ` <span class="muted" title="kept from run ${escapeHtml(row.resumedFrom)}">(resumed)</span>`
    const otel = row.otelTraceId === undefined ? '' : ` data-otel-trace-id="${escapeHtml(row.otelTraceId)}"`
    const trace = traced ? `<td>${row.otelTraceId === undefined ? '' : `<code class="otel-trace-id">${escapeHtml(row.otelTraceId)}</code>`}</td>` : ''
    return `<tr class="eval-case" data-id="${escapeHtml(row.id)}" data-trial="${row.trial}"${otel}><td class="id">${escapeHtml(row.id)}</td><td class="num">${row.trial}</td><td>${state}${resumed}</td>${scores.join('')}<td>${clip(row.input)}</td><td>${clip(row.expected)}</td><td>${clip(row.output)}</td><td>${error}</td>${trace}</tr>`
  })
  // The OpenTelemetry trace id (to open the case's trace in Jaeger, Phoenix, ...) gets a column when some row has one.
  const head = ['id', 'trial', 'result', ...results.scorers, 'input', 'expected', 'output', 'error', ...(traced ? ['OpenTelemetry trace'] : [])]
    .map((name) => `<th>${escapeHtml(name)}</th>`)
    .join('')
  const more =
    results.taskResults.length > shown.length
      ? `<p class="note">The first ${shown.length} of ${results.taskResults.length} rows; every row is in the results file.</p>`
      : ''
  return `<div class="scroll"><table class="eval-cases"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>${more}`
}

function list(ids: ReadonlyArray<string>): string {
  if (ids.length === 0) return 'none'
  const shown = ids.slice(0, 30).map(escapeHtml).join(', ')
  return ids.length > 30 ? `${shown}, … (${ids.length})` : shown
}

function comparison(section: EvalSection): string {
  const previous = section.previous
  if (previous === undefined) return '<p class="muted">No earlier run of this eval in the run history to compare with.</p>'
  const c = previous.comparison
  const metrics = Object.entries(c.metrics).map(([name, m]) => {
    const delta = m.delta === null ? '-' : signed(m.delta)
    const interval = m.ci === null ? '' : `<span class="ci">[${signed(m.ci.low)}, ${signed(m.ci.high)}]</span>`
    return `<tr><th scope="row">${escapeHtml(name)}</th><td class="num">${fixed(m.a)}</td><td class="num">${fixed(m.b)}</td><td class="num ${m.delta !== null && m.delta > 0 ? 'up' : m.delta !== null && m.delta < 0 ? 'down' : ''}">${delta}</td><td>${interval}</td></tr>`
  })
  const p =
    c.pValue === null
      ? 'no case scored in both runs'
      : `p = ${c.pValue < 0.001 ? c.pValue.toExponential(1) : c.pValue.toFixed(3)} (${escapeHtml(c.test ?? '')})${c.significant ? ': significant' : ': may be chance'}`
  return `<div class="compare" data-eval-compare><h3>Compared with the previous run</h3><p class="muted">${escapeHtml(previous.file)} (started ${escapeHtml(previous.results.config.startedAt)})</p>
<p>${c.tasks} case(s) in both · flips ${c.flips.length} · improved (fail → pass): ${list(c.improved)} · regressed (pass → fail): ${list(c.regressed)}</p>
<table class="metrics"><thead><tr><th>metric</th><th>before</th><th>now</th><th>delta</th><th>95% paired interval</th></tr></thead><tbody>${metrics.join('')}</tbody></table>
<p>${p}</p></div>`
}

/** One eval's part of the report page: metrics with intervals, pass^k, the score histogram, every case, the comparison. */
export function renderEvalSection(section: EvalSection, index: number): string {
  const { results } = section
  const id = `eval-${index}`
  const trials = results.trials > 1 ? ` × ${results.trials} trial(s)` : ''
  const counts = results.counts
  const status = [
    `${counts.errors} error(s)`,
    ...(counts.notRun > 0 ? [`${counts.notRun} not run`] : []),
    ...(counts.resumed > 0 ? [`${counts.resumed} resumed`] : []),
  ].join(' · ')
  return `<section class="bench" id="${id}" data-eval="${escapeHtml(results.name)}">
<h2>Eval: ${escapeHtml(results.name)}</h2>
<p class="meta">${escapeHtml(section.file)} · ${results.tasks} case(s)${trials} · threshold ${results.config.threshold} · ${status} · run ${escapeHtml(results.testRunEndReason)}</p>
<div class="row"><div>${metricsTable(results)}</div><div>${passHatKTable(results)}</div><figure class="chart">${histogram(results, id)}</figure></div>
${comparison(section)}
<h3>Cases</h3>
${caseRows(results)}
</section>`
}
