import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'

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
 * A run that fails outside its tests says so on the same line: `, N errors` counts Vitest's unhandled errors and the
 * errors of test files outside their tests (an import or a hook that failed), and `, interrupted` ends a run stopped
 * early; neither appears when there is none.
 */
export class SummaryLineReporter implements Reporter {
  readonly #label: string
  #write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)

  constructor(options: SummaryLineReporterOptions = {}) {
    this.#label = options.label ?? 'tests'
  }

  onInit(vitest: Vitest): void {
    this.#write = (line) => vitest.logger.log(line)
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>, reason: TestRunEndReason): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    let errors = unhandledErrors.length
    for (const module of testModules) {
      errors += module.errors().length
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
    }
    const after = `${errors > 0 ? `, ${errors} ${errors === 1 ? 'error' : 'errors'}` : ''}${reason === 'interrupted' ? ', interrupted' : ''}`
    this.#write(`${this.#label}: ${passed} passed, ${failed} failed, ${skipped} skipped${after}`)
  }
}

export default SummaryLineReporter
