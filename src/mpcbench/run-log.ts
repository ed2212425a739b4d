import { MAX_STORED_DOCUMENT_CHARS, capLongStrings, capText } from '../core/cap-stored.ts'
import { z } from 'zod'
import { type OutcomeSummary, OutcomeSummarySchema, summarizeOutcome, UsageSchema } from '../agent/outcome-summary.ts'
import type { AgentTrace, ToolCallRecord } from '../agent/trace.ts'
import type { Task } from './task.ts'
import { TASK_TYPES, inferTaskType } from './task.ts'
import { safeModelName } from './file-names.ts'
import { functionNameOf, toolTraceSteps } from './tool-trace-steps.ts'
import { type ToolProfile, ToolProfileSchema } from './workplace/tool-profiles.ts'

/** Label written beside every run of the `baseline` agent (`agent_label`), so no run log passes for an LLM's. */
export const BASELINE_AGENT_LABEL = 'baseline (offline, not an LLM): deterministic heuristic, not a model answer'

/** Label written beside every run of the `null` agent (`agent_label`). */
export const NULL_AGENT_LABEL = 'null (offline, not an LLM): an empty answer and no tool call, a grader check, not a model answer'

/** The label of a built-in non-LLM agent's runs: {@link NULL_AGENT_LABEL} for `null`, else {@link BASELINE_AGENT_LABEL}. */
export function builtInAgentLabel(agentModel: string): string {
  return agentModel === 'null' ? NULL_AGENT_LABEL : BASELINE_AGENT_LABEL
}

/**
 * One recorded tool call as the MPCBench files store it: upstream's fields in upstream's order (`tool_name`,
 * `function_name`, `arguments`, `result`), then ours (`status`).
 */
export const RawToolCallSchema = z.object({
  tool_name: z.string(),
  /** The function name the model called (`Slack_search_messages`); absent in logs written before it was recorded. */
  function_name: z.string().optional(),
  arguments: z.unknown(),
  result: z.unknown(),
  /** `ok`, or why the call failed (`unknown-tool`, `invalid-arguments`, `tool-error`). */
  status: z.enum(['ok', 'unknown-tool', 'invalid-arguments', 'tool-error']).optional(),
})

/** One recorded tool call; see {@link RawToolCallSchema}. */
export type RawToolCall = z.infer<typeof RawToolCallSchema>

/** How the agent run ended (`AgentOutcome` without the answer text, which is `final_answer`). */
export const RunOutcomeSchema = OutcomeSummarySchema

/** How the agent run ended; see {@link RunOutcomeSchema}. */
export type RunOutcome = OutcomeSummary

/**
 * `evaluation/logs/{task_id}__agent-{model}_run.json`: the documented fields (`task_id`, `task_type`, `user_prompt`,
 * `tool_trace_steps`, `raw_tool_calls`, `final_answer`, `rationale`) plus the agent model (original id and the
 * file-safe name, and `agent_label` when it is not an LLM), the scenario, the outcome, usage and timing. `final_answer` and `rationale` are `""` when the agent gave none
 * (the `outcome` says why).
 */
export const RunLogSchema = z.object({
  task_id: z.string(),
  task_type: z.enum(TASK_TYPES).nullable(),
  user_prompt: z.string(),
  tool_trace_steps: z.array(z.string()),
  raw_tool_calls: z.array(RawToolCallSchema),
  final_answer: z.string(),
  rationale: z.string(),
  /** The answer's full length when `final_answer` was stored cut (longer than {@link MAX_STORED_DOCUMENT_CHARS}). */
  final_answer_chars: z.number().int().optional(),
  agent_model: z.string(),
  agent_model_file_name: z.string(),
  agent_model_kind: z.enum(['llm', 'baseline']),
  /** Set for the `baseline` agent: says it is not an LLM ({@link BASELINE_AGENT_LABEL}). */
  agent_label: z.string().optional(),
  scenario_id: z.string().nullable(),
  task_file: z.string().nullable(),
  outcome: RunOutcomeSchema,
  usage: UsageSchema,
  turns: z.number(),
  trace_id: z.string(),
  started_at: z.string(),
  duration_ms: z.number(),
  /** The tool profile the agent was given (absent in logs written before profiles existed). */
  tool_profile: ToolProfileSchema.optional(),
  /** How the agent was run: temperature (`null` when none was sent), turn cap, developer message source (`null`: none). */
  harness: z
    .object({
      temperature: z.number().nullable(),
      max_turns: z.number(),
      developer_message: z.string().nullable(),
    })
    .optional(),
})

