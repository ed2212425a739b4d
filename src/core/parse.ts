import { readFileSync } from 'node:fs'
import type { z } from 'zod'
import { InvalidFormatError } from './errors.ts'

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.')
}

/**
 * Parses `value` with `schema` at a boundary, or throws an {@link InvalidFormatError}
 * whose message is labelled and path-qualified:
 * `Invalid task tasks/x.json: answer_requirements.0: expected string`.
 *
 * @param label what the value is, e.g. `task`, `scenario`, `ART-E row`
 * @param source where it came from (a file path, or `file:line`), named in the message
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, label: string, source?: string): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues = result.error.issues
  const first = issues[0]
  const lines = issues.slice(0, 5).map((issue) => `  ${formatPath(issue.path)}: ${issue.message}`)
  if (issues.length > 5) lines.push(`  ... and ${issues.length - 5} more`)
  const where = source === undefined ? '' : ` ${source}`
  return throwInvalid(
    `Invalid ${label}${where}:\n${lines.join('\n')}`,
    source,
    first === undefined ? undefined : formatPath(first.path),
    label,
    issuesError(issues),
  )
}

/**
 * The cause of a schema mismatch: every issue, one line each, in a plain `Error` (a `ZodError` as the cause makes
 * Vitest print its internals after the message).
 */
function issuesError(issues: ReadonlyArray<z.core.$ZodIssue>): Error {
  const error = new Error(issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('\n'))
  Object.defineProperty(error, 'name', { value: 'SchemaIssues', enumerable: false })
  return error
}

