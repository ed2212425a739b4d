import { bootstrapMeanCis } from '../../stats/bootstrap.ts'
import { type TrialOutcome, passHatK, tasksWithAllTrials, trialPasses } from '../../stats/pass-hat-k.ts'
import type { ArteTestMeta } from '../vitest/arte-meta.ts'
import { type ArteResults, type ArteTaskResult, compareTaskIds, toTaskResult } from './results.ts'

/** What {@link arteRunStatistics} adds to the results JSON, and the duplicated task ids for the reporter's warning. */
export type ArteRunStatistics = Required<Pick<ArteResults, 'confidenceIntervals' | 'trials' | 'passHatK' | 'passHatKTasks' | 'graderSuspects'>> & {
  /** One entry per task (trial 1), with `trialResults` when a task ran more than once; sorted by task id. */
  taskResults: ArteTaskResult[]
  /**
   * Task ids with a trial reported by more than one test (two eval files register the same rows?), sorted: the first
   * test's meta counts, the others are left out of the task results and statistics. Not in the results JSON.
   */
  duplicateTaskIds: string[]
}

/** Whether a trial passed: the answer matched the ground truth exactly. */
function passed(meta: Pick<ArteTestMeta, 'exactMatch'>): boolean {
  return meta.exactMatch
}

/**
 * A trial for pass^k: a trial that ran and failed (error, timeout, max turns) is a failure; one that never ran (an
 * interrupted run) has no outcome, which leaves its task out of pass^k (see `passHatK`).
 */
function trialOutcome(meta: ArteTestMeta): TrialOutcome {
  return { trial: meta.trial ?? 1, passed: meta.outcome.kind === 'not-run' ? undefined : passed(meta) }
}

/**
 * The tests of a run by task id, one meta per trial: a (task, trial) reported by more than one test keeps the first
 * in `metas` order (as collected: file path, then test order), and its task id goes to `duplicates`.
 */
function groupByTaskAndTrial(metas: ReadonlyArray<ArteTestMeta>): { byTask: Map<string, ArteTestMeta[]>; duplicates: string[] } {
  const byTrial = new Map<string, Map<number, ArteTestMeta>>()
  const duplicates = new Set<string>()
  for (const meta of metas) {
    const runs = byTrial.get(meta.taskId) ?? new Map<number, ArteTestMeta>()
    const trial = meta.trial ?? 1
    if (runs.has(trial)) duplicates.add(meta.taskId)
    else runs.set(trial, meta)
    byTrial.set(meta.taskId, runs)
  }
  const byTask = new Map([...byTrial].map(([id, runs]) => [id, [...runs].sort(([a], [b]) => a - b).map(([, meta]) => meta)]))
  return { byTask, duplicates: [...duplicates].sort(compareTaskIds) }
}

/**
 * Groups the tests of a run by task: trial 1 (the lowest trial run) becomes the task's result, every trial goes to
 * `trialResults` when there is more than one; then the seeded bootstrap intervals over tasks, pass^k, and the
 * grader suspects (tasks an empty answer passed). A trial reported by more than one test counts once, as the first
 * test reported it; the task ids where that happened are in `duplicateTaskIds`.
 */
export function arteRunStatistics(metas: ReadonlyArray<ArteTestMeta>): ArteRunStatistics {
  const { byTask, duplicates } = groupByTaskAndTrial(metas)
  const ids = [...byTask.keys()].sort(compareTaskIds)
  const trials = Math.max(1, ...metas.map((meta) => meta.trial ?? 1))
  const taskResults: ArteTaskResult[] = []
  const passes: boolean[][] = []
  for (const id of ids) {
    const runs = byTask.get(id) ?? []
    const first = runs[0]
    if (first === undefined) continue
    const result = toTaskResult(first)
    if (trials > 1) {
      result.trialResults = runs.map((run) => ({
        trial: run.trial ?? 1,
        exactMatch: run.exactMatch,
        semanticScore: run.semanticScore,
        agentAnswer: run.agentAnswer,
        traceId: run.traceId,
        executionTimeMs: run.executionTimeMs,
        outcome: run.outcome,
      }))
    }
    taskResults.push(result)
    passes.push(trialPasses(runs.map(trialOutcome)))
  }
  const graderSuspects = ids.filter((id) => (byTask.get(id) ?? []).some((run) => run.agentAnswer.trim() === '' && passed(run)))
  // Over the tasks the metrics are computed from: those that ran (a task not run is no zero).
  const ran = taskResults.filter((task) => task.outcome.kind !== 'not-run')
  const [exactMatchAccuracy = null, avgSemanticScore = null] = bootstrapMeanCis([ran.map((task) => (task.exactMatch ? 1 : 0)), ran.map((task) => task.semanticScore)])
  return {
    taskResults,
    trials,
    passHatK: passHatK(passes, trials),
    passHatKTasks: tasksWithAllTrials(passes, trials),
    confidenceIntervals: { exactMatchAccuracy, avgSemanticScore },
    graderSuspects,
    duplicateTaskIds: duplicates,
  }
}
