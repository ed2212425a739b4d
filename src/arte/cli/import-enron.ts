import { existsSync } from 'node:fs'
import { EmailStore } from '../store/email-store.ts'
import { FTS_INDEXED_CHARS } from '../store/schema.ts'
import { DEFAULT_IMPORT_BATCH_SIZE, type ImportOptions, type ImportReport } from '../import/import-sink.ts'
import { BenchError, UsageError } from '../../core/errors.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { FlagValueError, wholeNumberFlag } from '../../cli/flags.ts'
import { missingFlagPathError } from '../../cli/flag-value-error.ts'
import type { KaggleCsvImportReport } from '../import/import-kaggle-csv.ts'

// Only the chosen importer is loaded (start-up time: the JSONL one brings zod, the CSV one csv-parse). Kept outside
// `run`: tsc does not rewrite `.ts` in a dynamic import inside a function holding a `using` declaration.
const loadMaildirImporter = () => import('../import/import-maildir.ts')
const loadCsvImporter = () => import('../import/import-kaggle-csv.ts')
const loadJsonlImporter = () => import('../import/import-jsonl.ts')

function formatReport(report: ImportReport, db: string, total: number): string {
  const lines = [
    `Imported:   ${report.imported.toLocaleString('en-US')}`,
    `Duplicates: ${report.duplicates.toLocaleString('en-US')}`,
    `Failed:     ${report.failed.toLocaleString('en-US')}`,
    `Odd dates:  ${report.oddDates.toLocaleString('en-US')}`,
    `Charsets:   ${report.charsetWarnings.toLocaleString('en-US')} unknown (text decoded as Latin-1)`,
    `Long bodies: ${report.longBodies.toLocaleString('en-US')} over ${FTS_INDEXED_CHARS.toLocaleString('en-US')} characters (searchable in their first ${FTS_INDEXED_CHARS.toLocaleString('en-US')} only)`,
    `Database:   ${db} (${total.toLocaleString('en-US')} emails)`,
  ]
  const inboxes = Object.entries(report.inboxes)
  if (inboxes.length > 0) {
    lines.push('Inboxes:')
    for (const [mailbox, address] of inboxes) lines.push(`  ${mailbox.padEnd(24)} ${address}`)
  }
  if (report.failures.length > 0) {
    lines.push(`Failures${report.failed > report.failures.length ? ` (first ${report.failures.length})` : ''}:`)
    for (const failure of report.failures) lines.push(`  ${failure.file}: ${failure.reason}`)
  }
  if (report.oddDateSamples.length > 0) {
    lines.push(`Odd dates${report.oddDates > report.oddDateSamples.length ? ` (first ${report.oddDateSamples.length})` : ''}:`)
    for (const odd of report.oddDateSamples) lines.push(`  ${odd.file}: ${odd.reason}`)
  }
  for (const [label, count, samples] of [
    ['Unknown charsets', report.charsetWarnings, report.charsetWarningSamples],
    ['Long bodies', report.longBodies, report.longBodySamples],
  ] as const) {
    if (samples.length === 0) continue
    lines.push(`${label}${count > samples.length ? ` (first ${samples.length})` : ''}:`)
    for (const sample of samples) lines.push(`  ${sample.file}: ${sample.reason}`)
  }
  return lines.join('\n')
}

