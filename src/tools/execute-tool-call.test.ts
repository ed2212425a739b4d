import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, toolTable } from './define-tool.ts'
import { type ExecutedToolCall, executeToolCall, isPlainJson, parsedFromText } from './execute-tool-call.ts'

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

  it('keeps a fresh plain-JSON result as it is, and copies any other result from its JSON', async () => {
    const made: unknown[] = []
    const fresh = (value: () => unknown) =>
      defineTool({
        name: 'fresh',
        description: '',
        parameters: Query,
        freshResults: true,
        handler: () => {
          const result = value()
          made.push(result)
          return result
        },
      })
    const run = async (value: () => unknown) => {
      const executed = await executeToolCall(toolTable([fresh(value)]), 'fresh', '{"q":"x"}')
      if (executed === 'aborted') throw new Error('aborted')
      return executed
    }
    const plain = await run(() => ({ hits: [{ id: 'a', date: null, score: 1.5, ok: true }] }))
    expect(plain.result).toBe(made.at(-1))
    expect(parsedFromText(plain.result)).toBe(plain.content)
    const withDate = await run(() => ({ at: new Date(0) }))
    expect(withDate.result).not.toBe(made.at(-1))
    expect(withDate.result).toEqual({ at: '1970-01-01T00:00:00.000Z' })
    const withUndefined = await run(() => ({ a: 1, b: undefined }))
    expect(withUndefined.result).not.toBe(made.at(-1))
    expect(Object.keys(withUndefined.result as object)).toEqual(['a'])
    // Without freshResults the result is always a copy.
    const search = await call('search')
    expect(search.result).toEqual({ hits: ['budget'] })
  })

  it('isPlainJson tells plain JSON data from values JSON would change', () => {
    for (const value of [null, 'a', true, 0, 1.5, [], [1, ['a', null]], {}, { a: { b: [false] } }, Object.assign(Object.create(null), { a: 1 })]) {
      expect(isPlainJson(value), JSON.stringify(value)).toBe(true)
    }
    class Hit {
      id = 'a'
    }
    const holes = [1, 2, 3]
    delete holes[1]
    for (const value of [
      undefined,
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1n,
      () => 1,
      Symbol('s'),
      new Date(0),
      new Hit(),
      holes,
      [undefined],
      { a: undefined },
      { a: -0 },
      new Map(),
    ]) {
      expect(isPlainJson(value), String(value)).toBe(false)
    }
  })
})
