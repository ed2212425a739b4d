import { accessSync, constants, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { BenchError } from './errors.ts'
import { redact, redactJsonText } from './redact.ts'

/** A file could not be written: its path is a folder, a file stands where a folder should, no permission, no space. */
export class WriteFileError extends BenchError {
  /** The file that was not written. */
  readonly file: string
  /** Why, in a few words (`/dev/null is not a folder`). */
  readonly reason: string

  constructor(file: string, reason: string, options: { hint: string; cause?: unknown }) {
    super('ERR_WRITE_FILE', `Cannot write ${file}: ${reason}.`, options)
    this.file = file
    this.reason = reason
  }
}

function kindOf(path: string): 'folder' | 'file' | 'other' | undefined {
  try {
    const stat = statSync(path)
    return stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : 'other'
  } catch {
    return undefined
  }
}

/** The nearest of `folder` and its parents that exists. */
function nearestExisting(folder: string): string {
  let path = folder
  while (!existsSync(path) && dirname(path) !== path) path = dirname(path)
  return path
}

const CHOOSE_ANOTHER = 'Choose a file path in a folder that exists or can be created, and that you can write'

/** The error for `file` when its path cannot hold a file as things stand, or `undefined`; reads only. */
function pathProblem(file: string, cause?: unknown): WriteFileError | undefined {
  const kind = kindOf(file)
  if (kind === 'folder') {
    return new WriteFileError(file, 'it is a folder', { hint: 'Name a file (it may be inside that folder), not the folder itself.', cause })
  }
  // Renaming onto a device, pipe or socket would replace it (e.g. /dev/null) rather than write to it.
  if (kind === 'other') return new WriteFileError(file, 'it is not a regular file (a device, pipe or socket)', { hint: 'Name a regular file.', cause })
  const blocking = nearestExisting(dirname(file))
  if (kindOf(blocking) !== 'folder') {
    return new WriteFileError(file, `${blocking} is not a folder`, {
      hint: `Choose a file path whose folders exist or can be created (nothing can be created under ${blocking}).`,
      cause,
    })
  }
  return undefined
}

const REASONS: Record<string, [reason: string, hint: string]> = {
  EACCES: ['permission denied', `${CHOOSE_ANOTHER}, or fix the folder's permissions.`],
  EPERM: ['permission denied', `${CHOOSE_ANOTHER}, or fix the folder's permissions.`],
  EROFS: ['the file system is read-only', `${CHOOSE_ANOTHER}, on a writable file system.`],
  ENOSPC: ['no space left on the device', 'Free space on that disk, or choose a folder on another one.'],
  EDQUOT: ['the disk quota is exceeded', 'Free space within your quota, or choose a folder on another disk.'],
  ENAMETOOLONG: ['the path is too long', 'Choose a shorter path.'],
}

/** The {@link WriteFileError} for a failed write of `file` (`error` is what the file system threw). */
function writeFailure(file: string, error: unknown): WriteFileError {
  if (error instanceof WriteFileError) return error
  const found = pathProblem(file, error)
  if (found !== undefined) return found
  const code = (error as { code?: unknown }).code
  const known = typeof code === 'string' ? REASONS[code] : undefined
  if (known !== undefined) return new WriteFileError(file, known[0], { hint: known[1], cause: error })
  return new WriteFileError(file, error instanceof Error ? error.message : String(error), { hint: `${CHOOSE_ANOTHER}.`, cause: error })
}

/**
 * Why `file` could not be written as things stand (it is a folder, a file stands where one of its folders should
 * be, no permission to create or replace it), or `undefined`; reads only. Lets a run refuse a bad output path
 * before its tasks run, instead of losing their results at the end.
 */
export function checkWritableFile(file: string): WriteFileError | undefined {
  const found = pathProblem(file)
  if (found !== undefined) return found
  const target = existsSync(file) ? file : nearestExisting(dirname(file))
  try {
    accessSync(target, constants.W_OK)
  } catch (error) {
    return writeFailure(file, error)
  }
  return undefined
}

/**
 * Writes a file atomically (temp file in the same folder, then rename), creating folders as needed.
 * Text is redacted first (`redact`): no secret reaches a file we write. On failure the temp file is removed and a
 * {@link WriteFileError} names the file, why, and the fix; a file already at `file` is left as it was.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  writeAtomic(file, typeof data === 'string' ? redact(data) : data)
}

/** A temp file of {@link writeFileAtomic}: `{name}.{pid}.{epoch ms}.{random}.tmp`. */
const TEMP_FILE = /^(.+)\.(\d{1,10})\.(\d{12,14})\.[a-z0-9]{4,}\.tmp$/

/** A temp file older than this is left over whoever wrote it (a write takes milliseconds). */
const STALE_TEMP_MS = 10 * 60 * 1000

/** The folders whose left-over temp files this process has removed (once per folder: a folder may hold many files). */
const swept = new Set<string>()

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the temp files {@link writeFileAtomic} left in `folder` when its process was killed mid-write (`kill -9`
 * leaves an empty `*.tmp`): those of a process no longer running, or older than 10 minutes. Once per folder and
 * process, on its first write there; a temp file of a write still under way (another live process) is kept.
 */
export function removeLeftoverTempFiles(folder: string, now: number = Date.now()): string[] {
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return removed
  }
  for (const name of names) {
    const match = TEMP_FILE.exec(name)
    if (match === null) continue
    const pid = Number(match[2])
    const age = now - Number(match[3])
    if (isRunning(pid) && age < STALE_TEMP_MS) continue
    try {
      rmSync(join(folder, name), { force: true })
      removed.push(name)
    } catch {
      // Not ours to remove (permissions): it stays, as before.
    }
  }
  return removed
}

/** {@link writeFileAtomic} of `data` as it is (already redacted, or bytes). */
function writeAtomic(file: string, data: string | Uint8Array): void {
  const temp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`
  try {
    mkdirSync(dirname(file), { recursive: true })
    const folder = dirname(file)
    if (!swept.has(folder)) {
      swept.add(folder)
      removeLeftoverTempFiles(folder)
    }
    writeFileSync(temp, data)
    renameSync(temp, file)
  } catch (error) {
    try {
      rmSync(temp, { force: true })
    } catch {
      // The temp file was never created (its folder is missing or not a folder).
    }
    throw writeFailure(file, error)
  }
}

/** Writes `value` as pretty-printed JSON (2 spaces, trailing newline), atomically. */
export function writeJsonAtomic(file: string, value: unknown): void {
  // Redacted as JSON: a secret that stands as a number stays a number, and the file stays valid JSON.
  writeAtomic(file, redactJsonText(jsonText(value), 2))
}

/** `value` as {@link writeJsonAtomic} writes it: pretty-printed JSON (2 spaces), with a trailing newline. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}
