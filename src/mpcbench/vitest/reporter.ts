import { resolve } from 'node:path'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { checkWritableFile } from '../../core/atomic-write.ts'
import { ConfigError } from '../../core/errors.ts'
import { redact } from '../../core/redact.ts'
import { recordRunOutput } from '../../core/run-outputs.ts'
import { onInterrupt } from '../../core/interrupt.ts'
import { collectMpcbenchTests } from './collect-mpcbench-tests.ts'
import { chooseSummaryOutput, formatSummarySubsetNote } from '../summary-subset.ts'
import { type Summary, buildSummary, formatSummaryTable, formatSummaryUsage } from '../summary.ts'
import { formatSummaryStatistics } from '../summary-statistics.ts'
import { MPCBENCH_HISTORY_FILE, mpcbenchHistorySettings } from '../settings.ts'
import { historyRunId } from '../../core/run-history.ts'
import { describeError, writeRunOutput } from '../../core/write-run-output.ts'
import { reporterOutputFile, stdoutHoldsReport } from '../../core/reporter-output-file.ts'
import './task-meta.ts'

/** Where the summary goes unless configured otherwise, relative to the Vitest root. */
export const DEFAULT_SUMMARY_FILE = 'evaluation/summary.json'

/** Options of {@link MpcbenchReporter}. */
export interface MpcbenchReporterOptions {
  /**
   * Where the summary JSON is written, relative to the Vitest root; `false` writes nothing.
   * @default Vitest's `outputFile.mpcbench`, else 'evaluation/summary.json'
   */
  outputFile?: string | false
  /**
   * Print the agent × judge table at the end of the run.
   * @default true
   */
  print?: boolean
  /**
   * Keep a copy of the summary under `evaluation/history/{run id}/mpcbench-summary.json` (for `agent-bench compare`);
   * `false` keeps none. Only when `outputFile` is set.
   * @default true, with the folder and cap from BENCH_HISTORY_DIR / BENCH_HISTORY_KEEP (20)
   */
  history?: boolean
}

/**
 * The MPCBench reporter: at the end of a run, from the tests that carry `meta().mpcbench`, prints an
 * agent × judge table of mean scores per task type (with counts and failures) and writes `evaluation/summary.json`
 * atomically. Runs nothing when no test carries MPCBench meta. Works beside other reporters (junit, json) and with
 * `--merge-reports` (the meta travels in the blobs).
 */
export default class MpcbenchReporter implements Reporter {
  readonly #options: MpcbenchReporterOptions
  #outputFile: string | false = DEFAULT_SUMMARY_FILE
  /** The setting that chose the summary file, named when it cannot be written. */
  #outputSetting = "--outputFile.mpcbench (Vitest's `outputFile.mpcbench`)"
  #root = process.cwd()
  #log: (text: string) => void = (text) => console.log(redact(text))
  #error: (text: string) => void = (text) => console.error(redact(text))
  /** The summary of the last run, or `undefined` before the first run ends or when it had no MPCBench tests. */
  summary: Summary | undefined
  /** The file the last summary was written to (absolute), or `undefined` when none was written. */
  outputFile: string | undefined

  constructor(options: MpcbenchReporterOptions = {}) {
    this.#options = options
  }

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root
    this.#outputFile = this.#options.outputFile ?? reporterOutputFile(vitest, 'mpcbench') ?? DEFAULT_SUMMARY_FILE
    if (this.#options.outputFile !== undefined) this.#outputSetting = "the MPCBench reporter's `outputFile` option"
    // Read when the run ends, checked now: a bad BENCH_HISTORY_KEEP or summary path stops the run before any task runs.
    if (this.#outputFile !== false) {
      if (this.#options.history !== false) mpcbenchHistorySettings(undefined, this.#root)
      const file = resolve(this.#root, this.#outputFile)
      const problem = checkWritableFile(file)
      if (problem !== undefined) {
        throw new ConfigError(`The MPCBench summary file ${file}, set by ${this.#outputSetting}, cannot be written: ${problem.reason}.`, { hint: this.#outputFix(problem.hint) })
      }
    }
    // On SIGINT / SIGTERM, write what finished before the process exits.
    const dispose = onInterrupt(() => this.onTestRunEnd(vitest.state.getTestModules(), [], 'interrupted'))
    vitest.onClose(dispose)
    // With `--reporter=junit` (or json) to standard output, the table goes to standard error: the report stays valid.
    this.#log = stdoutHoldsReport(vitest) ? (text) => vitest.logger.error(redact(text)) : (text) => vitest.logger.log(redact(text))
    this.#error = (text) => vitest.logger.error(redact(text))
  }

  #outputFix(hint: string | undefined): string {
    return `Set another path with ${this.#outputSetting}.${hint === undefined ? '' : ` ${hint}`}`
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors?: unknown, reason?: TestRunEndReason): void {
    const { metas, unfinished } = collectMpcbenchTests(testModules, reason === 'interrupted')
    this.summary = undefined
    this.outputFile = undefined
    if (metas.length === 0 && unfinished.length === 0) return
    const summary = buildSummary(metas, new Date(), unfinished)
    this.summary = summary
    // The table is printed before the summary is written: a file that cannot be written loses none of it.
    if (this.#options.print !== false) {
      const counts = summary.task_counts
      const tally = counts === undefined || unfinished.length === 0 ? '' : `\n${counts.selected} selected: ${counts.completed} completed, ${counts.failed} failed, ${counts.not_run} not run (${unfinished.map((test) => `${test.task_id} ${test.outcome}`).join(', ')})`
      const statistics = formatSummaryStatistics(summary)
      this.#log(`\nMPCBench: mean scores (0-5) per agent x judge x task type, ${metas.length} test(s)\n${formatSummaryTable(summary)}\n${statistics === '' ? '' : `${statistics}\n`}${formatSummaryUsage(summary)}${tally}`)
    }
    if (this.#outputFile === false) return
    const choice = chooseSummaryOutput(resolve(this.#root, this.#outputFile), summary)
    // The history copy is written from the summary itself, so it is kept even when the summary file is not.
    const history =
      this.#options.history !== false && choice.subset === undefined
        ? { settings: mpcbenchHistorySettings(undefined, this.#root), runId: historyRunId(testModules), name: MPCBENCH_HISTORY_FILE }
        : undefined
    const { written, kept, writeError } = writeRunOutput(choice.file, summary, history, (line) => this.#error(line))
    this.outputFile = written
    // The HTML report (listed after this reporter) reads the file recorded here: the history copy when the summary could not be written.
    const readable = written ?? kept
    if (readable !== undefined) recordRunOutput('mpcbench-summary', readable)
    if (written !== undefined && this.#options.print !== false) {
      this.#log(`Summary written to ${written}${choice.subset === undefined ? '' : `\n${formatSummarySubsetNote(choice)}`}`)
    }
    if (writeError !== undefined) {
      process.exitCode = 1
      const { problem, hint } = describeError(writeError)
      const rescue = kept === undefined ? '' : `\n  This run's summary is kept in ${kept} (its history copy).`
      this.#error(`ERROR: MPCBench summary was not written. ${problem}\n  Fix: ${this.#outputFix(hint)}${rescue}`)
    }
  }
}

export { MpcbenchReporter }
