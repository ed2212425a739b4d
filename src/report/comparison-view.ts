import type { ComparisonNote } from '../arte/results/score-comparison.ts'
import type { ConfidenceInterval } from '../stats/bootstrap.ts'
import { formatPValue } from '../stats/sign-flip-test.ts'
import { formatFlipRate } from '../stats/compare-runs.ts'
import type { PageComparison, TotalDelta, TotalFormat } from './compare-runs.ts'
import { escapeHtml, fixed, money, thousands } from './html.ts'
import type { SkippedHistoryFile } from './report-data.ts'

function idList(ids: string[], max = 40): string {
  if (ids.length === 0) return '<span class="muted">none</span>'
  const shown = ids
    .slice(0, max)
    .map((id) => `<code>${escapeHtml(id)}</code>`)
    .join(' ')
  return ids.length > max ? `${shown} <span class="muted">… ${ids.length - max} more</span>` : shown
}

/** A signed number as `agent-bench compare` prints it (`+0.100`, `-0.050`, `+0.000`). */
function signedAsCompare(value: number, digits = 3): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`
}

/** A run total as the metrics tables write it. */
function totalText(value: number | null, format: TotalFormat): string {
  if (value === null) return '-'
  if (format === 'usd') return money(value)
  if (format === 'score') return fixed(value, 3)
  if (format === 'mean') return fixed(value, 2)
  return thousands(value)
}

/** A total's change, rounded as the totals themselves. */
function totalDeltaText(delta: number | null, format: TotalFormat): string {
  if (delta === null) return '-'
  if (format === 'usd') return `${delta < 0 ? '-' : '+'}${money(Math.abs(delta))}`
  if (format === 'score') return signedAsCompare(delta, 3)
  if (format === 'mean') return signedAsCompare(delta, 2)
  const rounded = Math.round(delta)
  return `${rounded < 0 ? '-' : '+'}${thousands(Math.abs(rounded))}`
}

/** A total's interval as its file has it, rounded as the total; empty when the file has none. */
function totalCi(ci: ConfidenceInterval | undefined, format: TotalFormat): string {
  if (ci === undefined) return ''
  const title = `${Math.round(ci.level * 100)}% confidence interval (${ci.method})`
  return ` <span class="ci" title="${escapeHtml(title)}">[${totalText(ci.low, format)}, ${totalText(ci.high, format)}]</span>`
}

function totalRow(row: TotalDelta): string {
  return `<tr><th scope="row">${escapeHtml(row.name)}</th><td class="num">${totalText(row.before, row.format)}${totalCi(row.beforeCi, row.format)}</td><td class="num">${totalText(row.after, row.format)}${totalCi(row.afterCi, row.format)}</td><td class="num" data-total="${escapeHtml(row.name)}" data-value="${row.delta ?? ''}">${totalDeltaText(row.delta, row.format)}</td></tr>`
}

/** A comparison note as a line: a flag in the note colour, the rest muted. */
function noteLine(note: ComparisonNote): string {
  return `<p class="${note.kind === 'different-judges' ? 'note' : 'meta'}" data-compare-note="${escapeHtml(note.metric)}" data-kind="${note.kind}">${escapeHtml(note.message)}</p>`
}

/**
 * The files of the run history passed over while looking for the previous run, as a line naming each and why;
 * `compared` says whether a run was found to compare with. Empty when none was passed over.
 */
export function skippedHistoryLine(skipped: SkippedHistoryFile[], compared: boolean): string {
  if (skipped.length === 0) return ''
  const files = skipped.map((entry) => `<code>${escapeHtml(entry.file)}</code> (${escapeHtml(entry.reason)})`).join('; ')
  const lead = compared
    ? `Passed over ${skipped.length} file(s) of the run history that could not be read, so the run compared with is the newest readable one before this run: `
    : `No earlier run to compare with could be read from the run history: passed over ${skipped.length} file(s) that could not be read: `
  return `<p class="note" data-compare="skipped" data-value="${skipped.length}">${lead}${files}.</p>`
}

/**
 * The comparison of a run with the earlier one kept in the run history: the same flips, paired deltas with their
 * intervals, verdict (with its p-value and test) and notes (scores not compared, different judges) as
 * `agent-bench compare PREVIOUS CURRENT`, then each run's own totals.
 */
export function renderComparison(
  comparison: PageComparison,
  previousFile: string,
  previousStamp: string,
  id: string,
  skipped: SkippedHistoryFile[] = [],
): string {
  const c = comparison.paired
  const flagged = new Set(c.notes.filter((note) => note.kind === 'different-judges').map((note) => note.metric))
  const metricRows = Object.entries(c.metrics)
    .map(([name, m]) => {
      const ci = m.ci === null ? '' : ` <span class="ci">[${signedAsCompare(m.ci.low)}, ${signedAsCompare(m.ci.high)}]</span>`
      // Coloured only when the move is unlikely to be chance (the primary metric: significant; another: its interval
      // excludes 0) and both runs measured it alike.
      const clear = name === c.primaryMetric ? c.significant : m.ci !== null && (m.ci.low > 0 || m.ci.high < 0)
      const cls = flagged.has(name) || !clear || m.delta === null || m.delta === 0 ? '' : m.delta > 0 ? 'up' : 'down'
      const mark = flagged.has(name) ? ' <span class="note" data-flag="different-judges">(different judges)</span>' : ''
      return `<tr><th scope="row">${escapeHtml(name)}${mark}</th><td class="num">${fixed(m.a, 3)}</td><td class="num">${fixed(m.b, 3)}</td><td class="num ${cls}" data-delta="${escapeHtml(name)}" data-value="${m.delta ?? ''}">${m.delta === null ? '-' : signedAsCompare(m.delta)}${ci}</td><td class="num" data-paired-tasks="${escapeHtml(name)}">${m.tasks}${m.clusters < m.tasks ? ` <span class="muted" data-clusters="${m.clusters}">of ${m.clusters} tasks</span>` : ''}</td></tr>`
    })
    .join('')
  const level = Math.round((c.metrics[c.primaryMetric]?.ci?.level ?? 0.95) * 100)
  // The flip rate with its interval, as `agent-bench compare` prints it; how the interval was computed on hover.
  const flipCi = c.flipRateCi
  const flipCiAttributes =
    flipCi === null
      ? ''
      : ` data-low="${flipCi.low}" data-high="${flipCi.high}" title="${escapeHtml(`${Math.round(flipCi.level * 100)}% confidence interval (${flipCi.method})`)}"`
  const flipRate = `<span data-compare="flip-rate" data-value="${c.flipRate}"${flipCiAttributes}>${escapeHtml(formatFlipRate(c))}</span>`
  const test =
    c.pValue === null
      ? ''
      : `<span data-compare="p-value" data-value="${c.pValue}">${formatPValue(c.pValue)}</span> on the ${escapeHtml(c.primaryMetric)} delta (${escapeHtml(c.test ?? '')})`
  const verdict =
    c.pValue === null
      ? `<p class="meta" data-compare="significant" data-value="0">Not significant: no task was scored on ${escapeHtml(c.primaryMetric)} in both runs.</p>`
      : c.significant
        ? `<p class="note" data-compare="significant" data-value="1"><b>Significant:</b> ${test}.</p>`
        : `<p class="meta" data-compare="significant" data-value="0">Not significant: ${test}; the runs may differ only by chance.</p>`
  return `<div class="compare" id="${escapeHtml(id)}">