/** A run log; see {@link RunLogSchema}. */
export type RunLog = z.infer<typeof RunLogSchema>

/**
 * The function name each recorded call was made by, as the model sent it: the assistant message of the call's turn
 * holds the turn's calls in order (else any assistant message with the call's id). {@link functionNameOf} its tool
 * when no message has it (an external agent calls over MCP).
 */
function calledFunctionNames(trace: AgentTrace, profile: ToolProfile | undefined): string[] {
  const assistants = trace.messages.filter((message) => message.role === 'assistant')
  const nameOf = (sent: NonNullable<(typeof assistants)[number]['tool_calls']>[number]) => (sent.type === 'function' ? sent.function.name : sent.custom.name)
  const seenInTurn = new Map<number, number>()
  return trace.toolCalls.map((call) => {
    const position = seenInTurn.get(call.turn) ?? 0
    seenInTurn.set(call.turn, position + 1)
    const inTurn = assistants[call.turn - 1]?.tool_calls?.[position]
    if (inTurn !== undefined && inTurn.id === call.id) return nameOf(inTurn)
    const byId = assistants.flatMap((message) => message.tool_calls ?? []).find((sent) => sent.id === call.id)
    return byId === undefined ? functionNameOf(call.name, profile) : nameOf(byId)
  })
}

function rawToolCall(call: ToolCallRecord, functionName: string): RawToolCall {
  return { tool_name: call.name, function_name: functionName, arguments: call.arguments, result: call.result, status: call.status }
}

/** What {@link buildRunLog} needs besides the trace. */
export interface RunLogContext {
  task: Task
  /** Where the task came from (kept in the log so `build-judge-input` can find `answer_requirements`). */
  taskFile?: string
  scenarioId?: string
  /** The agent model id as the user gave it; defaults to `trace.model`. */
  agentModel?: string
  toolProfile?: ToolProfile
  harness?: NonNullable<RunLog['harness']>
}

/**
 * Builds the run log of one agent run. An answer (or rationale) over {@link MAX_STORED_DOCUMENT_CHARS} characters is stored
 * cut with a marker and its full length (`final_answer_chars`), as are strings over 50,000 characters in tool calls: a
 * 1 MB answer is not a reply, and the judges see what is stored.
 */
export function buildRunLog(trace: AgentTrace, context: RunLogContext): RunLog {
  const agentModel = context.agentModel ?? trace.model
  const answered = trace.outcome.kind === 'answered' ? trace.outcome : undefined
  const answer = answered?.answer ?? ''
  const functionNames = calledFunctionNames(trace, context.toolProfile)
  return {
    task_id: context.task.task_id,
    task_type: inferTaskType(context.task, context.taskFile) ?? null,
    user_prompt: context.task.user_prompt,
    tool_trace_steps: toolTraceSteps(trace.toolCalls, context.toolProfile),
    raw_tool_calls: capLongStrings(trace.toolCalls.map((call, index) => rawToolCall(call, functionNames[index] as string))),
    final_answer: capText(answer, MAX_STORED_DOCUMENT_CHARS),
    rationale: capText(answered?.rationale ?? '', MAX_STORED_DOCUMENT_CHARS),
    ...(answer.length > MAX_STORED_DOCUMENT_CHARS ? { final_answer_chars: answer.length } : {}),
    agent_model: agentModel,
    agent_model_file_name: safeModelName(agentModel),
    agent_model_kind: trace.modelKind,
    ...(trace.modelKind === 'baseline' ? { agent_label: builtInAgentLabel(agentModel) } : {}),
    scenario_id: context.scenarioId ?? context.task.data_dependencies.scenario_id ?? null,
    task_file: context.taskFile ?? null,
    outcome: summarizeOutcome(trace.outcome),
    usage: trace.usage,
    turns: trace.turns,
    trace_id: trace.traceId,
    started_at: trace.startedAt,
    duration_ms: trace.durationMs,
    ...(context.toolProfile === undefined ? {} : { tool_profile: context.toolProfile }),
    ...(context.harness === undefined ? {} : { harness: context.harness }),
  }
}
