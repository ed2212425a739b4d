import type { ComparableRun } from '../../stats/compare-runs.ts'
import type { ArteResults } from './results.ts'

/**
 * An ART-E results file for `agent-bench compare`: one task per row (trial 1), pass = exact match. A task not run (an
 * interrupted run) has no pass and no scores, as the metrics leave it out: the comparison leaves it out too.
 *
 * Tasks are keyed by row id, so runs of different splits share no task. A run of another row selection than `all`
 * (`config.rows`, `ARTE_ROWS`) keys its tasks `{id} [rows=openpipe]`: it shares no task with a run of another selection
 * either (its metrics are over other rows), and pairs task by task with a run of the same selection.
 */
export function arteComparable(results: Pick<ArteResults, 'taskResults'> & { config?: Pick<ArteResults['config'], 'rows'> }): ComparableRun {
  const rows = results.config?.rows ?? 'all'
  const key = (taskId: string): string => (rows === 'all' ? taskId : `${taskId} [rows=${rows}]`)
  return {
    kind: 'ART-E results',
    metricNames: ['exactMatchAccuracy', 'avgSemanticScore'],
    tasks: new Map(
      results.taskResults.map((task) => [
        key(task.taskId),
        task.outcome.kind === 'not-run'
          ? { pass: null, metrics: { exactMatchAccuracy: null, avgSemanticScore: null } }
          : { pass: task.exactMatch, metrics: { exactMatchAccuracy: task.exactMatch ? 1 : 0, avgSemanticScore: task.semanticScore } },
      ]),
    ),
  }
}
