import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Vitest globalSetup of the unit and package projects: the run's temporary folders go into one new folder, removed
 * when the run ends. Tests make their folders with `mkdtempSync(join(tmpdir(), ...))`; pointing `TMPDIR` here (which
 * `os.tmpdir()` reads on every call, and which test workers and the processes they start inherit) keeps them out of
 * the system's temporary folder instead of leaving about a hundred folders there per run.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR
  const root = mkdtempSync(join(tmpdir(), 'vitest-agent-bench-test-'))
  process.env.TMPDIR = root
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    rmSync(root, { recursive: true, force: true, maxRetries: 3 })
  }
}
