import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import setup from './temp-root.ts'

describe('temp-root globalSetup', () => {
  const saved = process.env.TMPDIR
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = saved
  })

  it('is the unit project’s: this test’s temporary folder is inside the run’s folder', () => {
    expect(basename(tmpdir())).toMatch(/^vitest-agent-bench-test-/)
  })

  it('points TMPDIR at a new folder, then removes it with what tests left there and restores TMPDIR', () => {
    const outer = tmpdir()
    const teardown = setup()
    const root = tmpdir()
    expect(dirname(root)).toBe(outer)
    const left = mkdtempSync(join(tmpdir(), 'left-behind-'))
    writeFileSync(join(left, 'file.txt'), 'x')
    teardown()
    expect(existsSync(root)).toBe(false)
    expect(tmpdir()).toBe(outer)
  })
})
