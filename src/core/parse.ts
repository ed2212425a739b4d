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
    result.error,
  )
}

function throwInvalid(message: string, file: string | undefined, field: string | undefined, label: string, cause: unknown): never {
  throw new InvalidFormatError(message, {
    file,
    field,
    hint: `Correct ${field === undefined ? 'the value' : `the field \`${field}\``} in the ${label}${file === undefined ? '' : ` file ${file}`} to match the schema.`,
    cause,
  })
}

/** Reads a JSON file and parses it with `schema`; both bad JSON and schema mismatches name the file. */
export function readJsonFile<S extends z.ZodType>(schema: S, file: string, label: string): z.output<S> {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new InvalidFormatError(`Cannot read ${label} ${file}: ${(error as Error).message}`, {
      file,
      hint: `Make sure ${file} exists and holds valid JSON.`,
      cause: error,
    })
  }
  return parseWith(schema, raw, label, file)
}
