import { createReadStream, existsSync, statSync } from 'node:fs'
import { parse } from 'csv-parse'
import { ConfigError, InvalidFormatError } from '../../core/errors.ts'
import type { EmailStore } from '../store/email-store.ts'
import { type ImportOptions, type ImportReport, ImportSink } from './import-sink.ts'
import { defaultParseWorkers, ParsePool, type PendingMessage } from './parse-pool.ts'

/** Below this size (about 20,000 messages), parsing stays on the importing thread (see import-maildir.ts). */
const MIN_BYTES_FOR_WORKERS = 50_000_000

/** One record of the CSV parser (`info: true`). */
interface CsvEntry {
  record: Record<string, string | undefined>
  info: { lines: number }
}

/** The columns of the Kaggle `emails.csv`, as its header line names them. */
export const KAGGLE_CSV_COLUMNS = ['file', 'message'] as const

/** What a Kaggle CSV import did. */
export interface KaggleCsvImportReport extends ImportReport {
  /**
   * Set when the CSV could not be read to its end (a quote left open, a stray quote): the rows before the one that
   * fails are imported, the rest of the file is not read. `line` is where the parser stopped (for a quote never
   * closed, the end of the file). The error is also listed in `failures`.
   */
  stopped?: { line: number | undefined; reason: string }
}

/**
 * Imports the Kaggle `emails.csv` (columns `file`, `message`: the maildir path and the raw RFC 2822 text,
 * as multi-line quoted fields), streaming it row by row. The unit for inbox inference is the first segment of
 * `file` (`allen-p/_sent_mail/1.` -> `allen-p`), as for {@link importMaildir}. MIME parsing runs on worker threads
 * for files from 50 MB (see {@link ImportOptions.parseWorkers}). A header without both columns is an
 * {@link InvalidFormatError} before anything is imported; a CSV error further on stops the import there (see
 * {@link KaggleCsvImportReport.stopped}).
 */
export async function importKaggleCsv(store: EmailStore, csvPath: string, options: ImportOptions = {}): Promise<KaggleCsvImportReport> {
  if (!existsSync(csvPath) || !statSync(csvPath).isFile()) {
    throw new ConfigError(`CSV file ${csvPath} ${existsSync(csvPath) ? 'is not a file' : 'does not exist'}.`, {
      hint: 'Pass the path of the Kaggle emails.csv (columns file,message).',
    })
  }
  const sink = new ImportSink(store, options)
  let headerError: InvalidFormatError | undefined
  const columns = (names: string[]): string[] => {
    const header = names.map((name) => name.trim())
    const missing = KAGGLE_CSV_COLUMNS.filter((name) => !header.includes(name))
    if (missing.length > 0) {
      headerError = new InvalidFormatError(`CSV file ${csvPath} has the columns ${header.join(',')} (line 1), without ${missing.join(' and ')}.`, {
        file: `${csvPath}:1`,
        field: missing[0],
        hint: `Pass the Kaggle emails.csv, whose header line is ${KAGGLE_CSV_COLUMNS.join(',')} (file: the mail's maildir path, e.g. allen-p/_sent_mail/1.; message: the raw email), or import parsed emails with --jsonl.`,
      })
      throw headerError
    }
    return header
  }
  const parser = parse({ columns, skip_empty_lines: true, relax_column_count: true, bom: true, info: true })
  let csvError: (Error & { lines?: number }) | undefined
  parser.on('error', (error: Error) => void (csvError ??= error))
  // Records are taken as the parser emits them ('data'), one chunk of the file at a time: a CSV error then stops the
  // import after every row before it (an async iterator over the parser would drop the rows of that chunk).
  const parsed: CsvEntry[] = []
  parser.on('data', (entry: CsvEntry) => parsed.push(entry))
  function* take(): Generator<PendingMessage> {
    for (const { record, info } of parsed.splice(0)) {
      const fileName = record.file?.trim() || `${csvPath}:${info.lines}`
      const message = record.message
      if (message === undefined || message.trim() === '') yield { fileName, unreadable: `row ending on line ${info.lines} has no \`message\` column` }
      else yield { raw: message, fileName }
    }
  }
  async function* rows(): AsyncGenerator<PendingMessage> {
    for await (const chunk of createReadStream(csvPath)) {
      await new Promise<void>((resolve) => parser.write(chunk, () => resolve()))
      yield* take()
      if (csvError !== undefined) return
    }
    await new Promise<void>((resolve) => {
      parser.once('end', resolve)
      parser.once('error', () => resolve())
      parser.end()
    })
    yield* take()
  }
  const workers = options.parseWorkers ?? (statSync(csvPath).size < MIN_BYTES_FOR_WORKERS ? 0 : defaultParseWorkers())
  const pool = new ParsePool(workers)
  try {
    for await (const { fileName, outcome } of pool.parseInOrder(rows())) {
      if (sink.full) break
      if (outcome.kind === 'failed') sink.fail(fileName, outcome.reason)
      else sink.add(outcome.value, fileName, fileName.split('/')[0] ?? fileName)
    }
  } catch (error) {
    sink.close()
    throw error
  } finally {
    parser.destroy()
    await pool.close()
  }
  if (headerError !== undefined) throw headerError
  if (csvError === undefined) return sink.finish()
  const line = typeof csvError.lines === 'number' ? csvError.lines : undefined
  sink.fail(line === undefined ? csvPath : `${csvPath}:${line}`, `CSV parse error, import stopped: ${csvError.message}`)
  return { ...sink.finish(), stopped: { line, reason: csvError.message } }
}
