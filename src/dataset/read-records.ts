import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { parse as parseCsv } from 'csv-parse/sync'
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet'
import { InvalidFormatError } from '../core/errors.ts'
import { describeJsonSyntaxError } from '../core/parse.ts'

/** The file extensions {@link readDatasetRecords} reads. */
export const DATASET_EXTENSIONS = ['.jsonl', '.ndjson', '.json', '.csv', '.parquet'] as const

/** One raw record of a dataset file and where it came from (`file:line` or `file row N`). */
export interface DatasetRecord {
  value: unknown
  source: string
  /** A JSONL line that is not JSON: `value` is undefined; the loader decides whether it fails the load or only its row. */
  error?: InvalidFormatError
}

/** How a dataset's messages name things, and the hooks a format of rows adds (ART-E's columns, an eval's fields). */
export interface DatasetFormat {
  /** The file in messages: `Invalid {label} data.csv:3: ...` (`ART-E dataset`, `dataset`). */
  label: string
  /** One record in messages about a line of a `.jsonl` file (`ART-E row`, `dataset row`). */
  rowLabel: string
  /** The fix of a file of another extension. */
  extensionHint: string
  /** The fix of a `.json` file that holds no list of rows. */
  jsonShapeHint: string
  /** The error of a file that cannot be read (missing, a folder, no permission). */
  notFound: (file: string, cause: unknown) => Error
  /** The columns named in a CSV error's fix when the header could not be read. @default none named */
  csvColumns?: ReadonlyArray<string>
  /** Checks a CSV header (line 1) before the rows are read: throws when a column is missing. */
  checkCsvHeader?: (header: ReadonlyArray<string>, file: string) => void
  /** Turns a CSV record (cells are all strings) into the value the row schema reads. @default the record as it is */
  coerceCsv?: (record: Record<string, string>) => unknown
  /**
   * One item of a `.json` list as a record: the default unwraps the Hugging Face rows-API shape
   * `{row_idx, row: {...}, truncated_cells}` to its `row`.
   */
  unwrapJson?: (item: unknown) => unknown
}

/** Whether `value` is a plain object (not null, not an array). */
export function isRecordObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function unwrapRowsApi(item: unknown): unknown {
  return isRecordObject(item) && isRecordObject(item.row) && 'row_idx' in item ? item.row : item
}

/**
 * The records of a `.jsonl` (`.ndjson`), `.json` (an array, `{rows: [...]}`, or the Hugging Face rows-API shape
 * `{rows: [{row: {...}}]}`), `.csv` (a header row; cells are strings unless `format.coerceCsv` converts them) or
 * `.parquet` file, each with where it came from: `file:line` (JSONL, CSV) or `file row N` (JSON, parquet).
 *
 * @throws what `format.notFound` gives when the file cannot be read
 * @throws {InvalidFormatError} for an unknown extension, bad JSON (with its line and column), bad CSV (with its line),
 *   an unreadable parquet file, or a `.json` file that holds no list
 */
export function readDatasetRecords(path: string, format: DatasetFormat): Promise<DatasetRecord[]> | DatasetRecord[] {
  const extension = extname(path).toLowerCase()
  switch (extension) {
    case '.jsonl':
    case '.ndjson':
      return readJsonl(path, format)
    case '.json':
      return readJson(path, format)
    case '.csv':
      return readCsv(path, format)
    case '.parquet':
      return readParquet(path, format)
    default:
      throw new InvalidFormatError(`Unsupported ${format.label} file ${path}: unknown extension "${extension}"`, {
        file: path,
        hint: format.extensionHint,
      })
  }
}

function readText(path: string, format: DatasetFormat): string {
  try {
    return readFileSync(path, 'utf8').replace(/^\uFEFF/, '')
  } catch (error) {
    throw format.notFound(path, error)
  }
}

function readJsonl(path: string, format: DatasetFormat): DatasetRecord[] {
  const records: DatasetRecord[] = []
  const lines = readText(path, format).split(/\r?\n/)
  lines.forEach((line, index) => {
    if (line.trim() === '') return
    const source = `${path}:${index + 1}`
    try {
      records.push({ value: parseJsonText(line, source, format, index + 1), source })
    } catch (error) {
      if (!(error instanceof InvalidFormatError)) throw error
      records.push({ value: undefined, source, error })
    }
  })
  return records
}

