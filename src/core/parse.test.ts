import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { InvalidFormatError } from './errors.ts'
import { locateJsonSyntaxError, readJsonFile } from './parse.ts'

const dir = mkdtempSync(join(tmpdir(), 'parse-'))
const Schema = z.object({ a: z.number(), b: z.array(z.string()) })

function readError(name: string, text: string): InvalidFormatError {
  const file = join(dir, name)
  writeFileSync(file, text)
  try {
    readJsonFile(Schema, file, 'config')
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidFormatError)
    return error as InvalidFormatError
  }
  throw new Error('expected readJsonFile to throw')
}

describe('readJsonFile', () => {
  it('locates bad JSON by line and column, shows the line with a caret, and names them in the fix', () => {
    const error = readError('trailing.json', '{\n  "a": 1,\n  "b": ["x", "y",],\n}\n')
    expect(error.message).toBe(
      `Cannot read config ${join(dir, 'trailing.json')}: not valid JSON at line 3, column 17: a trailing comma before ']' (remove it)\n` +
        '  3 |   "b": ["x", "y",],\n' +
        '    |                 ^\n' +
        `  Fix: Fix the JSON at ${join(dir, 'trailing.json')}:3:17.`,
    )
    expect(error.message).not.toMatch(/position/)
  })

  it.each([
    ['{"a": 1', 1, 8, "expected ',' or '}', found the end of the text"],
    ["{'a': 1}", 1, 2, 'expected a property name in double quotes, found "\'"'],
    ['{"a": 1, "b": [x]}', 1, 16, 'expected a value, found x (strings need double quotes; the literals are true, false and null)'],
    ['{"a": 1}\n{"a": 2}', 2, 1, 'more text after the JSON value, found "{"'],
    ['', 1, 1, 'expected a value, found the end of the text'],
  ])('%j: line %i, column %i', (text, line, column, reason) => {
    expect(readError('bad.json', text).message).toContain(`not valid JSON at line ${line}, column ${column}: ${reason}\n`)
  })

  it('ignores a byte order mark, and still names the file and field of a schema mismatch', () => {
    const file = join(dir, 'bom.json')
    writeFileSync(file, '\uFEFF{"a": 1, "b": ["x"]}')
    expect(readJsonFile(Schema, file, 'config')).toEqual({ a: 1, b: ['x'] })
    expect(readError('typed.json', '{"a": "1", "b": []}')).toMatchObject({ field: 'a', file: join(dir, 'typed.json') })
  })

  it('gives as the cause of a schema mismatch every issue in a plain Error, not the ZodError (whose internals Vitest prints)', () => {
    const error = readError('issues.json', '{"a": "1", "b": [1, 2, 3, 4, 5, 6]}') as InvalidFormatError & { cause: Error }
    expect(error.cause).not.toBeInstanceOf(z.ZodError)
    expect(error.cause.name).toBe('SchemaIssues')
    expect(error.cause.message.split('\n')).toHaveLength(7)
    expect(error.cause.message).toContain('b.5: ')
    expect(Object.keys(error.cause)).toEqual([])
  })

  it('keeps "Cannot read" for a missing file', () => {
    expect(() => readJsonFile(Schema, join(dir, 'none.json'), 'config')).toThrow(/Cannot read config \S+none\.json: ENOENT/)
  })
})

describe('locateJsonSyntaxError', () => {
  it('finds an error exactly when JSON.parse rejects the text', () => {
    const mutated = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', "'", ':', 'x', '\n', '\\', '0', '-', ' ', 'tru'), fc.boolean())
      .map(([json, at, insert, remove]) => {
        const i = at % (json.length + 1)
        return json.slice(0, i) + insert + json.slice(remove ? i + 1 : i)
      })
    fc.assert(
      fc.property(mutated, (text) => {
        let valid = true
        try {
          JSON.parse(text)
        } catch {
          valid = false
        }
        expect(locateJsonSyntaxError(text) === undefined).toBe(valid)
      }),
      { numRuns: 3000 },
    )
  })

  it('clips a long line around the column', () => {
    const found = locateJsonSyntaxError(`{"a": "${'x'.repeat(500)}", }`)
    expect(found).toMatchObject({ line: 1, column: 509, reason: "a trailing comma before '}' (remove it)" })
    const [shown, caret] = (found?.excerpt ?? '').split('\n') as [string, string]
    expect(shown.length).toBeLessThan(100)
    expect(shown[caret.indexOf('^')]).toBe(',')
  })
})
