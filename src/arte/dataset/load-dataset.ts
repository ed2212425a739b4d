import { basename, extname } from 'node:path'
import { ConfigError, InvalidFormatError } from '../../core/errors.ts'
import { type DatasetFormat, type DatasetRecord, isRecordObject, readDatasetRecords } from '../../dataset/read-records.ts'
import { DatasetNotFoundError, invalidArteRowError } from './dataset-errors.ts'
import { parseIdList } from './parse-id-list.ts'
import { ARTE_ROW_FIELD_FORMATS, type ArteRow, ArteRowSchema } from './row.ts'
import { type ArteRowSelection, selectsArteRow } from './row-selection.ts'

/** Options of {@link loadArteDataset}. */
export interface LoadArteDatasetOptions {
  /** Keep only rows of this split. @default all rows */
  split?: 'train' | 'test'
  /** Keep only the rows this selection keeps (after the split filter, before the limit). @default 'all' */
  rows?: ArteRowSelection
  /** Keep at most this many rows (after the split and row filters), in file order; 0 keeps all. @default 0 */
  limit?: number
  /**
   * When given, a bad row (a JSONL line that is not JSON, a row that does not match the schema) is added here and
   * left out, instead of failing the whole load: each bad row then fails alone (see `defineArteTests`). A bad row
   * whose `split` names another split is not selected; one counts towards `limit`. A file that cannot be read or
   * parsed as a whole still throws. @default undefined (the first bad row throws)
   */
  badRows?: BadArteRow[]
}

/** A row {@link loadArteDataset} left out (see `badRows`): where it is, its id when readable, and why. */
export interface BadArteRow {
  /** `file:line` or `file row N`. */
  source: string
  /** The row's `id` when it has one. */
  id: string | undefined
  error: InvalidFormatError
}

const LABEL = 'ART-E row'

const ROW_SOURCES = new WeakMap<ArteRow, string>()

/** Where a row returned by {@link loadArteDataset} came from (`file:line` or `file row N`); undefined for other rows. */
export function arteRowSource(row: ArteRow): string | undefined {
  return ROW_SOURCES.get(row)
}

/**
 * Loads ART-E rows from a `.jsonl`, `.json` (an array, `{rows: [...]}`, or the Hugging Face
 * rows-API shape `{rows: [{row: {...}}]}`), `.csv` or `.parquet` file, then filters by split,
 * row selection and limit. Rows without a `split` field take it from the file name when it names one
 * (`test-00000-of-00001.parquet`, `rows-test-0-100.json`).
 *
 * @throws {DatasetNotFoundError} when the file cannot be read
 * @throws {InvalidFormatError} on the first bad row, naming the file, line or row, and field
 * @throws {ConfigError} when `limit` is not a whole number >= 0
 */
export async function loadArteDataset(path: string, options: LoadArteDatasetOptions = {}): Promise<ArteRow[]> {
  checkLimit(options.limit ?? 0)
  return selectRows(path, await readRecords(path), options)
}

/**
 * {@link loadArteDataset} read synchronously (for a signal handler, which cannot wait); `undefined` for a `.parquet`
 * file, which is read asynchronously only.
 */
export function loadArteDatasetSync(path: string, options: LoadArteDatasetOptions = {}): ArteRow[] | undefined {
  checkLimit(options.limit ?? 0)
  if (extname(path).toLowerCase() === '.parquet') return undefined
  const records = readRecords(path)
  if (records instanceof Promise) {
    records.catch(() => {})
    return undefined
  }
  return selectRows(path, records, options)
}

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 0) {
    throw new ConfigError(`Invalid ART-E dataset limit ${limit}`, { hint: 'Pass a whole number >= 0 as the limit (0 = all rows).' })
  }
}

/** The rows of `records` (read from `path`) that `options` select; see {@link loadArteDataset}. */
function selectRows(path: string, records: ReadonlyArray<DatasetRecord>, options: LoadArteDatasetOptions): ArteRow[] {
  const limit = options.limit ?? 0
  const fileSplit = splitFromFileName(path)
  const rows: ArteRow[] = []
  let bad = 0
  for (const { value, source, error } of records) {
    const record = error === undefined ? coerceRecord(value, fileSplit) : undefined
    const parsed = error === undefined ? ArteRowSchema.safeParse(record) : undefined
    if (parsed === undefined || !parsed.success) {
      const failure = error ?? invalidArteRowError(parsed?.error.issues ?? [], record, source)
      if (options.badRows === undefined) throw failure
      const raw = isRecordObject(record) ? record : {}
      if (options.split !== undefined && typeof raw.split === 'string' && raw.split !== options.split) continue
      const id = typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : undefined
      options.badRows.push({ source, id, error: failure })
      bad++
      if (limit > 0 && rows.length + bad >= limit) break
      continue
    }
    const row = parsed.data
    ROW_SOURCES.set(row, source)
    if (options.split !== undefined && row.split !== options.split) continue
    if (options.rows !== undefined && !selectsArteRow(options.rows, row)) continue
    rows.push(row)
    if (limit > 0 && rows.length + bad >= limit) break
  }
  return rows
}

