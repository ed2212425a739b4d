import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import fg from 'fast-glob'
import { z } from 'zod'
import { loadArteDataset } from '../dataset/load-dataset.ts'
import { writeJsonAtomic } from '../../core/atomic-write.ts'
import { EmailStore } from '../store/email-store.ts'
import { importMaildir } from '../import/import-maildir.ts'
import type { ImportReport } from '../import/import-sink.ts'
import { SCHEMA_VERSION } from '../store/schema.ts'
import { BenchError, ConfigError } from '../../core/errors.ts'
import { defaultInput } from '../../core/package-root.ts'
import { type ArteSettings, DEFAULT_ARTE_DB, DEFAULT_ARTE_MAILDIR } from '../settings.ts'

/** Bumped when the way this module builds a database changes (forces a rebuild). */
const BUILD_FORMAT = 1

const StampSchema = z.object({ stamp: z.string(), maildir: z.string(), dataset: z.string(), builtAt: z.string() })

/** Where the email database came from. */
export type PreparedArteDb =
  | { kind: 'given'; path: string }
  | { kind: 'fresh'; path: string }
  | { kind: 'built'; path: string; report: ImportReport; tasks: number }

/** Inputs of {@link prepareArteDb} (from `ArteSettings`). */
export interface PrepareArteDbOptions {
  /** `ARTE_DB`: used as is when it exists and no maildir is given. */
  db: string | undefined
  /** `ARTE_MAILDIR`: the maildir to build from. @default data/demo-mailbox/maildir (the package's when `cwd` has none) */
  maildir: string | undefined
  /** Dataset whose rows are loaded into `art_e_tasks`. */
  dataset: string
  /** Base of the default paths. @default process.cwd() */
  cwd?: string
}

/** The sidecar file recording what a built database was built from. */
export function stampFile(dbPath: string): string {
  return `${dbPath}.stamp.json`
}

/**
 * Fingerprint of a build: every maildir file's relative path, size and mtime, the dataset's content,
 * the email schema version and {@link BUILD_FORMAT}.
 */
export async function buildStamp(maildir: string, dataset: string): Promise<string> {
  const hash = createHash('sha256')
  hash.update(`format ${BUILD_FORMAT} schema ${SCHEMA_VERSION}\n`)
  const files = (await fg('**/*', { cwd: maildir, onlyFiles: true, dot: false })).sort()
  for (const file of files) {
    const info = statSync(resolve(maildir, file))
    hash.update(`${file}\t${info.size}\t${Math.trunc(info.mtimeMs)}\n`)
  }
  hash.update(`dataset ${dataset}\n`)
  hash.update(existsSync(dataset) ? readFileSync(dataset) : 'missing')
  return hash.digest('hex')
}

function readStamp(dbPath: string): string | undefined {
  try {
    return StampSchema.parse(JSON.parse(readFileSync(stampFile(dbPath), 'utf8'))).stamp
  } catch {
    return undefined
  }
}

/**
 * Checks what {@link prepareArteDb} starts from, writing nothing: a given `ARTE_DB` (without `ARTE_MAILDIR`) must
 * exist, else the maildir to build from must. Returns that maildir, or `undefined` when the given database is used.
 * @throws {ConfigError} naming the variable and how to fix it
 */
export function assertArteDbInputs(options: Pick<PrepareArteDbOptions, 'db' | 'maildir' | 'cwd'>): string | undefined {
  if (options.db !== undefined && options.maildir === undefined) {
    if (existsSync(options.db)) return undefined
    throw new ConfigError(`ARTE_DB=${options.db} does not exist.`, {
      hint: `Build it with \`agent-bench import-enron --db ${options.db} --maildir DIR\`, set ARTE_MAILDIR to build it from a maildir, or unset ARTE_DB to use the demo mailbox.`,
    })
  }
  const maildir = options.maildir ?? defaultInput(DEFAULT_ARTE_MAILDIR, options.cwd ?? process.cwd())
  if (!existsSync(maildir)) {
    throw new ConfigError(`ART-E maildir ${maildir} does not exist.`, {
      hint: 'Set ARTE_MAILDIR to a CMU-style maildir, or ARTE_DB to a built email database.',
    })
  }
  return maildir
}

/**
 * Checks the inputs of an ART-E run before anything is built or run: the selected dataset rows (every one of them
 * parsed, as the test files will) and the email database inputs ({@link assertArteDbInputs}). Writes nothing; the
 * first problem is thrown, naming the file and line or the variable, and the fix.
 */
export async function checkArteInputs(settings: Pick<ArteSettings, 'db' | 'maildir' | 'dataset' | 'split' | 'limit'>): Promise<void> {
  // A bad row fails its own test (see defineArteTests), not the whole run: only a file that cannot be read fails here.
  await loadArteDataset(settings.dataset, { split: settings.split, limit: settings.limit, badRows: [] })
  assertArteDbInputs(settings)
}

/**
 * Makes sure the ART-E email database exists: a given `ARTE_DB` is used as is; otherwise the database
 * (default `.tmp/arte/demo.db`) is built from the maildir (default: the shipped demo mailbox) when it is
 * missing or stale (see {@link buildStamp}), with the dataset rows in `art_e_tasks`.
 * A database this module did not build is never overwritten.
 */
export async function prepareArteDb(options: PrepareArteDbOptions): Promise<PreparedArteDb> {
  const cwd = options.cwd ?? process.cwd()
  const maildir = assertArteDbInputs(options)
  if (maildir === undefined) return { kind: 'given', path: options.db as string }
  const path = options.db ?? resolve(cwd, DEFAULT_ARTE_DB)
  const stamp = await buildStamp(maildir, options.dataset)
  if (existsSync(path)) {
    const recorded = readStamp(path)
    if (recorded === stamp) return { kind: 'fresh', path }
    if (recorded === undefined) {
      throw new ConfigError(`Refusing to rebuild ${path}: it was not built from a maildir by the ART-E setup (no ${stampFile(path)}).`, {
        hint: 'Unset ARTE_MAILDIR to use that database as is, or point ARTE_DB at a new file.',
      })
    }
  }
  try {
    return await build(path, maildir, stamp, options.dataset, cwd)
  } catch (error) {
    if (error instanceof BenchError) throw error
    // A file system or SQLite failure (a folder that cannot be written, a full disk): named, with what to check.
    throw new ConfigError(`Cannot build the ART-E email database ${path} from ${maildir}: ${(error as Error).message}`, {
      hint: `Check that ${dirname(path)} can be written and ${maildir} read, or point ARTE_DB at a built database (agent-bench import-enron).`,
      cause: error,
    })
  }
}

async function build(path: string, maildir: string, stamp: string, dataset: string, cwd: string): Promise<PreparedArteDb> {
  mkdirSync(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.${Date.now()}.building`
  let report: ImportReport
  let tasks: number
  try {
    const store = EmailStore.open(temp)
    try {
      report = await importMaildir(store, maildir)
      const rows = existsSync(dataset) ? await loadArteDataset(dataset, { badRows: [] }) : []
      tasks = store.insertArteTasks(rows)
    } finally {
      store.close()
    }
    for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true })
    renameSync(temp, path)
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${temp}${suffix}`, { force: true })
  }
  writeJsonAtomic(stampFile(path), { stamp, maildir: relative(cwd, maildir), dataset: relative(cwd, dataset), builtAt: new Date().toISOString() })
  return { kind: 'built', path, report, tasks }
}
