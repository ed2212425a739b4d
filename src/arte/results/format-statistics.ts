import { formatWithCi } from '../../stats/bootstrap.ts'
import type { ArteResults } from './results.ts'

/**
 * The reporter's score rows: each score metric with its interval (`0.600 [0.300, 0.850] (6/10)`), and with
 * trials the pass^k line (`1: 0.600 · 2: 0.500 · 3: 0.400`).
 */
export function formatArteStatistics(results: ArteResults, exact: number): Array<[string, string]> {
  const ci = results.confidenceIntervals
  const rows: Array<[string, string]> = [
    ['exactMatchAccuracy', `${formatWithCi(results.exactMatchAccuracy, ci?.exactMatchAccuracy)} (${exact}/${results.totalTasks - results.notRunTasks})`],
    ['avgSemanticScore', formatWithCi(results.avgSemanticScore, ci?.avgSemanticScore)],
  ]
  if (ci?.exactMatchAccuracy !== null && ci?.exactMatchAccuracy !== undefined) {
    rows.push(['interval', `${Math.round(ci.exactMatchAccuracy.level * 100)}% ${ci.exactMatchAccuracy.method}`])
  }
  if ((results.trials ?? 1) > 1 && results.passHatK !== undefined) {
    const entries = Object.entries(results.passHatK).map(([k, value]) => `${k}: ${value.toFixed(3)}`)
    const tasks = results.passHatKTasks
    const over = tasks === undefined || tasks === results.totalTasks ? '' : `, over the ${tasks} task(s) with an outcome in every trial`
    rows.push([`pass^k (${results.trials} trials${over})`, entries.length === 0 ? '-' : entries.join(' · ')])
  }
  return rows
}

/** The warning printed when an empty answer passed some task, or `undefined` when none did. */
export function graderSuspectWarning(results: Pick<ArteResults, 'graderSuspects'>): string | undefined {
  const suspects = results.graderSuspects ?? []
  if (suspects.length === 0) return undefined
  return `WARNING: grader suspects: an empty answer passed ART-E task(s) ${suspects.join(', ')}; a task an empty answer passes measures nothing (check its ground truth).`
}
