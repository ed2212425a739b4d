import { relative, resolve } from 'node:path'
import type { SerializedError } from 'vitest'
import type { Reporter, TestModule, TestRunEndReason, TestSpecification, Vitest } from 'vitest/node'
import { collectArteTasks } from './collect-arte-tasks.ts'
import { finishedInRun } from './recover-finished.ts'
import './provided-context.ts'
import { type ArteResults, computeArteMetrics, sumTaskUsage } from '../results/results.ts'
import { arteRunStatistics } from '../results/run-statistics.ts'
import {
  type ResumeCounts,
  formatArteStatistics,
  graderSuspectWarning,
  judgeErrorWarning,
  judgeUsageRows,
  resumeHint,
  resumedRows,
  rowSelectionRows,
} from '../results/format-statistics.ts'
import {
  type ArteThreshold,
  type ArteThresholdsOption,
  checkArteThresholds,
  formatMetricValue,
  formatThresholdFailure,
  formatUnmeasuredThreshold,
  resolveArteThresholds,
  unmeasuredThresholds,
} from '../results/results-thresholds.ts'
import { checkWritableFile } from '../../core/atomic-write.ts'
import { ConfigError } from '../../core/errors.ts'
import { redact } from '../../core/redact.ts'
import { recordRunOutput } from '../../core/run-outputs.ts'
import { chooseArteOutput, formatSubsetNote } from '../results/results-subset.ts'
import { formatCachedPart, paidCostUsd } from '../../llm/usage.ts'
import { ARTE_HISTORY_FILE, arteHistorySettings, arteSettings } from '../settings.ts'
import { reporterOutputFile, stdoutHoldsReport } from '../../core/reporter-output-file.ts'
import { historyRunId } from '../../core/run-history.ts'
import { describeError, writeRunOutput } from '../../core/write-run-output.ts'
import { onInterrupt } from '../../core/interrupt.ts'
import { type JunitVerdict, addJunitVerdict } from '../../core/junit-verdict.ts'
import './task-meta.ts'
import type { ArteTestMeta } from '../results/arte-meta.ts'
import type { ArteRowSelection } from '../dataset/row-selection.ts'
import { notStartedFiles } from '../../core/not-started-files.ts'
import { type NotStartedModel, notStartedArteTasks, notStartedArteTasksSync } from './not-started-tasks.ts'

/** Options of {@link ArteReporter}. */
export interface ArteReporterOptions {
  /**
   * Where the results JSON is written, relative to the Vitest root.
   * @default Vitest's `outputFile.arte`, else `ARTE_OUTPUT`, else 'evaluation/arte/results.json'
   */
  outputFile?: string
  /**
   * Quality gates on the aggregate metrics. A record means minimums (`{exactMatchAccuracy: 0.6}`);
   * a string uses explicit comparisons (`'exactMatchAccuracy>=0.6,failedTasks<=2'`).
   * A threshold that is not met fails the run (exit code 1) and is printed with the measured value.
   * @default `ARTE_THRESHOLDS`, else none
   */
  thresholds?: ArteThresholdsOption
  /**
   * Do not print the summary (threshold failures are still printed).
   * @default false
   */
  silent?: boolean
  /**
   * Keep a copy of the results under `evaluation/history/{run id}/arte-results.json` (for `agent-bench compare`);
   * `false` keeps none.
   * @default true, with the folder and cap from BENCH_HISTORY_DIR / BENCH_HISTORY_KEEP (20)
   */
  history?: boolean
}

function thousands(value: number): string {
  return value.toLocaleString('en-US')
}

function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)].sort()
}

/**
 * The row selection the tests recorded (so a merge of blob reports gets the shards' selection): `mixed` when they differ;
 * for tests that recorded none (blobs written before it was), `ARTE_ROWS` of this process.
 */
function rowSelection(metas: ReadonlyArray<Pick<ArteTestMeta, 'rows'>>, root: string): NonNullable<ArteResults['config']['rows']> {
  const recorded = distinct(metas.flatMap((meta) => (meta.rows === undefined ? [] : [meta.rows])))
  if (recorded.length > 1) return 'mixed'
  return (recorded[0] as ArteRowSelection | undefined) ?? arteSettings(root).rows
}

