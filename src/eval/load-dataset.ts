import { BenchError, InvalidFormatError } from '../core/errors.ts'
import { type DatasetFormat, type DatasetRecord, isRecordObject, readDatasetRecords } from '../dataset/read-records.ts'
import type { EvalCase } from './describe-eval.ts'

/** A field of a case: a column (key) of the row, or a function of the row and its index (0-based) in the file. */
export type DatasetField<T> = string | ((row: Record<string, unknown>, index: number) => T)

/** Options of {@link loadDataset}: where each row keeps the case's id, input and expected value. */
export interface LoadDatasetOptions<Input, Expected> {
  /**
   * The case id (it names the test and the results row; unique, not empty): a column, or a function of the row.
   * Numbers are turned into strings. With the default, a file without an `id` column gives cases without ids (tests
   * named by their position and input, as for in-memory data).
   * @default 'id'
   */
  id?: DatasetField<string | number>
  /** What the task gets. @default 'input' */
  input?: DatasetField<Input>
  /**
   * What the scorers compare the output with. With the default, a file without an `expected` column gives cases whose
   * `expected` is `undefined` (scorers that need none, such as an LLM judge of the output alone).
   * @default 'expected'
   */
  expected?: DatasetField<Expected>
}

/** The dataset file given to {@link loadDataset} does not exist or cannot be read. */
export class DatasetFileNotFoundError extends BenchError {
  /** The path that was asked for. */
  readonly file: string

  constructor(file: string, options: { cause?: unknown } = {}) {
    super('ERR_DATASET_NOT_FOUND', `Cannot read dataset ${file}`, {
      hint: 'Check the path given to loadDataset (relative paths are from the folder Vitest runs in); supported files are .jsonl, .json, .csv and .parquet.',
      cause: options.cause,
    })
    this.file = file
  }
}

const FORMAT: DatasetFormat = {
  label: 'dataset',
  rowLabel: 'dataset row',
  extensionHint: 'Pass a .jsonl, .json, .csv or .parquet file to loadDataset.',
  jsonShapeHint: 'Give a JSON array of row objects, {"rows": [...]}, or a Hugging Face rows-API response.',
  notFound: (file, cause) => new DatasetFileNotFoundError(file, { cause }),
}

/** Parquet and JSON readers give bigints and Dates: as numbers (strings past 2^53) and ISO strings, so cases are JSON. */
function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString()
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  if (Array.isArray(value)) return value.map(plainValue)
  if (isRecordObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plainValue(inner)]))
  return value
}

/** The option that names a field, for messages: `input: 'question'`. */
function optionText(option: 'id' | 'input' | 'expected', field: DatasetField<unknown>): string {
  return typeof field === 'string' ? `${option}: ${JSON.stringify(field)}` : `${option}: (row) => ...`
}

/** The columns of a row, for a fix line. */
function columnsOf(row: Record<string, unknown>): string {
  const keys = Object.keys(row)
  return keys.length === 0 ? 'none' : keys.join(', ')
}

/** A column that is named (by the caller or the default) and that a row lacks. */
function missingColumn(file: string, source: string, option: 'id' | 'input' | 'expected', column: string, row: Record<string, unknown>): InvalidFormatError {
  return new InvalidFormatError(`Invalid dataset row ${source}: no \`${column}\` column (the case's ${option}).`, {
    file: source,
    field: column,
    hint: `Add a \`${column}\` value to every row of ${file}, or pass loadDataset(file, { ${option}: 'another column' }) naming the column that holds it (this row has: ${columnsOf(row)}).`,
  })
}

/** The value of `field` in `row`, or a missing-column error. A function that throws names the row. */
function fieldValue<T>(
  file: string,
  record: DatasetRecord,
  row: Record<string, unknown>,
  index: number,
  option: 'id' | 'input' | 'expected',
  field: DatasetField<T>,
): T {
  if (typeof field === 'string') {
    if (!Object.hasOwn(row, field)) throw missingColumn(file, record.source, option, field, row)
    return row[field] as T
  }
  try {
    return field(row, index)
  } catch (error) {
    throw new InvalidFormatError(
      `Invalid dataset row ${record.source}: the \`${option}\` function of loadDataset threw: ${(error as Error)?.message ?? String(error)}`,
      {
        file: record.source,
        hint: `Make the \`${option}\` function handle this row (it has: ${columnsOf(row)}), or fix the row in ${file}.`,
        cause: error,
      },
    )
  }
}

