import type { InstanceResult, LevelSummary } from '../mpcbench-v2/scoring/summary.ts'
import type { ConfidenceInterval } from '../stats/bootstrap.ts'
import { formatPValue } from '../stats/sign-flip-test.ts'
import { escapeHtml, fixed, signed } from './html.ts'
import type { MpcbenchV2GroupComparison, MpcbenchV2Section } from './mpcbench-v2-section.ts'

/** Instance rows of one level x model in the page; the rest are in the summary. */
export const MPCBENCH_V2_TABLE_ROWS = 1000

/** Characters of a candidate list shown in a cell. */
const CELL_CHARS = 400

function ci(interval: ConfidenceInterval | null | undefined, percent = false): string {
  if (interval === null || interval === undefined) return ''
  const show = (value: number): string => (percent ? `${(value * 100).toFixed(0)}%` : fixed(value, 2))
  return ` <span class="ci">[${show(interval.low)}, ${show(interval.high)}]</span>`
}

function modelName(level: LevelSummary): string {
  return level.modelKind === 'baseline' ? `${level.model} (non-LLM)` : level.model
}

function candidates(value: string[][] | null): string {
  if (value === null) return '<span class="muted">-</span>'
  const text = value.map((candidate) => candidate.join(' → ')).join('\n')
  return escapeHtml(text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS - 1)}…` : text)
}

function passHatK(level: LevelSummary): string {
  const keys = Object.keys(level.passHatK).sort((a, b) => Number(a) - Number(b))
  if (keys.length === 0) return '<span class="muted">no instance ran every trial</span>'
  return keys.map((key) => `pass^${escapeHtml(key)} ${fixed(level.passHatK[key], 2)}${ci(level.passHatKCi[key])}`).join('<br>')
}

/** The level x model table: Avg F1 and EM rate with their intervals, errors, trials, pass^k. */
function levelsTable(section: MpcbenchV2Section, id: string): string {
  const rows = section.summary.levels.map((level, g) => {
    const em = level.emRate === null ? '-' : `${(level.emRate * 100).toFixed(0)}%`
    return `<tr data-v2-level="${level.level}" data-v2-model="${escapeHtml(level.model)}"><td class="num">${level.level}</td><td>${escapeHtml(level.worldId)}</td><td><a href="#${escapeHtml(`${id}-group-${g}`)}">${escapeHtml(modelName(level))}</a></td><td class="num">${level.scored}</td><td class="num" data-v2-avg-f1="${level.avgF1 ?? ''}">${fixed(level.avgF1, 2)}${ci(level.avgF1Ci)}</td><td class="num" data-v2-em-rate="${level.emRate ?? ''}">${em}${ci(level.emRateCi, true)}</td><td class="num">${level.errors}</td><td class="num">${level.trials}</td><td class="num">${passHatK(level)}</td></tr>`
  })
  return `<div class="scroll"><table class="metrics" data-v2-levels><thead><tr><th>level</th><th>data</th><th>model</th><th>scored</th><th>Avg F1 [95% CI]</th><th>EM rate [95% CI]</th><th>errors</th><th>trials</th><th>pass^k (pass = exact match)</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
}

function traceCell(result: InstanceResult, traceUrl: string | undefined): string {
  const id = result.otelTraceId
  if (id === undefined) return '<span class="muted">-</span>'
  // The first 8 digits in the cell; the whole id on hover (and in data-otel-trace-id).
  const short = `<code>${escapeHtml(id.slice(0, 8))}…</code>`
  if (traceUrl === undefined)
    return `<span title="${escapeHtml(id)}: paste it in the trace viewer's search (Jaeger: /trace/&lt;id&gt;); BENCH_TRACE_URL makes it a link">${short}</span>`
  return `<a href="${escapeHtml(traceUrl.replaceAll('{traceId}', encodeURIComponent(id)))}" title="${escapeHtml(id)}" target="_blank" rel="noopener">${short}</a>`
}

/** Every instance x trial of a level x model: id, trial, pred, gold, P/R/F1/EM, error, the trace. */
function instanceRows(section: MpcbenchV2Section, level: LevelSummary, g: number, id: string): string {
  const shown = level.results.slice(0, MPCBENCH_V2_TABLE_ROWS)
  const rows = shown.map((result) => {
    const m = result.metrics
    const exact = m === null ? '<span class="fail">error</span>' : m.exact_match ? '<span class="pass">yes</span>' : '<span class="fail">no</span>'
    return `<tr class="v2-instance" data-id="${escapeHtml(result.instanceId)}" data-trial="${result.trial}"${result.otelTraceId === undefined ? '' : ` data-otel-trace-id="${escapeHtml(result.otelTraceId)}"`}><td class="id">${escapeHtml(result.instanceId)}</td><td class="num">${result.trial}</td><td class="num" data-v2-f1="${m?.f1 ?? ''}">${fixed(m?.f1, 2)}</td><td class="num">${fixed(m?.precision, 2)}</td><td class="num">${fixed(m?.recall, 2)}</td><td class="num">${exact}</td><td class="error">${result.error === null ? '' : escapeHtml(result.error)}</td><td class="num">${traceCell(result, section.traceUrl)}</td><td><pre>${candidates(result.pred)}</pre></td><td><pre>${candidates(result.gold)}</pre></td></tr>`
  })
  const head = ['instance', 'trial', 'F1', 'P', 'R', 'EM', 'error', 'trace', 'pred', 'gold'].map((name) => `<th>${name}</th>`).join('')
  const more =
    level.results.length > shown.length ? `<p class="note">The first ${shown.length} of ${level.results.length} rows; every row is in the summary.</p>` : ''
  return `<h3 id="${escapeHtml(`${id}-group-${g}`)}">Level ${level.level} · ${escapeHtml(level.worldId)} · ${escapeHtml(modelName(level))}</h3>
<div class="scroll"><table class="eval-cases v2-instances"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>${more}`
}

