import { createReadStream, existsSync } from 'node:fs'
import { parse } from 'csv-parse'
import { ConfigError } from '../../core/errors.ts'
import type { EmailStore } from '../store/email-store.ts'
import { type ImportOptions, type ImportReport, ImportSink } from './import-sink.ts'
import { parseRawEmail } from './parse-raw-email.ts'

/**
 * Imports the Kaggle `emails.csv` (columns `file`, `message`: the maildir path and the raw RFC 2822 text,
 * as multi-line quoted fields), streaming it row by row. The unit for inbox inference is the first segment of
 * `file` (`allen-p/_sent_mail/1.` -> `allen-p`), as for {@link importMaildir}.
 */
export async function importKaggleCsv(store: EmailStore, csvPath: string, options: ImportOptions = {}): Promise<ImportReport> {
  if (!existsSync(csvPath)) {
    throw new ConfigError(`CSV file ${csvPath} does not exist.`, { hint: 'Pass the path of the Kaggle emails.csv (columns file,message).' })
  }
  const sink = new ImportSink(store, options)
  const parser = createReadStream(csvPath).pipe(
    parse({ columns: true, skip_empty_lines: true, relax_column_count: true, bom: true, info: true }),
  )
  try {
    for await (const entry of parser as AsyncIterable<{ record: Record<string, string | undefined>; info: { lines: number } }>) {
      if (sink.full) break
      const { record, info } = entry
      const file = record.file?.trim() || `${csvPath}:${info.lines}`
      const message = record.message
      if (message === undefined || message.trim() === '') {
        sink.fail(file, `row ending on line ${info.lines} has no \`message\` column`)
        continue
      }
      const outcome = await parseRawEmail(message, file)
      if (outcome.kind === 'failed') sink.fail(file, outcome.reason)
      else sink.add(outcome.value, file, file.split('/')[0] ?? file)
    }
  } catch (error) {
    sink.fail(csvPath, `CSV parse error, import stopped: ${(error as Error).message}`)
  } finally {
    parser.destroy()
  }
  return sink.finish()
}
