import { createReadStream, existsSync, statSync } from 'node:fs'
import { parse } from 'csv-parse'
import { ConfigError } from '../../core/errors.ts'
import type { EmailStore } from '../store/email-store.ts'
import { type ImportOptions, type ImportReport, ImportSink } from './import-sink.ts'
import { defaultParseWorkers, ParsePool, type PendingMessage } from './parse-pool.ts'

/** Below this size (about 20,000 messages), parsing stays on the importing thread (see import-maildir.ts). */
const MIN_BYTES_FOR_WORKERS = 50_000_000

/**
 * Imports the Kaggle `emails.csv` (columns `file`, `message`: the maildir path and the raw RFC 2822 text,
 * as multi-line quoted fields), streaming it row by row. The unit for inbox inference is the first segment of
 * `file` (`allen-p/_sent_mail/1.` -> `allen-p`), as for {@link importMaildir}. MIME parsing runs on worker threads
 * for files from 50 MB (see {@link ImportOptions.parseWorkers}).
 */
export async function importKaggleCsv(store: EmailStore, csvPath: string, options: ImportOptions = {}): Promise<ImportReport> {
  if (!existsSync(csvPath)) {
    throw new ConfigError(`CSV file ${csvPath} does not exist.`, { hint: 'Pass the path of the Kaggle emails.csv (columns file,message).' })
  }
  const sink = new ImportSink(store, options)
  const parser = createReadStream(csvPath).pipe(
    parse({ columns: true, skip_empty_lines: true, relax_column_count: true, bom: true, info: true }),
  )
  let csvError: Error | undefined
  async function* rows(): AsyncGenerator<PendingMessage> {
    try {
      for await (const entry of parser as AsyncIterable<{ record: Record<string, string | undefined>; info: { lines: number } }>) {
        const { record, info } = entry
        const fileName = record.file?.trim() || `${csvPath}:${info.lines}`
        const message = record.message
        if (message === undefined || message.trim() === '') yield { fileName, unreadable: `row ending on line ${info.lines} has no \`message\` column` }
        else yield { raw: message, fileName }
      }
    } catch (error) {
      csvError = error as Error
    }
  }
  const workers = options.parseWorkers ?? (statSync(csvPath).size < MIN_BYTES_FOR_WORKERS ? 0 : defaultParseWorkers())
  const pool = new ParsePool(workers)
  try {
    for await (const { fileName, outcome } of pool.parseInOrder(rows())) {
      if (sink.full) break
      if (outcome.kind === 'failed') sink.fail(fileName, outcome.reason)
      else sink.add(outcome.value, fileName, fileName.split('/')[0] ?? fileName)
    }
  } finally {
    parser.destroy()
    await pool.close()
  }
  if (csvError !== undefined) sink.fail(csvPath, `CSV parse error, import stopped: ${csvError.message}`)
  return sink.finish()
}
