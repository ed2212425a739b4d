import { z } from 'zod'
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions'

/** What a tool handler gets besides its parsed arguments. */
export interface ToolContext {
  /** Aborted when the task is cancelled or times out. */
  signal?: AbortSignal
}

/**
 * A tool, defined once: its name, what it does, the zod schema of its arguments and its handler.
 * The same schema yields the JSON Schema sent to the model and parses the arguments the model sends back.
 */
export interface Tool<P extends z.ZodObject = z.ZodObject, R = unknown> {
  /** Name shown in traces; may hold dots (`Slack.search_messages`). See {@link toWireName}. */
  readonly name: string
  /**
   * The function name sent to the model, when it is not {@link toWireName}(`name`) (upstream MPCBench sends
   * `Slack_search_messages` for `Slack.search_messages`). Letters, digits, `_` and `-`.
   */
  readonly wireName?: string
  readonly description: string
  readonly parameters: P
  /**
   * Rewrites the arguments the model sent (parsed JSON) before `parameters` parses them; for a tool that reproduces a
   * backend which reads missing or `null` arguments as defaults. See {@link parseToolArguments}.
   */
  readonly prepareArguments?: (raw: unknown) => unknown
  /**
   * What a call gets that names an argument `parameters` does not declare: `reject` returns an invalid-arguments
   * error to the model naming the tool's arguments (a model used to another tool's names, e.g. OpenPipe's `from_addr`
   * for `from`, would otherwise get results as if it had not filtered); `ignore` drops it, for a tool reproducing a
   * backend that reads its arguments by name (upstream MPCBench's `dict.get`).
   * @default 'reject'
   */
  readonly unknownArguments?: 'reject' | 'ignore'
  /** The tool message content for a result; default `JSON.stringify`. */
  readonly formatResult?: (result: unknown) => string
  /** When true, a successful call ends the agent loop and its arguments are the answer. */
  readonly final?: boolean
  readonly handler: (args: z.output<P>, context: ToolContext) => R | Promise<R>
}

/** Defines a tool; see {@link Tool}. */
export function defineTool<P extends z.ZodObject, R>(tool: Tool<P, R>): Tool<P, R> {
  if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(tool.name)) {
    throw new TypeError(`Expected tool \`name\` to be letters, digits, \`_\`, \`-\` or \`.\`, got ${JSON.stringify(tool.name)}`)
  }
  if (tool.wireName !== undefined && !/^[A-Za-z][A-Za-z0-9_-]*$/.test(tool.wireName)) {
    throw new TypeError(`Expected tool \`wireName\` to be letters, digits, \`_\` or \`-\`, got ${JSON.stringify(tool.wireName)}`)
  }
  return tool
}

/** Any tool, whatever its parameter and result types. */
// biome-ignore lint: a tool list holds tools of many parameter types
export type AnyTool = Tool<any, unknown>

/**
 * OpenAI function names cannot hold dots: `Slack.search_messages` goes over the wire as `Slack__search_messages`.
 * The mapping is reversible with {@link fromWireName}.
 */
export function toWireName(name: string): string {
  return name.replaceAll('.', '__')
}

/** Inverse of {@link toWireName}. */
export function fromWireName(wireName: string): string {
  return wireName.replaceAll('__', '.')
}

/** The function name of a tool on the wire: its `wireName`, else {@link toWireName} of its name. */
export function wireNameOf(tool: AnyTool): string {
  return tool.wireName ?? toWireName(tool.name)
}

const jsonSchemas = new WeakMap<z.ZodObject, Readonly<Record<string, unknown>>>()

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}

/**
 * The JSON Schema of a tool's parameters, as sent to the model, with `required` always listed. zod's safe-integer
 * bounds (`minimum: -9007199254740991`) are left out: they say nothing to a model. Computed once per zod schema
 * (tools built per task over shared parameter schemas do not pay for it again) and frozen, so it can be shared.
 */
export function toolParametersJsonSchema(tool: AnyTool): Readonly<Record<string, unknown>> {
  let cached = jsonSchemas.get(tool.parameters)
  if (cached === undefined) {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.parameters, { io: 'input' }) as Record<string, unknown>
    cached = deepFreeze({ ...(withoutSafeIntegerBounds(schema) as Record<string, unknown>), required: schema.required ?? [] })
    jsonSchemas.set(tool.parameters, cached)
  }
  return cached
}

function withoutSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    if (key === 'minimum' && item === Number.MIN_SAFE_INTEGER) continue
    if (key === 'maximum' && item === Number.MAX_SAFE_INTEGER) continue
    out[key] = withoutSafeIntegerBounds(item)
  }
  return out
}

/** What {@link parseToolArguments} gives: the parsed arguments, or zod's error. */
export type ParsedToolArguments = { success: true; data: unknown } | { success: false; error: z.ZodError }

/** The arguments of `args` (an object) that `tool` does not declare, unless it ignores them; empty when none. */
function unknownArgumentsOf(tool: AnyTool, args: unknown): string[] {
  if (tool.unknownArguments === 'ignore' || args === null || typeof args !== 'object' || Array.isArray(args)) return []
  const shape = (tool.parameters as z.ZodObject).shape
  return Object.keys(args).filter((key) => !Object.hasOwn(shape, key))
}

/**
 * Parses arguments the model sent (already JSON-parsed) for `tool`: `prepareArguments`, then `parameters`; an argument
 * the tool does not declare is an error unless the tool ignores them (see {@link Tool.unknownArguments}).
 */
export function parseToolArguments(tool: AnyTool, raw: unknown): ParsedToolArguments {
  const args = tool.prepareArguments === undefined ? raw : tool.prepareArguments(raw)
  const unknown = unknownArgumentsOf(tool, args)
  if (unknown.length > 0) {
    const known = Object.keys((tool.parameters as z.ZodObject).shape)
    const message = `Unknown argument(s) ${unknown.map((key) => JSON.stringify(key)).join(', ')}; the arguments are ${known.length === 0 ? '(none)' : known.join(', ')}`
    return { success: false, error: new z.ZodError([{ code: 'unrecognized_keys', keys: unknown, path: [], message, input: args as Record<string, unknown> }]) }
  }
  const result = tool.parameters.safeParse(args)
  return result.success ? { success: true, data: result.data } : { success: false, error: result.error }
}

/** The tool message content of a result of `tool`: its `formatResult`, else `JSON.stringify` (a string stays as is). */
export function formatToolResult(tool: AnyTool, result: unknown): string {
  if (typeof result === 'string') return result
  if (tool.formatResult !== undefined) return tool.formatResult(result)
  return JSON.stringify(result ?? null) ?? 'null'
}

/** The tool as an OpenAI chat-completions function tool. */
export function toOpenAITool(tool: AnyTool): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: {
      name: wireNameOf(tool),
      description: tool.description,
      parameters: toolParametersJsonSchema(tool) as Record<string, unknown>,
    },
  }
}

/** A lookup table from wire name to tool, with no prototype (so `constructor` or `__proto__` are unknown tools). */
export function toolTable(tools: ReadonlyArray<AnyTool>): Record<string, AnyTool> {
  const table: Record<string, AnyTool> = Object.create(null)
  for (const tool of tools) {
    const wire = wireNameOf(tool)
    if (wire in table) throw new TypeError(`Duplicate tool name ${JSON.stringify(tool.name)}`)
    table[wire] = tool
  }
  return table
}
