import { bootstrapMeanCi } from '../../stats/bootstrap.ts'
import { wilsonIntervalOf } from '../../stats/wilson.ts'
import { sumUsage } from '../../llm/usage.ts'
import type { TrialOutcome } from '../../stats/pass-hat-k.ts'
import { passHatKSummary } from '../../results/pass-hat-k-summary.ts'
import type { ArteTestMeta } from './arte-meta.ts'
import { type ArteJudgeSummary, type ArteResults, type ArteTaskResult, compareTaskIds, toTaskResult } from './results.ts'
import { I_DONT_KNOW } from '../scoring/sources-correct.ts'

/** What {@link arteRunStatistics} adds to the results JSON, and the duplicated task ids for the reporter's warning. */
export type ArteRunStatistics = Required<
  Pick<ArteResults, 'confidenceIntervals' | 'trials' | 'passHatK' | 'passHatKTasks' | 'graderSuspects' | 'sourcesAccuracy'>
> &
  Pick<ArteResults, 'llmJudgeAccuracy' | 'llmJudge' | 'passHatKCi'> & {
    /** One entry per task (trial 1), with `trialResults` when a task ran more than once; sorted by task id. */
    taskResults: ArteTaskResult[]
    /**
     * Task ids with a trial reported by more than one test (two eval files register the same rows?), sorted: the first
     * test's meta counts, the others are left out of the task results and statistics. Not in the results JSON.
     */
    duplicateTaskIds: string[]
  }

/**
 * A task's value in `llmJudgeAccuracy`: the judge's verdict; false for a task that ran without an answer (as exact
 * match counts it); `undefined` (left out) when its judge erred, it did not run, or it was answered but not judged.
 */
export function judgeVerdict(task: Pick<ArteTaskResult, 'outcome' | 'llmJudgeCorrect' | 'llmJudgeError'>): boolean | undefined {
  if (task.outcome.kind === 'not-run' || task.llmJudgeError !== undefined) return undefined
  if (task.llmJudgeCorrect !== undefined) return task.llmJudgeCorrect
  return task.outcome.kind === 'answered' ? undefined : false
}

/** The judge's part of a run from every test's meta (usage over all trials; counts over the tasks' trial 1), or `undefined` when no judge ran. */
function judgeSummary(metas: ReadonlyArray<ArteTestMeta>, ran: ReadonlyArray<ArteTaskResult>): ArteJudgeSummary | undefined {
  const judged = metas.filter((meta) => meta.llmJudgeModel !== undefined)
  if (judged.length === 0) return undefined
  const sorted = [...judged].sort((a, b) => compareTaskIds(a.taskId, b.taskId) || (a.trial ?? 1) - (b.trial ?? 1))
  return {
    model: [...new Set(judged.map((meta) => meta.llmJudgeModel ?? ''))].sort().join(', '),
    judgedTasks: ran.filter((task) => judgeVerdict(task) !== undefined).length,
    errors: ran.filter((task) => task.llmJudgeError !== undefined).length,
    usage: sumUsage(sorted.flatMap((meta) => (meta.llmJudgeUsage === undefined ? [] : [meta.llmJudgeUsage]))),
  }
}

/**
 * Whether the judge is asked about a task (OpenPipe asks only about an answer that is not "I don't know"): the tasks a
 * judge error can fall on. A task without an answer gets its verdict (false) without a call.
 */
export function needsJudgeCall(task: Pick<ArteTaskResult, 'outcome' | 'agentAnswer'>): boolean {
  return task.outcome.kind === 'answered' && task.agentAnswer !== I_DONT_KNOW
}

/**
 * `llmJudgeAccuracy` over the tasks that ran, or `undefined` (no value) when it would measure nothing of the judge: no
 * task has a verdict, or some tasks needed the judge and none of them got a verdict (a judge that was down would
 * otherwise give 0, from the unanswered tasks alone).
 */
