import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import type { z } from 'zod'
import type { Reporter, TestModule, TestRunEndReason, TestSpecification, Vitest } from 'vitest/node'
import { checkWritableFile } from '../../core/atomic-write.ts'
import { ConfigError } from '../../core/errors.ts'
import { redact } from '../../core/redact.ts'
import { recordRunOutput } from '../../core/run-outputs.ts'
import { onInterrupt } from '../../core/interrupt.ts'
import { collectMpcbenchTests } from './collect-mpcbench-tests.ts'
import { notStartedTasks } from './not-started-tasks.ts'
import { chooseSummaryOutput, formatSummarySubsetNote } from '../summary/summary-subset.ts'
import { type Summary, type UnfinishedTest, buildSummary, formatSummaryTable, formatSummaryUsage, invalidTaskFilesLine } from '../summary/summary.ts'
import { formatSummaryStatistics } from '../summary/summary-statistics.ts'
import { MPCBENCH_HISTORY_FILE, mpcbenchHistorySettings, mpcbenchLogDir } from '../settings.ts'
import { runLogFileName, trialLogDir } from '../tasks/file-names.ts'
import { RunLogSchema } from '../run/run-log.ts'
import { JudgeResultFileSchema } from '../judge/judge-result.ts'
import { sumUsage } from '../../llm/usage.ts'
import { historyRunId } from '../../core/run-history.ts'
import { describeError, writeRunOutput } from '../../core/write-run-output.ts'
import { reporterOutputFile, stdoutHoldsReport } from '../../core/reporter-output-file.ts'
import { notStartedFiles, notStartedLine } from '../../core/not-started-files.ts'
import { configuredTrials } from '../../core/subset-output.ts'
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

/** The key of one MPCBench test: task, agent and trial (a test without a trial is trial 1). */
function testKey(taskId: string, agentModel: string, trial: number | undefined): string {
  return JSON.stringify([taskId, agentModel, trial ?? 1])
}

/**
 * The log folder of every MPCBench test that has no `mpcbench` meta, by {@link testKey}, as its worker resolved it:
 * `MPCBENCH_LOG_DIR` of the environment Vitest gave the worker (this process's, then the config's, then the
 * project's `env`) against the working directory, which is a bench file's root unless it sets its own.
 */
function logDirsOf(testModules: ReadonlyArray<TestModule>, configEnv: Record<string, string | undefined>): Map<string, string> {
  const dirs = new Map<string, string>()
  for (const testModule of testModules) {
    const env = { ...process.env, ...configEnv, ...testModule.project.config.env }
    for (const testCase of testModule.children.allTests()) {
      const meta = testCase.meta()
      const planned = meta.mpcbenchTask
      if (meta.mpcbench === undefined && planned !== undefined) dirs.set(testKey(planned.taskId, planned.agentModel, planned.trial), mpcbenchLogDir(env))
    }
  }
  return dirs
}

/** A JSON file read with `schema`, or `undefined` when it is missing, unreadable or not valid. */
function readValid<T extends z.ZodType>(schema: T, file: string): z.infer<T> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** Whether an ISO time is at or after `since` (milliseconds since the epoch); false when it is not a time. */
const writtenSince = (iso: string, since: number): boolean => Date.parse(iso) >= since

/**
 * What a test spent, read back from the files it wrote in this run: its run log (`started_at` at or after `since`,
 * the run's start), whose usage is the agent's, and the judge results beside it judged since (the judges' usage).
 * `undefined` when there is no such run log: missing, unreadable, another test's, or left by an earlier run.
 */
