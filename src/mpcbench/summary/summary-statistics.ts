import { z } from 'zod'
import { ConfidenceIntervalSchema, bootstrapMeanCi, formatWithCi } from '../../stats/bootstrap.ts'
import type { ConfidenceInterval } from '../../stats/bootstrap.ts'
import type { TrialOutcome } from '../../stats/pass-hat-k.ts'
import { passHatKSummary } from '../../results/pass-hat-k-summary.ts'
import type { Summary, UnfinishedTest } from './summary.ts'
import type { MpcbenchTestMeta } from '../run/mpcbench-meta.ts'

/** The requirements score (0-5) at or above which a test counts as passed, for pass^k and grader suspects. */
export const MPCBENCH_PASS_SCORE = 4

/** Seeded bootstrap intervals over tasks of a summary row's two means (`null` when no task was judged on the axis). */
export const RowCiSchema = z.object({
  answer_requirements_satisfaction: ConfidenceIntervalSchema.nullable(),
  source_grounded_reasoning: ConfidenceIntervalSchema.nullable(),
})

/** A summary row's intervals; see {@link RowCiSchema}. */
export type RowCi = z.infer<typeof RowCiSchema>

/** A test whose agent gave an empty answer and still passed (requirements >= 4): its grader measures nothing. */
export const GraderSuspectSchema = z.object({
  task_id: z.string(),
  agent_model: z.string(),
  judge_model: z.string(),
  trial: z.int().positive(),
})

/** One grader suspect; see {@link GraderSuspectSchema}. */
export type GraderSuspect = z.infer<typeof GraderSuspectSchema>

/** The intervals of one row from its judged values (one per task, trial 1; nulls already left out). */
export function rowCi(requirements: ReadonlyArray<number>, grounding: ReadonlyArray<number>): RowCi {
  return {
    answer_requirements_satisfaction: bootstrapMeanCi(requirements),
    source_grounded_reasoning: bootstrapMeanCi(grounding),
  }
}

/**
 * Trial 1 of each test, meta or score (one without `trial` is trial 1): what the means, intervals and run comparisons
 * are computed from.
 */
export function firstTrials<T extends { trial?: number | undefined }>(items: ReadonlyArray<T>): T[] {
  return items.filter((item) => (item.trial ?? 1) === 1)
}

/** The key of a summary row. */
export function rowKey(agentModel: string, judgeModel: string, taskType: string, toolProfile?: string): string {
  return JSON.stringify([agentModel, judgeModel, taskType, toolProfile ?? null])
}

/** pass^k of one summary row: see {@link rowPassHatK}. */
export interface RowTrials {
  trials: number
  passHatK: Record<string, number>
  /** A 95% interval of each pass^j: the seeded percentile bootstrap over `tasks` of C(c, j) / C(n, j) (see `passHatKCi`). */
  passHatKCi: Record<string, ConfidenceInterval>
  /** The row's tasks pass^k is over: those with an outcome in every trial. */
  tasks: number
}

/**
 * Whether one judged trial passed (requirements >= {@link MPCBENCH_PASS_SCORE}). When the judge gave no requirements
 * score (a judge error, or a null score), an agent that did not answer (max turns, error, aborted) failed: an
 * unanswered attempt is no success; for an agent that answered the outcome is unknown (undefined). A score the judge
 * gave counts as given.
 */
function trialPassed(meta: MpcbenchTestMeta, judge: MpcbenchTestMeta['judges'][number]): boolean | undefined {
  const score = judge.kind === 'judge-error' ? null : judge.answerRequirementsSatisfaction
  if (score === null) return meta.agentOutcome === 'answered' ? undefined : false
  return score >= MPCBENCH_PASS_SCORE
}

/**
 * pass^k (pass = requirements >= {@link MPCBENCH_PASS_SCORE}) per agent × judge × task type, keyed by
 * {@link rowKey}; empty when every test is trial 1. pass^k is ours, not upstream's, so unlike the means it counts a
 * trial that timed out or failed before its score (`unfinished`) as not passed, in every row of its agent and task
 * type, as ART-E does, and so is a trial whose agent did not answer and got no score (see `trialPassed`). A trial not
 * run (an interrupted run) or not judged for an agent that answered (a judge error, requirements unjudged) has no
 * outcome: pass^k is over the tasks with an outcome in every trial (see `passHatK`, tau-bench's estimator). Each
 * pass^j has the seeded bootstrap interval over those tasks (see `passHatKCi`): a row's tasks are its clusters, since a
 * row is one agent and one judge, so each task is one entry.
 */
