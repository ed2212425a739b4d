import type { ArteRow } from './row.ts'
import type { ArteRowSelection } from './row-selection.ts'

/** Summary numbers of a set of ART-E rows, as `agent-bench arte --stats` prints them. */
export interface ArteStats {
  totalTasks: number
  /** Distinct `inbox_address` values. */
  uniqueInboxes: number
  /** Mean `how_realistic`; 0 for no rows. */
  avgRealisticScore: number
  /** Mean length of `message_ids`; 0 for no rows. */
  avgMessageIdsPerTask: number
}

/** Computes {@link ArteStats} over `rows` (filter by split before calling). */
export function computeArteStats(rows: ReadonlyArray<ArteRow>): ArteStats {
  const inboxes = new Set<string>()
  let realistic = 0
  let messageIds = 0
  for (const row of rows) {
    inboxes.add(row.inbox_address)
    realistic += row.how_realistic
    messageIds += row.message_ids.length
  }
  const n = rows.length
  return {
    totalTasks: n,
    uniqueInboxes: inboxes.size,
    avgRealisticScore: n === 0 ? 0 : realistic / n,
    avgMessageIdsPerTask: n === 0 ? 0 : messageIds / n,
  }
}

const LABEL_WIDTH = 26
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/**
 * Formats stats as four aligned lines (labels padded to 26 characters, thousands
 * separators, 3 and 1 decimals), as in the ART-E doc:
 *
 * ```
 * Total tasks:              27,500
 * Unique inboxes:           150
 * Avg realistic score:      0.782
 * Avg message IDs per task: 2.4
 * ```
 */
export function formatArteStats(stats: ArteStats): string {
  const lines: Array<[string, string]> = [
    ['Total tasks:', integer.format(stats.totalTasks)],
    ['Unique inboxes:', integer.format(stats.uniqueInboxes)],
    ['Avg realistic score:', stats.avgRealisticScore.toFixed(3)],
    ['Avg message IDs per task:', stats.avgMessageIdsPerTask.toFixed(1)],
  ]
  return lines.map(([label, value]) => `${label.padEnd(LABEL_WIDTH)}${value}`).join('\n')
}

/**
 * The full `--stats` report as the ART-E doc prints it: a 60-character `═` rule, the title
 * `ART-E Dataset Statistics (<split> split)` (or `(all splits)`; `, rows openpipe` added for a row selection other
 * than `all`), the rule, the four lines of {@link formatArteStats}, and the rule again.
 */
export function formatArteStatsReport(stats: ArteStats, options: { split?: 'train' | 'test'; rows?: ArteRowSelection } = {}): string {
  const rule = '═'.repeat(60)
  const rows = options.rows === undefined || options.rows === 'all' ? '' : `, rows ${options.rows}`
  const title = `ART-E Dataset Statistics (${options.split === undefined ? 'all splits' : `${options.split} split`}${rows})`
  return [rule, title, rule, formatArteStats(stats), rule].join('\n')
}
