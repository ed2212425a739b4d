import type { ChatCompletionMessageParam, ChatModel, ChatRequest } from '../../llm/types.ts'
import { traceTool } from '../../otel/tracing.ts'
import type { AnyTool } from '../../tools/define-tool.ts'
import { executeSchedulingToolCall } from '../tools/execute-scheduling-tool.ts'
import { type Candidate, parseAnswer } from './parse-answer.ts'
import { SYSTEM_PROMPT, buildUserPrompt } from './prompts.ts'
import { upstreamToolDefinitions } from './tool-definitions.ts'

/** Upstream's turn cap (`max_turns = 15` in `OpenAIAgent.solve`): model requests per instance. */
export const MAX_TURNS = 15

/** Upstream's `max_tokens` (`OpenAIAgent(max_tokens=4096)`); reasoning models get at least 16384 completion tokens. */
export const MAX_TOKENS = 4096

/** Upstream's default temperature (`run_eval.py --temperature 0.0`); not sent to reasoning models. */
export const TEMPERATURE = 0

/** One message of upstream's trace (`agent.last_trace`): the user prompt, then assistant and tool messages. */
export type TraceMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }> }
  | { role: 'tool'; tool_call_id: string; content: string }

/** How a run ended. Upstream keeps none of this in its row (a failed model call is an empty answer there). */
export type SchedulingOutcome =
  | { kind: 'answered'; turns: number }
  | { kind: 'max-turns'; turns: number }
  | { kind: 'model-error'; turns: number; message: string }

/** What {@link runSchedulingAgent} gives. */
export interface SchedulingRun {
  /** The parsed candidates (`[]` when the run ended without one). */
  candidates: Candidate[]
  /** Upstream's trace: no system message, the user prompt, every assistant and tool message. */
  trace: TraceMessage[]
  outcome: SchedulingOutcome
}

/** Whether upstream treats the model as a reasoning model (`gpt-5*`, `o1*`, `o3*`, `o4*`): no temperature, 16384+ tokens. */
export function isReasoningModel(wireModel: string): boolean {
  return ['gpt-5', 'o1', 'o3', 'o4'].some((prefix) => wireModel.startsWith(prefix))
}

/** The model's name as upstream sees it: the id without a known provider prefix (`openai/gpt-4o` -> `gpt-4o`). */
export function wireModelName(modelId: string): string {
  return modelId.replace(/^(openai|anthropic|google)\//, '')
}

/** Options of {@link runSchedulingAgent}. */
export interface RunSchedulingAgentOptions {
  model: ChatModel
  /** The sanitized instance (its task text, references and participants go into the user prompt). */
  instance: Record<string, unknown>
  /** The 11 tools over the sanitized world and instance (`createSchedulingTools`). */
  tools: ReadonlyArray<AnyTool>
  signal?: AbortSignal
  /** @default MAX_TURNS */
  maxTurns?: number
  /** Keeps this run's cached responses apart (`BENCH_CACHE`), e.g. `trial-2`. */
  cacheScope?: string
}

/**
 * Upstream's `OpenAIAgent.solve` over our model client: the system prompt and user prompt, the 11 tools as upstream
 * defines them, up to 15 requests (`max_tokens` 4096 and temperature 0, or for `gpt-5`/`o1`/`o3`/`o4` models
 * `max_completion_tokens` 16384 and no temperature). Each tool call is answered as upstream answers it; a reply
 * without tool calls whose JSON gives at least one candidate ends the run, any other reply is followed by another
 * request over the same messages. A failed model call ends the run with no candidates, as upstream's `break` does
 * (the outcome says so).
 */
export async function runSchedulingAgent(options: RunSchedulingAgentOptions): Promise<SchedulingRun> {
  const taskText = typeof options.instance.task_text === 'string' ? options.instance.task_text : ''
  const userPrompt = buildUserPrompt(taskText, options.instance)
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: userPrompt },
  ]
  const trace: TraceMessage[] = [{ role: 'user', content: userPrompt }]
  const tools = upstreamToolDefinitions(options.tools)
  const reasoning = isReasoningModel(wireModelName(options.model.id))
  const request = (): ChatRequest => ({
    messages,
    tools,
    purpose: 'agent',
    ...(reasoning
      ? { maxTokens: Math.max(MAX_TOKENS, 16384), maxTokensParameter: 'max_completion_tokens' }
      : { maxTokens: MAX_TOKENS, maxTokensParameter: 'max_tokens', temperature: TEMPERATURE }),
  })
  const maxTurns = options.maxTurns ?? MAX_TURNS
  for (let turn = 1; turn <= maxTurns; turn += 1) {
    let message: Awaited<ReturnType<ChatModel['complete']>>['message']
    try {
      const callOptions = {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.cacheScope === undefined ? {} : { cacheScope: options.cacheScope }),
      }
      message = (await options.model.complete(request(), callOptions)).message
    } catch (error) {
      if (options.signal?.aborted) throw error
      return { candidates: [], trace, outcome: { kind: 'model-error', turns: turn, message: error instanceof Error ? error.message : String(error) } }
    }
    const content = message.content === '' || message.content === undefined ? null : message.content
    const toolCalls = (message.tool_calls ?? []).flatMap((call) =>
      call.type === 'function' ? [{ id: call.id, type: call.type, function: { name: call.function.name, arguments: call.function.arguments } }] : [],
    )
    const assistant: TraceMessage = toolCalls.length > 0 ? { role: 'assistant', content, tool_calls: toolCalls } : { role: 'assistant', content }
    messages.push(assistant as ChatCompletionMessageParam)
    trace.push(assistant)
    if (toolCalls.length > 0) {
      for (const call of toolCalls) {
        // OpenTelemetry (when on): an `execute_tool` span in the instance's trace; a failed call is the span's error.
        const executed = await traceTool({ name: call.function.name, callId: call.id, arguments: call.function.arguments }, () =>
          executeSchedulingToolCall(options.tools, call.function.name, call.function.arguments),
        )
        const toolMessage: TraceMessage = { role: 'tool', tool_call_id: call.id, content: executed.content }
        messages.push(toolMessage)
        trace.push(toolMessage)
      }
      continue
    }
    if (content !== null) {
      const candidates = parseAnswer(content)
      if (candidates.length > 0) return { candidates, trace, outcome: { kind: 'answered', turns: turn } }
    }
  }
  return { candidates: [], trace, outcome: { kind: 'max-turns', turns: maxTurns } }
}
