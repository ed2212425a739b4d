import { join, resolve } from 'node:path'
import { z } from 'zod'
import { readJsonFile } from '../core/parse.ts'
import { compareNatural } from '../core/natural-order.ts'
import { ConfidenceIntervalSchema, bootstrapMeanCis } from '../stats/bootstrap.ts'
import { wilsonInterval } from '../stats/wilson.ts'
import { passHatKSummary } from './pass-hat-k-summary.ts'

/** Where eval results go unless `EVAL_OUTPUT_DIR` says otherwise (relative to the folder Vitest runs in). */
export const DEFAULT_EVAL_OUTPUT_DIR = 'evaluation/evals'

/** How a case's trial ended: scored (passed or not), an error before its scores (a throw, a timeout), or not run. */
export const EvalCaseStatusSchema = z.enum(['scored', 'error', 'not-run'])

/** See {@link EvalCaseStatusSchema}. */
export type EvalCaseStatus = z.infer<typeof EvalCaseStatusSchema>

/** One trial of one case in an eval's results (`taskResults`). */
export const EvalTaskResultSchema = z.object({
  /** The case id (`EvalCase.id`), or its test name when it has none. */
  id: z.string(),
  /** 1-based. */
  trial: z.int().positive(),
  status: EvalCaseStatusSchema,
  /** The case met the eval's threshold (its mean score is at least the threshold); false for an error or a trial not run. */
  passed: z.boolean(),
  /** Each scorer's score (0-1), by scorer name; empty for an error or a trial not run. */
  scores: z.record(z.string(), z.number()),
  /** Why, for the scorers that said so. */
  reasons: z.record(z.string(), z.string()).optional(),
  /** The mean of `scores` (0 without scores). */
  mean: z.number(),
  /** The task and its scorers, or the test's run time for an error; 0 for a trial not run. */
  durationMs: z.number(),
  /** The case's input, expected value and the task's output, as stored (strings capped at 10,000 characters). */
  input: z.unknown().optional(),
  expected: z.unknown().optional(),
  output: z.unknown().optional(),
  /** Why the trial has no scores (`status` error or not-run). */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** With `BENCH_RESUME=1`: the run (history id) whose finished result this is; the task was not called again. */
  resumedFrom: z.string().optional(),
  /** With OpenTelemetry on: the trace id of the case's `invoke_agent` span, to open it in a trace viewer. */
  otelTraceId: z.string().optional(),
})

/** One trial of one case; see {@link EvalTaskResultSchema}. */
export type EvalTaskResult = z.infer<typeof EvalTaskResultSchema>

/** A scorer's mean over the cases (trial 1) and its seeded bootstrap interval (`null` with no case). */
export const EvalScorerMetricSchema = z.object({ mean: z.number(), ci: ConfidenceIntervalSchema.nullable() })

/** The share of cases (trial 1) that passed, and its Wilson score interval (`null` with no case). */
export const EvalPassRateSchema = z.object({ value: z.number(), ci: ConfidenceIntervalSchema.nullable() })

/** The results file of one eval: `evaluation/evals/{eval name}/results.json`. */
export const EvalResultsSchema = z.object({
  /** The `describeEval` name. */
  name: z.string(),
  /** Cases (distinct ids) in the run. */
  tasks: z.int().nonnegative(),
  /** Trials per case (`BENCH_TRIALS` or the `trials` option). */
  trials: z.int().positive(),
  /** The scorers' names, in the eval's order (each is a key of `metrics`). */
  scorers: z.array(z.string()),
  /**
   * Over trial 1 of the cases that ran (an error counts, scoring 0 and not passing; a case not run is left out): each
   * scorer's mean with the seeded percentile bootstrap interval, and `passRate` with the Wilson score interval.
   */
  metrics: z.object({ passRate: EvalPassRateSchema }).catchall(EvalScorerMetricSchema),
  /** pass^k (pass = met the threshold), `{"1": x, ..., "k": z}`: tau-bench's estimator over every trial. */
  passHatK: z.record(z.string(), z.number()),
  /** A 95% interval of each pass^j, as ART-E's (Wilson when every task's value is 0 or 1, else the seeded bootstrap over tasks). */
  passHatKCi: z.record(z.string(), ConfidenceIntervalSchema),
  /** The cases pass^k is over: those with an outcome in every trial. */
  passHatKTasks: z.int().nonnegative(),
  /** Counts over every trial. */
  counts: z.object({ passed: z.int(), failed: z.int(), errors: z.int(), notRun: z.int(), resumed: z.int() }),
  /** How the Vitest run ended. */
  testRunEndReason: z.enum(['passed', 'failed', 'interrupted']),
  config: z.object({
    /** The mean score a case needs. */
    threshold: z.number(),
    /** The run's history id (`evaluation/history/{runId}/`), when a copy was kept. */
    runId: z.string().optional(),
    /** The test files that declared the eval, relative to the root. */
    files: z.array(z.string()),
    startedAt: z.string(),
    finishedAt: z.string(),
  }),
  /** Every selected case once per trial, by id (natural order) then trial. */
  taskResults: z.array(EvalTaskResultSchema),
})

