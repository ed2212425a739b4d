import { describe, expect, it } from 'vitest'
import { createVitest } from 'vitest/node'
import { annotationsRead } from './annotation-readers.ts'

/** A Vitest run of no test file with `reporters` (as the command line gives them), created but not started. */
async function readBy(reporters: unknown[], ui = false): Promise<boolean> {
  const vitest = await createVitest('test', { config: false, watch: false, include: ['no-such-file.test.ts'], reporters: reporters as never })
  try {
    // Vitest's reporter instances (not in its public types), with the UI setting under test.
    const reporters = (vitest as unknown as { reporters: unknown[] }).reporters
    return annotationsRead({ reporters, config: { ...vitest.config, ui } } as never)
  } finally {
    await vitest.close()
  }
}

describe('annotationsRead (whether a reporter of the run reads the annotations of passed tests)', () => {
  it('is false for reporters known to read none: default, dot, json, the benchmark reporters', async () => {
    expect(await readBy(['default'])).toBe(false)
    expect(await readBy(['dot', 'json', 'hanging-process', 'github-actions', 'minimal'])).toBe(false)
    expect(await readBy(['default', './reporters/arte.ts', './reporters/report.ts', './reporters/progress.ts'])).toBe(false)
  })

  it("is true as soon as one reporter reads them (junit, verbose, tree, tap, blob) or may (one of the user's)", async () => {
    for (const name of ['junit', 'verbose', 'tree', 'tap', 'tap-flat', 'blob']) expect(await readBy(['default', name]), name).toBe(true)
    expect(await readBy(['default', { onTestCaseAnnotate() {} }])).toBe(true)
    class MyReporter {}
    expect(await readBy([new MyReporter()])).toBe(true)
  })

  it("is true with Vitest's UI, and when the reporter instances cannot be read", async () => {
    expect(await readBy(['default'], true)).toBe(true)
    expect(annotationsRead({ config: { ui: false } } as never)).toBe(true)
  })
})