/**
 * How the tasks of a resumed run ended up: reused (`resumedFrom`), run now, or not run; counted over every trial, with
 * the usage the reused ones recorded in their earlier runs. `undefined` when no task was reused and `resume`
 * (`BENCH_RESUME`) is off.
 */
function resumeCounts(
  metas: ReadonlyArray<Pick<ArteTestMeta, 'outcome' | 'resumedFrom' | 'usage' | 'taskId' | 'trial'>>,
  resume: boolean,
): ResumeCounts | undefined {
  const reused = metas.filter((meta) => meta.resumedFrom !== undefined)
  if (reused.length === 0 && !resume) return undefined
  const notRun = metas.filter((meta) => meta.outcome.kind === 'not-run').length
  return { reused: reused.length, ranNow: Math.max(0, metas.length - notRun - reused.length), notRun, reusedUsage: sumTaskUsage(reused) }
}

/** The tasks of never-started part files, counted as not run, and the never-started files whose tasks are not. */
interface NeverStarted {
  metas: ArteTestMeta[]
  uncounted: string[]
}

/** The model and kind of the first ART-E test collected (`arte` or `arteTask` meta), or `undefined` when there is none. */
function declaredAgent(testModules: ReadonlyArray<TestModule>): NotStartedModel | undefined {
  for (const testModule of testModules) {
    for (const testCase of testModule.children.allTests()) {
      const meta = testCase.meta()
      const task = meta.arte ?? meta.arteTask
      if (task !== undefined && typeof task.model === 'string' && (task.modelKind === 'llm' || task.modelKind === 'baseline'))
        return { model: task.model, modelKind: task.modelKind }
    }
  }
  return undefined
}

/** Where the results go and the setting that chose it, named in errors. */
interface ConfiguredOutput {
  file: string
  /** `ARTE_OUTPUT (agent-bench arte --output)`, `--outputFile.arte ...` or the reporter option. */
  setting: string
}

/** The fix of an output path that cannot be written: the setting to change, then what the path needs. */
function outputFix(setting: string, hint: string | undefined): string {
  return `Set another path with ${setting}.${hint === undefined ? '' : ` ${hint}`}`
}

/**
 * Aggregates ART-E tests (those whose meta carries `arte`) into the ART-E metrics, prints them with tokens
 * and cost, writes the results JSON atomically, and checks the thresholds. Other tests are ignored, so it
 * can sit beside `default`, `junit` or the MPCBench reporter. Works on merged blob reports (`--merge-reports`).
 */
export class ArteReporter implements Reporter {
  readonly #options: ArteReporterOptions
  #vitest: Vitest | undefined
  #thresholds: ArteThreshold[] = []
  /** The current run (its specifications array): both writes of an interrupted run share its history entry. */
  #run: object | undefined
  /** Between `onTestRunStart` and `onTestRunEnd`: a signal then writes what finished. */
  #running = false
  /** The thresholds' verdict of the last run, for the JUnit report (see `addJunitVerdict`); undefined when none were checked. */
  #junitVerdict: JunitVerdict | undefined
  /** The results of the last run, or `undefined` before the first run ends or when it had no ART-E tests. */
  results: ArteResults | undefined
  /** The file the last run's results were written to (absolute), or `undefined` when none was written. */
  outputFile: string | undefined

