import type { RunComparison } from './compare-runs.ts'
import { escapeHtml, fixed, signed } from './html.ts'

/** Metrics where a smaller value is the better run (times, costs, tokens, failures, tool timeouts). */
const LOWER_IS_BETTER = /time|cost|token|failed|notrun|timeout/i

function idList(ids: string[], max = 40): string {
  if (ids.length === 0) return '<span class="muted">none</span>'
  const shown = ids.slice(0, max).map((id) => `<code>${escapeHtml(id)}</code>`).join(' ')
  return ids.length > max ? `${shown} <span class="muted">… ${ids.length - max} more</span>` : shown
}

/** The comparison of a run with the earlier one kept in `evaluation/history/`. */
export function renderComparison(comparison: RunComparison, previousFile: string, previousStamp: string, id: string): string {
  const metricRows = comparison.metrics
    .map((metric) => {
      // Green is better: higher scores and completions, lower times, costs and failures.
      const better = metric.delta === null ? 0 : LOWER_IS_BETTER.test(metric.name) ? -metric.delta : metric.delta
      const cls = metric.delta === null || Math.abs(metric.delta) < 1e-12 ? '' : better > 0 ? 'up' : 'down'
      return `<tr><th scope="row">${escapeHtml(metric.name)}</th><td class="num">${fixed(metric.before, 3)}</td><td class="num">${fixed(metric.after, 3)}</td><td class="num ${cls}" data-delta="${escapeHtml(metric.name)}" data-value="${metric.delta ?? ''}">${metric.delta === null ? '-' : signed(metric.delta)}</td></tr>`
    })
    .join('')
  return `<div class="compare" id="${escapeHtml(id)}">
<h3>Compared with the previous run</h3>
<p class="meta">${escapeHtml(previousFile)} (${escapeHtml(previousStamp)}) · <span data-compare="shared" data-value="${comparison.shared}">${comparison.shared} shared task(s)</span>${comparison.leftOut.length > 0 ? ` · <span data-compare="left-out" data-value="${comparison.leftOut.length}">${comparison.leftOut.length} left out (not run or unjudged in one of the runs)</span>` : ''}${comparison.added.length > 0 ? ` · ${comparison.added.length} new` : ''}${comparison.removed.length > 0 ? ` · ${comparison.removed.length} no longer run` : ''}</p>
<table class="metrics"><thead><tr><th>metric</th><th>before</th><th>now</th><th>delta</th></tr></thead><tbody>${metricRows}</tbody></table>
<p><b data-compare="flips" data-value="${comparison.flips.length}">${comparison.flips.length} flip(s)</b>: ${idList(comparison.flips)}</p>
<p class="up"><b data-compare="improved" data-value="${comparison.improved.length}">${comparison.improved.length} improved</b>: ${idList(comparison.improved)}</p>
<p class="down"><b data-compare="regressed" data-value="${comparison.regressed.length}">${comparison.regressed.length} regressed</b>: ${idList(comparison.regressed)}</p>
</div>`
}
