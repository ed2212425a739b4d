import { randomUUID } from 'node:crypto'
import { BenchError } from '../core/errors.ts'
import { redact } from '../core/redact.ts'
import { CallAbortedError } from '../llm/errors.ts'
import type { ChatCompletionMessage, ChatCompletionMessageParam, ChatModel, Usage } from '../llm/types.ts'
import { addUsage, emptyUsage } from '../llm/types.ts'
import { type AnyTool, fromWireName, toOpenAITool, toolTable } from '../tools/define-tool.ts'
import { executeToolCall } from '../tools/execute-tool-call.ts'
import { type AgentOutcome, type AgentTrace, DEFAULT_MAX_TURNS, type ToolCallRecord } from './trace.ts'

/** Options of {@link runAgent}. */
export interface RunAgentOptions {
  model: ChatModel
  /** The system prompt. */
  system: string
  /** A developer message sent between the system prompt and the task (upstream MPCBench's `llm_context`); none when absent. */
  developer?: string
  /** The task, as the first user message. */
  user: string
  tools: ReadonlyArray<AnyTool>
  /** Bound on assistant turns; reaching it is the `max-turns` outcome. @default DEFAULT_MAX_TURNS (10) */
  maxTurns?: number
  /** Cancels the run: the current model call or tool, and any retry wait. */
  signal?: AbortSignal
  /** Epoch ms by which each model call must end (see `CallOptions.deadline`), e.g. from the test timeout. */
  deadline?: number
  temperature?: number
  /** Call-log label of the model calls. @default 'agent' */
  purpose?: string
  /** The response cache scope of the model calls (see `CallOptions.cacheScope`), e.g. of a trial after the first. */
  cacheScope?: string
  /** Milliseconds since the epoch, for `startedAt` and durations (inject a fake for deterministic traces). @default Date.now */
  clock?: () => number
  /** The trace id. @default crypto.randomUUID */
  idGenerator?: () => string
  /** How the requests are shaped beyond their content. @default the OpenAI SDK's usual shape (ART-E's requests, as OpenPipe's rollout sends them) */
  wire?: AgentWireShape
}

/**
 * The parts of an agent's requests that harnesses shape differently, the content being the same: what a benchmark's
 * reference harness sends, so that a model sees the same bytes here as there (MPCBench: `UPSTREAM_MPCBENCH_WIRE`).
 */
export interface AgentWireShape {
  /** Sent as `tool_choice` with the tools; none sent when absent (the API then chooses `auto`). */
  toolChoice?: 'auto'
  /** Each tool message carries `name`: the function name the model called (its wire name, as the model sent it). */
  toolMessageName?: boolean
  /**
   * An assistant message with tool calls has `content` only when the reply's content is not empty; without this it
   * always has `content`, `null` when the reply had none.
   */
  omitEmptyToolCallContent?: boolean
}

/** A tool message, with the `name` a harness may add (see {@link AgentWireShape.toolMessageName}). */
type ToolMessage = Extract<ChatCompletionMessageParam, { role: 'tool' }> & { name?: string }
type AssistantMessage = Extract<ChatCompletionMessageParam, { role: 'assistant' }>

