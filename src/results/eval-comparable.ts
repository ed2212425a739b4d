import type { ComparableRun, ComparableTask } from '../stats/compare-runs.ts'
import type { EvalResults } from './eval-results.ts'

/**
 * An eval's results as `compareRuns` reads a run: trial 1 of each case (as the metrics are), `pass` = the case met the
 * threshold (a case not run has none and is left out of the flips), and the metrics `passRate` (1 or 0, the primary
 * metric: its significance is the exact McNemar test) then each scorer's score (an error scores 0, as in the metrics).
 */
export function evalComparableRun(results: EvalResults): ComparableRun {
  const tasks = new Map<string, ComparableTask>()
  for (const row of results.taskResults) {
    if (row.trial !== 1 || tasks.has(row.id)) continue
    const ran = row.status !== 'not-run'
    const metrics: Record<string, number | null> = { passRate: ran ? (row.passed ? 1 : 0) : null }
    for (const scorer of results.scorers) metrics[scorer] = ran ? (row.scores[scorer] ?? 0) : null
    tasks.set(row.id, { pass: ran ? row.passed : null, metrics })
  }
  return { kind: `eval "${results.name}"`, tasks, metricNames: ['passRate', ...results.scorers.filter((name) => name !== 'passRate')] }
}
