import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The variables `os.tmpdir()` reads: `TMPDIR` on POSIX, `TEMP` then `TMP` on Windows. */
const TEMP_VARIABLES = ['TMPDIR', 'TEMP', 'TMP'] as const

/** The run history the reporters keep (`BENCH_HISTORY_DIR`), pointed into the run's folder unless set. */
const HISTORY_VARIABLE = 'BENCH_HISTORY_DIR'

/**
 * Vitest globalSetup of the unit and package projects: the run's temporary folders go into one new folder, removed
 * when the run ends. Tests make their folders with `mkdtempSync(join(tmpdir(), ...))`; pointing the temporary-folder
 * variables here (which `os.tmpdir()` reads on every call, and which test workers and the processes they start
 * inherit) keeps them out of the system's temporary folder instead of leaving about a hundred folders there per run.
 * The run history goes there too (`BENCH_HISTORY_DIR`, unless set): the bench runs of tests would otherwise be kept
 * in the project's `evaluation/history/` and become the "previous run" that `agent-bench compare` and the report
 * compare a real run with.
 */
export default function setup(): () => void {
  const previous = [...TEMP_VARIABLES, HISTORY_VARIABLE].map((name) => [name, process.env[name]] as const)
  const root = mkdtempSync(join(tmpdir(), 'vitest-agent-bench-test-'))
  for (const name of TEMP_VARIABLES) process.env[name] = root
  if ((process.env[HISTORY_VARIABLE] ?? '') === '') process.env[HISTORY_VARIABLE] = join(root, 'history')
  return () => {
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 3 })
  }
}
