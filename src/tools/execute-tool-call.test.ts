import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, toolTable } from './define-tool.ts'
import { type ExecutedToolCall, executeToolCall, parsedFromText } from './execute-tool-call.ts'

const Query = z.object({ q: z.string() })
const table = toolTable([
  defineTool({ name: 'search', description: '', parameters: Query, handler: ({ q }) => ({ hits: [q] }) }),
  defineTool({ name: 'table', description: '', parameters: Query, formatResult: (result) => `rows: ${String(result)}`, handler: ({ q }) => [q] }),
  defineTool({ name: 'count', description: '', parameters: Query, handler: ({ q }) => q.length }),
])

async function call(name: string): Promise<ExecutedToolCall> {
  const executed = await executeToolCall(table, name, JSON.stringify({ q: 'budget' }))
  if (executed === 'aborted') throw new Error('aborted')
  return executed
}

describe('executeToolCall', () => {
  it('marks, in memory only, a result parsed from its content, and one that is not (a formatted result)', async () => {
    const search = await call('search')
    expect(search.result).toEqual({ hits: ['budget'] })
    expect(parsedFromText(search.result)).toBe(search.content)
    expect(Object.keys(search.result as object)).toEqual(['hits'])
    expect(JSON.stringify(search.result)).toBe(search.content)

    const formatted = await call('table')
    expect(formatted.content).toBe('rows: budget')
    expect(parsedFromText(formatted.result)).toBeNull()

    expect(parsedFromText((await call('count')).result)).toBeUndefined()
    expect(parsedFromText(structuredClone(search.result))).toBeUndefined()
  })
})
