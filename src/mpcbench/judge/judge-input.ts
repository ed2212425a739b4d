import { z } from 'zod'
import { CheckSchema, upstreamJudgeTaskType } from '../tasks/task.ts'
import type { Task } from '../tasks/task.ts'
import { RunLogSchema } from '../run/run-log.ts'
import type { RunLog } from '../run/run-log.ts'
import { safeModelName } from '../tasks/file-names.ts'
import { type PythonJsonValue, readPythonJson } from '../run/final-answer.ts'
import { pyJsonDumpsIndented } from '../../core/python-format.ts'
import { functionNameOf } from '../run/tool-trace-steps.ts'
import { delimitSections } from '../../llm/untrusted-data.ts'

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
 * `evaluation/logs/{task_id}__agent-{model}__judge-{judge}_judge_input.json`: every run log field verbatim except
 * `task_type`, `answer_requirements` (and our `checks`, when the task has them) from the task, `tool_trace` (the raw
 * tool calls with step indices), and the judge model (original id and file-safe name). `task_type` is the one
 * upstream's judge is shown ({@link upstreamJudgeTaskType}: `weekly_report` for upstream's weekly report task), not
 * the run log's classification.
 */
export const JudgeInputSchema = RunLogSchema.extend({
  /** `null` only in judge inputs written before it followed upstream's rule. */
  task_type: z.string().nullable(),
  answer_requirements: z.array(z.string()),
  checks: z.array(CheckSchema).optional(),
  tool_trace: z.array(ToolTraceEntrySchema),
  judge_model: z.string(),
  judge_model_file_name: z.string(),
})

/** A judge input; see {@link JudgeInputSchema}. */
export type JudgeInput = z.infer<typeof JudgeInputSchema>

/** Builds the judge input of one run log for one judge. */
export function buildJudgeInput(runLog: RunLog, task: Task, judgeModel: string): JudgeInput {
  return {
    ...runLog,
    task_type: upstreamJudgeTaskType(task),
    answer_requirements: task.answer_requirements,
    ...(task.checks === undefined ? {} : { checks: task.checks }),
    tool_trace: runLog.raw_tool_calls.map((call, index) => ({
      step: index + 1,
      tool_name: call.tool_name,
      arguments: call.arguments === undefined ? {} : call.arguments,
      result: call.result === undefined ? {} : call.result,
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

/** One tool call as upstream's judge input holds it: `tool_name`, `function_name`, `arguments`, `result`, in that order. */
export interface LlmJudgeToolCall {
  tool_name: string
  function_name: string
  arguments: unknown
  result: unknown
}

/**
 * The part of a judge input an LLM judge is shown; see {@link llmJudgeView}. `final_answer` and `rationale` are
 * upstream's values (a string, or a list, an object, `null`...), and `arguments` may hold a `PythonNumber`: write it
 * with `pyJsonDumps`, not `JSON.stringify`.
 */
export type LlmJudgeView = Omit<Pick<JudgeInput, (typeof LLM_JUDGE_FIELDS)[number]>, 'raw_tool_calls' | 'final_answer' | 'rationale'> & {
  raw_tool_calls: LlmJudgeToolCall[]
  final_answer: PythonJsonValue
  rationale: PythonJsonValue
}

/** A value as upstream's judge input holds it: Python's reading of its stored JSON text when there is one, else `value`. */
function upstreamValue<T>(value: T, json: string | undefined): T | PythonJsonValue {
  if (json === undefined) return value
  const read = readPythonJson(json)
  return read === undefined ? value : read
}

/**
 * What an LLM judge is shown: upstream's judge input (`build_judge_input.py`, commit eb0b7ca), its fields
 * ({@link LLM_JUDGE_FIELDS}) in its order, and its `raw_tool_calls` fields only ({@link LlmJudgeToolCall}: our
 * `status` stays in the run log and judge input file, for the offline judge). Left out: the agent model (so the
 * judge cannot favour a model), run ids, timing and usage (so an unchanged run gives a byte-identical judge request,
 * which the response cache can answer), and `checks` (the offline judge's own input). A call recorded before
 * `function_name` was gets its tool's ({@link functionNameOf}, by the run's tool profile).
 *
 * Values are upstream's, as its runner keeps them: a `final_answer` or `rationale` that is not a string from
 * `final_answer_json` / `rationale_json`, and a call's arguments (in `raw_tool_calls` and `tool_trace`) from
 * `arguments_json`, Python's reading of the model's text (`45.0`). A log without them (a string answer, or written
 * before they were recorded) is shown as stored.
 */
export function llmJudgeView(input: JudgeInput): LlmJudgeView {
  const view: Record<string, unknown> = {}
  for (const field of LLM_JUDGE_FIELDS) view[field] = input[field]
  const argumentsOf = input.raw_tool_calls.map((call) => upstreamValue(call.arguments, call.arguments_json))
  view.raw_tool_calls = input.raw_tool_calls.map(
    (call, index): LlmJudgeToolCall => ({
      tool_name: call.tool_name,
      function_name: call.function_name ?? functionNameOf(call.tool_name, input.tool_profile),
      arguments: argumentsOf[index],
      result: call.result,
    }),
  )
  view.tool_trace = input.tool_trace.map((entry, index) =>
    input.raw_tool_calls[index]?.arguments_json === undefined ? entry : { ...entry, arguments: argumentsOf[index] },
  )
  view.final_answer = upstreamValue(input.final_answer, input.final_answer_json)
  view.rationale = upstreamValue(input.rationale, input.rationale_json)
  return view as LlmJudgeView
}

/**
 * The user message of an LLM judge: {@link llmJudgeView} as upstream's `judge_runner.py` sends its judge input,
 * `json.dumps(judge_input, ensure_ascii=False, indent=2)` (see {@link pyJsonDumpsIndented}), byte for byte.
 */
export function llmJudgeMessage(input: JudgeInput): string {
  return pyJsonDumpsIndented(llmJudgeView(input))
}

/**
 * How an LLM judge is shown a judge input: `upstream`, upstream's JSON byte for byte ({@link llmJudgeMessage}; no
 * defence against instructions inside the answer), or `delimited` ({@link llmJudgeDelimitedMessage}).
 */
export type JudgeInputFormat = 'upstream' | 'delimited'

function asText(value: PythonJsonValue): string {
  return typeof value === 'string' ? value : pyJsonDumpsIndented(value)
}

/**
 * The user message of an LLM judge under this project's own prompt: the task (request, type, requirements) as trusted
 * JSON, then the agent's final answer, its rationale and its tool calls with their results, each in its own block
 * marked as data to grade, and the instruction that text inside them is content, not instructions
 * ({@link delimitSections}). What is shown is {@link llmJudgeView}'s, as with {@link llmJudgeMessage}.
 */
export function llmJudgeDelimitedMessage(input: JudgeInput): string {
  const view = llmJudgeView(input)
  const task = { task_id: view.task_id, task_type: view.task_type, user_prompt: view.user_prompt, answer_requirements: view.answer_requirements }
  return delimitSections([
    { label: 'TASK', text: pyJsonDumpsIndented(task), untrusted: false },
    { label: 'AGENT FINAL ANSWER', text: asText(view.final_answer) },
    { label: 'AGENT RATIONALE', text: asText(view.rationale) },
    { label: 'TOOL CALLS AND RESULTS', text: pyJsonDumpsIndented(view.raw_tool_calls) },
  ])
}
