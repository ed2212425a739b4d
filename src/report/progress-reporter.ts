import { stdoutHoldsReport } from '../core/reporter-output-file.ts'
import type { Reporter, TestCase, TestModule, TestSpecification, Vitest } from 'vitest/node'
import '../arte/vitest/task-meta.ts'
import '../mpcbench/vitest/task-meta.ts'
import '../eval/eval-meta.ts'
import '../mpcbench-v2/vitest/test-meta.ts'
import { ProgressTracker, finishedTask } from './progress-line.ts'
import { createRedactor } from '../core/redact.ts'

/** Options of {@link ProgressReporter}. */
export interface ProgressReporterOptions {
  /**
   * When to print: `'auto'` only when stdout is not a terminal (CI logs; a terminal keeps Vitest's live view),
   * `true` always, `false` never.
   * @default 'auto'
   */
  enabled?: boolean | 'auto'
}

/**
 * One line per finished benchmark task as it finishes (id, pass/fail, main score, time, running mean, ETA), for
 * logs where Vitest's live view does not show (stdout not a TTY). Only tests with ART-E, MPCBench, MPCBench v2 or eval meta get
 * a line, so unit tests print nothing.
 */
export class ProgressReporter implements Reporter {
  readonly #enabled: boolean
  #vitest: Vitest | undefined
  /** A junit/json/tap report goes to standard output: the lines go to standard error. */
  #toStderr = false
  #tracker = new ProgressTracker()
  /** A line can hold a test's error message, which CI logs publish: redacted like the other reporters' output. */
  readonly #redactor = createRedactor()

  constructor(options: ProgressReporterOptions = {}) {
    const enabled = options.enabled ?? 'auto'
    this.#enabled = enabled === 'auto' ? process.stdout.isTTY !== true : enabled
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
    this.#toStderr = stdoutHoldsReport(vitest)
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.#tracker = new ProgressTracker()
    this.#tracker.expectFiles(new Set(specifications.map((spec) => spec.moduleId)).size)
  }

  onTestModuleCollected(testModule: TestModule): void {
    if (!this.#enabled) return
    let count = 0
    for (const testCase of testModule.children.allTests()) if (testCase.options.mode === 'run' || testCase.options.mode === 'only') count++
    this.#tracker.expect(count)
  }

  onTestCaseResult(testCase: TestCase): void {
    if (!this.#enabled) return
    const result = testCase.result()
    if (result.state === 'skipped' || result.state === 'pending') return
    const error = result.state === 'failed' ? result.errors?.[0]?.message : undefined
    const task = finishedTask(testCase.name, testCase.meta(), result.state, testCase.diagnostic()?.duration ?? 0, error)
    if (task === undefined) return
    const line = this.#redactor.redact(this.#tracker.finish(task))
    if (this.#vitest === undefined) console.log(line)
    else if (this.#toStderr) this.#vitest.logger.error(line)
    else this.#vitest.logger.log(line)
  }
}

export default ProgressReporter
