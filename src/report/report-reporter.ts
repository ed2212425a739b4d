import { reporterOutputFile, stdoutHoldsReport } from '../core/reporter-output-file.ts'
import { existsSync } from 'node:fs'
import { takeRunOutput, takeRunOutputs } from '../core/run-outputs.ts'
import { relative, resolve } from 'node:path'
import type { SerializedError } from 'vitest'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import type { ArteResults } from '../arte/results/results.ts'
import { arteSettings } from '../arte/settings.ts'
import { mpcbenchLogDir } from '../mpcbench/settings.ts'
import type { Summary } from '../mpcbench/summary/summary.ts'
import '../arte/vitest/task-meta.ts'
import '../mpcbench/vitest/task-meta.ts'
import '../eval/eval-meta.ts'
import '../mpcbench-v2/vitest/test-meta.ts'
import { DEFAULT_SUMMARY_FILE as MPCBENCH_V2_SUMMARY_FILE, MPCBENCH_V2_RUN_OUTPUT } from '../mpcbench-v2/vitest/reporter.ts'
import { arteRerunDelta, mpcbenchRerunDelta } from './rerun-delta.ts'
import { readResultsFile, type ResultsFile } from './report-data.ts'
import { appendStepSummary } from './step-summary.ts'
import { reportSettingsFromEnv } from './report-settings.ts'
import { buildReportData, writeReport } from './write-report.ts'

/** Options of {@link ReportReporter}. */
export interface ReportReporterOptions {
  /**
   * The HTML report to write, relative to the Vitest root; `false` writes none.
   * @default Vitest's `outputFile.report`, else `BENCH_REPORT` ('off' writes none), else 'evaluation/report/index.html'
   */
  outputFile?: string | false
  /**
   * Earlier runs (one folder each) to compare with, relative to the Vitest root.
   * @default `BENCH_HISTORY_DIR` (where the benchmark reporters keep each run), else 'evaluation/history'
   */
  historyDir?: string
  /**
   * Append a Markdown summary to the file named by `GITHUB_STEP_SUMMARY` (GitHub Actions' job summary).
   * @default true (does nothing when GITHUB_STEP_SUMMARY is unset)
   */
  stepSummary?: boolean
}

/**
 * Writes the HTML report (`evaluation/report/index.html`) at the end of every run that had ART-E, MPCBench, MPCBench v2
 * or eval (`describeEval`) tests, from the files the ART-E, MPCBench, MPCBench v2 and eval reporters wrote (list it after them), appends the GitHub Actions job
 * summary, and in watch mode prints how the tasks that reran moved since the previous run. Tests without benchmark
 * meta are ignored, so it prints nothing in the unit project.
 */
export class ReportReporter implements Reporter {
  readonly #options: ReportReporterOptions
  #vitest: Vitest | undefined
  #lastArte: ArteResults | undefined
  #lastSummary: Summary | undefined
  /** The page written by the last run, or `undefined`. */
  outputFile: string | undefined

