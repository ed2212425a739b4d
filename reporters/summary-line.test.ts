import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { startVitest } from 'vitest/node'
import { outputRecorder } from '../src/testing/output-recorder.ts'
import { SummaryLineReporter } from './summary-line.ts'

const REPO = fileURLToPath(new URL('../', import.meta.url))
const PASSING = `import { expect, test } from 'vitest'\ntest('one', () => expect(1).toBe(1))\n`

/** The last line a real Vitest run of these test files prints with the summary line as its only reporter. */
async function lastLine(files: Record<string, string>, options: { bail?: number } = {}): Promise<string> {
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  const root = mkdtempSync(join(REPO, '.tmp', 'summary-line-'))
  try {
    for (const [name, source] of Object.entries(files)) writeFileSync(join(root, name), source)
    const stdout = outputRecorder()
    const saved = process.exitCode
    const vitest = await startVitest(
      'test',
      [],
      { root, config: false, include: ['*.test.mjs'], watch: false, reporters: [new SummaryLineReporter()], ...options },
      {},
      { stdout: stdout.stream, stderr: outputRecorder().stream },
    )
    await vitest.close()
    process.exitCode = saved
    return stdout.text().trim().split('\n').at(-1) ?? ''
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

describe('SummaryLineReporter', () => {
  it('prints the counts, and nothing more when the run has no error outside its tests', async () => {
    const failing = `import { expect, test } from 'vitest'\ntest('two', () => expect(1).toBe(2))\ntest.skip('three', () => {})\n`
    expect(await lastLine({ 'a.test.mjs': PASSING, 'b.test.mjs': failing })).toBe('tests: 1 passed, 1 failed, 1 skipped')
  })

  it('counts an unhandled rejection and a test file that fails to load as errors, so the line does not read as a clean run', async () => {
    const unhandled = `import { test } from 'vitest'\ntest('late', async () => { Promise.reject(new Error('nobody waits for this')); await new Promise((resolve) => setTimeout(resolve, 20)) })\n`
    const broken = `throw new Error('this file does not load')\n`
    expect(await lastLine({ 'a.test.mjs': PASSING, 'b.test.mjs': unhandled })).toBe('tests: 2 passed, 0 failed, 0 skipped, 1 error')
    expect(await lastLine({ 'a.test.mjs': PASSING, 'b.test.mjs': unhandled, 'c.test.mjs': broken })).toBe('tests: 2 passed, 0 failed, 0 skipped, 2 errors')
  })

  it('ends the line of a run stopped early with ", interrupted"', async () => {
    const failing = `import { expect, test } from 'vitest'\ntest('two', () => expect(1).toBe(2))\n`
    expect(await lastLine({ 'a.test.mjs': failing, 'b.test.mjs': PASSING }, { bail: 1 })).toMatch(/^tests: \d passed, 1 failed, \d skipped, interrupted$/)
  })
})