<h3>Compared with the previous run</h3>
<p class="meta">${escapeHtml(previousFile)} (${escapeHtml(previousStamp)}) · <span data-compare="shared" data-value="${c.tasks}">${c.tasks} task(s) in both</span>${c.leftOut.length > 0 ? ` · <span data-compare="left-out" data-value="${c.leftOut.length}">${c.leftOut.length} left out (not run or unjudged in one of the runs)</span>` : ''}${c.onlyInB.length > 0 ? ` · <span data-compare="added" data-value="${c.onlyInB.length}">${c.onlyInB.length} new</span>` : ''}${c.onlyInA.length > 0 ? ` · <span data-compare="removed" data-value="${c.onlyInA.length}">${c.onlyInA.length} no longer run</span>` : ''}</p>
${skippedHistoryLine(skipped, true)}
<p class="meta">As <code>agent-bench compare</code> gives it: tasks paired by id (trial 1), each metric's mean over the tasks scored in both runs and the delta with its paired bootstrap interval.</p>
<div class="scroll"><table class="metrics paired"><thead><tr><th>metric</th><th>before</th><th>now</th><th>delta [${level}% CI]</th><th>paired tasks</th></tr></thead><tbody>${metricRows}</tbody></table></div>
${verdict}
${c.notes.map(noteLine).join('\n')}
<p><b data-compare="flips" data-value="${c.flips.length}">${c.flips.length} flip(s)</b> (${flipRate}): ${idList(c.flips)}</p>
<p class="up"><b data-compare="improved" data-value="${c.improved.length}">${c.improved.length} improved</b> (fail → pass): ${idList(c.improved)}</p>
<p class="down"><b data-compare="regressed" data-value="${c.regressed.length}">${c.regressed.length} regressed</b> (pass → fail): ${idList(c.regressed)}</p>
${c.leftOut.length > 0 ? `<p class="meta">Left out: ${idList(c.leftOut)}</p>` : ''}
<details><summary>Each run's own totals (as in its file; not paired by task)</summary>
<div class="scroll"><table class="metrics totals"><thead><tr><th></th><th>before</th><th>now</th><th>change</th></tr></thead><tbody>${comparison.totals.map(totalRow).join('')}</tbody></table></div>
</details>
</div>`
}