/** A case id: a non-empty string (a number is turned into one), else an error naming the row. */
function caseId(file: string, record: DatasetRecord, value: unknown, option: DatasetField<unknown>): string {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined
  if (text !== undefined && text !== '') return text
  const got =
    value === undefined
      ? 'nothing'
      : value === '' || (typeof value === 'string' && value.trim() === '')
        ? 'an empty string'
        : (JSON.stringify(value) ?? String(value))
  return failId(file, record, `its id is ${got}`, option)
}

function failId(file: string, record: DatasetRecord, why: string, option: DatasetField<unknown>): never {
  throw new InvalidFormatError(`Invalid dataset row ${record.source}: ${why}, but every case needs a non-empty id (a string or a number).`, {
    file: record.source,
    field: typeof option === 'string' ? option : 'id',
    hint: `Give the row at ${record.source} an id (${optionText('id', option)} reads it), unique in ${file}: it names the test and the results row.`,
  })
}

/**
 * Loads the cases of an eval from a `.jsonl`, `.json` (an array, `{rows: [...]}`, or a Hugging Face rows-API
 * response), `.csv` (a header row; cells are strings) or `.parquet` file: each row gives one case, its `id`, `input`
 * and `expected` read from the columns (or by the functions) the options name, and every other column kept in
 * `case.metadata`. Pass the cases to `describeEval`'s `data`:
 *
 * ```ts
 * const data = await loadDataset('evals/capitals.csv', { id: 'id', input: 'country', expected: 'capital' })
 * describeEval('capitals', { data, task: (country) => askMyAgent(country), scorers: [exactMatchScorer] })
 * ```
 *
 * Every problem is one error that names the file, the row (`file:line` or `file row N`) and the fix, thrown before any
 * case runs: a missing or unreadable file, an unknown extension, bad JSON or CSV, a row without a named column, an
 * empty id, two rows with one id.
 *
 * @throws {DatasetFileNotFoundError} when the file cannot be read
 * @throws {InvalidFormatError} on the first bad row
 */
export async function loadDataset<Input = unknown, Expected = unknown>(
  file: string,
  options: LoadDatasetOptions<Input, Expected> = {},
): Promise<Array<EvalCase<Input, Expected>>> {
  const records = await readDatasetRecords(file, FORMAT)
  const unreadable = records.find((record) => record.error !== undefined)
  if (unreadable?.error !== undefined) throw unreadable.error
  const rows = records.map((record) => {
    const value = plainValue(record.value)
    if (!isRecordObject(value)) {
      throw new InvalidFormatError(
        `Invalid dataset row ${record.source}: expected an object (one value per column), got ${JSON.stringify(value) ?? String(value)}.`,
        {
          file: record.source,
          hint: `Write the row at ${record.source} as one object, e.g. {"id": "1", "input": "...", "expected": "..."}.`,
        },
      )
    }
    return value
  })
  const idField = options.id ?? 'id'
  const inputField = options.input ?? 'input'
  const expectedField = options.expected ?? 'expected'
  // A default column absent from every row means "no ids" / "no expected values", not a missing column.
  const withIds = options.id !== undefined || rows.some((row) => Object.hasOwn(row, 'id'))
  const withExpected = options.expected !== undefined || rows.some((row) => Object.hasOwn(row, 'expected'))
  const used = new Set([idField, inputField, expectedField].filter((field): field is string => typeof field === 'string'))
  const seen = new Map<string, string>()
  return rows.map((row, index) => {
    const record = records[index] as DatasetRecord
    const input = fieldValue(file, record, row, index, 'input', inputField)
    const expected = withExpected ? fieldValue(file, record, row, index, 'expected', expectedField) : (undefined as Expected)
    const metadata = Object.fromEntries(Object.entries(row).filter(([key]) => !used.has(key)))
    const item: EvalCase<Input, Expected> = { input, expected, metadata }
    if (!withIds) return item
    if (typeof idField === 'string' && !Object.hasOwn(row, idField)) failId(file, record, `it has no \`${idField}\` column`, idField)
    const id = caseId(file, record, fieldValue(file, record, row, index, 'id', idField), idField)
    const first = seen.get(id)
    if (first !== undefined) {
      throw new InvalidFormatError(`Invalid dataset ${file}: two rows have the id ${JSON.stringify(id)}: ${first} and ${record.source}.`, {
        file: record.source,
        field: typeof idField === 'string' ? idField : 'id',
        hint: `Give every row of ${file} a unique id: it names the test and the results row (change or remove one of the two rows).`,
      })
    }
    seen.set(id, record.source)
    return { id, ...item }
  })
}
