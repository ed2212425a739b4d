import { z } from 'zod'
import { UsageSchema } from '../../agent/outcome-summary.ts'
import type { Usage } from '../../llm/types.ts'

/** One scored axis as an LLM judge must return it: an integer 0-5 and why. */
export const AxisScoreSchema = z.strictObject({
  score: z.int().min(0).max(5),
  justification: z.string().min(1),
})

/** Exactly what an LLM judge must return: the two MPCBench axes, no other keys. */
export const JudgeScoresSchema = z.strictObject({
  answer_requirements_satisfaction: AxisScoreSchema,
  source_grounded_reasoning: AxisScoreSchema,
})

/**
 * One axis of a judge result: an integer 0-5, or `null` when the axis cannot be judged (the offline `rules` judge
 * on a task with nothing machine-checkable); the justification says why.
 */
export const ResultAxisScoreSchema = z.strictObject({
  score: z.int().min(0).max(5).nullable(),
  justification: z.string().min(1),
})

/** One axis of a judge result; see {@link ResultAxisScoreSchema}. */
export type AxisScore = z.infer<typeof ResultAxisScoreSchema>

/** The two MPCBench axes of a judge result; a score is `null` when the axis could not be judged. */
export interface JudgeScores {
  answer_requirements_satisfaction: AxisScore
  source_grounded_reasoning: AxisScore
}

/** What kind of judge produced a result. `rules` is the offline judge and is not an LLM. */
export type JudgeKind = 'llm' | 'rules'

/** Label written beside every `rules` result. */
export const RULES_JUDGE_LABEL = 'rules (offline, not an LLM): deterministic checks, not a model judgement'

/** How judging one input ended. */
export type JudgeOutcome =
  | { kind: 'scored'; scores: JudgeScores; attempts: number; usage: Usage }
  | {
      kind: 'judge-error'
      code: string
      message: string
      attempts: number
      /** The judge's raw replies that could not be used, in order. */
      replies: string[]
      usage: Usage
    }

const ResultBase = {
  task_id: z.string(),
  agent_model: z.string(),
  agent_model_file_name: z.string(),
  judge_model: z.string(),
  judge_model_file_name: z.string(),
  judge_kind: z.enum(['llm', 'rules']),
  /** Set for the `rules` judge: says it is not an LLM. */
  judge_label: z.string().optional(),
  attempts: z.number(),
  usage: UsageSchema,
  judged_at: z.string(),
}

/**
 * `evaluation/logs/{task_id}__agent-{model}__judge-{judge}_judge_result.json`. A scored result carries the two
 * documented axes at the top level (`answer_requirements_satisfaction`, `source_grounded_reasoning`); a judge whose
 * reply stayed unusable after its retries gives `kind: 'judge-error'` with no scores.
 */
export const JudgeResultFileSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('scored'),
    ...ResultBase,
    answer_requirements_satisfaction: ResultAxisScoreSchema,
    source_grounded_reasoning: ResultAxisScoreSchema,
  }),
  z.object({
    kind: z.literal('judge-error'),
    ...ResultBase,
    error: z.object({ code: z.string(), message: z.string(), replies: z.array(z.string()) }),
  }),
])

/** A judge result file; see {@link JudgeResultFileSchema}. */
export type JudgeResultFile = z.infer<typeof JudgeResultFileSchema>

/** Identity of the judged run and of the judge, written into every result file. */
export interface JudgeResultContext {
  taskId: string
  agentModel: string
  agentModelFileName: string
  judgeModel: string
  judgeModelFileName: string
  judgeKind: JudgeKind
  judgedAt?: Date
}

/** The result file for one judge outcome. */
export function judgeResultFile(outcome: JudgeOutcome, context: JudgeResultContext): JudgeResultFile {
  const base = {
    task_id: context.taskId,
    agent_model: context.agentModel,
    agent_model_file_name: context.agentModelFileName,
    judge_model: context.judgeModel,
    judge_model_file_name: context.judgeModelFileName,
    judge_kind: context.judgeKind,
    ...(context.judgeKind === 'rules' ? { judge_label: RULES_JUDGE_LABEL } : {}),
    attempts: outcome.attempts,
    usage: outcome.usage,
    judged_at: (context.judgedAt ?? new Date()).toISOString(),
  }
  if (outcome.kind === 'scored') {
    return { kind: 'scored', ...base, ...outcome.scores }
  }
  return {
    kind: 'judge-error',
    ...base,
    error: { code: outcome.code, message: outcome.message, replies: outcome.replies },
  }
}
