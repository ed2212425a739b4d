import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node'

/** Options of {@link SummaryLineReporter}. */
export interface SummaryLineReporterOptions {
  /**
   * The word printed before the counts.
   * @default 'tests'
   */
  label?: string
}

/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after Vitest's own summary,
 * so that tools reading a log's last line (CI dashboards, scripts) get the counts without parsing ANSI output.
 */
export class SummaryLineReporter implements Reporter {
  readonly #label: string

  constructor(options: SummaryLineReporterOptions = {}) {
    this.#label = options.label ?? 'tests'
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors: ReadonlyArray<unknown>, _reason: TestRunEndReason): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
    }
    process.stdout.write(`${this.#label}: ${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}

export default SummaryLineReporter
