import { z } from 'zod'
import { BenchError } from '../core/errors.ts'
import { type AnyTool, formatToolResult, parseToolArguments } from './define-tool.ts'
import { traceTool } from '../otel/tracing.ts'

/** How a tool call went: `ok`, or why it failed (the message went back to the caller as the result). */
export type ToolCallStatus = 'ok' | 'unknown-tool' | 'invalid-arguments' | 'tool-error'

/** One executed tool call. */
export interface ExecutedToolCall {
  /** The tool called, or undefined for an unknown name. */
  tool: AnyTool | undefined
  /** The arguments as parsed JSON, or the raw string when they were not JSON. */
  arguments: unknown
  /** What the tool returned (plain JSON), or the error message. */
  result: unknown
  status: ToolCallStatus
  /** The text sent back to the caller (a model's tool message, an MCP text content). */
  content: string
  /** With `tool-error`: the `code` of the {@link BenchError} the handler threw, e.g. `ERR_TOOL_TIMEOUT`. */
  errorCode?: string
}

/**
 * Executes one call of a tool by wire name, the one way both our agent loop and the MCP server do it:
 * arguments are a JSON string (a model's) or an already parsed value (an MCP client's), parsed by the tool's zod
 * schema; an unknown tool, bad arguments, a throwing handler or a non-JSON result become a failed call whose
 * message says how to call again. Resolves to `'aborted'` when `signal` aborts first. Runs in an `execute_tool`
 * span when tracing is on (`callId`: the id the model gave the call, `gen_ai.tool.call.id`).
 */
export function executeToolCall(
  table: Record<string, AnyTool>,
  wireName: string,
  rawArguments: unknown,
  signal?: AbortSignal,
  callId?: string,
): Promise<ExecutedToolCall | 'aborted'> {
  return traceTool({ name: table[wireName]?.name ?? wireName, callId, arguments: rawArguments }, () => executeUntraced(table, wireName, rawArguments, signal))
}

async function executeUntraced(
  table: Record<string, AnyTool>,
  wireName: string,
  rawArguments: unknown,
  signal?: AbortSignal,
): Promise<ExecutedToolCall | 'aborted'> {
  const tool = table[wireName]
  let parsedJson: unknown = rawArguments
  let jsonError: string | undefined
  if (typeof rawArguments === 'string') {
    try {
      parsedJson = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments)
    } catch (error) {
      jsonError = (error as Error).message
    }
  } else if (rawArguments === undefined || rawArguments === null) {
    parsedJson = {}
  }
  const args = jsonError === undefined ? parsedJson : rawArguments
  const failed = (status: ToolCallStatus, message: string): ExecutedToolCall => ({ tool, arguments: args, result: message, status, content: message })

  if (tool === undefined) {
    const known = Object.keys(table).join(', ')
    return failed('unknown-tool', `Error: unknown tool ${JSON.stringify(wireName)}. Available tools: ${known === '' ? '(none)' : known}.`)
  }
  if (jsonError !== undefined) {
    return failed(
      'invalid-arguments',
      `Error: the arguments of ${wireName} are not valid JSON (${jsonError}). Call it again with a JSON object matching its parameters.`,
    )
  }
  const parsed = parseToolArguments(tool, parsedJson)
  if (!parsed.success) {
    return failed(
      'invalid-arguments',
      `Error: invalid arguments for ${wireName}:\n${z.prettifyError(parsed.error)}\nCall it again with arguments matching its parameters.`,
    )
  }
  let result: unknown
  try {
    result = await raceAbort(
      Promise.resolve().then(() => tool.handler(parsed.data, signal === undefined ? {} : { signal })),
      signal,
    )
  } catch (error) {
    if (signal?.aborted) return 'aborted'
    const call = failed('tool-error', `Error: ${wireName} failed: ${error instanceof Error ? error.message : String(error)}`)
    return error instanceof BenchError ? { ...call, errorCode: error.code } : call
  }
  if (result === ABORTED) return 'aborted'
  let content: string
  let plain: unknown
  try {
    content = formatToolResult(tool, result)
    if (typeof result === 'string') plain = result
    else if (tool.formatResult === undefined) {
      // Without a formatResult the content is already the result's JSON.
      plain = JSON.parse(content)
      markParsedFrom(plain, content)
    } else {
      plain = JSON.parse(JSON.stringify(result ?? null) ?? 'null')
      markParsedFrom(plain, null)
    }
  } catch (error) {
    return failed('tool-error', `Error: ${wireName} returned a value that is not JSON: ${(error as Error).message}`)
  }
  return { tool, arguments: args, result: plain, status: 'ok', content }
}

/** For a result object: the text it was parsed from, or `null` when it was not parsed from its call's content. */
const parsedFrom = new WeakMap<object, string | null>()

/**
 * Records that `result` (a fresh object or array) is exactly `JSON.parse(content)`, or with `null` that it is not the
 * parse of its call's content (a tool with a `formatResult`). A mark lives in memory only (never in a trace) and
 * trusts that a result is not changed after its call: traces are plain data, never mutated.
 */
export function markParsedFrom(result: unknown, content: string | null): void {
  if (typeof result === 'object' && result !== null) parsedFrom.set(result, content)
}

/**
 * The text `result` was parsed from (see {@link markParsedFrom}): a string, `null` when it is known not to be the
 * parse of its call's content, `undefined` when nothing is known (a primitive, a trace read back or copied).
 */
export function parsedFromText(result: unknown): string | null | undefined {
  return typeof result === 'object' && result !== null ? parsedFrom.get(result) : undefined
}

const ABORTED: unique symbol = Symbol('aborted')

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (signal === undefined) return promise
  if (signal.aborted) return Promise.resolve(ABORTED)
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(ABORTED)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
