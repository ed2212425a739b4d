import { z } from 'zod'
import { sumUsage } from '../../llm/usage.ts'
import { ArteTestMetaSchema, ArteUsageSchema, type ArteTestMeta } from './arte-meta.ts'
import { readJsonFile } from '../../core/parse.ts'
import { ConfidenceIntervalSchema } from '../../stats/bootstrap.ts'
import { compareNatural } from '../../core/natural-order.ts'
import { ArteRowSelectionSchema } from '../dataset/row-selection.ts'

/** Aggregate metrics of an ART-E run, as named in the ART-E doc. */
export const ArteMetricsSchema = z.object({
  /** Share of the tasks that ran (all but `notRunTasks`) whose answer matched the ground truth exactly (0-1). */
  exactMatchAccuracy: z.number(),
  /** Mean Jaccard word overlap over the tasks that ran (0-1); a task without an answer (failed, timed out) counts as 0. */
  avgSemanticScore: z.number(),
  /**
   * Mean run time of the tasks that ran: the agent run's time, or for a test that timed out or failed before its
   * result, the test's own duration.
   */
  avgExecutionTimeMs: z.number(),
  /** Tasks whose agent run ended with an answer. */
  completedTasks: z.number().int(),
  /** Tasks whose agent run errored, hit `maxTurns`, was aborted, or whose test timed out or failed before an answer. */
  failedTasks: z.number().int(),
  /** Selected tasks that never ran to an end (the run was interrupted); `completedTasks + failedTasks + notRunTasks = totalTasks`. */
  notRunTasks: z.number().int().default(0),
  /** Every selected task, once. */
  totalTasks: z.number().int(),
  /** From the first task start to the last task end. */
  totalTimeMs: z.number(),
  /**
   * Email tool calls stopped at their time budget (`ARTE_TOOL_TIMEOUT_MS`), over all tasks (trial 1 of each, as the
   * other metrics): each went back to the agent as a tool error, so a count above 0 on a busy machine means the scores
   * depend on the machine.
   */
  toolTimeouts: z.number().int().default(0),
})

/** Aggregate metrics of an ART-E run. */
export type ArteMetrics = z.infer<typeof ArteMetricsSchema>

/** Names of the ART-E doc's metrics (those of {@link ArteMetricsSchema}). */
export const ARTE_METRIC_NAMES = Object.keys(ArteMetricsSchema.shape) as Array<keyof ArteMetrics>

/**
 * The scores that compare with OpenPipe's published ART-E numbers, beside the doc's metrics (and, like them, over the
 * tasks that ran, trial 1 of each).
 */
export const ArteOpenPipeScoresSchema = z.object({
  /**
   * Share of the tasks whose answer cites the row's first message id among its sources (OpenPipe's `sources_correct`);
   * a task without an answer counts as not correct. Absent in results written before it was measured.
   */
  sourcesAccuracy: z.number().optional(),
  /**
   * Share of the judged tasks the LLM judge (`ARTE_JUDGE_MODEL`) found correct (OpenPipe's `answer_correct`): a task
   * without an answer counts as not correct, a task whose judge erred is left out (see `llmJudge.errors`; with errors
   * the share leans toward the unanswered tasks, and a threshold on it is not checked). Absent when no judge ran, and
   * when the judge gave no verdict on any task it was asked about (or no task ran): no value, never a 0.
   */
  llmJudgeAccuracy: z.number().optional(),
})

/** See {@link ArteOpenPipeScoresSchema}. */
export type ArteOpenPipeScores = z.infer<typeof ArteOpenPipeScoresSchema>

/** Names of the metrics a threshold can refer to: the doc's metrics and the OpenPipe-comparable scores. */
export const ARTE_THRESHOLD_METRIC_NAMES = [...ARTE_METRIC_NAMES, ...(Object.keys(ArteOpenPipeScoresSchema.shape) as Array<keyof ArteOpenPipeScores>)]

/** A metric a threshold can refer to. */
export type ArteThresholdMetric = (typeof ARTE_THRESHOLD_METRIC_NAMES)[number]

/** The LLM judge's part of a run: which model, how many tasks it judged or erred on, and what it spent. */
export const ArteJudgeSummarySchema = z.object({
  /** Judge model ids seen in the run (usually one), comma-separated. */
  model: z.string(),
  /** Tasks (trial 1, that ran) with a verdict: the tasks `llmJudgeAccuracy` is over. */
  judgedTasks: z.int().nonnegative(),
  /** Tasks (trial 1, that ran) whose judge gave no verdict (its call failed, or the reply was neither True nor False). */
  errors: z.int().nonnegative(),
  /** The judge's tokens and cost over every trial, apart from the run's `usage` (the agent's). */
  usage: ArteUsageSchema,
})

/** See {@link ArteJudgeSummarySchema}. */
export type ArteJudgeSummary = z.infer<typeof ArteJudgeSummarySchema>