export function loggedUsage(
  logDir: string,
  test: Pick<UnfinishedTest, 'task_id' | 'agent_model' | 'trial'>,
  since: number,
): { usage: NonNullable<UnfinishedTest['usage']>; files: string[] } | undefined {
  const runLogFile = join(trialLogDir(logDir, test.trial), runLogFileName(test.task_id, test.agent_model))
  const runLog = readValid(RunLogSchema, runLogFile)
  if (runLog === undefined || runLog.task_id !== test.task_id || runLog.agent_model !== test.agent_model || !writtenSince(runLog.started_at, since))
    return undefined
  const judgePrefix = `${basename(runLogFile).slice(0, -'_run.json'.length)}__judge-`
  let names: string[] = []
  try {
    names = readdirSync(dirname(runLogFile))
      .filter((name) => name.startsWith(judgePrefix) && name.endsWith('_judge_result.json'))
      .sort()
  } catch {
    // The folder went away after the run log was read: no judge result to add.
  }
  const judged = names.flatMap((name) => {
    const file = join(dirname(runLogFile), name)
    const result = readValid(JudgeResultFileSchema, file)
    const ours = result !== undefined && result.task_id === test.task_id && result.agent_model === test.agent_model && writtenSince(result.judged_at, since)
    return ours ? [{ file, usage: result.usage }] : []
  })
  return { usage: { agents: runLog.usage, judges: sumUsage(judged.map((judge) => judge.usage)) }, files: [runLogFile, ...judged.map((judge) => judge.file)] }
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
  /** When the current run started (milliseconds since the epoch): run logs older than this are an earlier run's. */
  #runStartedAt: number | undefined
  /** The current run (its specifications array): the history id of both writes of an interrupted run (see historyRunId). */
  #run: object | undefined
  /** Between `onTestRunStart` and `onTestRunEnd`: a signal then writes what finished. */
  #running = false
  /** Vitest's `env` option, which the workers' environment adds to this process's. */
  #configEnv: Record<string, string | undefined> = {}
  /** The summary of the last run, or `undefined` before the first run ends or when it had no MPCBench tests. */
  summary: Summary | undefined
  /** The file the last summary was written to (absolute), or `undefined` when none was written. */
  outputFile: string | undefined

  constructor(options: MpcbenchReporterOptions = {}) {
    this.#options = options
    if (options.outputFile !== undefined) this.#outputFile = options.outputFile
  }

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root
    this.#configEnv = vitest.config.env
    this.#outputFile = this.#options.outputFile ?? reporterOutputFile(vitest, 'mpcbench') ?? DEFAULT_SUMMARY_FILE
    if (this.#options.outputFile !== undefined) this.#outputSetting = "the MPCBench reporter's `outputFile` option"
    // Read when the run ends, checked now: a bad BENCH_HISTORY_KEEP or summary path stops the run before any task runs.
    if (this.#outputFile !== false) {
      if (this.#options.history !== false) mpcbenchHistorySettings(undefined, this.#root)
      const file = resolve(this.#root, this.#outputFile)
      const problem = checkWritableFile(file)
      if (problem !== undefined) {
        throw new ConfigError(`The MPCBench summary file ${file}, set by ${this.#outputSetting}, cannot be written: ${problem.reason}.`, {
          hint: this.#outputFix(problem.hint),
        })
      }
    }
    // On SIGINT / SIGTERM, write what finished before the process exits.
    // Silently when the command cancels the run and its end follows (`agent-bench mpcbench`): the table is printed then.
    const dispose = onInterrupt(({ runEndFollows }) => {
      if (this.#running) this.#end(vitest.state.getTestModules(), 'interrupted', !runEndFollows)
    })
    vitest.onClose(dispose)
    // With `--reporter=junit` (or json) to standard output, the table goes to standard error: the report stays valid.
    this.#log = stdoutHoldsReport(vitest) ? (text) => vitest.logger.error(redact(text)) : (text) => vitest.logger.log(redact(text))
    this.#error = (text) => vitest.logger.error(redact(text))
  }

  #outputFix(hint: string | undefined): string {
    return `Set another path with ${this.#outputSetting}.${hint === undefined ? '' : ` ${hint}`}`
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.#runStartedAt = Date.now()
    this.#run = specifications
    this.#running = true
  }

  /**
   * The unfinished tests, with the usage of those that have none read back from their logs (see {@link loggedUsage}):
   * a test that timed out or failed after its agent ran, or whose last update a cancelled run cut off, sets no meta,
   * though its agent's calls were made.
   */
  #withLoggedUsage(testModules: ReadonlyArray<TestModule>, unfinished: UnfinishedTest[]): UnfinishedTest[] {
    const since = this.#runStartedAt
    if (since === undefined || !unfinished.some((test) => test.usage === undefined)) return unfinished
    const logDirs = logDirsOf(testModules, this.#configEnv)
    return unfinished.map((test) => {
      const logDir = logDirs.get(testKey(test.task_id, test.agent_model, test.trial))
      if (test.usage !== undefined || logDir === undefined) return test
      const logged = loggedUsage(logDir, test, since)
      if (logged === undefined) return test
      // A test that ended without its meta (timed out, failed after its run log, cut off by a cancel) still spent
      // what its logs say; a cut-off one is known to have run.
      const message = test.outcome === 'not-run' ? 'the run was interrupted while this test ran' : test.message
      return { ...test, message, usage: logged.usage, usage_files: logged.files.map((file) => relative(this.#root, file)) }
    })
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors?: unknown, reason?: TestRunEndReason): void {
    this.#running = false
    this.#end(testModules, reason, true)
  }

  /** Builds, prints (when `show` and the `print` option allow) and writes the run's summary. */
  #end(testModules: ReadonlyArray<TestModule>, reason: TestRunEndReason | undefined, show: boolean): void {
    const print = show && this.#options.print !== false
    const collected = collectMpcbenchTests(testModules, reason === 'interrupted')
    const metas = collected.metas
    const unfinished = this.#withLoggedUsage(testModules, collected.unfinished)
    const notStarted = reason === 'interrupted' ? notStartedFiles(testModules, this.#root) : []
    // The tasks of a file that never started are counted as not run (those it can tell; the file is named either way).
    const neverStarted =
      notStarted.length === 0 ? { tests: [], uncounted: [] } : notStartedTasks(notStarted, this.#root, { ...process.env, ...this.#configEnv })
    unfinished.push(...neverStarted.tests)
    this.summary = undefined
    this.outputFile = undefined
    if (metas.length === 0 && unfinished.length === 0 && collected.invalid.length === 0) return
    const summary = buildSummary(metas, new Date(), unfinished, notStarted, collected.invalid)
    this.summary = summary
    // The table is printed before the summary is written: a file that cannot be written loses none of it.
    if (print) {
      const counts = summary.task_counts
      const tally =
        counts === undefined || unfinished.length === 0
          ? ''
          : `\n${counts.selected} selected: ${counts.completed} completed, ${counts.failed} failed, ${counts.not_run} not run (${unfinished.map((test) => `${test.task_id} ${test.outcome}`).join(', ')})`
      const counted = notStarted.length - neverStarted.uncounted.length
      const countedLine =
        counted === 0 ? undefined : `${counted} test file(s) never started: their ${neverStarted.tests.length} test(s) are counted as not run.`
      const never =
        [countedLine, notStartedLine(neverStarted.uncounted), invalidTaskFilesLine(collected.invalid)].filter((line) => line !== undefined).join('\n') ||
        undefined
      const statistics = formatSummaryStatistics(summary)
      this.#log(
        `\nMPCBench: mean scores (0-5) per agent x judge x task type, ${metas.length} test(s)\n${formatSummaryTable(summary)}\n${statistics === '' ? '' : `${statistics}\n`}${formatSummaryUsage(summary)}${tally}${never === undefined ? '' : `\n${never}`}`,
      )
    }
    if (this.#outputFile === false) return
    const choice = chooseSummaryOutput(resolve(this.#root, this.#outputFile), summary, configuredTrials({ ...process.env, ...this.#configEnv }))
    // The history copy is written from the summary itself, so it is kept even when the summary file is not.
    const history =
      this.#options.history !== false && choice.subset === undefined
        ? { settings: mpcbenchHistorySettings(undefined, this.#root), runId: historyRunId(this.#run ?? testModules), name: MPCBENCH_HISTORY_FILE }
        : undefined
    const { written, kept, writeError } = writeRunOutput(choice.file, summary, history, (line) => this.#error(line))
    this.outputFile = written
    // The HTML report (listed after this reporter) reads the file recorded here: the history copy when the summary could not be written.
    const readable = written ?? kept
    if (readable !== undefined) recordRunOutput('mpcbench-summary', readable)
    if (written !== undefined && print) {
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
