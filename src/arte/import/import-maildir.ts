import { readFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import fg from 'fast-glob'
import { ConfigError } from '../../core/errors.ts'
import type { EmailStore } from '../store/email-store.ts'
import { type ImportOptions, type ImportReport, ImportSink } from './import-sink.ts'
import { parseRawEmail } from './parse-raw-email.ts'

/** Folder names of one user's mailbox: a root holding one of these is a single mailbox, not `maildir/<user>/...`. */
const MAILBOX_FOLDER = /^(inbox|sent|sent_items|_sent_mail|sent_mail|all_documents|deleted_items|notes_inbox|discussion_threads|calendar|contacts|to_do)$/i

/**
 * Imports a CMU-style maildir: every (non-hidden) file under `dir` is one raw RFC 2822 message.
 * Files are read in path order (synchronously: one awaited read per small file costs more than the read). Without `options.inbox`, each `dir/<user>` folder is one unit whose mailboxes'
 * owners are inferred (see {@link ImportSink}); if `dir` itself is one user's mailbox (it holds `inbox`, `sent`, ...),
 * the whole of `dir` is one unit.
 */
export async function importMaildir(store: EmailStore, dir: string, options: ImportOptions = {}): Promise<ImportReport> {
  const info = await stat(dir).catch(() => undefined)
  if (info === undefined || !info.isDirectory()) {
    throw new ConfigError(`Maildir ${dir} is not a directory.`, {
      hint: 'Pass the folder that holds the mailboxes (CMU layout: maildir/<user>/<folder>/<n>.).',
    })
  }
  const files = (await fg('**/*', { cwd: dir, onlyFiles: true, dot: false })).sort()
  const singleMailbox = files.some((file) => {
    const top = file.split('/')[0]
    return file.includes('/') && top !== undefined && MAILBOX_FOLDER.test(top)
  })
  const rootName = basename(dir)
  const sink = new ImportSink(store, options)
  for (const file of files) {
    if (sink.full) break
    const unit = singleMailbox || !file.includes('/') ? rootName : (file.split('/')[0] ?? rootName)
    let raw: Uint8Array
    try {
      raw = readFileSync(join(dir, file))
    } catch (error) {
      sink.fail(file, `unreadable file: ${(error as Error).message}`)
      continue
    }
    const outcome = await parseRawEmail(raw, file)
    if (outcome.kind === 'failed') sink.fail(file, outcome.reason)
    else sink.add(outcome.value, file, unit)
  }
  return sink.finish()
}