export function rowPassHatK(metas: ReadonlyArray<MpcbenchTestMeta>, unfinished: ReadonlyArray<UnfinishedTest> = []): Map<string, RowTrials> {
  const trials = Math.max(1, ...metas.map((meta) => meta.trial ?? 1), ...unfinished.map((test) => test.trial ?? 1))
  const out = new Map<string, RowTrials>()
  if (trials === 1) return out
  const byRow = new Map<string, Map<string, TrialOutcome[]>>()
  const rowsOf = new Map<string, Set<string>>()
  const runsOf = (key: string, taskId: string): TrialOutcome[] => {
    const tasks = byRow.get(key) ?? new Map<string, TrialOutcome[]>()
    byRow.set(key, tasks)
    const runs = tasks.get(taskId) ?? []
    tasks.set(taskId, runs)
    return runs
  }
  for (const meta of metas) {
    const taskType = meta.taskType ?? 'unknown'
    for (const judge of meta.judges) {
      const key = rowKey(meta.agentModel, judge.judgeModel, taskType, meta.toolProfile)
      runsOf(key, meta.taskId).push({ trial: meta.trial ?? 1, passed: trialPassed(meta, judge) })
      const agentAndType = JSON.stringify([meta.agentModel, taskType])
      rowsOf.set(agentAndType, (rowsOf.get(agentAndType) ?? new Set<string>()).add(key))
    }
  }
  for (const test of unfinished) {
    if (test.outcome === 'not-run') continue
    for (const key of rowsOf.get(JSON.stringify([test.agent_model, test.task_type])) ?? [])
      runsOf(key, test.task_id).push({ trial: test.trial ?? 1, passed: false })
  }
  for (const [key, tasks] of byRow) {
    // The results core's pass^k (the same as ART-E's and evals').
    const pass = passHatKSummary(tasks.values(), trials)
    out.set(key, { trials, passHatK: pass.passHatK, passHatKCi: pass.passHatKCi, tasks: pass.passHatKTasks })
  }
  return out
}

/** Tests whose agent answered empty yet passed a judge (requirements >= {@link MPCBENCH_PASS_SCORE}), sorted. */
export function graderSuspects(metas: ReadonlyArray<MpcbenchTestMeta>): GraderSuspect[] {
  const out: GraderSuspect[] = []
  for (const meta of metas) {
    if (meta.emptyAnswer !== true) continue
    for (const judge of meta.judges) {
      if (judge.kind === 'scored' && (judge.answerRequirementsSatisfaction ?? 0) >= MPCBENCH_PASS_SCORE) {
        out.push({ task_id: meta.taskId, agent_model: meta.agentModel, judge_model: judge.judgeModel, trial: meta.trial ?? 1 })
      }
    }
  }
  return out.sort(
    (a, b) =>
      a.task_id.localeCompare(b.task_id) || a.agent_model.localeCompare(b.agent_model) || a.judge_model.localeCompare(b.judge_model) || a.trial - b.trial,
  )
}

/** A mean (0-5) with its interval, `3.40 [2.80, 4.00]`, or `-` when nothing was judged. */
export function meanCell(mean: number | null, ci: ConfidenceInterval | null | undefined): string {
  return mean === null ? '-' : formatWithCi(mean, ci, 2)
}

/** The warning printed under the table when an empty answer passed some test, or `undefined`. */
export function graderSuspectWarning(suspects: ReadonlyArray<GraderSuspect> | undefined): string | undefined {
  if (suspects === undefined || suspects.length === 0) return undefined
  const list = suspects.map((s) => `${s.task_id} (agent ${s.agent_model}, judge ${s.judge_model}${s.trial > 1 ? `, trial ${s.trial}` : ''})`)
  return `WARNING: grader suspects: an empty answer scored >= ${MPCBENCH_PASS_SCORE} on requirements in ${list.join(', ')}; a task an empty answer passes measures nothing (give it checks that an empty answer fails).`
}

/**
 * The lines printed under the summary table: what the brackets are, pass^k per row when tasks ran more than once
 * (each pass^j with its interval when the summary has one: `1: 0.833 [0.667, 1.000] · 2: ...`), and the grader-suspect
 * warning. Empty lines are left out.
 */
export function formatSummaryStatistics(summary: Pick<Summary, 'rows' | 'grader_suspects'>): string {
  const lines: string[] = []
  const method = summary.rows.find((row) => row.ci?.answer_requirements_satisfaction != null)?.ci?.answer_requirements_satisfaction
  const withPassCi = summary.rows.some((row) => row.pass_hat_k_ci !== undefined && Object.keys(row.pass_hat_k_ci).length > 0)
  const passCi = withPassCi
    ? "; pass^k's over the tasks with an outcome in every trial, of their per-task C(c, j) / C(n, j) (Wilson's when those are all 0 or 1)"
    : ''
  if (method != null)
    lines.push(`[low, high]: ${Math.round(method.level * 100)}% seeded bootstrap interval over tasks (trial 1); nulls (unjudged) skipped${passCi}`)
  for (const row of summary.rows) {
    if (row.pass_hat_k === undefined) continue
    const values = Object.entries(row.pass_hat_k).map(([k, value]) => `${k}: ${formatWithCi(value, row.pass_hat_k_ci?.[k])}`)
    const over =
      row.pass_hat_k_tasks === undefined || row.pass_hat_k_tasks === row.count
        ? ''
        : `, over the ${row.pass_hat_k_tasks} task(s) with an outcome in every trial`
    lines.push(
      `pass^k (requirements >= ${MPCBENCH_PASS_SCORE}, ${row.trials} trials${over}) ${row.agent_model} x ${row.judge_model} x ${row.task_type}: ${values.length === 0 ? '-' : values.join(' · ')}`,
    )
  }
  const warning = graderSuspectWarning(summary.grader_suspects)
  if (warning !== undefined) lines.push(warning)
  return lines.join('\n')
}