/**
 * Runs the tool loop: asks the model, executes every tool call of its reply in order (errors go back to the model as
 * tool messages), and repeats until an answer (a `final` tool, a plain JSON `{"final_answer": ...}`, or plain text),
 * `maxTurns`, an abort or a model error. Never throws for model or tool failures: they are outcomes in the trace.
 *
 * Tool calls after a successful `final` tool in the same reply are not executed.
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentTrace> {
  const { model, signal } = options
  const wire = options.wire ?? {}
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS
  if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new TypeError(`Expected \`maxTurns\` to be an integer from 1 and up, got ${maxTurns}`)
  const clock = options.clock ?? Date.now
  const table = toolTable(options.tools)
  const wireTools = options.tools.map(toOpenAITool)
  const started = clock()
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: options.system },
    ...(options.developer === undefined ? [] : [{ role: 'developer' as const, content: options.developer }]),
    { role: 'user', content: options.user },
  ]
  const toolCalls: ToolCallRecord[] = []
  let usage: Usage = emptyUsage()
  let turns = 0

  const finish = (outcome: AgentOutcome): AgentTrace => ({
    traceId: (options.idGenerator ?? randomUUID)(),
    model: model.id,
    modelKind: model.kind,
    messages,
    toolCalls,
    outcome,
    usage,
    turns,
    startedAt: new Date(started).toISOString(),
    durationMs: clock() - started,
  })
  const aborted = (): AgentTrace => finish({ kind: 'aborted', reason: abortReason(signal) })

  while (turns < maxTurns) {
    if (signal?.aborted) return aborted()
    let reply: ChatCompletionMessage
    try {
      const result = await model.complete(
        {
          messages: [...messages],
          ...(wireTools.length > 0 ? { tools: wireTools, ...(wire.toolChoice === undefined ? {} : { toolChoice: wire.toolChoice }) } : {}),
          ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          purpose: options.purpose ?? 'agent',
        },
        {
          ...(signal === undefined ? {} : { signal }),
          ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
          ...(options.cacheScope === undefined ? {} : { cacheScope: options.cacheScope }),
        },
      )
      reply = result.message
      usage = addUsage(usage, result.usage)
    } catch (error) {
      if (signal?.aborted || error instanceof CallAbortedError) return aborted()
      return finish({ kind: 'error', code: errorCode(error), message: redact(error instanceof Error ? error.message : String(error)) })
    }
    turns++
    const calls = (reply.tool_calls ?? []).map((call) =>
      call.type === 'function'
        ? { id: call.id, wireName: call.function.name, rawArguments: call.function.arguments }
        : { id: call.id, wireName: call.custom.name, rawArguments: call.custom.input },
    )
    const withoutContent = calls.length > 0 && wire.omitEmptyToolCallContent === true && (reply.content ?? '') === ''
    const assistant: AssistantMessage = withoutContent ? { role: 'assistant' } : { role: 'assistant', content: reply.content ?? null }
    if (calls.length > 0) {
      assistant.tool_calls = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.wireName, arguments: call.rawArguments } }))
    }
    messages.push(assistant)

    if (calls.length === 0) return finish(answerFromText(reply.content ?? ''))

    for (const call of calls) {
      if (signal?.aborted) return aborted()
      const startedAt = clock()
      const executed = await executeToolCall(table, call.wireName, call.rawArguments, signal, call.id)
      if (executed === 'aborted') return aborted()
      toolCalls.push({
        id: call.id,
        turn: turns,
        name: executed.tool?.name ?? fromWireName(call.wireName),
        arguments: executed.arguments,
        result: executed.result,
        status: executed.status,
        ...(executed.errorCode === undefined ? {} : { errorCode: executed.errorCode }),
        startedAt: new Date(startedAt).toISOString(),
        durationMs: clock() - startedAt,
      })
      const toolMessage: ToolMessage =
        wire.toolMessageName === true
          ? { role: 'tool', tool_call_id: call.id, name: call.wireName, content: executed.content }
          : { role: 'tool', tool_call_id: call.id, content: executed.content }
      messages.push(toolMessage)
      if (executed.status === 'ok' && executed.tool?.final === true) return finish(answerFromFinalTool(executed.arguments))
    }
  }
  return finish({ kind: 'max-turns', maxTurns })
}

function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason
  if (reason instanceof Error) return reason.message
  return reason === undefined ? 'aborted' : String(reason)
}

function errorCode(error: unknown): string {
  if (error instanceof BenchError) return error.code
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code
  return 'ERR_MODEL'
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? null))

function asSources(value: unknown): string[] {
  return Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))) : []
}

function answerFromFinalTool(args: unknown): AgentOutcome {
  const record = (args ?? {}) as Record<string, unknown>
  const answer = record.answer ?? record.final_answer
  return {
    kind: 'answered',
    answer: answer === undefined ? asText(args) : asText(answer),
    sources: asSources(record.sources),
    rationale: typeof record.rationale === 'string' ? record.rationale : null,
    via: 'final-tool',
  }
}

/**
 * Reads a plain reply: a JSON object with `final_answer` (bare, or in a ```json fence) is a `json` answer
 * (with `rationale` and `sources` when given); anything else is a `text` answer.
 */
export function answerFromText(content: string): Extract<AgentOutcome, { kind: 'answered' }> {
  const trimmed = content.trim()
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(trimmed)?.[1]
  for (const candidate of [trimmed, fenced]) {
    if (candidate === undefined) continue
    let value: unknown
    try {
      value = JSON.parse(candidate)
    } catch {
      continue
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'final_answer' in value) {
      const record = value as Record<string, unknown>
      return {
        kind: 'answered',
        answer: asText(record.final_answer),
        sources: asSources(record.sources),
        rationale: record.rationale === undefined || record.rationale === null ? null : asText(record.rationale),
        via: 'json',
      }
    }
  }
  return { kind: 'answered', answer: trimmed, sources: [], rationale: null, via: 'text' }
}