/** One trial of a task (`BENCH_TRIALS` > 1): its answer, scores and how it ended. */
export const ArteTrialResultSchema = z.object({
  trial: z.int().positive(),
  exactMatch: z.boolean(),
  semanticScore: z.number(),
  sourcesCorrect: z.boolean().optional(),
  llmJudgeCorrect: z.boolean().optional(),
  agentAnswer: z.string(),
  traceId: z.string(),
  /** The trial's OpenTelemetry trace id, when tracing was on. */
  otelTraceId: z.string().optional(),
  executionTimeMs: z.number(),
  /** How the trial ended (a trial not run, or one that failed, is no wrong answer); absent in results written before it was kept. */
  outcome: ArteTestMetaSchema.shape.outcome.optional(),
})

/** One trial of a task; see {@link ArteTrialResultSchema}. */
export type ArteTrialResult = z.infer<typeof ArteTrialResultSchema>

/**
 * One task in the results JSON: the fields of its test meta that describe the task, answer and scores (of trial 1),
 * and with `BENCH_TRIALS` > 1 every trial in `trialResults`.
 */
export const ArteTaskResultSchema = ArteTestMetaSchema.pick({
  taskId: true,
  question: true,
  groundTruth: true,
  agentAnswer: true,
  agentAnswerChars: true,
  exactMatch: true,
  semanticScore: true,
  sourcesCorrect: true,
  llmJudgeCorrect: true,
  llmJudgeError: true,
  llmJudgeUsage: true,
  traceId: true,
  otelTraceId: true,
  executionTimeMs: true,
  toolTimeouts: true,
  sources: true,
  inboxAddress: true,
  queryDate: true,
  outcome: true,
  usage: true,
  resumedFrom: true,
}).extend({ trialResults: z.array(ArteTrialResultSchema).optional() })

/** One task in the results JSON. */
export type ArteTaskResult = z.infer<typeof ArteTaskResultSchema>

/** Outcome of checking one threshold. */
export const ArteThresholdCheckSchema = z.object({
  metric: z.string(),
  op: z.enum(['>=', '>', '<=', '<']),
  value: z.number(),
  measured: z.number(),
  passed: z.boolean(),
})

/** The results JSON written by `reporters/arte.ts` (default `evaluation/arte/results.json`). */
export const ArteResultsSchema = ArteMetricsSchema.extend({
  ...ArteOpenPipeScoresSchema.shape,
  usage: ArteUsageSchema,
  /** The LLM judge's part of the run; absent when no judge ran (`ARTE_JUDGE_MODEL` unset). */
  llmJudge: ArteJudgeSummarySchema.optional(),
  config: z.object({
    /** Model ids seen in the run (usually one), comma-separated. */
    model: z.string(),
    modelKind: z.enum(['llm', 'baseline', 'mixed']),
    split: z.string(),
    /**
     * Which rows of the split ran, before the limit (`ARTE_ROWS`, as each test recorded it): `all`, `openpipe`
     * (OpenPipe's evaluation rows), or `mixed` when merged tests selected their rows differently. Absent in results
     * written before it was recorded: `all`.
     */
    rows: z.union([ArteRowSelectionSchema, z.literal('mixed')]).optional(),
    dataset: z.string(),
    startedAt: z.string(),
    finishedAt: z.string(),
  }),
  /** How the Vitest run ended. */
  testRunEndReason: z.enum(['passed', 'failed', 'interrupted']),
  /**
   * Test files an interrupted run never started (relative to the project root; part files of a large dataset). Vitest
   * never collected their tests: the rows of a part file (`ARTE_PARTS`) are counted as not run all the same (in
   * `notRunTasks`, `totalTasks` and `taskResults`, read from the settings the part files use); another file's are in no
   * count. Absent when every file started.
   */
  notStartedFiles: z.array(z.string()).optional(),
  thresholds: z.array(ArteThresholdCheckSchema),
  /**
   * 95% intervals over tasks of the score metrics (`null` with no tasks): Wilson score intervals of the shares
   * (exact match, sources, judge verdicts), a seeded bootstrap of `avgSemanticScore`; `sourcesAccuracy`'s is absent in
   * results written before it was measured, `llmJudgeAccuracy`'s when no judge ran. Absent in results written before
   * intervals existed.
   */
  confidenceIntervals: z
    .object({
      exactMatchAccuracy: ConfidenceIntervalSchema.nullable(),
      avgSemanticScore: ConfidenceIntervalSchema.nullable(),
      sourcesAccuracy: ConfidenceIntervalSchema.nullable().optional(),
      llmJudgeAccuracy: ConfidenceIntervalSchema.nullable().optional(),
    })
    .optional(),
  /** Runs per task (`BENCH_TRIALS`); the metrics and `taskResults` are trial 1's. */
  trials: z.int().positive().optional(),
  /**
   * pass^k (pass = exact match): `{"1": x, ..., "k": z}`, tau-bench's estimator: the mean over tasks of
   * C(c, j) / C(n, j), c of a task's n trials passed. A trial that failed or timed out counts as not passed; the tasks
   * are those whose trials 1..k all ran (`passHatKTasks`).
   */
  passHatK: z.record(z.string(), z.number()).optional(),
  /** The tasks pass^k is over: those with an outcome in every trial (all of them unless some trial did not run). */
  passHatKTasks: z.int().nonnegative().optional(),
  /**
   * A 95% interval of each pass^j (same keys as `passHatK`): the seeded percentile bootstrap over the `passHatKTasks`
   * tasks of their values C(c, j) / C(n, j), one draw of tasks for every j. Only with trials > 1 (with one trial
   * pass^1 is `exactMatchAccuracy`, whose Wilson interval is in `confidenceIntervals`); absent in results written
   * before it existed.
   */
  passHatKCi: z.record(z.string(), ConfidenceIntervalSchema).optional(),
  /** Tasks that an empty answer passed (e.g. under the `null` agent): the grader measures nothing there. */
  graderSuspects: z.array(z.string()).optional(),
  taskResults: z.array(ArteTaskResultSchema),
})

