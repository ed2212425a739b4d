import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { InvalidFormatError } from '../../core/errors.ts'
import type { WorkplaceSources } from './source-types.ts'

/** The six MPCBench sources, in the order upstream generates them. */
export const SOURCES = ['slack', 'gmail', 'calendar', 'contacts', 'jira', 'drive'] as const

/** One of {@link SOURCES}. */
export type SourceName = (typeof SOURCES)[number]

/** `schemas/` at the repository root. */
export const schemasDir: string = fileURLToPath(new URL('../../../schemas/', import.meta.url))

/** Path of `schemas/{source}_schema.json`. */
export function sourceSchemaPath(source: SourceName): string {
  return `${schemasDir}${source}_schema.json`
}

const schemaCache = new Map<SourceName, Record<string, unknown>>()
const validatorCache = new Map<SourceName, ValidateFunction>()
const ajv = new Ajv({ allErrors: true, strict: true })

/**
 * The JSON Schema of a source (a fresh copy each call, safe to mutate), e.g. to hand to a model as
 * a structured-output schema.
 */
export function loadSourceSchema(source: SourceName): Record<string, unknown> {
  let schema = schemaCache.get(source)
  if (schema === undefined) {
    schema = JSON.parse(readFileSync(sourceSchemaPath(source), 'utf8')) as Record<string, unknown>
    schemaCache.set(source, schema)
  }
  return structuredClone(schema)
}

function validator(source: SourceName): ValidateFunction {
  let validate = validatorCache.get(source)
  if (validate === undefined) {
    validate = ajv.compile(loadSourceSchema(source))
    validatorCache.set(source, validate)
  }
  return validate
}

/** `/threads/0/messages/2/to` → `threads.0.messages.2.to`; the root is `(root)`. */
function dottedPath(error: ErrorObject): string {
  const base = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
  if (error.keyword === 'required') base.push(String((error.params as { missingProperty: string }).missingProperty))
  if (error.keyword === 'additionalProperties') base.push(String((error.params as { additionalProperty: string }).additionalProperty))
  return base.length === 0 ? '(root)' : base.join('.')
}

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required'
    case 'additionalProperties':
      return 'is not a field of this object'
    default:
      return error.message ?? error.keyword
  }
}

/** Ajv errors as `path: reason` lines, e.g. `messages.3.user_id: is required`. */
export function describeAjvErrors(errors: ReadonlyArray<ErrorObject> | null | undefined): string[] {
  return (errors ?? []).map((error) => `${dottedPath(error)}: ${describe(error)}`)
}

/**
 * Every reason `data` is not a valid `source`, as `path: reason` lines (empty when valid),
 * e.g. `messages.3.user_id: is required`. Generators feed these back to the model on a retry.
 */
export function sourceValidationErrors(source: SourceName, data: unknown): string[] {
  const validate = validator(source)
  return validate(data) ? [] : describeAjvErrors(validate.errors)
}

/**
 * Checks `data` against `schemas/{source}_schema.json` and returns it typed, or throws an
 * {@link InvalidFormatError} naming the file, the JSON path and the reason (first five errors).
 */
export function validateSource<S extends SourceName>(source: S, data: unknown, file?: string): WorkplaceSources[S] {
  const errors = sourceValidationErrors(source, data)
  if (errors.length === 0) return data as WorkplaceSources[S]
  const lines = errors.slice(0, 5).map((line) => `  ${line}`)
  if (errors.length > 5) lines.push(`  ... and ${errors.length - 5} more`)
  const firstField = errors[0]?.split(': ')[0]
  throw new InvalidFormatError(`Invalid ${source} source${file === undefined ? '' : ` ${file}`}:\n${lines.join('\n')}`, {
    file,
    field: firstField,
    hint: `Make the ${source} data match schemas/${source}_schema.json${file === undefined ? '' : ` (edit or regenerate ${file})`}.`,
  })
}