function readJson(path: string, format: DatasetFormat): DatasetRecord[] {
  const data = parseJsonText(readText(path, format), path, format)
  const list = Array.isArray(data) ? data : isRecordObject(data) && Array.isArray(data.rows) ? data.rows : undefined
  if (list === undefined) {
    throw new InvalidFormatError(`Invalid ${format.label} ${path}: expected an array of rows or an object with a "rows" array`, {
      file: path,
      field: 'rows',
      hint: format.jsonShapeHint,
    })
  }
  const unwrap = format.unwrapJson ?? unwrapRowsApi
  return list.map((item: unknown, index) => ({ value: unwrap(item), source: `${path} row ${index + 1}` }))
}

function readCsv(path: string, format: DatasetFormat): DatasetRecord[] {
  let header: string[] = []
  let parsed: Array<{ record: Record<string, string>; info: { lines: number } }>
  const text = readText(path, format)
  try {
    const columns = (names: string[]): string[] => (header = names)
    parsed = parseCsv(text, { columns, bom: true, info: true, skip_empty_lines: true })
  } catch (error) {
    throw csvError(path, error, header, format)
  }
  if (header.length > 0) format.checkCsvHeader?.(header, path)
  const coerce = format.coerceCsv ?? ((record: Record<string, string>) => record)
  return parsed.map(({ record, info }) => ({ value: coerce(record), source: `${path}:${info.lines}` }))
}

/** A csv-parse failure: the line it stopped at, and a fix for the common causes (cell count, quotes). */
function csvError(path: string, error: unknown, header: ReadonlyArray<string>, format: DatasetFormat): InvalidFormatError {
  const { code, lines, message } = error as Error & { code?: string; lines?: number }
  const where = typeof lines === 'number' ? `${path}:${lines}` : path
  const columns = header.length > 0 ? header.join(',') : (format.csvColumns ?? []).join(',')
  const quoting = 'a cell holding a comma, a double quote or a line break goes in double quotes, each double quote inside it doubled ("")'
  const hint =
    code === 'CSV_RECORD_INCONSISTENT_COLUMNS' || code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH'
      ? `Give line ${lines ?? '?'} of ${path} one cell per header column (${columns}): ${quoting}.`
      : code !== undefined && /QUOTE/.test(code)
        ? `Fix the quoting at ${where}: ${quoting}.`
        : `Make ${path} valid CSV with a header row${columns === '' ? '' : ` (${columns})`}.`
  return new InvalidFormatError(`Invalid ${format.label} ${where}: not valid CSV (${message})`, { file: where, hint, cause: error })
}

async function readParquet(path: string, format: DatasetFormat): Promise<DatasetRecord[]> {
  let file: Awaited<ReturnType<typeof asyncBufferFromFile>>
  try {
    file = await asyncBufferFromFile(path)
  } catch (error) {
    throw format.notFound(path, error)
  }
  let rows: Array<Record<string, unknown>>
  try {
    rows = await parquetReadObjects({ file, rowFormat: 'object' })
  } catch (error) {
    throw new InvalidFormatError(`Invalid ${format.label} ${path}: not a readable parquet file (${(error as Error).message})`, {
      file: path,
      hint: 'Re-download the parquet file, or pass the dataset as .jsonl, .json or .csv.',
      cause: error,
    })
  }
  return rows.map((row, index) => ({ value: row, source: `${path} row ${index + 1}` }))
}

/**
 * `JSON.parse`, failing with the line and column of bad JSON. `lineNumber`: `text` is that line of a JSONL file
 * (`source` names it; the message gives the column).
 */
function parseJsonText(text: string, source: string, format: DatasetFormat, lineNumber?: number): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const oneLine = lineNumber !== undefined
    const { summary, line, column } = describeJsonSyntaxError(text, error, oneLine ? { lineNumber } : {})
    const at = line === undefined ? source : oneLine ? `${source}:${column}` : `${source}:${line}:${column}`
    throw new InvalidFormatError(`Invalid ${oneLine ? format.rowLabel : format.label} ${source}: ${summary}`, {
      file: source,
      hint: `Fix the JSON at ${at}${oneLine ? ' (each line of a .jsonl file is one JSON object)' : ''}.`,
      cause: error,
    })
  }
}
