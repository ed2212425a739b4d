import { InvalidFormatError } from '../core/errors.ts'
import type { ChatCompletionMessageParam } from '../llm/types.ts'
import { markParsedFrom, parsedFromText } from '../tools/execute-tool-call.ts'
import type { AgentTrace, ToolCallRecord } from './trace.ts'

/**
 * The field that marks a compact trace (see {@link compactTrace}); its value is the version of the compact form.
 * A trace that already has this field is never compacted.
 */
export const COMPACT_TRACE_FIELD = 'compactToolResults'

/** The version of the compact form {@link compactTrace} writes. */
export const COMPACT_TRACE_VERSION = 1

/** In a compact tool call, in place of `result`: the index of the tool message whose content parses (`JSON.parse`) to the result. */
export const RESULT_JSON_IN = 'resultJsonIn'

/** In a compact tool call, in place of `result`: the index of the tool message whose content is the result (a string). */
export const RESULT_TEXT_IN = 'resultTextIn'

/** A tool call of a compact trace: its `result` either kept, or replaced in place by {@link RESULT_JSON_IN} / {@link RESULT_TEXT_IN}. */
export type CompactToolCall = Omit<ToolCallRecord, 'result'> & { result?: unknown; [RESULT_JSON_IN]?: number; [RESULT_TEXT_IN]?: number }

/**
 * A trace that holds each tool result once: in its tool message (the text the model saw), with the call pointing at
 * that message. Plain JSON; {@link expandTrace} gives back the trace it was made from.
 */
export type CompactTrace = Omit<AgentTrace, 'toolCalls'> & { toolCalls: CompactToolCall[]; [COMPACT_TRACE_FIELD]: typeof COMPACT_TRACE_VERSION }

type ToolMessage = Extract<ChatCompletionMessageParam, { role: 'tool' }>

/**
 * How the result of a call is rebuilt from `content`, the tool message answering it, or `undefined` when it cannot be
 * exactly: a string result that is the content; a result marked as parsed from this very content by
 * `executeToolCall` (no serialization); else (a trace read back, copied or cut by `capLongStrings`) a result whose
 * JSON is the content, the one comparison made, so `JSON.parse(content)` is what the full trace's JSON reads back.
 */
function rebuiltFrom(result: unknown, content: string): typeof RESULT_JSON_IN | typeof RESULT_TEXT_IN | undefined {
  if (typeof result === 'string') return result === content ? RESULT_TEXT_IN : undefined
  const mark = parsedFromText(result)
  if (mark === content) return RESULT_JSON_IN
  if (mark === null || result === undefined) return undefined
  return JSON.stringify(result) === content ? RESULT_JSON_IN : undefined
}

/** `call` with its `result` replaced, at the same place among its keys, by `key: index`. */
function pointing(call: ToolCallRecord, key: string, index: number): CompactToolCall {
  const out: Record<string, unknown> = {}
  for (const name of Object.keys(call)) out[name === 'result' ? key : name] = name === 'result' ? index : (call as unknown as Record<string, unknown>)[name]
  return out as CompactToolCall
}

/**
 * The compact form of `trace` (see {@link CompactTrace}): each tool call whose result is exactly what its tool
 * message's content is (a string) or parses to keeps the content only, so a result is written once. Calls are paired
 * with the tool messages in order (the n-th call with the n-th tool message, same id), as `runAgent` writes them.
 * Returns `trace` itself when no call can be compacted, or when a call already has a field named like a pointer (or
 * the trace like {@link COMPACT_TRACE_FIELD}): the compact form is then never ambiguous.
 */
export function compactTrace<T extends AgentTrace>(trace: T): T | CompactTrace {
  const { toolCalls, messages } = trace
  if (toolCalls.length === 0 || Object.hasOwn(trace, COMPACT_TRACE_FIELD)) return trace
  let compact: CompactToolCall[] | undefined
  let cursor = 0
  for (let i = 0; i < toolCalls.length; i++) {
    const call = toolCalls[i] as ToolCallRecord
    if (Object.hasOwn(call, RESULT_JSON_IN) || Object.hasOwn(call, RESULT_TEXT_IN)) return trace
    while (cursor < messages.length && messages[cursor]?.role !== 'tool') cursor++
    if (cursor === messages.length) continue
    const index = cursor++
    const message = messages[index] as ToolMessage
    if (message.tool_call_id !== call.id || typeof message.content !== 'string' || !Object.hasOwn(call, 'result')) continue
    const key = rebuiltFrom(call.result, message.content)
    if (key === undefined) continue
    compact ??= toolCalls.slice()
    compact[i] = pointing(call, key, index)
  }
  if (compact === undefined) return trace
  return { ...trace, toolCalls: compact, [COMPACT_TRACE_FIELD]: COMPACT_TRACE_VERSION }
}

/** Whether `value` is a compact trace ({@link compactTrace}), by its {@link COMPACT_TRACE_FIELD}. */
export function isCompactTrace(value: unknown): value is CompactTrace {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>)[COMPACT_TRACE_FIELD] === COMPACT_TRACE_VERSION
}

/** A compact trace that does not hold what its pointers say. */
function brokenTrace(trace: CompactTrace, call: number, problem: string, cause?: unknown): InvalidFormatError {
  return new InvalidFormatError(`Compact trace ${trace.traceId}: tool call ${call} ${problem}.`, {
    field: `toolCalls.${call}`,
    hint: 'The stored trace was changed or damaged after it was written; run the task again to store a new trace.',
    ...(cause === undefined ? {} : { cause }),
  })
}

/**
 * The full trace a compact trace was made from ({@link compactTrace}): each pointer becomes the `result` again, at
 * the same place among the call's keys, and {@link COMPACT_TRACE_FIELD} is dropped. A rebuilt result is marked as
 * parsed from its message, so compacting the trace again compares nothing. A pointer to no tool message with text,
 * or to a text that is not JSON, is an {@link InvalidFormatError}.
 */
export function expandTrace(trace: CompactTrace): AgentTrace {
  const { [COMPACT_TRACE_FIELD]: _version, ...rest } = trace
  const { messages } = trace
  const toolCalls = trace.toolCalls.map((call, i): ToolCallRecord => {
    const json = Object.hasOwn(call, RESULT_JSON_IN)
    if (!json && !Object.hasOwn(call, RESULT_TEXT_IN)) return call as ToolCallRecord
    const key = json ? RESULT_JSON_IN : RESULT_TEXT_IN
    const index = (call as Record<string, unknown>)[key]
    const message = typeof index === 'number' ? messages[index] : undefined
    if (message?.role !== 'tool' || typeof message.content !== 'string')
      throw brokenTrace(trace, i, `points at message ${JSON.stringify(index)}, which is no tool message with text`)
    const content = message.content
    let result: unknown = content
    if (json) {
      try {
        result = JSON.parse(content)
      } catch (error) {
        throw brokenTrace(trace, i, `points at message ${index}, whose text is not JSON`, error)
      }
      markParsedFrom(result, content)
    }
    const out: Record<string, unknown> = {}
    for (const name of Object.keys(call)) out[name === key ? 'result' : name] = name === key ? result : (call as Record<string, unknown>)[name]
    return out as unknown as ToolCallRecord
  })
  return { ...rest, toolCalls } as AgentTrace
}
