import { z } from 'zod'
import { CheckSchema, TASK_TYPES, inferTaskType } from './task.ts'
import type { Task } from './task.ts'
import { RunLogSchema } from './run-log.ts'
import type { RunLog } from './run-log.ts'
import { safeModelName } from './file-names.ts'

/** One tool call with its 1-based step index. */
export const ToolTraceEntrySchema = z.object({
  step: z.int().positive(),
  tool_name: z.string(),
  arguments: z.unknown(),
  result: z.unknown(),
})

/** One entry of `tool_trace`; see {@link ToolTraceEntrySchema}. */
export type ToolTraceEntry = z.infer<typeof ToolTraceEntrySchema>

/**
 * `evaluation/logs/{task_id}__agent-{model}__judge-{judge}_judge_input.json`: every run log field verbatim,
 * `answer_requirements` (and our `checks`, when the task has them) from the task, `tool_trace` (the raw tool calls
 * with step indices), `task_type` inferred from the task or its id, and the judge model (original id and file-safe name).
 */
export const JudgeInputSchema = RunLogSchema.extend({
  task_type: z.enum(TASK_TYPES).nullable(),
  answer_requirements: z.array(z.string()),
  checks: z.array(CheckSchema).optional(),
  tool_trace: z.array(ToolTraceEntrySchema),
  judge_model: z.string(),
  judge_model_file_name: z.string(),
})

/** A judge input; see {@link JudgeInputSchema}. */
export type JudgeInput = z.infer<typeof JudgeInputSchema>

/** Builds the judge input of one run log for one judge. */
export function buildJudgeInput(runLog: RunLog, task: Task, judgeModel: string, taskFile?: string): JudgeInput {
  return {
    ...runLog,
    task_type: runLog.task_type ?? inferTaskType(task, taskFile ?? runLog.task_file ?? undefined) ?? null,
    answer_requirements: task.answer_requirements,
    ...(task.checks === undefined ? {} : { checks: task.checks }),
    tool_trace: runLog.raw_tool_calls.map((call, index) => ({
      step: index + 1,
      tool_name: call.tool_name,
      arguments: call.arguments,
      result: call.result,
    })),
    judge_model: judgeModel,
    judge_model_file_name: safeModelName(judgeModel),
  }
}

/** The judge input fields an LLM judge is shown: the upstream judge input, nothing about who or when. */
export const LLM_JUDGE_FIELDS = [
  'task_id',
  'task_type',
  'user_prompt',
  'answer_requirements',
  'tool_trace_steps',
  'raw_tool_calls',
  'tool_trace',
  'final_answer',
  'rationale',
] as const

/** The part of a judge input an LLM judge is shown; see {@link llmJudgeView}. */
export type LlmJudgeView = Pick<JudgeInput, (typeof LLM_JUDGE_FIELDS)[number]>

/**
 * What an LLM judge is shown: the upstream judge input fields ({@link LLM_JUDGE_FIELDS}). Left out: the agent
 * model (so the judge cannot favour a model), run ids, timing and usage (so an unchanged run gives a byte-identical
 * judge request, which the response cache can answer), and `checks` (the offline judge's own input).
 */
export function llmJudgeView(input: JudgeInput): LlmJudgeView {
  const view: Record<string, unknown> = {}
  for (const field of LLM_JUDGE_FIELDS) view[field] = input[field]
  return view as LlmJudgeView
}
