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
  readonly description: string
  readonly parameters: P
  /** When true, a successful call ends the agent loop and its arguments are the answer. */
  readonly final?: boolean
  readonly handler: (args: z.output<P>, context: ToolContext) => R | Promise<R>
}

/** Defines a tool; see {@link Tool}. */
export function defineTool<P extends z.ZodObject, R>(tool: Tool<P, R>): Tool<P, R> {
  if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(tool.name)) {
    throw new TypeError(`Expected tool \`name\` to be letters, digits, \`_\`, \`-\` or \`.\`, got ${JSON.stringify(tool.name)}`)
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

const jsonSchemas = new WeakMap<z.ZodObject, Readonly<Record<string, unknown>>>()

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}

/**
 * The JSON Schema of a tool's parameters, as sent to the model. Computed once per zod schema (tools built per task
 * over shared parameter schemas do not pay for it again) and frozen, so it can be shared.
 */
export function toolParametersJsonSchema(tool: AnyTool): Readonly<Record<string, unknown>> {
  let schema = jsonSchemas.get(tool.parameters)
  if (schema === undefined) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(tool.parameters, { io: 'input' }) as Record<string, unknown>
    schema = deepFreeze(rest)
    jsonSchemas.set(tool.parameters, schema)
  }
  return schema
}

/** The tool as an OpenAI chat-completions function tool. */
export function toOpenAITool(tool: AnyTool): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: {
      name: toWireName(tool.name),
      description: tool.description,
      parameters: toolParametersJsonSchema(tool) as Record<string, unknown>,
    },
  }
}

/** A lookup table from wire name to tool, with no prototype (so `constructor` or `__proto__` are unknown tools). */
export function toolTable(tools: ReadonlyArray<AnyTool>): Record<string, AnyTool> {
  const table: Record<string, AnyTool> = Object.create(null)
  for (const tool of tools) {
    const wire = toWireName(tool.name)
    if (wire in table) throw new TypeError(`Duplicate tool name ${JSON.stringify(tool.name)}`)
    table[wire] = tool
  }
  return table
}
