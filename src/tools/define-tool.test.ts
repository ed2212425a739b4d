import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, fromWireName, parseToolArguments, toOpenAITool, toolParametersJsonSchema, toolTable, toWireName } from './define-tool.ts'
import { executeToolCall } from './execute-tool-call.ts'

const Params = z.object({ query: z.string().describe('what to look for'), limit: z.number().int().optional() })
const search = (description: string) => defineTool({ name: 'Mail.search', description, parameters: Params, handler: () => [] })

describe('defineTool', () => {
  it('sends the zod schema as JSON Schema under a dot-free wire name', () => {
    const wire = toOpenAITool(search('Search mail'))
    expect(wire.function.name).toBe('Mail__search')
    expect(fromWireName(toWireName('Mail.search'))).toBe('Mail.search')
    expect(wire.function.parameters).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string', description: 'what to look for' } },
      required: ['query'],
    })
    expect(wire.function.parameters).not.toHaveProperty('$schema')
  })

  it('computes a JSON Schema once per parameter schema and shares it frozen across tools built per task', () => {
    const first = toolParametersJsonSchema(search('inbox a'))
    const second = toolParametersJsonSchema(search('inbox b'))
    expect(second).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)
    expect(Object.isFrozen(first.properties)).toBe(true)
    expect(toOpenAITool(search('inbox b')).function.description).toBe('inbox b')
  })

  it('answers a call with an argument the tool does not declare with an error naming its arguments, unless it ignores them', async () => {
    const tool = search('Search mail')
    const call = await executeToolCall(toolTable([tool]), 'Mail__search', JSON.stringify({ query: 'budget', from_addr: 'a@b.example' }))
    expect(call).toMatchObject({ status: 'invalid-arguments' })
    expect(call !== 'aborted' && call.content).toContain('Unknown argument(s) "from_addr"; the arguments are query, limit')
    expect(parseToolArguments(tool, { query: 'budget' })).toEqual({ success: true, data: { query: 'budget' } })
    const lenient = defineTool({ name: 'Mail.search', description: '', parameters: Params, unknownArguments: 'ignore', handler: () => [] })
    expect(parseToolArguments(lenient, { query: 'budget', from_addr: 'a@b.example' })).toEqual({ success: true, data: { query: 'budget' } })
  })

  it('rejects names that cannot go over the wire and duplicate tools', () => {
    expect(() => defineTool({ name: 'bad name', description: '', parameters: Params, handler: () => [] })).toThrow(/letters, digits/)
    expect(() => toolTable([search('a'), search('b')])).toThrow(/Duplicate tool name/)
  })
})
