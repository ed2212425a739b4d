import type { ChatCompletionMessageParam, ChatRequest } from '../llm/types.ts'
import { fromWireName } from '../tools/define-tool.ts'

/** A tool call the baseline made earlier in the conversation, with what came back. */
export interface PastCall {
  /** Display name (`Slack.search_messages`, `search_emails`). */
  name: string
  /** The arguments it sent, parsed. */
  arguments: Record<string, unknown>
  /** The tool message content, parsed as JSON when it is JSON, else the raw text; `undefined` when no reply came. */
  result: unknown
  /** 1-based assistant turn of the call. */
  turn: number
}

/** What the baseline reads from a request: it keeps no state between calls, so everything comes from here. */
export interface Conversation {
  /** All system messages, joined. */
  system: string
  /** The first user message (the task). */
  user: string
  /** Every tool call made so far, in order. */
  calls: PastCall[]
  /** Number of assistant messages so far. */
  assistantTurns: number
  /** Display names of the tools offered in this request. */
  tools: ReadonlySet<string>
  /** The offered tools' function definitions (description and parameters), by display name. */
  toolDefinitions: ReadonlyMap<string, unknown>
}

function textOf(content: ChatCompletionMessageParam['content']): string {
  if (content === null || content === undefined) return ''
  if (typeof content === 'string') return content
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('')
}

function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function parseArguments(raw: string): Record<string, unknown> {
  const value = parseMaybeJson(raw)
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

/** Reads the message history and offered tools of `request` into a {@link Conversation}. */
export function readConversation(request: ChatRequest): Conversation {
  const system: string[] = []
  let user: string | undefined
  const calls: PastCall[] = []
  const byId = new Map<string, PastCall>()
  let assistantTurns = 0
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') system.push(textOf(message.content))
    else if (message.role === 'user') user ??= textOf(message.content)
    else if (message.role === 'assistant') {
      assistantTurns += 1
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue
        const record: PastCall = {
          name: fromWireName(call.function.name),
          arguments: parseArguments(call.function.arguments),
          result: undefined,
          turn: assistantTurns,
        }
        calls.push(record)
        byId.set(call.id, record)
      }
    } else if (message.role === 'tool') {
      const record = byId.get(message.tool_call_id)
      if (record !== undefined) record.result = parseMaybeJson(textOf(message.content))
    }
  }
  const toolDefinitions = new Map((request.tools ?? []).map((tool) => [fromWireName(tool.function.name), tool.function] as const))
  return { system: system.join('\n'), user: user ?? '', calls, assistantTurns, tools: new Set(toolDefinitions.keys()), toolDefinitions }
}

/** The calls to the tool `name`, in order. */
export function callsTo(conversation: Conversation, name: string): PastCall[] {
  return conversation.calls.filter((call) => call.name === name)
}

/** Whether a tool result is an error reply (`{error}` object or an error string from the loop). */
export function isErrorResult(result: unknown): boolean {
  if (result === undefined) return true
  if (typeof result === 'string') return /^\s*(error|invalid|unknown tool)/i.test(result)
  return result !== null && typeof result === 'object' && !Array.isArray(result) && 'error' in result
}

/**
 * The list inside a tool result: the result itself when it is an array, else the first array
 * found under one of `keys` (e.g. `messages`, `contacts`). Error results give an empty list.
 */
export function listIn(result: unknown, keys: ReadonlyArray<string>): Array<Record<string, unknown>> {
  if (isErrorResult(result)) return []
  let list: unknown = result
  if (!Array.isArray(list) && list !== null && typeof list === 'object') {
    const record = list as Record<string, unknown>
    list = keys.map((key) => record[key]).find((value) => Array.isArray(value))
  }
  if (!Array.isArray(list)) return []
  return list.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object' && !Array.isArray(item))
}

/** A string field of a loose record, or `''`. */
export function str(record: Record<string, unknown> | undefined, key: string): string {
  const value = record?.[key]
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  return ''
}
