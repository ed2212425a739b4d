import { MAX_STORED_DOCUMENT_CHARS, MAX_STORED_TRACE_STRING_CHARS, capLongStrings, capText } from '../../core/cap-stored.ts'
import { z } from 'zod'
import { type OutcomeSummary, OutcomeSummarySchema, summarizeOutcome, UsageSchema } from '../../agent/outcome-summary.ts'
import type { AgentTrace, ToolCallRecord } from '../../agent/trace.ts'
import { type UpstreamReadTrace, readPythonJson } from './final-answer.ts'
import { pyJsonDumps } from '../../core/python-format.ts'
import type { Task } from '../tasks/task.ts'
import { TASK_TYPES, inferTaskType } from '../tasks/task.ts'
import { safeModelName } from '../tasks/file-names.ts'
import { functionNameOf, toolTraceSteps } from './tool-trace-steps.ts'
import { type ToolProfile, ToolProfileSchema } from '../workplace/tool-profiles.ts'

/** Label written beside every run of the `baseline` agent (`agent_label`), so no run log passes for an LLM's. */
export const BASELINE_AGENT_LABEL = 'baseline (offline, not an LLM): deterministic heuristic, not a model answer'

/** Label written beside every run of the `null` agent (`agent_label`). */
export const NULL_AGENT_LABEL = 'null (offline, not an LLM): an empty answer and no tool call, a grader check, not a model answer'

/** The label of a built-in non-LLM agent's runs: {@link NULL_AGENT_LABEL} for `null`, else {@link BASELINE_AGENT_LABEL}. */
export function builtInAgentLabel(agentModel: string): string {
  return agentModel === 'null' ? NULL_AGENT_LABEL : BASELINE_AGENT_LABEL
}

/** JSON text Python's `json.loads` reads (see `readPythonJson`). */
const PythonJsonTextSchema = z.string().refine((text) => readPythonJson(text) !== undefined, { message: "not JSON that Python's json.loads reads" })

/**
 * One recorded tool call as the MPCBench files store it: upstream's fields in upstream's order (`tool_name`,
 * `function_name`, `arguments`, `result`), then ours (`status`, `arguments_json`).
 */
export const RawToolCallSchema = z.object({
  tool_name: z.string(),
  /** The function name the model called (`Slack_search_messages`); absent in logs written before it was recorded. */
  function_name: z.string().optional(),
  arguments: z.unknown(),
  result: z.unknown(),
  /** `ok`, or why the call failed (`unknown-tool`, `invalid-arguments`, `tool-error`). */
  status: z.enum(['ok', 'unknown-tool', 'invalid-arguments', 'tool-error']).optional(),
  /**
   * The model's argument text, kept only when Python's `json.loads` reads it otherwise than `arguments` holds it
   * (`45.0`, an integer beyond 2^53): upstream's judge input holds Python's reading, which the LLM judge is shown.
   */
  arguments_json: PythonJsonTextSchema.optional(),
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
  /**
   * Upstream's `final_answer` as JSON text (`json.dumps`) when the model's JSON reply gave one that is not a string (a
   * list, an object, `null`, `0.0`): the value upstream's judge is shown, which the LLM judge is shown too; absent for
   * a string answer and in logs written before it was recorded.
   */
  final_answer_json: PythonJsonTextSchema.optional(),
  /** Upstream's `rationale` as JSON text when it is not a string; see `final_answer_json`. */
  rationale_json: PythonJsonTextSchema.optional(),
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
  /** The OpenTelemetry trace id of the run (its `invoke_agent` root span), when tracing was on; absent otherwise. */
  otel_trace_id: z.string().optional(),
  started_at: z.string(),
  duration_ms: z.number(),
  /** The tool profile the agent was given (absent in logs written before profiles existed). */
  tool_profile: ToolProfileSchema.optional(),
  /**
   * The trace an external agent sent with its answer (its reply's `trace`), as it sent it, with strings over
   * {@link MAX_STORED_TRACE_STRING_CHARS} cut; absent when it sent none, for our own agents, and in logs written
   * before it was kept. Never shown to the LLM judge (see `LLM_JUDGE_FIELDS`).
   */
  agent_trace: z.unknown().optional(),
  /**
   * How the agent was run: temperature (`null` when none was sent), turn cap, developer message source (`null`: none),
   * and the requests' wire shape (`upstream-eb0b7ca`: `UPSTREAM_MPCBENCH_WIRE`; absent in logs written before it was
   * sent, whose requests had the default shape).
   */
  harness: z
    .object({
      temperature: z.number().nullable(),
      max_turns: z.number(),
      developer_message: z.string().nullable(),
      wire: z.string().optional(),
    })
    .optional(),
})

/** A run log; see {@link RunLogSchema}. */
export type RunLog = z.infer<typeof RunLogSchema>

type AssistantMessage = Extract<AgentTrace['messages'][number], { role: 'assistant' }>
type SentToolCall = NonNullable<AssistantMessage['tool_calls']>[number]

/**
 * The tool call the model sent for each recorded call: the assistant message of the call's turn holds the turn's
 * calls in order (else any assistant message with the call's id); `undefined` when no message has it (an external
 * agent calls over MCP).
 */
