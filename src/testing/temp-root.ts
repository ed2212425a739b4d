import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The variables `os.tmpdir()` reads: `TMPDIR` on POSIX, `TEMP` then `TMP` on Windows. */
const TEMP_VARIABLES = ['TMPDIR', 'TEMP', 'TMP'] as const

/**
 * Vitest globalSetup of the unit and package projects: the run's temporary folders go into one new folder, removed
 * when the run ends. Tests make their folders with `mkdtempSync(join(tmpdir(), ...))`; pointing the temporary-folder
 * variables here (which `os.tmpdir()` reads on every call, and which test workers and the processes they start
 * inherit) keeps them out of the system's temporary folder instead of leaving about a hundred folders there per run.
 */
export default function setup(): () => void {
  const previous = TEMP_VARIABLES.map((name) => [name, process.env[name]] as const)
  const root = mkdtempSync(join(tmpdir(), 'vitest-agent-bench-test-'))
  for (const name of TEMP_VARIABLES) process.env[name] = root
  return () => {
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 3 })
  }
}