/** The results JSON of one ART-E run. */
export type ArteResults = z.infer<typeof ArteResultsSchema>

/** Orders task ids numerically when they are numbers (`2` before `10`), else as text. */
export function compareTaskIds(a: string, b: string): number {
  return compareNatural(a, b)
}

/** One task result from a test's meta. */
export function toTaskResult(meta: ArteTestMeta): ArteTaskResult {
  return {
    taskId: meta.taskId,
    question: meta.question,
    groundTruth: meta.groundTruth,
    agentAnswer: meta.agentAnswer,
    ...(meta.agentAnswerChars === undefined ? {} : { agentAnswerChars: meta.agentAnswerChars }),
    exactMatch: meta.exactMatch,
    semanticScore: meta.semanticScore,
    sourcesCorrect: meta.sourcesCorrect === true,
    ...(meta.llmJudgeCorrect === undefined ? {} : { llmJudgeCorrect: meta.llmJudgeCorrect }),
    ...(meta.llmJudgeError === undefined ? {} : { llmJudgeError: meta.llmJudgeError }),
    ...(meta.llmJudgeUsage === undefined ? {} : { llmJudgeUsage: meta.llmJudgeUsage }),
    traceId: meta.traceId,
    ...(meta.otelTraceId === undefined ? {} : { otelTraceId: meta.otelTraceId }),
    executionTimeMs: meta.executionTimeMs,
    ...(meta.toolTimeouts === undefined ? {} : { toolTimeouts: meta.toolTimeouts }),
    sources: meta.sources,
    inboxAddress: meta.inboxAddress,
    queryDate: meta.queryDate,
    outcome: meta.outcome,
    usage: meta.usage,
    ...(meta.resumedFrom === undefined ? {} : { resumedFrom: meta.resumedFrom }),
  }
}

/** A span of time a task ran, for {@link computeArteMetrics}'s `totalTimeMs`. */
export interface TaskSpan {
  startTime: number
  endTime: number
}

/**
 * Aggregates task results into the ART-E metrics. Results are summed in task id order,
 * so the same tasks give bit-identical metrics whatever order they were reported in (e.g. sharded).
 */
export function computeArteMetrics(results: ReadonlyArray<ArteTaskResult>, spans: ReadonlyArray<TaskSpan> = []): ArteMetrics {
  const sorted = [...results].sort((a, b) => compareTaskIds(a.taskId, b.taskId))
  const total = sorted.length
  let exact = 0
  let semantic = 0
  let time = 0
  let completed = 0
  let notRun = 0
  let toolTimeouts = 0
  for (const result of sorted) {
    toolTimeouts += result.toolTimeouts ?? 0
    if (result.outcome.kind === 'not-run') {
      notRun++
      continue
    }
    if (result.exactMatch) exact++
    semantic += result.semanticScore
    time += result.executionTimeMs
    if (result.outcome.kind === 'answered') completed++
  }
  const start = spans.length === 0 ? 0 : Math.min(...spans.map((span) => span.startTime))
  const end = spans.length === 0 ? 0 : Math.max(...spans.map((span) => span.endTime))
  const ran = total - notRun
  return {
    exactMatchAccuracy: ran === 0 ? 0 : exact / ran,
    avgSemanticScore: ran === 0 ? 0 : semantic / ran,
    avgExecutionTimeMs: ran === 0 ? 0 : time / ran,
    completedTasks: completed,
    failedTasks: ran - completed,
    notRunTasks: notRun,
    totalTasks: total,
    totalTimeMs: Math.max(0, end - start),
    toolTimeouts,
  }
}

/**
 * Sums the usage of all task runs (every trial of each task: what the run spent); an unknown cost on any makes the total
 * cost unknown. Summed in task id and trial order, so the same runs give the same total whatever order they came in.
 */
export function sumTaskUsage(results: ReadonlyArray<Pick<ArteTaskResult, 'taskId' | 'usage'> & { trial?: number }>): ArteTaskResult['usage'] {
  const sorted = [...results].sort((a, b) => compareTaskIds(a.taskId, b.taskId) || (a.trial ?? 1) - (b.trial ?? 1))
  return sumUsage(sorted.map((result) => result.usage))
}

/** Reads and validates a results JSON written by the ART-E reporter. */
export function readArteResults(file: string): ArteResults {
  return readJsonFile(ArteResultsSchema, file, 'ART-E results')
}