  constructor(options: ReportReporterOptions = {}) {
    this.#options = options
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
    // Read when the run ends, checked now: a bad BENCH_REPORT_TRACES_MB stops the run before any task runs.
    reportSettingsFromEnv(undefined, vitest.config.root)
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors: ReadonlyArray<SerializedError>, _reason: TestRunEndReason): void {
    this.outputFile = undefined
    let ranArte = false
    let ranMpcbench = false
    let ranEval = false
    let ranV2 = false
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const meta = testCase.meta()
        if (meta.arte !== undefined) ranArte = true
        if (meta.mpcbench !== undefined) ranMpcbench = true
        if (meta.eval !== undefined || meta.evalCase !== undefined) ranEval = true
        if (meta.mpcbenchV2 !== undefined) ranV2 = true
      }
    }
    if (!ranArte && !ranMpcbench && !ranEval && !ranV2) return
    const root = this.#vitest?.config.root ?? process.cwd()
    const files: ResultsFile[] = []
    const notes: string[] = []
    const arteFile = takeRunOutput('arte-results')
    const summaryFile = takeRunOutput('mpcbench-summary')
    if (ranArte) {
      const file = arteFile ?? arteSettings(root).output
      if (arteFile === undefined)
        notes.push(`The ART-E reporter (reporters/arte.ts) wrote no results in this run: the report shows ${relative(process.cwd(), file)}.`)
      if (existsSync(file)) files.push(readResultsFile(file))
    }
    if (ranMpcbench) {
      const file = summaryFile ?? resolve(root, 'evaluation/summary.json')
      if (summaryFile === undefined)
        notes.push(`The MPCBench reporter (reporters/mpcbench.ts) wrote no summary in this run: the report shows ${relative(process.cwd(), file)}.`)
      if (existsSync(file)) files.push(readResultsFile(file))
    }
    const v2File = takeRunOutput(MPCBENCH_V2_RUN_OUTPUT)
    if (ranV2) {
      const file = v2File ?? resolve(root, MPCBENCH_V2_SUMMARY_FILE)
      if (v2File === undefined)
        notes.push(`The MPCBench v2 reporter (reporters/mpcbench-v2.ts) wrote no summary in this run: the report shows ${relative(process.cwd(), file)}.`)
      if (existsSync(file)) files.push(readResultsFile(file))
    }
    // Each eval's results file, as the eval reporter (reporters/eval.ts, listed before this one) wrote it in this run.
    const evalFiles = takeRunOutputs('eval-results:')
    if (ranEval && evalFiles.size === 0)
      notes.push('The eval reporter (reporters/eval.ts) wrote no results in this run: list it before the report reporter to see the evals in the report.')
    for (const file of evalFiles.values()) if (existsSync(file)) files.push(readResultsFile(file))
    if (files.length === 0) {
      for (const note of notes) this.#log(note)
      return
    }
    this.#printRerunDeltas(files)
    const settings = reportSettingsFromEnv(undefined, root)
    const configured = this.#options.outputFile ?? (this.#vitest === undefined ? undefined : reporterOutputFile(this.#vitest, 'report')) ?? settings.file
    const outFile = configured === false ? undefined : resolve(root, configured)
    const input = {
      results: files,
      sources: {
        tracesDb: arteSettings(root).tracesDb,
        logDir: mpcbenchLogDir(undefined, root),
        historyDir: this.#options.historyDir === undefined ? settings.historyDir : resolve(root, this.#options.historyDir),
        traceBudgetChars: settings.traceBudgetChars,
      },
      displayRoot: root,
    }
    const shown = outFile === undefined ? undefined : relative(process.cwd(), outFile)
    const data = outFile === undefined ? buildReportData(input) : writeReport({ ...input, outFile })
    this.outputFile = outFile
    if (this.#options.stepSummary !== false) appendStepSummary(data, shown, settings.stepSummaryFile)
    for (const note of notes) this.#log(note)
    if (shown !== undefined) this.#log(`Report written to ${shown} (open it in a browser)`)
  }

  #printRerunDeltas(files: ResultsFile[]): void {
    const watching = this.#vitest?.config.watch === true
    for (const file of files) {
      if (file.kind === 'arte') {
        if (watching && this.#lastArte !== undefined) for (const line of arteRerunDelta(this.#lastArte, file.results)) this.#log(line)
        this.#lastArte = file.results
      } else if (file.kind === 'mpcbench') {
        if (watching && this.#lastSummary !== undefined) for (const line of mpcbenchRerunDelta(this.#lastSummary, file.summary)) this.#log(line)
        this.#lastSummary = file.summary
      }
    }
  }

  #log(line: string): void {
    if (this.#vitest === undefined) console.log(line)
    else if (stdoutHoldsReport(this.#vitest)) this.#vitest.logger.error(line)
    else this.#vitest.logger.log(line)
  }
}

export default ReportReporter
