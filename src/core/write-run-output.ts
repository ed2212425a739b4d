import { jsonText, writeJsonAtomic } from './atomic-write.ts'
import { BenchError } from './errors.ts'
import { type HistorySettings, HistoryWriteError, keepInHistory } from './run-history.ts'

/** The problem and fix of `error`: a {@link BenchError}'s own, else its message and no fix. */
export function describeError(error: unknown): { problem: string; hint: string | undefined } {
  if (error instanceof BenchError) return { problem: error.problem, hint: error.hint }
  return { problem: error instanceof Error ? error.message : String(error), hint: undefined }
}

/** Where the run history keeps a copy of a run's output. */
export interface RunOutputHistory {
  settings: HistorySettings
  runId: string
  /** The copy's file name in the run's folder. */
  name: string
}

/** What {@link writeRunOutput} wrote: the file, the history copy, and why the file was not written. */
export interface WrittenRunOutput {
  /** `file`, once written. */
  written: string | undefined
  /** The history copy, when kept. */
  kept: string | undefined
  /** Why `file` could not be written (the caller reports it and fails the run). */
  writeError: unknown
}

/**
 * Writes a run's results as JSON to `file`, then keeps a copy in the run history: from `file`, or from `value` itself
 * when `file` could not be written, so one bad path loses nothing. A history that cannot be written is passed to
 * `warn` (with its fix) and never stops the run.
 */
export function writeRunOutput(file: string, value: unknown, history: RunOutputHistory | undefined, warn: (line: string) => void): WrittenRunOutput {
  let written: string | undefined
  let writeError: unknown
  try {
    writeJsonAtomic(file, value)
    written = file
  } catch (error) {
    writeError = error
  }
  let kept: string | undefined
  if (history !== undefined) {
    try {
      kept = keepInHistory(history.settings, history.runId, written ?? { text: jsonText(value) }, history.name)
    } catch (error) {
      if (error instanceof HistoryWriteError) kept = error.kept
      const { problem, hint } = describeError(error)
      warn(`WARNING: ${problem}${hint === undefined ? '' : `\n  Fix: ${hint}`}`)
    }
  }
  return { written, kept, writeError }
}
