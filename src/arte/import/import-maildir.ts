import { readdirSync, statSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import type { EmailStore } from '../store/email-store.ts'
import { type ImportOptions, type ImportReport, ImportSink } from './import-sink.ts'
import { defaultParseWorkers, ParsePool, type PendingMessage } from './parse-pool.ts'

/**
 * Below this many files, parsing stays on the importing thread: with the fast path a message parses in well under
 * its insert time, and a worker's start-up and its own JIT warm-up cost more than it saves on the 2,900-message
 * Enron sample (measured on 2 shared cores).
 */
const MIN_FILES_FOR_WORKERS = 20_000

/** Folder names of one user's mailbox: a root holding one of these is a single mailbox, not `maildir/<user>/...`. */
const MAILBOX_FOLDER = /^(inbox|sent|sent_items|_sent_mail|sent_mail|all_documents|deleted_items|notes_inbox|discussion_threads|calendar|contacts|to_do)$/i

/**
 * Imports a CMU-style maildir: every (non-hidden) file under `dir` is one raw RFC 2822 message.
 * Files are taken in path order, read (synchronously: one awaited read per small file costs more than the read) and
 * parsed on worker threads while this thread inserts (see {@link ImportOptions.parseWorkers}). Without `options.inbox`,
 * each `dir/<user>` folder is one unit whose mailboxes' owners are inferred (see {@link ImportSink}); if `dir`
 * itself is one user's mailbox (it holds `inbox`, `sent`, ...), the whole of `dir` is one unit.
 */
export async function importMaildir(store: EmailStore, dir: string, options: ImportOptions = {}): Promise<ImportReport> {
  const info = await stat(dir).catch(() => undefined)
  if (info === undefined || !info.isDirectory()) {
    throw new ConfigError(`Maildir ${dir} is not a directory.`, {
      hint: 'Pass the folder that holds the mailboxes (CMU layout: maildir/<user>/<folder>/<n>.).',
    })
  }
  const files = listFiles(dir).sort()
  const singleMailbox = files.some((file) => {
    const top = file.split('/')[0]
    return file.includes('/') && top !== undefined && MAILBOX_FOLDER.test(top)
  })
  const rootName = basename(dir)
  const sink = new ImportSink(store, options)
  const unitOf = (file: string): string => (singleMailbox || !file.includes('/') ? rootName : (file.split('/')[0] ?? rootName))
  const workers = options.parseWorkers ?? (files.length < MIN_FILES_FOR_WORKERS ? 0 : defaultParseWorkers())
  const pool = new ParsePool(workers)
  const messages: PendingMessage[] = files.map((file) => ({ path: join(dir, file), fileName: file }))
  try {
    for await (const { fileName, outcome } of pool.parseInOrder(messages)) {
      if (sink.full) break
      if (outcome.kind === 'failed') sink.fail(fileName, outcome.reason)
      else sink.add(outcome.value, fileName, unitOf(fileName))
    }
  } catch (error) {
    sink.close()
    throw error
  } finally {
    await pool.close()
  }
  return sink.finish()
}

/**
 * The files under `dir`, relative with `/`, skipping names that start with a dot (and folders that do), following
 * symbolic links; as `fast-glob('**' + '/*', { onlyFiles: true, dot: false })` lists them, without loading it.
 * A link back to a folder being listed (a cycle, e.g. `loop -> ..`) is not followed again.
 */
function listFiles(dir: string, prefix = '', ancestors: ReadonlySet<string> = new Set([folderKey(dir)])): string[] {
  const out: string[] = []
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`
    let directory = entry.isDirectory()
    let file = entry.isFile()
    if (entry.isSymbolicLink()) {
      const target = statSync(join(dir, path), { throwIfNoEntry: false })
      directory = target?.isDirectory() ?? false
      file = target?.isFile() ?? false
    }
    if (directory) {
      const key = folderKey(join(dir, path))
      if (!ancestors.has(key)) out.push(...listFiles(dir, path, new Set([...ancestors, key])))
    } else if (file) {
      out.push(path)
    }
  }
  return out
}

/** A folder's identity on disk (device and inode), the same through any link to it. */
function folderKey(path: string): string {
  const { dev, ino } = statSync(path)
  return `${dev}:${ino}`
}