/** `agent-bench import-enron`: import a maildir, Kaggle CSV or JSONL into the email store. */
export const command = defineCommand({
  name: 'import-enron',
  summary: 'Import Enron mail (maildir, Kaggle CSV or JSONL) into the SQLite email store',
  description: `Imports Enron (or any) email into the SQLite FTS5 store used by the ART-E tools, from exactly one source:
--maildir, --csv-path or --jsonl. Re-running an import is idempotent: a Message-ID already stored counts as a
duplicate.`,
  options: {
    db: { type: 'string', value: 'FILE', description: 'database to create or add to', required: true },
    maildir: { type: 'string', value: 'DIR', description: 'source: CMU maildir tree of raw RFC 2822 files (maildir/<user>/<folder>/<n>.)' },
    'csv-path': { type: 'string', value: 'FILE', description: 'source: Kaggle emails.csv (columns file,message)' },
    jsonl: {
      type: 'string',
      value: 'FILE',
      description:
        'source: parsed emails, one JSON object a line (message_id, subject, from, to, cc, bcc, date, body, file_name; optional inbox: stored under it, no inference)',
    },
    inbox: {
      type: 'string',
      value: 'ADDRESS',
      description:
        "store every message under this inbox (default: infer each mailbox's owner: most common sender in its sent folders, else an address holding the mailbox's surname, else the most common recipient)",
    },
    limit: { type: 'string', value: 'N', description: 'read at most N messages (0 = all)', default: 0 },
    'batch-size': {
      type: 'string',
      value: 'N',
      description: 'messages of a mailbox held while its owner is inferred (one transaction per import)',
      default: DEFAULT_IMPORT_BATCH_SIZE,
    },
    'parse-workers': {
      type: 'string',
      value: 'N',
      description: 'maildir, CSV: threads that parse MIME while inserting (0 = none; default one per core but one, 1-4)',
    },
    json: { type: 'boolean', description: 'print one line {"imported":N,"duplicates":N,"failed":N}' },
  },
  async run({ values }) {
    const sources = (['maildir', 'csv-path', 'jsonl'] as const).filter((name) => values[name] !== undefined)
    if (sources.length !== 1) {
      throw new UsageError(sources.length === 0 ? 'No source given.' : `Give one source, got ${sources.map((name) => `--${name}`).join(' and ')}.`, {
        hint: 'Pass exactly one of --maildir DIR, --csv-path FILE or --jsonl FILE.',
      })
    }
    const options: ImportOptions = {
      inbox: values.inbox,
      limit: wholeNumberFlag('--limit', values.limit, { min: 0, example: 1000 }),
      batchSize: wholeNumberFlag('--batch-size', values['batch-size'], { min: 1, example: 1000 }),
      parseWorkers: wholeNumberFlag('--parse-workers', values['parse-workers'], { min: 0, example: 2 }),
    }
    if (options.inbox !== undefined && !options.inbox.includes('@')) {
      throw new FlagValueError(`--inbox ${JSON.stringify(options.inbox)} is not an email address.`, {
        hint: 'Pass the mailbox owner address, e.g. --inbox jeff.dasovich@enron.com.',
      })
    }
    const db = values.db as string
    using store = EmailStore.open(db)
    const source = values.maildir ?? values['csv-path'] ?? values.jsonl ?? ''
    let report: ImportReport & Pick<KaggleCsvImportReport, 'stopped'>
    try {
      if (values.maildir !== undefined) {
        const { importMaildir } = await loadMaildirImporter()
        report = await importMaildir(store, values.maildir, options)
      } else if (values['csv-path'] !== undefined) {
        const { importKaggleCsv } = await loadCsvImporter()
        report = await importKaggleCsv(store, values['csv-path'], options)
      } else {
        const { importJsonl } = await loadJsonlImporter()
        report = await importJsonl(store, values.jsonl ?? '', options)
      }
    } catch (error) {
      // A source path that is not there is a bad command line (exit 2); a source that is there but bad is not.
      throw existsSync(source) ? error : missingFlagPathError(error)
    }
    const read = report.imported + report.duplicates + report.failed
    if (read === 0 && report.stopped === undefined) throw nothingFound(sources[0] ?? 'maildir', source)
    if (report.imported > 0) store.optimize()
    if (values.json === true) {
      console.log(JSON.stringify({ imported: report.imported, duplicates: report.duplicates, failed: report.failed }))
    } else {
      console.log(formatReport(report, db, store.count()))
    }
    if (report.stopped !== undefined) throw importStopped(source, db, report, report.stopped)
    return 0
  },
})

/** Nothing at all was read from the source: an empty folder, a CSV with only its header, a blank JSONL file. */
function nothingFound(kind: 'maildir' | 'csv-path' | 'jsonl', source: string): BenchError {
  const [what, hint] =
    kind === 'maildir'
      ? [
          `maildir ${source} holds no message files`,
          'Pass the folder that holds the mailboxes (CMU layout: maildir/<user>/<folder>/<n>.), or one mailbox folder.',
        ]
      : kind === 'csv-path'
        ? [`CSV file ${source} has no rows after its header`, 'Pass the Kaggle emails.csv: the header line file,message, then one row per email.']
        : [
            `JSONL file ${source} has no lines`,
            'Pass a file of parsed emails, one JSON object a line (message_id, subject, from, to, cc, bcc, date, body, file_name).',
          ]
  return new BenchError('ERR_IMPORT_EMPTY', `Nothing imported: the ${what}.`, { hint })
}

/** A CSV error stopped the import part way: what was imported stays; the message says how much and where it stopped. */
function importStopped(source: string, db: string, report: ImportReport, stopped: NonNullable<KaggleCsvImportReport['stopped']>): BenchError {
  const at = stopped.line === undefined ? source : `${source}:${stopped.line}`
  return new BenchError(
    'ERR_IMPORT_STOPPED',
    `The import stopped at ${at}: ${stopped.reason}\n  ${report.imported.toLocaleString('en-US')} email(s) before it were imported into ${db} (they stay there); the rest of the file was not read.`,
    {
      hint: `Fix the CSV at ${at} (a field holding a quote, a comma or a line break is quoted whole, each quote inside doubled: ""), then run the same command again: the emails already imported count as duplicates.`,
    },
  )
}