/** Loads several dataset files (e.g. parquet shards) as one, in order; split, row selection and limit apply to the whole. */
export async function loadArteDatasetFiles(paths: ReadonlyArray<string>, options: LoadArteDatasetOptions = {}): Promise<ArteRow[]> {
  const limit = options.limit ?? 0
  const rows: ArteRow[] = []
  for (const path of paths) {
    const remaining = limit === 0 ? 0 : limit - rows.length
    if (limit > 0 && remaining <= 0) break
    rows.push(...(await loadArteDataset(path, { ...options, limit: remaining })))
  }
  return rows
}

/** The CSV header columns, in the order the hints give them. */
const CSV_COLUMNS = Object.keys(ARTE_ROW_FIELD_FORMATS)

/** How ART-E's messages name its files, and its CSV columns. */
function arteFormat(path: string): DatasetFormat {
  const needed = splitFromFileName(path) === undefined ? CSV_COLUMNS : CSV_COLUMNS.filter((name) => name !== 'split')
  return {
    label: 'ART-E dataset',
    rowLabel: LABEL,
    extensionHint: 'Pass a .jsonl, .json, .csv or .parquet file with --dataset.',
    jsonShapeHint: 'Give a JSON array of ART-E rows, {"rows": [...]}, or a Hugging Face rows-API response.',
    notFound: (file, cause) => new DatasetNotFoundError(file, { cause }),
    csvColumns: CSV_COLUMNS,
    checkCsvHeader: (header, file) => {
      const missing = needed.filter((name) => !header.includes(name))
      if (missing.length === 0) return
      throw new InvalidFormatError(`Invalid ART-E dataset ${file}: its header (line 1: ${header.join(',')}) has no column ${missing.join(', ')}.`, {
        file: `${file}:1`,
        field: missing[0],
        hint: `Add ${missing.join(', ')} to the header line of ${file}; the columns are ${CSV_COLUMNS.join(',')} (split may be left out when the file name names it, as in test.csv).`,
      })
    },
    coerceCsv: coerceCsvRecord,
    unwrapJson: (item) => (isRecordObject(item) && isRecordObject(item.row) && !('question' in item) ? item.row : item),
  }
}

function readRecords(path: string): Promise<DatasetRecord[]> | DatasetRecord[] {
  return readDatasetRecords(path, arteFormat(path))
}

/** `train` or `test` when the file name (not the folders) names exactly one of them. */
export function splitFromFileName(path: string): 'train' | 'test' | undefined {
  const name = basename(path).toLowerCase()
  const train = /(^|[^a-z])train([^a-z]|$)/.test(name)
  const test = /(^|[^a-z])test([^a-z]|$)/.test(name)
  if (train === test) return undefined
  return train ? 'train' : 'test'
}

/** Converts values that parquet and JSON readers give (bigint ids, Date dates) to the schema's shapes. */
function coerceRecord(value: unknown, fileSplit: 'train' | 'test' | undefined): unknown {
  if (!isRecordObject(value)) return value
  const out: Record<string, unknown> = { ...value }
  if (typeof out.id === 'bigint') out.id = bigintToId(out.id)
  if (out.query_date instanceof Date && !Number.isNaN(out.query_date.getTime())) out.query_date = out.query_date.toISOString().slice(0, 10)
  if (typeof out.how_realistic === 'bigint') out.how_realistic = Number(out.how_realistic)
  if (out.split === undefined && fileSplit !== undefined) out.split = fileSplit
  return out
}

function bigintToId(id: bigint): number | string {
  return id <= BigInt(Number.MAX_SAFE_INTEGER) && id >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(id) : id.toString()
}

/** CSV cells are all strings: turn numeric ids and scores into numbers, and list text into arrays. */
function coerceCsvRecord(record: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record }
  if (typeof record.id === 'string' && /^-?\d+$/.test(record.id.trim())) {
    const id = Number(record.id)
    out.id = Number.isSafeInteger(id) ? id : record.id.trim()
  }
  if (typeof record.how_realistic === 'string' && record.how_realistic.trim() !== '') {
    const score = Number(record.how_realistic)
    if (!Number.isNaN(score)) out.how_realistic = score
  }
  if (typeof record.message_ids === 'string') out.message_ids = parseIdList(record.message_ids) ?? record.message_ids
  if (record.split === '') delete out.split
  return out
}
