import { z } from 'zod'
import { UsageSchema } from '../../agent/outcome-summary.ts'
import { TASK_TYPES, type TaskType } from '../tasks/task-types.ts'
import { ToolProfileSchema } from '../workplace/tool-profiles.ts'

const JudgeCommonSchema = z.object({
  /** Judge model id as given (`rules`, `openai/gpt-4.1`). */
  judgeModel: z.string(),
  /** `rules` is the offline judge and is not an LLM. */
  judgeKind: z.enum(['llm', 'rules']),
  judgeInputFile: z.string(),
  judgeResultFile: z.string(),
  /** Tokens and cost of this judge's calls (zero for `rules`). */
  usage: UsageSchema,
})

/** One judge's verdict on one MPCBench test, as test meta (plain JSON). A score is `null` when the judge could not judge that axis. */
export const MpcbenchJudgeMetaSchema = z.discriminatedUnion('kind', [
  JudgeCommonSchema.extend({
    kind: z.literal('scored'),
    answerRequirementsSatisfaction: z.number().nullable(),
    sourceGroundedReasoning: z.number().nullable(),
  }),
  JudgeCommonSchema.extend({ kind: z.literal('judge-error'), code: z.string(), message: z.string() }),
])

/** One judge's verdict; see {@link MpcbenchJudgeMetaSchema}. */
export type MpcbenchJudgeMeta = z.infer<typeof MpcbenchJudgeMetaSchema>

/** Test meta of one MPCBench test (`task.meta.mpcbench`), read by `reporters/mpcbench.ts` (which validates it). Plain JSON. */
export const MpcbenchTestMetaSchema = z.object({
  taskId: z.string(),
  taskType: z.enum(TASK_TYPES).nullable(),
  scenarioId: z.string(),
  /** Agent model id as given (`baseline`, `openai/gpt-4.1`). */
  agentModel: z.string(),
  agentModelKind: z.enum(['llm', 'baseline']),
  /** How the agent run ended. */
  agentOutcome: z.enum(['answered', 'max-turns', 'error', 'aborted']),
  toolCalls: z.number(),
  turns: z.number(),
  durationMs: z.number(),
  costUsd: z.number().nullable(),
  totalTokens: z.number(),
  /** Tokens and cost of the agent's calls (zero for `baseline`). */
  usage: UsageSchema,
  runLogFile: z.string(),
  /** The tool profile of the run (`upstream-v1`, `extended`). */
  toolProfile: ToolProfileSchema.optional(),
  judges: z.array(MpcbenchJudgeMetaSchema),
  /** The agent's final answer was empty (e.g. the `null` agent): a pass then points at the grader. */
  emptyAnswer: z.boolean().optional(),
  /** Which run of the task × agent this is, 1-based (`BENCH_TRIALS`); absent means 1. */
  trial: z.number().int().min(1).optional(),
  /** The OpenTelemetry trace id of the evaluation (agent run and judges) when tracing was on (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  otelTraceId: z.string().optional(),
})

/** Test meta of one MPCBench test; see {@link MpcbenchTestMetaSchema}. */
export type MpcbenchTestMeta = z.infer<typeof MpcbenchTestMetaSchema>

/**
 * What is known of an MPCBench test when it is declared (`task.meta.mpcbenchTask`), so the reporter can count a test
 * that timed out, failed before setting `mpcbench`, or never ran. Plain JSON.
 */
export interface MpcbenchPlannedTask {
  taskId: string
  taskType: TaskType | null
  scenarioId: string
  agentModel: string
  agentModelKind: 'llm' | 'baseline'
  /** Which trial (`BENCH_TRIALS` > 1); absent for a run of one trial. */
  trial?: number
}

/**
 * A model id as shown in annotations and command output: the offline models that are not LLMs (the `baseline`
 * agent, the `rules` judge) read `baseline (not an LLM)`, `rules (not an LLM)`; LLM ids are shown as given.
 */
export function modelDisplayName(id: string, kind: 'llm' | 'baseline' | 'rules'): string {
  return kind === 'llm' ? id : `${id} (not an LLM)`
}
