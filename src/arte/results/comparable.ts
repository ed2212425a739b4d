import type { ComparableRun } from '../../stats/compare-runs.ts'
import type { ArteResults } from './results.ts'

/** An ART-E results file for `agent-bench compare`: one task per row (trial 1), pass = exact match. */
export function arteComparable(results: Pick<ArteResults, 'taskResults'>): ComparableRun {
  return {
    kind: 'ART-E results',
    metricNames: ['exactMatchAccuracy', 'avgSemanticScore'],
    tasks: new Map(
      results.taskResults.map((task) => [
        task.taskId,
        { pass: task.exactMatch, metrics: { exactMatchAccuracy: task.exactMatch ? 1 : 0, avgSemanticScore: task.semanticScore } },
      ]),
    ),
  }
}
