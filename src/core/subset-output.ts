import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/** Where a run writes its results, and why when it is not the usual file. */
export interface OutputChoice {
  file: string
  /** Set when the run covered only some of the tasks the usual file holds, which is then left as it was. */
  subset?: { ran: number; kept: number; fullFile: string }
}

/** `results.json` → `results.subset.json`. */
export function subsetFileFor(file: string): string {
  const name = basename(file)
  const dot = name.lastIndexOf('.')
  return join(dirname(file), dot > 0 ? `${name.slice(0, dot)}.subset${name.slice(dot)}` : `${name}.subset`)
}

/**
 * Chooses where a run's results go so that rerunning a subset (`-t`, one file, a watch-mode rerun) never silently
 * replaces a fuller run: when `previousKeys(existing JSON)` (the task keys of the file already at `file`, or
 * `undefined` when it is not comparable) strictly contains every key of this run (`currentKeys`, or what it returns
 * for the existing JSON when the run's keys depend on it), the run goes to `*.subset.json` beside it and the full file
 * is kept. Otherwise (a full or different run) it is `file`.
 */
export function chooseOutputFile(
  file: string,
  currentKeys: ReadonlyArray<string> | ((existing: unknown) => ReadonlyArray<string>),
  previousKeys: (existing: unknown) => ReadonlyArray<string> | undefined,
): OutputChoice {
  if (!existsSync(file)) return { file }
  let existing: unknown
  try {
    existing = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return { file }
  }
  const previous = new Set(previousKeys(existing) ?? [])
  const current = new Set(typeof currentKeys === 'function' ? currentKeys(existing) : currentKeys)
  if (current.size === 0 || previous.size <= current.size) return { file }
  for (const key of current) if (!previous.has(key)) return { file }
  return { file: subsetFileFor(file), subset: { ran: current.size, kept: previous.size, fullFile: file } }
}

/**
 * The trial count a run was configured with (`BENCH_TRIALS` in `env`, 1 when unset), or `undefined` when it is not a
 * whole number (the settings reject it with their own message). A run configured with another trial count than the
 * results already there is a new run, never a subset of them: a default one-trial run after a three-trial run covers
 * only trial 1 of each task, yet replaces them.
 */
export function configuredTrials(env: Record<string, string | undefined>): number | undefined {
  const value = env.BENCH_TRIALS ?? ''
  if (value.trim() === '') return 1
  return /^\s*[1-9]\d*\s*$/.test(value) ? Number(value) : undefined
}