/** The results of one eval; see {@link EvalResultsSchema}. */
export type EvalResults = z.infer<typeof EvalResultsSchema>

/** Reads and validates an eval's results file. */
export function readEvalResults(file: string): EvalResults {
  return readJsonFile(EvalResultsSchema, file, 'eval results')
}

/** Whether a parsed JSON value is an eval's results (has `taskResults` rows with `trial` and `scores`, and `passHatK`). */
export function looksLikeEvalResults(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return typeof record.name === 'string' && typeof record.metrics === 'object' && Array.isArray(record.taskResults) && typeof record.passHatK === 'object'
}

/** An eval name as a folder name: letters, digits, `.`, `_` and `-` kept, every other run of characters one `-`. */
export function evalFolderName(name: string): string {
  const slug = name
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
  return slug === '' ? 'eval' : slug
}

/** The folder eval results go to: `EVAL_OUTPUT_DIR` (absolute, or relative to `cwd`), else `evaluation/evals`. */
export function evalOutputDir(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): string {
  const set = env.EVAL_OUTPUT_DIR?.trim()
  return resolve(cwd, set === undefined || set === '' ? DEFAULT_EVAL_OUTPUT_DIR : set)
}

/** The results file of eval `name`: `{evalOutputDir}/{folder name}/results.json`. */
export function evalResultsFile(name: string, env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): string {
  return join(evalOutputDir(env, cwd), evalFolderName(name), 'results.json')
}

/** The name of eval `name`'s copy in a run's history folder: `evals/{folder name}.json`. */
export function evalHistoryName(name: string): string {
  return `evals/${evalFolderName(name)}.json`
}

/** What {@link computeEvalResults} needs besides the rows. */
export interface EvalRunInfo {
  name: string
  /** Trials per case. */
  trials: number
  scorers: ReadonlyArray<string>
  threshold: number
  testRunEndReason: EvalResults['testRunEndReason']
  files: ReadonlyArray<string>
  startedAt: string
  finishedAt: string
  runId?: string
}

/** Sorts task results by id (natural order) then trial. */
export function sortTaskResults<T extends Pick<EvalTaskResult, 'id' | 'trial'>>(rows: ReadonlyArray<T>): T[] {
  return [...rows].sort((a, b) => compareNatural(a.id, b.id) || a.trial - b.trial)
}

/**
 * An eval's results from its rows (one per case and trial; see {@link EvalTaskResultSchema}): over trial 1 of the
 * cases that ran, each scorer's mean with its seeded bootstrap interval (an error scores 0 on every scorer) and the
 * pass rate with its Wilson score interval; over every trial, pass^k (tau-bench's estimator) and its intervals
 * (`passHatKCi`). Rows are summed in id order, so the same rows give the same numbers in any order.
 */
export function computeEvalResults(rows: ReadonlyArray<EvalTaskResult>, info: EvalRunInfo): EvalResults {
  const sorted = sortTaskResults(rows)
  const ids = [...new Set(sorted.map((row) => row.id))]
  const byId = new Map<string, EvalTaskResult[]>()
  for (const row of sorted) {
    const runs = byId.get(row.id)
    if (runs === undefined) byId.set(row.id, [row])
    else runs.push(row)
  }
  const firstTrials = ids.flatMap((id) => byId.get(id)?.slice(0, 1) ?? [])
  const ran = firstTrials.filter((row) => row.status !== 'not-run')
  const series = info.scorers.map((scorer) => ran.map((row) => row.scores[scorer] ?? 0))
  const intervals = bootstrapMeanCis(series)
  const byName: Record<string, z.infer<typeof EvalScorerMetricSchema> | z.infer<typeof EvalPassRateSchema>> = {}
  info.scorers.forEach((scorer, k) => {
    const values = series[k] ?? []
    byName[scorer] = { mean: values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length, ci: intervals[k] ?? null }
  })
  const passedCount = ran.filter((row) => row.passed).length
  byName.passRate = { value: ran.length === 0 ? 0 : passedCount / ran.length, ci: wilsonInterval(passedCount, ran.length) }
  // A scorer named passRate would be hidden by the pass rate: describeEval refuses that name.
  const metrics = byName as EvalResults['metrics']
  const pass = passHatKSummary(
    ids.map((id) => (byId.get(id) ?? []).map((row) => ({ trial: row.trial, passed: row.status === 'not-run' ? undefined : row.passed }))),
    info.trials,
  )
  return {
    name: info.name,
    tasks: ids.length,
    trials: info.trials,
    scorers: [...info.scorers],
    metrics,
    ...pass,
    counts: {
      passed: sorted.filter((row) => row.passed).length,
      failed: sorted.filter((row) => row.status === 'scored' && !row.passed).length,
      errors: sorted.filter((row) => row.status === 'error').length,
      notRun: sorted.filter((row) => row.status === 'not-run').length,
      resumed: sorted.filter((row) => row.resumedFrom !== undefined).length,
    },
    testRunEndReason: info.testRunEndReason,
    config: {
      threshold: info.threshold,
      ...(info.runId === undefined ? {} : { runId: info.runId }),
      files: [...info.files],
      startedAt: info.startedAt,
      finishedAt: info.finishedAt,
    },
    taskResults: sorted,
  }
}
