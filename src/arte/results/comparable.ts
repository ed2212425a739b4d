import type { ComparableRun, ComparableTask } from '../../stats/compare-runs.ts'
import type { ArteResults, ArteTaskResult } from './results.ts'

/** A per-task score added to the comparison (its value for a task that ran; `null` leaves the task out of its pairs). */
export interface ArteTaskScore {
  name: string
  value: (task: ArteTaskResult) => number | null
}

/**
 * An ART-E results file for `agent-bench compare`: one task per row (trial 1), pass = exact match. A task not run (an
 * interrupted run) has no pass and no scores, as the metrics leave it out: the comparison leaves it out too.
 *
 * Tasks are keyed by row id, so runs of different splits share no task. A run of another row selection than `all`
 * (`config.rows`, `ARTE_ROWS`) keys its tasks `{id} [rows=openpipe]`: it shares no task with a run of another selection
 * either (its metrics are over other rows), and pairs task by task with a run of the same selection. `scores` adds
 * per-task metrics (a task not run has none). Each task is its own cluster (one row, one draw).
 */
export function arteComparable(
  results: Pick<ArteResults, 'taskResults'> & { config?: Pick<ArteResults['config'], 'rows'> },
  scores: ReadonlyArray<ArteTaskScore> = [],
): ComparableRun {
  const rows = results.config?.rows ?? 'all'
  const key = (taskId: string): string => (rows === 'all' ? taskId : `${taskId} [rows=${rows}]`)
  return {
    kind: 'ART-E results',
    metricNames: ['exactMatchAccuracy', 'avgSemanticScore', ...scores.map((score) => score.name)],
    tasks: new Map<string, ComparableTask>(
      results.taskResults.map((task): [string, ComparableTask] => {
        if (task.outcome.kind === 'not-run') {
          return [
            key(task.taskId),
            {
              pass: null,
              metrics: { exactMatchAccuracy: null, avgSemanticScore: null, ...Object.fromEntries(scores.map((score) => [score.name, null])) },
              cluster: task.taskId,
            },
          ]
        }
        const metrics: Record<string, number | null> = { exactMatchAccuracy: task.exactMatch ? 1 : 0, avgSemanticScore: task.semanticScore }
        for (const score of scores) metrics[score.name] = score.value(task)
        return [key(task.taskId), { pass: task.exactMatch, metrics, cluster: task.taskId }]
      }),
    ),
  }
}