function judgeAccuracyVerdicts(ran: ReadonlyArray<ArteTaskResult>): number[] | undefined {
  const verdicts: number[] = []
  let asked = 0
  let answeredVerdicts = 0
  for (const task of ran) {
    const verdict = judgeVerdict(task)
    const called = needsJudgeCall(task)
    if (called) asked++
    if (verdict === undefined) continue
    verdicts.push(verdict ? 1 : 0)
    if (called) answeredVerdicts++
  }
  if (verdicts.length === 0 || (asked > 0 && answeredVerdicts === 0)) return undefined
  return verdicts
}

/** The mean of 0/1 values, 0 for none. */
function share(values: ReadonlyArray<number>): number {
  let sum = 0
  for (const value of values) sum += value
  return values.length === 0 ? 0 : sum / values.length
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
 * `trialResults` when there is more than one; then the intervals over tasks (Wilson score intervals of the shares of
 * 0/1 task outcomes: exact match, sources, judge verdicts; the seeded bootstrap of the mean semantic score), pass^k
 * with, when there are trials, the bootstrap interval of each pass^j (see `passHatKCi`), and the grader suspects (tasks an empty answer passed). A trial reported by more than one test counts once, as the
 * first test reported it; the task ids where that happened are in `duplicateTaskIds`.
 */
export function arteRunStatistics(metas: ReadonlyArray<ArteTestMeta>): ArteRunStatistics {
  const { byTask, duplicates } = groupByTaskAndTrial(metas)
  const ids = [...byTask.keys()].sort(compareTaskIds)
  const trials = Math.max(1, ...metas.map((meta) => meta.trial ?? 1))
  const taskResults: ArteTaskResult[] = []
  const outcomes: TrialOutcome[][] = []
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
        sourcesCorrect: run.sourcesCorrect === true,
        ...(run.llmJudgeCorrect === undefined ? {} : { llmJudgeCorrect: run.llmJudgeCorrect }),
        agentAnswer: run.agentAnswer,
        traceId: run.traceId,
        ...(run.otelTraceId === undefined ? {} : { otelTraceId: run.otelTraceId }),
        executionTimeMs: run.executionTimeMs,
        outcome: run.outcome,
      }))
    }
    taskResults.push(result)
    outcomes.push(runs.map(trialOutcome))
  }
  const graderSuspects = ids.filter((id) => (byTask.get(id) ?? []).some((run) => run.agentAnswer.trim() === '' && passed(run)))
  // Over the tasks the metrics are computed from: those that ran (a task not run is no zero).
  const ran = taskResults.filter((task) => task.outcome.kind !== 'not-run')
  const sources = ran.map((task) => (task.sourcesCorrect === true ? 1 : 0))
  const exactMatchAccuracy = wilsonIntervalOf(ran.map((task) => (task.exactMatch ? 1 : 0)))
  const avgSemanticScore = bootstrapMeanCi(ran.map((task) => task.semanticScore))
  const sourcesAccuracy = wilsonIntervalOf(sources)
  const llmJudge = judgeSummary(metas, ran)
  const verdicts = llmJudge === undefined ? undefined : judgeAccuracyVerdicts(ran)
  // The results core's pass^k (the same as evals'), over every trial of each task.
  const pass = passHatKSummary(outcomes, trials, { intervals: trials > 1 })
  return {
    taskResults,
    trials,
    passHatK: pass.passHatK,
    passHatKTasks: pass.passHatKTasks,
    // With one trial pass^1 is exactMatchAccuracy, whose (Wilson) interval is already there.
    ...(trials > 1 ? { passHatKCi: pass.passHatKCi } : {}),
    sourcesAccuracy: share(sources),
    ...(llmJudge === undefined ? {} : { llmJudge }),
    ...(verdicts === undefined ? {} : { llmJudgeAccuracy: share(verdicts) }),
    confidenceIntervals: {
      exactMatchAccuracy,
      avgSemanticScore,
      sourcesAccuracy,
      ...(verdicts === undefined ? {} : { llmJudgeAccuracy: wilsonIntervalOf(verdicts) }),
    },
    graderSuspects,
    duplicateTaskIds: duplicates,
  }
}
