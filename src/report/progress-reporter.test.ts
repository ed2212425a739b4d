import { afterEach, describe, expect, it, vi } from 'vitest'
import type { TestCase } from 'vitest/node'
import { REDACTED, registerSecret } from '../core/redact.ts'
import { ProgressReporter } from './progress-reporter.ts'

describe('ProgressReporter', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it("prints a failed task's error message redacted (CI logs are published)", () => {
    registerSecret('sk-progress-line-0077')
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
    const reporter = new ProgressReporter({ enabled: true })
    const testCase = {
      name: '7',
      meta: () => ({ arte: { semanticScore: 0, exactMatch: false } }),
      result: () => ({ state: 'failed', errors: [{ message: 'the agent said sk-progress-line-0077' }] }),
      diagnostic: () => ({ duration: 5 }),
    } as unknown as TestCase
    reporter.onTestCaseResult(testCase)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`the agent said ${REDACTED}`)
    expect(lines[0]).not.toContain('sk-progress-line-0077')
  })

  it('prints a line for a task that ended without its scores (a timeout, a failure before its run), so the count reaches done', () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
    const reporter = new ProgressReporter({ enabled: true })
    reporter.onTestRunStart([{ moduleId: 'bench/arte/arte.eval.ts' }, { moduleId: 'bench/planning/planning.eval.ts' }] as never)
    const planned = [
      { name: '7', meta: { arteTask: { taskId: '7' } }, error: 'Test timed out in 5ms.\nIf this is a long-running test, ...' },
      {
        name: 'plan_a [agent=baseline]',
        meta: { mpcbenchTask: { taskId: 'plan_a' } },
        error: 'ConfigError: MPCBench task tasks/planning/plan_a.json cannot run',
      },
    ]
    for (const { name } of planned) reporter.onTestModuleCollected({ children: { allTests: () => [{ name, options: { mode: 'run' } }] } } as never)
    for (const { name, meta, error } of planned) {
      reporter.onTestCaseResult({
        name,
        meta: () => meta,
        result: () => ({ state: 'failed', errors: [{ message: error }] }),
        diagnostic: () => ({ duration: 5 }),
      } as unknown as TestCase)
    }
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^\[1\/2\] ✗ 7 {2}0\.0 s · ETA .* · Test timed out in 5ms\.$/)
    expect(lines[1]).toMatch(/^\[2\/2\] ✗ plan_a \[agent=baseline\] {2}0\.0 s · done · ConfigError: MPCBench task tasks\/planning\/plan_a\.json cannot run$/)
  })
})
