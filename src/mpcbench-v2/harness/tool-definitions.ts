import { z } from 'zod'
import type { ChatCompletionFunctionTool } from '../../llm/types.ts'
import { type AnyTool, wireNameOf } from '../../tools/define-tool.ts'

/**
 * The tools as upstream sends them (`SimulatedAPI.get_tool_definitions`): for each parameter only `type`,
 * `description` and `default` (no `additionalProperties`), and `required` always listed, `[]` included. Built from
 * our zod tools, so the names, descriptions and parameters are defined once.
 */
export function upstreamToolDefinitions(tools: ReadonlyArray<AnyTool>): ChatCompletionFunctionTool[] {
  return tools.map((tool) => {
    const shape = (tool.parameters as z.ZodObject).shape as Record<string, z.ZodType>
    const properties: Record<string, Record<string, unknown>> = {}
    const required: string[] = []
    for (const [key, schema] of Object.entries(shape)) {
      const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>
      const property: Record<string, unknown> = { type: json.type, description: json.description }
      if (json.default !== undefined) property.default = json.default
      properties[key] = property
      if (!schema.safeParse(undefined).success) required.push(key)
    }
    return { type: 'function', function: { name: wireNameOf(tool), description: tool.description, parameters: { type: 'object', properties, required } } }
  })
}