  constructor(options: ArteReporterOptions = {}) {
    this.#options = options
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
    // On SIGINT / SIGTERM during a run, write what finished (testRunEndReason "interrupted") before the process exits;
    // silently when the command cancels the run and its end follows (`agent-bench arte`): the summary is printed then.
    const dispose = onInterrupt(({ runEndFollows }) => {
      if (!this.#running) return
      const testModules = vitest.state.getTestModules()
      this.#end(testModules, 'interrupted', !runEndFollows, this.#neverStartedNow(testModules))
    })
    vitest.onClose(dispose)
    // The thresholds' verdict is one more testcase (ART-E > thresholds) in the JUnit file, failing as the run does.
    addJunitVerdict(vitest, () => this.#junitVerdict)
    // Parsed up front so a malformed ARTE_THRESHOLDS stops the run before any task runs.
    this.#thresholds = resolveArteThresholds(
      this.#options.thresholds ?? (arteSettings(vitest.config.root).thresholds || undefined),
      this.#options.thresholds === undefined ? 'ARTE_THRESHOLDS' : 'reporter option `thresholds`',
    )
    // Read when the run ends, checked now: a bad BENCH_HISTORY_KEEP or output path stops the run before any task runs.
    if (this.#options.history !== false) arteHistorySettings(undefined, vitest.config.root)
    const output = this.#configuredOutput(vitest.config.root)
    const problem = checkWritableFile(output.file)
    if (problem !== undefined) {
      throw new ConfigError(`The ART-E results file ${output.file}, set by ${output.setting}, cannot be written: ${problem.reason}.`, {
        hint: outputFix(output.setting, problem.hint),
      })
    }
  }

  #configuredOutput(root: string): ConfiguredOutput {
    if (this.#options.outputFile !== undefined) return { file: resolve(root, this.#options.outputFile), setting: "the ART-E reporter's `outputFile` option" }
    const fromVitest = this.#vitest === undefined ? undefined : reporterOutputFile(this.#vitest, 'arte')
    if (fromVitest !== undefined) return { file: resolve(root, fromVitest), setting: "--outputFile.arte (Vitest's `outputFile.arte`)" }
    return { file: arteSettings(root).output, setting: 'ARTE_OUTPUT (agent-bench arte --output)' }
  }

  /** The ART-E run id the globalSetup provided (the traces of this run carry it), when there is one. */
  #runId(): string | undefined {
    for (const project of this.#vitest?.projects ?? []) {
      const runId = project.getProvidedContext().arteRunId
      if (typeof runId === 'string' && runId !== '') return runId
    }
    return undefined
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.#run = specifications
    this.#running = true
  }

  /**
   * Synchronous unless an interrupted run left part files unstarted whose rows only an asynchronous read gives (a
   * `.parquet` dataset): Vitest runs the reporters' `onTestRunEnd` together, so a reporter that awaited here would let
   * the report reporter, listed after it, look for the results file before it is written.
   */
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, _unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void | Promise<void> {
    this.#running = false
    const plan = reason === 'interrupted' ? this.#neverStartedPlan(testModules) : undefined
    if (plan === undefined) return this.#end(testModules, reason, true, undefined)
    // The tasks of the part files the run never started, counted as not run (see `notStartedArteTasks`).
    const now = notStartedArteTasksSync(plan.files, plan.root, plan.agent)
    if (now.uncounted.length === 0 || !readsParquet(plan.root)) return this.#end(testModules, reason, true, now)
    return notStartedArteTasks(plan.files, plan.root, plan.agent).then((never) => this.#end(testModules, reason, true, never))
  }

  /** {@link #neverStarted} of a run a signal interrupts, read synchronously (the process may exit right after). */
  #neverStartedNow(testModules: ReadonlyArray<TestModule>): NeverStarted | undefined {
    const plan = this.#neverStartedPlan(testModules)
    return plan === undefined ? undefined : notStartedArteTasksSync(plan.files, plan.root, plan.agent)
  }

  #neverStartedPlan(testModules: ReadonlyArray<TestModule>): { files: string[]; root: string; agent: NotStartedModel } | undefined {
    const root = this.#vitest?.config.root ?? process.cwd()
    const files = notStartedFiles(testModules, root)
    if (files.length === 0) return undefined
    // The agent the collected tests were declared with (one per run); with none collected nothing is written anyway.
    const agent = declaredAgent(testModules)
    return agent === undefined ? undefined : { files, root, agent }
  }