function throwInvalid(message: string, file: string | undefined, field: string | undefined, label: string, cause: unknown): never {
  throw new InvalidFormatError(message, {
    file,
    field,
    hint: `Correct ${field === undefined ? 'the value' : `the field \`${field}\``} in the ${label}${file === undefined ? '' : ` file ${file}`} to match the schema.`,
    cause,
  })
}

/**
 * Reads a JSON file and parses it with `schema`; both bad JSON and schema mismatches name the file. Bad JSON is
 * located by line and column, with the line shown (see {@link describeJsonSyntaxError}). A UTF-8 byte order mark is
 * ignored.
 */
export function readJsonFile<S extends z.ZodType>(schema: S, file: string, label: string): z.output<S> {
  let text: string
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '')
  } catch (error) {
    throw new InvalidFormatError(`Cannot read ${label} ${file}: ${(error as Error).message}`, {
      file,
      hint: `Make sure ${file} exists and holds valid JSON.`,
      cause: error,
    })
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    const { summary, line, column } = describeJsonSyntaxError(text, error)
    const at = line === undefined ? file : `${file}:${line}:${column}`
    throw new InvalidFormatError(`Cannot read ${label} ${file}: ${summary}`, { file, hint: `Fix the JSON at ${at}.`, cause: error })
  }
  return parseWith(schema, raw, label, file)
}

/** Where a JSON text stops being valid JSON, and why (see {@link locateJsonSyntaxError}). */
export interface JsonSyntaxError {
  /** 1-based line of the first character that cannot be read. */
  line: number
  /** 1-based column of that character on its line. */
  column: number
  /** What is wrong there, e.g. `a trailing comma before '}'`. */
  reason: string
  /** That line (clipped around the column) and a caret under the column, each line indented by two spaces. */
  excerpt: string
}

const JSON_WHITESPACE = new Set([' ', '\t', '\n', '\r'])
const JSON_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])

class JsonStop {
  readonly offset: number
  readonly reason: string
  constructor(offset: number, reason: string) {
    this.offset = offset
    this.reason = reason
  }
}

/** Finds the first syntax error in `text` by the JSON grammar (RFC 8259): its offset and a reason. */
function scanJson(text: string): JsonStop | undefined {
  let at = 0
  const stop = (reason: string, offset = at): never => {
    throw new JsonStop(offset, reason)
  }
  const shown = (char: string | undefined): string => (char === undefined ? 'the end of the text' : JSON.stringify(char))
  const skipSpace = (): void => {
    while (at < text.length && JSON_WHITESPACE.has(text[at] as string)) at++
  }
  const bareWord = (): never =>
    stop(
      `expected a value, found ${/^[A-Za-z_$][\w$]*/.exec(text.slice(at, at + 40))?.[0] ?? shown(text[at])} (strings need double quotes; the literals are true, false and null)`,
    )
  const literal = (word: string): void => {
    if (text.startsWith(word, at) && !/[\w$]/.test(text[at + word.length] ?? '')) at += word.length
    else bareWord()
  }
  const string = (): void => {
    at++
    for (;;) {
      const char = text[at]
      if (char === undefined) stop('a string that is never closed (missing ")')
      if (char === '"') {
        at++
        return
      }
      if (char === '\\') {
        const next = text[at + 1]
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) at += 6
        else if (next !== undefined && JSON_ESCAPES.has(next)) at += 2
        else stop(`an invalid escape \\${next ?? ''} in a string`)
      } else if ((char as string).charCodeAt(0) < 0x20)
        stop(char === '\n' ? 'a line break inside a string (missing ", or write \\n)' : 'a control character inside a string')
      else at++
    }
  }
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at, at + 400))
    if (match === null || match[0] === '-') stop(`expected a value, found ${shown(text[at])}`)
    at += (match as RegExpExecArray)[0].length
  }
  const value = (depth: number): void => {
    if (depth > 10_000) stop('nesting too deep')
    skipSpace()
    const char = text[at]
    if (char === '{') object(depth)
    else if (char === '[') array(depth)
    else if (char === '"') string()
    else if (char === 't') literal('true')
    else if (char === 'f') literal('false')
    else if (char === 'n') literal('null')
    else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) number()
    else if (char === "'") stop('a string in single quotes (JSON needs double quotes)')
    else if (char !== undefined && /[A-Za-z_$]/.test(char)) bareWord()
    else stop(`expected a value, found ${shown(char)}`)
  }
  const members = (close: '}' | ']', member: () => void): void => {
    at++
    skipSpace()
    if (text[at] === close) {
      at++
      return
    }
    for (;;) {
      member()
      skipSpace()
      const char = text[at]
      if (char === close) {
        at++
        return
      }
      if (char !== ',') stop(`expected ',' or '${close}', found ${shown(char)}`)
      const comma = at++
      skipSpace()
      if (text[at] === close) stop(`a trailing comma before '${close}' (remove it)`, comma)
    }
  }
  const object = (depth: number): void =>
    members('}', () => {
      skipSpace()
      if (text[at] !== '"') stop(`expected a property name in double quotes, found ${shown(text[at])}`)
      string()
      skipSpace()
      if (text[at] !== ':') stop(`expected ':' after the property name, found ${shown(text[at])}`)
      at++
      value(depth + 1)
    })
  const array = (depth: number): void => members(']', () => value(depth + 1))
  try {
    value(0)
    skipSpace()
    if (at < text.length) stop(`more text after the JSON value, found ${shown(text[at])}`)
    return undefined
  } catch (error) {
    if (error instanceof JsonStop) return error
    // A stack overflow on absurd nesting: no location.
    return undefined
  }
}

/** Lines of the excerpt: at most this many characters of the line at fault are shown. */
const EXCERPT_WIDTH = 80

/**
 * Where `text` (which `JSON.parse` rejected) stops being valid JSON: line, column, a reason (`a trailing comma before
 * '}'`) and the line with a caret. Undefined when `text` is valid JSON.
 * @param firstLine the number of the first line of `text` (a line of a JSONL file is not line 1)
 */
export function locateJsonSyntaxError(text: string, firstLine = 1): JsonSyntaxError | undefined {
  const found = scanJson(text)
  if (found === undefined) return undefined
  const offset = Math.min(found.offset, text.length)
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1
  const newline = text.indexOf('\n', offset)
  const lineText = text.slice(lineStart, newline === -1 ? text.length : newline).replace(/\r$/, '')
  const line = text.slice(0, lineStart).split('\n').length + firstLine - 1
  const column = offset - lineStart + 1
  const from = Math.max(0, Math.min(column - 1 - EXCERPT_WIDTH / 2, lineText.length - EXCERPT_WIDTH))
  const clipped = `${from > 0 ? '...' : ''}${lineText.slice(from, from + EXCERPT_WIDTH)}${from + EXCERPT_WIDTH < lineText.length ? '...' : ''}`
  const caret = ' '.repeat(column - 1 - from + (from > 0 ? 3 : 0))
  const gutter = `${line} | `
  const excerpt = `  ${gutter}${clipped.replaceAll('\t', ' ')}\n  ${' '.repeat(gutter.length - 2)}| ${caret}^`
  return { line, column, reason: found.reason, excerpt }
}

/**
 * Why `text` is not valid JSON, for an error message: `not valid JSON at line 3, column 1: a trailing comma before
 * ']'` and the line with a caret below it. With `lineNumber`, `text` is that one line of a file (a JSONL line, which
 * the caller names): only the column is given. Falls back to `error`'s message when no location is found.
 */
export function describeJsonSyntaxError(
  text: string,
  error: unknown,
  options: { lineNumber?: number } = {},
): { summary: string; line?: number; column?: number } {
  const found = locateJsonSyntaxError(text, options.lineNumber)
  if (found === undefined) return { summary: `not valid JSON (${(error as Error).message})` }
  const where = options.lineNumber !== undefined ? `column ${found.column}` : `line ${found.line}, column ${found.column}`
  return { summary: `not valid JSON at ${where}: ${found.reason}\n${found.excerpt}`, line: found.line, column: found.column }
}