function list(ids: ReadonlyArray<string>): string {
  if (ids.length === 0) return '<span class="muted">none</span>'
  const shown = ids
    .slice(0, 30)
    .map((id) => `<code>${escapeHtml(id)}</code>`)
    .join(' ')
  return ids.length > 30 ? `${shown} … (${ids.length})` : shown
}

function groupComparison(entry: MpcbenchV2GroupComparison): string {
  const c = entry.comparison
  const metrics = Object.entries(c.metrics).map(([name, m]) => {
    const interval = m.ci === null ? '' : ` <span class="ci">[${signed(m.ci.low)}, ${signed(m.ci.high)}]</span>`
    // Coloured only when the move is unlikely to be chance: F1 significant, another metric's interval excluding 0.
    const clear = name === c.primaryMetric ? c.significant : m.ci !== null && (m.ci.low > 0 || m.ci.high < 0)
    const cls = !clear || m.delta === null || m.delta === 0 ? '' : m.delta > 0 ? 'up' : 'down'
    return `<tr><th scope="row">${escapeHtml(name)}</th><td class="num">${fixed(m.a)}</td><td class="num">${fixed(m.b)}</td><td class="num ${cls}" data-v2-delta="${escapeHtml(name)}" data-value="${m.delta ?? ''}">${m.delta === null ? '-' : signed(m.delta)}${interval}</td></tr>`
  })
  const p =
    c.pValue === null
      ? 'no instance in both runs'
      : `${formatPValue(c.pValue)} on the ${escapeHtml(c.primaryMetric)} delta (${escapeHtml(c.test ?? '')})${c.significant ? ': <b>significant</b>' : ': may be chance'}`
  return `<div data-v2-compare="${escapeHtml(`${entry.level} ${entry.worldId} ${entry.model}`)}"><h4>Level ${entry.level} · ${escapeHtml(entry.worldId)} · ${escapeHtml(entry.model)}</h4>
<p>${c.tasks} instance(s) in both · <b data-v2-flips="${c.flips.length}">${c.flips.length} flip(s)</b> on exact match · <span class="up">improved: ${list(c.improved)}</span> · <span class="down">regressed: ${list(c.regressed)}</span></p>
<table class="metrics"><thead><tr><th>metric</th><th>before</th><th>now</th><th>delta [95% paired CI]</th></tr></thead><tbody>${metrics.join('')}</tbody></table>
<p>${p}</p></div>`
}

function comparison(section: MpcbenchV2Section): string {
  const previous = section.previous
  if (previous === undefined) return '<p class="muted" data-v2-compare-none>No earlier MPCBench v2 run in the run history to compare with.</p>'
  const groups =
    previous.comparisons.length === 0
      ? '<p class="muted">The previous run has none of this run\'s levels and models.</p>'
      : previous.comparisons.map(groupComparison).join('\n')
  return `<div class="compare"><h3>Compared with the previous run</h3><p class="meta">${escapeHtml(previous.file)} (${escapeHtml(previous.summary.generatedAt)}) · as <code>agent-bench compare</code> gives it: instances paired by id (trial 1), pass = exact match, an error scores 0</p>
${groups}</div>`
}

/** One MPCBench v2 summary's part of the page: levels x models with intervals and pass^k, the comparison, every instance. */
export function renderMpcbenchV2Section(section: MpcbenchV2Section, index: number): string {
  const id = `mpcbench-v2-${index}`
  const { summary } = section
  return `<section class="bench" id="${id}" data-mpcbench-v2>
<h2>MPCBench v2 (scheduling levels 1-3)</h2>
<p class="meta">${escapeHtml(section.file)} · ${escapeHtml(summary.upstream)} · written ${escapeHtml(summary.generatedAt)}${summary.runId === undefined ? '' : ` · run ${escapeHtml(summary.runId)}`}</p>
<p class="muted">Upstream's two numbers per level and model: Avg F1 (mean F1 of the scored instances, bootstrap interval) and EM rate (share of exact matches, Wilson interval), over trial 1.</p>
${levelsTable(section, id)}
${comparison(section)}
${summary.levels.map((level, g) => instanceRows(section, level, g, id)).join('\n')}
</section>`
}
