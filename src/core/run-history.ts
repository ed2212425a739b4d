import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseWholeNumber } from './whole-number.ts'
import { BenchError, ConfigError } from './errors.ts'
import { WriteFileError, writeFileAtomic } from './atomic-write.ts'

/** Where runs are kept unless `BENCH_HISTORY_DIR` says otherwise. */
export const DEFAULT_HISTORY_DIR = 'evaluation/history'

/** How many runs are kept unless `BENCH_HISTORY_KEEP` says otherwise. */
export const DEFAULT_HISTORY_KEEP = 20

/** Where a run's results are kept, and how many runs (0 = keep none, write no history). */
export interface HistorySettings {
  /** `BENCH_HISTORY_DIR`, absolute. */
  dir: string
  /** `BENCH_HISTORY_KEEP`. */
  keep: number
}

/** Reads {@link HistorySettings} from `env` (`BENCH_HISTORY_DIR`, `BENCH_HISTORY_KEEP`); relative to `root`. */
export function historySettingsFromEnv(env: Record<string, string | undefined>, root: string): HistorySettings {
  const rawKeep = env.BENCH_HISTORY_KEEP?.trim() ?? ''
  const keep = rawKeep === '' ? DEFAULT_HISTORY_KEEP : parseWholeNumber(rawKeep, 0)
  if (keep === undefined) {
    throw new ConfigError(`Invalid BENCH_HISTORY_KEEP=${JSON.stringify(rawKeep)}: expected a whole number >= 0.`, {
      hint: `Set BENCH_HISTORY_KEEP to how many runs to keep under ${DEFAULT_HISTORY_DIR} (0 keeps none), or unset it for ${DEFAULT_HISTORY_KEEP}.`,
    })
  }
  return { dir: resolve(root, env.BENCH_HISTORY_DIR?.trim() || DEFAULT_HISTORY_DIR), keep }
}

const runIds = new WeakMap<object, string>()

/**
 * The history id of a run: the time it was first asked for, sortable and file-safe (`2026-03-11T09-30-00-000Z`).
 * Reporters of one test run pass the same `run` object, the specifications array Vitest hands every reporter's
 * `onTestRunStart` (one array per run), and get the same id: their files land in one folder, and a reporter that
 * writes twice in a run (on SIGINT, then when the cancelled run ends) replaces its file there instead of adding a
 * run. The next run (watch mode) gets a new one. Not the `testModules` of `onTestRunEnd`: a write on a signal
 * has no such array, and `vitest.state.getTestModules()` gives a new one each call.
 */
export function historyRunId(run: object, now: Date = new Date()): string {
  let id = runIds.get(run)
  if (id === undefined) {
    id = now.toISOString().replace(/[:.]/g, '-')
    runIds.set(run, id)
  }
  return id
}

/** The run folders under `dir`, oldest first. */
export function historyRuns(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
}

/**
 * A run could not be kept in the history folder (`BENCH_HISTORY_DIR`). Reporters print it as a warning: the run's
 * own outputs do not depend on it.
 */
export class HistoryWriteError extends BenchError {
  /** The copy, when it was written before the failure (removing older runs failed), else `undefined`. */
  readonly kept: string | undefined

  constructor(message: string, options: { hint: string; kept?: string; cause?: unknown }) {
    super('ERR_HISTORY_WRITE', message, options)
    this.kept = options.kept
  }
}

const HISTORY_FIX = 'Set BENCH_HISTORY_DIR to a folder you can write (or unset it for evaluation/history), or BENCH_HISTORY_KEEP=0 to keep no history.'

/**
 * Keeps a run's file as `{dir}/{runId}/{name}`: `source` is the file to copy, or `{ text }` to write (redacted, as
 * every file we write); then removes the oldest run folders beyond `keep`. Does nothing when `keep` is 0. Returns the
 * copy's path, or `undefined`. Throws a {@link HistoryWriteError} (naming `BENCH_HISTORY_DIR` and the fix) when the
 * copy cannot be written or an old run cannot be removed.
 */
export function keepInHistory(settings: HistorySettings, runId: string, source: string | { text: string }, name: string): string | undefined {
  if (settings.keep === 0) return undefined
  const target = join(settings.dir, runId, name)
  try {
    writeFileAtomic(target, typeof source === 'string' ? readFileSync(source) : source.text)
  } catch (error) {
    const why = error instanceof WriteFileError ? error.reason : error instanceof Error ? error.message : String(error)
    throw new HistoryWriteError(`This run was not kept in the history folder ${settings.dir} (BENCH_HISTORY_DIR): cannot write ${target}: ${why}.`, {
      hint: HISTORY_FIX,
      cause: error,
    })
  }
  try {
    const runs = historyRuns(settings.dir)
    for (const old of runs.slice(0, Math.max(0, runs.length - settings.keep))) rmSync(join(settings.dir, old), { recursive: true, force: true })
  } catch (error) {
    throw new HistoryWriteError(
      `This run was kept in ${target}, but the runs beyond BENCH_HISTORY_KEEP=${settings.keep} could not be removed from ${settings.dir}: ${(error as Error).message}.`,
      { hint: `Remove the oldest run folders yourself, or fix the permissions of ${settings.dir} (BENCH_HISTORY_DIR).`, kept: target, cause: error },
    )
  }
  return target
}

/** The `count` most recent kept copies of `name` under `dir`, newest last. */
export function latestInHistory(dir: string, name: string, count: number): string[] {
  return historyRuns(dir)
    .map((run) => join(dir, run, name))
    .filter((file) => existsSync(file))
    .slice(-count)
}