function sentToolCalls(trace: AgentTrace): Array<SentToolCall | undefined> {
  const assistants = trace.messages.filter((message): message is AssistantMessage => message.role === 'assistant')
  const seenInTurn = new Map<number, number>()
  return trace.toolCalls.map((call) => {
    const position = seenInTurn.get(call.turn) ?? 0
    seenInTurn.set(call.turn, position + 1)
    const inTurn = assistants[call.turn - 1]?.tool_calls?.[position]
    if (inTurn !== undefined && inTurn.id === call.id) return inTurn
    return assistants.flatMap((message) => message.tool_calls ?? []).find((sent) => sent.id === call.id)
  })
}

/** The function name the model called, as it sent it. */
function sentFunctionName(sent: SentToolCall | undefined): string | undefined {
  if (sent === undefined) return undefined
  return sent.type === 'function' ? sent.function.name : sent.custom.name
}

/**
 * The model's argument text of a call, when Python's `json.loads` reads it otherwise than `JSON.parse` did (the
 * call's `arguments`): `45.0` or `1E+2` (floats in Python), an integer beyond 2^53. `undefined` when both read the
 * same, when `JSON.parse` failed (the call was not made with a value), or when the text is longer than a stored trace
 * string.
 */
function argumentsJson(call: ToolCallRecord, sent: SentToolCall | undefined): string | undefined {
  const text = sent === undefined ? undefined : sent.type === 'function' ? sent.function.arguments : sent.custom.input
  if (text === undefined || text.length > MAX_STORED_TRACE_STRING_CHARS || call.arguments === text) return undefined
  // The usual case: the model wrote compact JSON that JSON.stringify gives back, with no float Python reads otherwise.
  if (JSON.stringify(call.arguments) === text) return undefined
  const python = readPythonJson(text)
  if (python === undefined || pyJsonDumps(python) === pyJsonDumps(call.arguments)) return undefined
  return text
}

function rawToolCall(call: ToolCallRecord, functionName: string, json: string | undefined): RawToolCall {
  return {
    tool_name: call.name,
    function_name: functionName,
    arguments: call.arguments,
    result: call.result,
    status: call.status,
    ...(json === undefined ? {} : { arguments_json: json }),
  }
}

/** A JSON text of upstream's value (`UpstreamReadTrace.upstreamJson`) as the run log keeps it: whole, or not at all when over {@link MAX_STORED_DOCUMENT_CHARS}. */
function storedJson<K extends string>(field: K, json: string | undefined): Partial<Record<K, string>> {
  return json === undefined || json.length > MAX_STORED_DOCUMENT_CHARS ? {} : ({ [field]: json } as Record<K, string>)
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
 * 1 MB answer is not a reply, and the judges see what is stored. Upstream's values that are not strings
 * (`trace.upstreamJson`, see `withUpstreamFinalAnswer`) and argument texts Python reads otherwise than `JSON.parse`
 * are kept beside (`final_answer_json`, `rationale_json`, `arguments_json`); upstream's tool trace steps are written
 * from Python's reading. An external agent's own trace is kept as `agent_trace`, its long strings cut as a stored
 * trace's are.
 */
export function buildRunLog(trace: UpstreamReadTrace, context: RunLogContext): RunLog {
  const agentModel = context.agentModel ?? trace.model
  const answered = trace.outcome.kind === 'answered' ? trace.outcome : undefined
  const answer = answered?.answer ?? ''
  const sent = sentToolCalls(trace)
  const functionNames = trace.toolCalls.map((call, index) => sentFunctionName(sent[index]) ?? functionNameOf(call.name, context.toolProfile))
  const argumentTexts = trace.toolCalls.map((call, index) => argumentsJson(call, sent[index]))
  const traced = trace.toolCalls.map((call, index) => {
    const text = argumentTexts[index]
    return text === undefined ? call : { name: call.name, arguments: call.arguments, pythonArguments: readPythonJson(text) }
  })
  return {
    task_id: context.task.task_id,
    task_type: inferTaskType(context.task, context.taskFile) ?? null,
    user_prompt: context.task.user_prompt,
    tool_trace_steps: toolTraceSteps(traced, context.toolProfile),
    raw_tool_calls: capLongStrings(trace.toolCalls.map((call, index) => rawToolCall(call, functionNames[index] as string, argumentTexts[index]))),
    final_answer: capText(answer, MAX_STORED_DOCUMENT_CHARS),
    rationale: capText(answered?.rationale ?? '', MAX_STORED_DOCUMENT_CHARS),
    ...(answer.length > MAX_STORED_DOCUMENT_CHARS ? { final_answer_chars: answer.length } : {}),
    ...(answered === undefined ? {} : storedJson('final_answer_json', trace.upstreamJson?.final_answer)),
    ...(answered === undefined ? {} : storedJson('rationale_json', trace.upstreamJson?.rationale)),
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
    ...(trace.agentTrace === undefined ? {} : { agent_trace: capLongStrings(trace.agentTrace) }),
    ...(context.harness === undefined ? {} : { harness: context.harness }),
  }
}
