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
})
