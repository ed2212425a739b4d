import type { z } from 'zod'
import { BenchError, InvalidFormatError } from '../../core/errors.ts'
import { ARTE_ROW_FIELD_FORMATS, type ArteRow, type ArteRowSchema } from './row.ts'

/** The ART-E dataset file given with `--dataset` does not exist or cannot be read. */
export class DatasetNotFoundError extends BenchError {
  /** The path that was asked for. */
  readonly file: string

  constructor(file: string, options: { cause?: unknown } = {}) {
    super('ERR_DATASET_NOT_FOUND', `Cannot read ART-E dataset ${file}`, {
      hint: `Check the path given with --dataset; supported files are .jsonl, .json, .csv and .parquet.`,
      cause: options.cause,
    })
    this.file = file
  }
}

/**
 * The ART-E dataset could not be downloaded: `ERR_DATASET_OFFLINE` when the request
 * itself failed (no network), `ERR_DATASET_DOWNLOAD` when the server answered with an error.
 */
export class DatasetDownloadError extends BenchError {
  /** The URL that failed. */
  readonly url: string

  constructor(code: 'ERR_DATASET_OFFLINE' | 'ERR_DATASET_DOWNLOAD', message: string, options: { url: string; hint: string; cause?: unknown }) {
    super(code, message, { hint: options.hint, cause: options.cause })
    this.url = options.url
  }
}

/** What a bad row held at `path`, for a message: `missing`, or `got "2023-02-30"` (long values cut). */
function received(value: unknown, path: ReadonlyArray<PropertyKey>): string {
  let at = value
  for (const key of path) at = typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined
  if (at === undefined) return 'missing'
  const shown = typeof at === 'bigint' ? String(at) : (JSON.stringify(at) ?? String(at))
  return `got ${shown.length > 60 ? `${shown.slice(0, 57)}...` : shown}`
}

function isRowField(key: PropertyKey | undefined): key is keyof ArteRow {
  return typeof key === 'string' && Object.hasOwn(ARTE_ROW_FIELD_FORMATS, key)
}

/** The fix line for `field` of the row at `source`: what it must hold, an example, and a note. */
export function fieldFix(field: keyof ArteRow, source: string): string {
  const { expected, example, note } = ARTE_ROW_FIELD_FORMATS[field]
  return `Set \`${field}\` in the ART-E row at ${source} to ${expected}, e.g. ${example}${note === undefined ? '' : ` (${note})`}.`
}

/**
 * The error of an ART-E row that does not match {@link ArteRowSchema}: names `source` (`file:line` or `file row N`),
 * every field at fault with what it held (up to five), and a fix line that says what the first field must hold
 * (see {@link ARTE_ROW_FIELD_FORMATS}). The zod issues are all in the message, so no `cause` is kept.
 */
export function invalidArteRowError(issues: ReadonlyArray<z.core.$ZodIssue>, value: unknown, source: string): InvalidFormatError {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return new InvalidFormatError(`Invalid ART-E row ${source}: expected an object with the row's fields, ${received(value, [])}.`, {
      file: source,
      hint: `Write the row at ${source} as one object with the fields ${Object.keys(ARTE_ROW_FIELD_FORMATS).join(', ')}.`,
    })
  }
  const lines = issues.slice(0, 5).map((issue) => {
    const path = issue.path.length === 0 ? '(row)' : issue.path.map(String).join('.')
    const [top] = issue.path
    const got = received(value, issue.path)
    if (issue.path.length === 1 && isRowField(top))
      return `  ${path}: ${got === 'missing' ? 'missing' : `expected ${ARTE_ROW_FIELD_FORMATS[top].expected}, ${got}`}`
    return `  ${path}: ${issue.message} (${got})`
  })
  if (issues.length > 5) lines.push(`  ... and ${issues.length - 5} more`)
  const first = issues[0]?.path ?? []
  const field = first.length === 0 ? undefined : first.map(String).join('.')
  const top = first[0]
  const hint = isRowField(top)
    ? fieldFix(top, source)
    : `Correct ${field === undefined ? 'the row' : `the field \`${field}\``} at ${source}; the fields are ${Object.keys(ARTE_ROW_FIELD_FORMATS).join(', ')}.`
  return new InvalidFormatError(`Invalid ART-E row ${source}:\n${lines.join('\n')}`, { file: source, ...(field === undefined ? {} : { field }), hint })
}