  /** Computes, prints (when `print`, unless `silent`) and writes the run's results. */
  #end(testModules: ReadonlyArray<TestModule>, reason: TestRunEndReason, print: boolean, neverStarted?: NeverStarted): void {
    const log = print ? (line: string) => this.#log(line) : () => {}
    const error = print ? (line: string) => this.#error(line) : () => {}
    const show = print && this.#options.silent !== true
    this.results = undefined
    this.outputFile = undefined
    this.#junitVerdict = undefined
    const recover = reason === 'interrupted' ? finishedInRun(arteSettings(this.#vitest?.config.root ?? process.cwd()).tracesDb, this.#runId()) : undefined
    const collected = collectArteTasks(testModules, reason === 'interrupted', recover)
    if (collected.metas.length === 0) return
    const { spans } = collected
    const metas = [...collected.metas, ...(neverStarted?.metas ?? [])]

    const root = this.#vitest?.config.root ?? process.cwd()
    const notStarted = reason === 'interrupted' ? notStartedFiles(testModules, root) : []
    const { taskResults, duplicateTaskIds, ...statistics } = arteRunStatistics(metas)
    const metrics = computeArteMetrics(taskResults, spans)
    const thresholds = this.#thresholds
    const scores = {
      ...metrics,
      sourcesAccuracy: statistics.sourcesAccuracy,
      ...(statistics.llmJudgeAccuracy === undefined ? {} : { llmJudgeAccuracy: statistics.llmJudgeAccuracy }),
    }
    // A threshold on llmJudgeAccuracy is checked only when every task that ran has a verdict.
    const judge = statistics.llmJudge === undefined ? undefined : { tasks: metrics.totalTasks - metrics.notRunTasks, errors: statistics.llmJudge.errors }
    const checks = reason === 'interrupted' ? [] : checkArteThresholds(scores, thresholds, judge)
    const unmeasured = reason === 'interrupted' ? [] : unmeasuredThresholds(scores, thresholds, judge)
    const models = distinct(metas.map((meta) => meta.model))
    const kinds = distinct(metas.map((meta) => meta.modelKind))
    const now = new Date()
    const results: ArteResults = {
      ...metrics,
      // Every trial's calls: the usage and cost are what the results cost (the metrics are trial 1's), a resumed run's
      // reused tasks included with what they spent in their earlier runs (`resumedFrom`; the resumed row says how much).
      usage: sumTaskUsage(metas),
      config: {
        model: models.join(', '),
        modelKind: kinds.length === 1 && (kinds[0] === 'llm' || kinds[0] === 'baseline') ? kinds[0] : 'mixed',
        split: distinct(metas.map((meta) => meta.split)).join(', '),
        rows: rowSelection(metas, root),
        dataset: distinct(metas.map((meta) => relative(root, meta.dataset) || meta.dataset)).join(', '),
        startedAt: new Date(spans.length === 0 ? now.getTime() : Math.min(...spans.map((span) => span.startTime))).toISOString(),
        finishedAt: new Date(spans.length === 0 ? now.getTime() : Math.max(...spans.map((span) => span.endTime))).toISOString(),
      },
      testRunEndReason: reason,
      ...(notStarted.length === 0 ? {} : { notStartedFiles: notStarted }),
      thresholds: checks,
      ...statistics,
      taskResults,
    }
    this.results = results
    // The metrics are printed before any file is written: a file that cannot be written loses none of them.
    if (show) this.#print(results, resumeCounts(metas, arteSettings(root).resume))
    const output = this.#configuredOutput(root)
    const choice = chooseArteOutput(output.file, results, arteSettings(root).trials)
    // The history copy is written from the results themselves, so it is kept even when the results file is not.
    const history =
      this.#options.history !== false && choice.subset === undefined
        ? { settings: arteHistorySettings(undefined, root), runId: historyRunId(this.#run ?? testModules), name: ARTE_HISTORY_FILE }
        : undefined
    const { written, kept, writeError } = writeRunOutput(choice.file, results, history, error)
    if (show) log(`   results              ${written === undefined ? 'NOT written (see the error below)' : relative(process.cwd(), written)}\n`)
    this.outputFile = written
    // The HTML report (listed after this reporter) reads the file recorded here: the history copy when the results file could not be written.
    const readable = written ?? kept
    if (readable !== undefined) recordRunOutput('arte-results', readable)
    if (writeError !== undefined) {
      process.exitCode = 1
      const { problem, hint } = describeError(writeError)
      const fix = outputFix(output.setting, hint)
      const rescue = kept === undefined ? '' : `\n  This run's results are kept in ${relative(process.cwd(), kept)} (its history copy).`
      error(`ERROR: ART-E results were not written. ${problem}\n  Fix: ${fix}${rescue}`)
    }
    const subsetNote = formatSubsetNote(choice)
    if (subsetNote !== undefined && written !== undefined) log(subsetNote)
    if (duplicateTaskIds.length > 0) {
      error(
        `WARNING: ART-E task id(s) ${duplicateTaskIds.join(', ')} reported by more than one test (two eval files register the same rows?); the first test's result counts, the others are left out of the metrics (their tokens and cost still count in the usage).`,
      )
    }
    const suspects = graderSuspectWarning(results)
    if (suspects !== undefined) error(suspects)
    const judgeErrors = judgeErrorWarning(results)
    if (judgeErrors !== undefined) error(judgeErrors)
    if (reason === 'interrupted' && thresholds.length > 0) log('ART-E thresholds not checked: the run was interrupted.')
    const resume = resumeHint(results, neverStarted?.uncounted)
    if (resume !== undefined) log(resume)
    const failed = checks.filter((check) => !check.passed)
    if (reason !== 'interrupted' && thresholds.length > 0) {
      const failures = [...failed.map(formatThresholdFailure), ...unmeasured.map((threshold) => formatUnmeasuredThreshold(threshold, judge))]
      this.#junitVerdict = { suite: 'ART-E', name: 'thresholds', failures: failures.map((line) => line.replace(/^ERROR: /, '')) }
    }
    if (failed.length > 0 || unmeasured.length > 0) {
      process.exitCode = 1
      for (const check of failed) error(formatThresholdFailure(check))
      for (const threshold of unmeasured) error(formatUnmeasuredThreshold(threshold, judge))
    }
  }

  #log(line: string): void {
    if (this.#vitest === undefined) console.log(redact(line))
    else if (stdoutHoldsReport(this.#vitest)) this.#vitest.logger.error(redact(line))
    else this.#vitest.logger.log(redact(line))
  }

  #error(line: string): void {
    if (this.#vitest === undefined) console.error(redact(line))
    else this.#vitest.logger.error(redact(line))
  }

  /** The metrics block; the `results` line that ends it is printed once the file is written. */
  #print(results: ArteResults, resumed: ResumeCounts | undefined): void {
    const { usage, config } = results
    const exact = results.taskResults.filter((task) => task.exactMatch).length
    const kind = config.modelKind === 'baseline' ? ' (non-LLM)' : ''
    const paid = paidCostUsd(usage)
    const cost = paid === null ? 'unknown (no price for the model)' : `$${paid.toFixed(4)}${usage.cached === undefined ? '' : ' paid'}`
    const rows: Array<[string, string]> = [
      ...rowSelectionRows(results),
      ...resumedRows(resumed, results.trials),
      ...formatArteStatistics(results, exact),
      ['avgExecutionTimeMs', thousands(Math.round(results.avgExecutionTimeMs))],
      ['completedTasks', String(results.completedTasks)],
      ['failedTasks', String(results.failedTasks)],
      ...(results.notRunTasks > 0 ? [['notRunTasks', String(results.notRunTasks)] as [string, string]] : []),
      ...(results.toolTimeouts > 0
        ? [
            ['toolTimeouts', `${results.toolTimeouts} email tool call(s) stopped at ARTE_TOOL_TIMEOUT_MS and answered as tool errors (see the traces)`] as [
              string,
              string,
            ],
          ]
        : []),
      ['totalTimeMs', thousands(Math.round(results.totalTimeMs))],
      [
        'tokens',
        `${thousands(usage.totalTokens)} (${thousands(usage.promptTokens)} prompt, ${thousands(usage.completionTokens)} completion) in ${thousands(usage.calls)} call(s)${formatCachedPart(usage)}`,
      ],
      ['cost', cost],
      ...judgeUsageRows(results),
    ]
    const lines = ['', ` ART-E  ${results.totalTasks} task(s) · model ${config.model}${kind} · split ${config.split} · ${config.dataset}`]
    for (const [name, value] of rows) lines.push(`   ${name.padEnd(20)} ${value}`)
    for (const check of results.thresholds) {
      lines.push(`   threshold ${check.metric} ${check.op} ${check.value}: ${check.passed ? 'met' : 'NOT met'} (${formatMetricValue(check.measured)})`)
    }
    for (const line of lines) this.#log(line)
  }
}

export default ArteReporter

/** Whether the run's ART-E dataset is a `.parquet` file, which only an asynchronous read gives rows of. */
function readsParquet(root: string): boolean {
  try {
    return /\.parquet$/i.test(arteSettings(root).dataset)
  } catch {
    return false
  }
}
