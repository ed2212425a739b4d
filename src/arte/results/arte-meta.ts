import { z } from 'zod'
import { type OutcomeSummary, OutcomeSummarySchema, UsageSchema } from '../../agent/outcome-summary.ts'
import { ArteRowSelectionSchema } from '../dataset/row-selection.ts'

/** Token counts and cost of one task. */
export const ArteUsageSchema = UsageSchema

/**
 * How one ART-E task ended: the agent run's outcome (`AgentOutcome` without the answer), or `not-run` for a selected
 * task that never ran (the run was interrupted first). A test that timed out before its agent returned is an `error`
 * with code `ERR_TEST_TIMEOUT` (see `collect-arte-tasks.ts`).
 */
export const ArteTaskOutcomeSchema = z.discriminatedUnion('kind', [
  ...OutcomeSummarySchema.options,
  z.object({ kind: z.literal('not-run'), reason: z.string() }),
])

/** How one ART-E task ended; see {@link ArteTaskOutcomeSchema}. */
export type ArteTaskOutcome = OutcomeSummary | { kind: 'not-run'; reason: string }

/**
 * Test meta of one ART-E test (`task.meta.arte`), set once when the test ends.
 * Plain JSON, so it survives worker messages and `--reporter=blob` / `--merge-reports`.
 */
export const ArteTestMetaSchema = z.object({
  /** The row id, as a string (also the test name). */
  taskId: z.string(),
  question: z.string(),
  groundTruth: z.string(),
  /** The agent's answer; empty when the run did not end with an answer. */
  agentAnswer: z.string(),
  /** Full length of the answer when it was longer than what is stored (`agentAnswer` is then cut, with a marker). */
  agentAnswerChars: z.number().int().optional(),
  /** Message-IDs the agent cited. */
  sources: z.array(z.string()),
  exactMatch: z.boolean(),
  /** Jaccard word overlap of answer and ground truth, 0-1. */
  semanticScore: z.number().min(0).max(1),
  /**
   * The row's first message id is among `sources` (OpenPipe's `sources_correct`, see `sourcesCorrect`); false without
   * an answer. Absent for a task without a result (timed out, not run), which counts as false.
   */
  sourcesCorrect: z.boolean().optional(),
  /** The LLM judge (`ARTE_JUDGE_MODEL`) that judged this task; absent when none was set. */
  llmJudgeModel: z.string().optional(),
  /**
   * The judge's verdict: the answer is correct (OpenPipe's `answer_correct`); false without a call when the run gave
   * no answer or "I don't know". Absent when no judge was set or the judge erred (see `llmJudgeError`).
   */
  llmJudgeCorrect: z.boolean().optional(),
  /** Why the judge gave no verdict (the call failed, or the reply was neither True nor False); not a wrong answer. */
  llmJudgeError: z.object({ code: z.string(), message: z.string() }).optional(),
  /** The judge's tokens and cost for this task, apart from `usage` (the agent's). */
  llmJudgeUsage: ArteUsageSchema.optional(),
  /** Key of the full trace in the traces database. */
  traceId: z.string(),
  /** The OpenTelemetry trace id of the task (32 hex digits) when tracing was on (`OTEL_EXPORTER_OTLP_ENDPOINT`): open it in the trace viewer. */
  otelTraceId: z.string().optional(),
  executionTimeMs: z.number(),
  /** Tool calls stopped at their time budget (`ARTE_TOOL_TIMEOUT_MS`); absent when none. */
  toolTimeouts: z.number().int().positive().optional(),
  usage: ArteUsageSchema,
  /** Model id as given (`baseline`, `openai/gpt-4.1`, ...). */
  model: z.string(),
  modelKind: z.enum(['llm', 'baseline']),
  outcome: ArteTaskOutcomeSchema,
  /** The row's inbox (tools are scoped to it). */
  inboxAddress: z.string(),
  /** The row's query date (tools see mail on or before it). */
  queryDate: z.string(),
  /** Dataset split the row came from. */
  split: z.enum(['train', 'test']),
  /** Dataset file the row came from: relative to the working directory when inside it, else absolute. */
  dataset: z.string(),
  /**
   * Which rows of the split the run that declared this test selected (`ARTE_ROWS`), so a merge of blob reports records
   * the tests' selection, not the merging process's. Absent in meta written before it was recorded.
   */
  rows: ArteRowSelectionSchema.optional(),
  /** Which run of the row this is, 1-based (`BENCH_TRIALS`); absent means 1. */
  trial: z.int().positive().optional(),
  /**
   * The run whose finished result a resumed run reused (`BENCH_RESUME`): no agent call was made now, and `usage` is
   * what that run spent. Absent for a task run in this run.
   */
  resumedFrom: z.string().optional(),
})

/** Test meta of one ART-E test; see {@link ArteTestMetaSchema}. */
export type ArteTestMeta = z.infer<typeof ArteTestMetaSchema>

/**
 * What is known of an ART-E task before it runs (`task.meta.arteTask`, set when the test is declared), so the reporter
 * can account for a task whose test timed out, failed before setting `arte`, or never ran.
 */
export const ArtePlannedTaskSchema = ArteTestMetaSchema.pick({
  taskId: true,
  question: true,
  groundTruth: true,
  inboxAddress: true,
  queryDate: true,
  split: true,
  dataset: true,
  rows: true,
  trial: true,
}).extend({
  /** Model id the task was declared with. */
  model: z.string(),
  modelKind: z.enum(['llm', 'baseline']),
  /** The row's `message_ids`: scores a task the reporter rebuilds from its stored trace (see `recover-finished.ts`). */
  messageIds: z.array(z.string()).optional(),
})

/** See {@link ArtePlannedTaskSchema}. */
export type ArtePlannedTask = z.infer<typeof ArtePlannedTaskSchema>
