import type { ComparableRun } from '../../stats/compare-runs.ts'
import type { ArteResults } from './results.ts'

/**
 * An ART-E results file for `agent-bench compare`: one task per row (trial 1), pass = exact match. A task not run (an
 * interrupted run) has no pass and no scores, as the metrics leave it out: the comparison leaves it out too.
 */
export function arteComparable(results: Pick<ArteResults, 'taskResults'>): ComparableRun {
  return {
    kind: 'ART-E results',
    metricNames: ['exactMatchAccuracy', 'avgSemanticScore'],
    tasks: new Map(
      results.taskResults.map((task) => [
        task.taskId,
        task.outcome.kind === 'not-run'
          ? { pass: null, metrics: { exactMatchAccuracy: null, avgSemanticScore: null } }
          : { pass: task.exactMatch, metrics: { exactMatchAccuracy: task.exactMatch ? 1 : 0, avgSemanticScore: task.semanticScore } },
      ]),
    ),
  }
}
