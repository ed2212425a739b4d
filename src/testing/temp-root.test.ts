import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import setup from './temp-root.ts'

describe('temp-root globalSetup', () => {
  const saved = { TMPDIR: process.env.TMPDIR, TEMP: process.env.TEMP, TMP: process.env.TMP, BENCH_HISTORY_DIR: process.env.BENCH_HISTORY_DIR }
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })

  it('is the unit project’s: this test’s temporary folder is inside the run’s folder', () => {
    expect(basename(tmpdir())).toMatch(/^vitest-agent-bench-test-/)
  })

  it('keeps a BENCH_HISTORY_DIR that is set, and restores an unset one', () => {
    process.env.BENCH_HISTORY_DIR = '/somewhere/history'
    setup()()
    expect(process.env.BENCH_HISTORY_DIR).toBe('/somewhere/history')
    delete process.env.BENCH_HISTORY_DIR
    const teardown = setup()
    expect(process.env.BENCH_HISTORY_DIR).toBe(join(tmpdir(), 'history'))
    teardown()
    expect(process.env.BENCH_HISTORY_DIR).toBeUndefined()
  })

  it('points TMPDIR, TEMP and TMP at a new folder, then removes it with what tests left there and restores them', () => {
    const outer = tmpdir()
    delete process.env.TMP
    const teardown = setup()
    const root = tmpdir()
    expect(dirname(root)).toBe(outer)
    expect([process.env.TMPDIR, process.env.TEMP, process.env.TMP]).toEqual([root, root, root])
    const left = mkdtempSync(join(tmpdir(), 'left-behind-'))
    writeFileSync(join(left, 'file.txt'), 'x')
    teardown()
    expect(existsSync(root)).toBe(false)
    expect(tmpdir()).toBe(outer)
    expect(process.env.TMP).toBeUndefined()
  })
})
