import type { z } from 'zod'
import type { AnyTool } from '../../tools/define-tool.ts'
import { wireNameOf } from '../../tools/define-tool.ts'
import { pyJsonDumps } from '../../core/python-format.ts'
import { isDict, pyType } from './python-values.ts'

/** One tool call run as upstream's harness runs it. */
export interface SchedulingToolCall {
  /** What the tool returned, or upstream's `{"error": ...}` object. */
  result: unknown
  /** The tool message content: `json.dumps(result, ensure_ascii=False)`. */
  content: string
  /** `ok`, or why it failed (the failure is still a tool message, as upstream sends it). */
  status: 'ok' | 'unknown-tool' | 'invalid-arguments' | 'tool-error'
}

/** Python's `json.loads` error text for the one case we reproduce exactly (empty arguments), else the parser's own. */
function jsonLoads(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: 'Expecting value: line 1 column 1 (char 0)' }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}

function isRequired(schema: z.ZodType): boolean {
  return !schema.safeParse(undefined).success
}

/**
 * Runs a call the way upstream's `OpenAIAgent.solve` and `SimulatedAPI.execute_tool` do: `json.loads` of the
 * arguments, an unknown name answered `{"error": "Unknown tool: <name>"}`, then Python's call rules for
 * `method(**arguments)` (not a mapping, an unexpected keyword, a missing argument: CPython 3.11's messages), and any
 * exception as `{"error": "Tool execution failed: <message>"}`. Arguments are not type-checked, as upstream does not.
 * A `json.loads` failure other than empty arguments carries JavaScript's parser message, not Python's.
 */
export async function executeSchedulingToolCall(tools: ReadonlyArray<AnyTool>, name: string, argumentsText: string): Promise<SchedulingToolCall> {
  const fail = (status: SchedulingToolCall['status'], message: string): SchedulingToolCall => {
    const result = { error: `Tool execution failed: ${message}` }
    return { result, content: pyJsonDumps(result), status }
  }
  const parsed = jsonLoads(argumentsText)
  if (!parsed.ok) return fail('invalid-arguments', parsed.message)
  const tool = tools.find((candidate) => wireNameOf(candidate) === name)
  if (tool === undefined) {
    const result = { error: `Unknown tool: ${name}` }
    return { result, content: pyJsonDumps(result), status: 'unknown-tool' }
  }
  const args = parsed.value
  if (!isDict(args)) return fail('invalid-arguments', `evaluation.tools.SimulatedAPI.${name}() argument after ** must be a mapping, not ${pyType(args)}`)
  const shape = (tool.parameters as z.ZodObject).shape as Record<string, z.ZodType>
  for (const key of Object.keys(args)) {
    if (!Object.hasOwn(shape, key)) return fail('invalid-arguments', `SimulatedAPI.${name}() got an unexpected keyword argument '${key}'`)
  }
  const missing = Object.keys(shape).filter((key) => isRequired(shape[key] as z.ZodType) && !Object.hasOwn(args, key))
  if (missing.length > 0) {
    const names = missing.map((key) => `'${key}'`)
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
    return fail('invalid-arguments', `SimulatedAPI.${name}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`)
  }
  let result: unknown
  try {
    result = await tool.handler(args, {})
  } catch (error) {
    return fail('tool-error', error instanceof Error ? error.message : String(error))
  }
  return { result, content: pyJsonDumps(result), status: 'ok' }
}
