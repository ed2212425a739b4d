import { join, relative, resolve } from 'node:path'
import type { SerializedError } from 'vitest'
import type { Reporter, TestCase, TestModule, TestRunEndReason, TestSpecification, Vitest } from 'vitest/node'
import { ConfigError } from '../core/errors.ts'
import { onInterrupt } from '../core/interrupt.ts'
import { redact } from '../core/redact.ts'
import { reporterOutputFile, stdoutHoldsReport } from '../core/reporter-output-file.ts'
import { historyRunId, historySettingsFromEnv } from '../core/run-history.ts'
import { recordRunOutput } from '../core/run-outputs.ts'
import { chooseOutputFile, formatSubsetChoice } from './eval-subset.ts'
import { describeError, writeRunOutput } from '../core/write-run-output.ts'
import { checkWritableFile } from '../core/atomic-write.ts'
import { formatWithCi } from '../stats/bootstrap.ts'
import { type EvalResults, type EvalTaskResult, computeEvalResults, evalFolderName, evalHistoryName, evalOutputDir } from '../results/eval-results.ts'
import type { EvalPlannedCase, EvalTestMeta } from './eval-meta.ts'

/** Options of {@link EvalReporter}. */
export interface EvalReporterOptions {
  /**
   * The folder of the results files (`{outputDir}/{eval name}/results.json`), relative to the folder Vitest runs in.
   * @default Vitest's `outputFile.eval`, else `EVAL_OUTPUT_DIR`, else 'evaluation/evals'
   */
  outputDir?: string
  /**
   * Do not print the summary of each eval (errors are still printed).
   * @default false
   */
  silent?: boolean
  /**
   * Keep a copy of each eval's results under `evaluation/history/{run id}/evals/{eval name}.json` (for the report's
   * comparison with the previous run); `false` keeps none.
   * @default true, with the folder and cap from BENCH_HISTORY_DIR / BENCH_HISTORY_KEEP (20)
   */
  history?: boolean
}

/** Error code of a case whose test timed out before it was scored. */
export const EVAL_TIMEOUT_CODE = 'ERR_TEST_TIMEOUT'
/** Error code of a case whose test failed before it was scored (the task or a scorer threw). */
export const EVAL_FAILED_CODE = 'ERR_TEST_FAILED'

/** The note Vitest gives the tests it skips when a run is cancelled. */
const CANCEL_NOTE = /aborted by the user/i

/** The cases of one eval in a run, as the tests reported them. */
interface CollectedEval {
  name: string
  rows: EvalTaskResult[]
  trials: number
  threshold: number
  scorers: string[]
  files: Set<string>
  startTimes: number[]
  endTimes: number[]
  /** `{id} [trial=j]` reported by more than one test: the first counts. */
  duplicates: Set<string>
}

/** A case's row from its scored meta. */
function scoredRow(meta: EvalTestMeta): EvalTaskResult {
  const reasons = Object.fromEntries(meta.scores.flatMap((s) => (s.reason === undefined ? [] : [[s.name, s.reason]])))
  return {
    id: meta.id,
    trial: meta.trial,
    status: 'scored',
    passed: meta.passed,
    scores: Object.fromEntries(meta.scores.map((s) => [s.name, s.score])),
    ...(Object.keys(reasons).length === 0 ? {} : { reasons }),
    mean: meta.mean,
    durationMs: meta.durationMs,
    ...(meta.input === undefined ? {} : { input: meta.input }),
    ...(meta.expected === undefined ? {} : { expected: meta.expected }),
    ...(meta.output === undefined ? {} : { output: meta.output }),
    ...(meta.resumedFrom === undefined ? {} : { resumedFrom: meta.resumedFrom }),
    ...(meta.otelTraceId === undefined ? {} : { otelTraceId: meta.otelTraceId }),
  }
}

/**
 * The row of a declared case whose test was never scored, from its state: a timeout or a failure is an `error` (not
 * passed, scoring 0), a test a cancelled run skipped or never started is `not-run`. `undefined` for a test that was not
 * selected (a name filter, `.skip`).
 */
function unscoredRow(planned: EvalPlannedCase, testCase: TestCase, interrupted: boolean): EvalTaskResult | undefined {
  const result = testCase.result()
  const base = {
    id: planned.id,
    trial: planned.trial,
    passed: false,
    scores: {},
    mean: 0,
    ...(planned.input === undefined ? {} : { input: planned.input }),
    ...(planned.expected === undefined ? {} : { expected: planned.expected }),
  }
  if (result.state === 'failed') {
    const first = result.errors?.[0] as (SerializedError & { code?: unknown }) | undefined
    const message = redact(first?.message ?? 'the test failed')
    const code = /timed out/i.test(message) ? EVAL_TIMEOUT_CODE : typeof first?.code === 'string' ? first.code : EVAL_FAILED_CODE
    return { ...base, status: 'error', durationMs: testCase.diagnostic()?.duration ?? 0, error: { code, message } }
  }
  const notRun = (reason: string): EvalTaskResult => ({ ...base, status: 'not-run', durationMs: 0, error: { code: 'ERR_NOT_RUN', message: reason } })
  if (result.state === 'pending') return interrupted ? notRun('the run was interrupted before this case ran') : undefined
  if (result.state === 'skipped' && result.note !== undefined && CANCEL_NOTE.test(result.note))
    return notRun('the run was interrupted before this case finished')
  return undefined
}

/** Every eval of a run with its rows: every selected case once per trial. Files in path order, tests in order. */
export function collectEvals(testModules: ReadonlyArray<TestModule>, interrupted: boolean, root: string): Map<string, CollectedEval> {
  const evals = new Map<string, CollectedEval>()
  const seen = new Set<string>()
  for (const testModule of [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))) {
    for (const testCase of testModule.children.allTests()) {
      const meta = testCase.meta()
      const planned = meta.evalCase
      const scored = meta.eval
      if (planned === undefined && scored === undefined) continue
      const name = scored?.suite ?? planned?.suite ?? ''
      const row = scored !== undefined ? scoredRow(scored) : planned === undefined ? undefined : unscoredRow(planned, testCase, interrupted)
      if (row === undefined) continue
      let collected = evals.get(name)
      if (collected === undefined) {
        collected = {
          name,
          rows: [],
          trials: 1,
          threshold: scored?.threshold ?? planned?.threshold ?? 1,
          scorers: [],
          files: new Set(),
          startTimes: [],
          endTimes: [],
          duplicates: new Set(),
        }
        evals.set(name, collected)
      }
      const key = `${row.id}\u0000${row.trial}`
      if (seen.has(`${name}\u0000${key}`)) {
        collected.duplicates.add(row.trial > 1 || (planned?.trials ?? 1) > 1 ? `${row.id} [trial=${row.trial}]` : row.id)
        continue
      }
      seen.add(`${name}\u0000${key}`)
      collected.rows.push(row)
      collected.trials = Math.max(collected.trials, planned?.trials ?? 1, row.trial)
      if (collected.scorers.length === 0) collected.scorers = planned?.scorers ?? scored?.scores.map((s) => s.name) ?? []
      collected.files.add(relative(root, testModule.moduleId).replaceAll('\\', '/'))
      const diagnostic = testCase.diagnostic()
      if (diagnostic !== undefined && row.status !== 'not-run') {
        collected.startTimes.push(diagnostic.startTime)
        collected.endTimes.push(diagnostic.startTime + diagnostic.duration)
      }
    }
  }
  return evals
}

/** The numbers of a pass^k record, `0.667, 0.556, 0.333`. */
function passHatKLine(results: EvalResults): string {
  const keys = Object.keys(results.passHatK).sort((a, b) => Number(a) - Number(b))
  if (keys.length === 0) return 'no case ran every trial'
  return keys.map((key) => formatWithCi(results.passHatK[key] ?? 0, results.trials > 1 ? results.passHatKCi[key] : undefined)).join(', ')
}

/**
 * Writes one results file per eval declared with `describeEval`: `evaluation/evals/{eval name}/results.json`
 * (`EVAL_OUTPUT_DIR` replaces `evaluation/evals`), atomically, with each scorer's mean and its interval, the pass
 * rate, pass^k and every case once per trial (see `EvalResultsSchema`); keeps a copy in the run history; prints a
 * summary per eval. Other tests are ignored, so it sits beside `default`, `junit` and the benchmark reporters.
 */
export class EvalReporter implements Reporter {
  readonly #options: EvalReporterOptions
  #vitest: Vitest | undefined
  #run: object | undefined
  #running = false
  /** The results of the last run, by eval name. */
  results = new Map<string, EvalResults>()
  /** The files the last run's results were written to (absolute), by eval name. */
  outputFiles = new Map<string, string>()
  /** The errors and warnings of the last run, as printed. */
  problems: string[] = []

  constructor(options: EvalReporterOptions = {}) {
    this.#options = options
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
    const dispose = onInterrupt(({ runEndFollows }) => {
      if (this.#running) this.#end(vitest.state.getTestModules(), 'interrupted', !runEndFollows)
    })
    vitest.onClose(dispose)
    // Checked now: a bad BENCH_HISTORY_KEEP or an output folder that cannot be written stops the run before any case runs.
    if (this.#options.history !== false) historySettingsFromEnv(process.env, vitest.config.root)
    const { dir, setting } = this.#outputDir()
    const problem = checkWritableFile(join(dir, 'eval', 'results.json'))
    if (problem !== undefined) {
      throw new ConfigError(`The eval results folder ${dir}, set by ${setting}, cannot be written: ${problem.reason}.`, {
        hint: `Set another folder with ${setting}. ${problem.hint}`,
      })
    }
  }

  #outputDir(): { dir: string; setting: string } {
    if (this.#options.outputDir !== undefined) return { dir: resolve(this.#options.outputDir), setting: "the eval reporter's `outputDir` option" }
    const fromVitest = this.#vitest === undefined ? undefined : reporterOutputFile(this.#vitest, 'eval')
    if (fromVitest !== undefined) return { dir: resolve(fromVitest), setting: "--outputFile.eval (Vitest's `outputFile.eval`)" }
    return { dir: evalOutputDir(), setting: 'EVAL_OUTPUT_DIR' }
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.#run = specifications
    this.#running = true
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, _unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    this.#running = false
    this.#end(testModules, reason, true)
  }

  #end(testModules: ReadonlyArray<TestModule>, reason: TestRunEndReason, print: boolean): void {
    const log = print ? (line: string) => this.#log(line) : () => {}
    const error = (line: string): void => {
      this.problems.push(line)
      if (print) this.#error(line)
    }
    this.results = new Map()
    this.outputFiles = new Map()
    this.problems = []
    const root = this.#vitest?.config.root ?? process.cwd()
    const evals = collectEvals(testModules, reason === 'interrupted', root)
    if (evals.size === 0) return
    const runId = historyRunId(this.#run ?? testModules)
    const { dir, setting } = this.#outputDir()
    const folders = new Map<string, string>()
    for (const collected of evals.values()) {
      const folder = evalFolderName(collected.name)
      const other = folders.get(folder)
      if (other !== undefined) {
        process.exitCode = 1
        error(
          `ERROR: the evals "${other}" and "${collected.name}" share the results folder ${relative(process.cwd(), join(dir, folder)) || '.'}: the results of "${collected.name}" were not written.\n  Fix: Rename one of them (a results folder keeps the letters, digits, ".", "_" and "-" of the eval name).`,
        )
        continue
      }
      folders.set(folder, collected.name)
      const now = new Date().toISOString()
      const results = computeEvalResults(collected.rows, {
        name: collected.name,
        trials: collected.trials,
        scorers: collected.scorers,
        threshold: collected.threshold,
        testRunEndReason: reason,
        files: [...collected.files].sort(),
        startedAt: collected.startTimes.length === 0 ? now : new Date(Math.min(...collected.startTimes)).toISOString(),
        finishedAt: collected.endTimes.length === 0 ? now : new Date(Math.max(...collected.endTimes)).toISOString(),
        runId,
      })
      this.results.set(collected.name, results)
      const file = join(dir, folder, 'results.json')
      const choice = chooseOutputFile(file, results)
      const history =
        this.#options.history !== false && choice.subset === undefined
          ? { settings: historySettingsFromEnv(process.env, root), runId, name: evalHistoryName(collected.name) }
          : undefined
      const { written, kept, writeError } = writeRunOutput(choice.file, results, history, error)
      if (print && this.#options.silent !== true) this.#print(results, written)
      if (written !== undefined) this.outputFiles.set(collected.name, written)
      const readable = written ?? kept
      if (readable !== undefined) recordRunOutput(`eval-results:${collected.name}`, readable)
      if (writeError !== undefined) {
        process.exitCode = 1
        const { problem, hint } = describeError(writeError)
        const rescue = kept === undefined ? '' : `\n  This run's results are kept in ${relative(process.cwd(), kept)} (its history copy).`
        error(
          `ERROR: the results of eval "${collected.name}" were not written. ${problem}\n  Fix: Set another folder with ${setting}.${hint === undefined ? '' : ` ${hint}`}${rescue}`,
        )
      }
      const subsetNote = formatSubsetChoice(choice)
      if (subsetNote !== undefined && written !== undefined) log(subsetNote)
      if (collected.duplicates.size > 0) {
        error(
          `WARNING: eval "${collected.name}": case(s) ${[...collected.duplicates].join(', ')} reported by more than one test (two files declare the same eval?); the first test's result counts.`,
        )
      }
    }
  }

  #print(results: EvalResults, written: string | undefined): void {
    const { metrics, counts } = results
    const ranTrial1 = results.taskResults.filter((row) => row.trial === 1 && row.status !== 'not-run')
    const rows: Array<[string, string]> = [
      [
        'passRate',
        `${formatWithCi(metrics.passRate.value, metrics.passRate.ci)} (${ranTrial1.filter((row) => row.passed).length} of ${ranTrial1.length}${results.trials > 1 ? ', trial 1' : ''})`,
      ],
      ...results.scorers.map((scorer): [string, string] => [scorer, formatWithCi(metrics[scorer]?.mean ?? 0, metrics[scorer]?.ci)]),
      ...(results.trials > 1 ? [[`pass^1..${results.trials}`, passHatKLine(results)] as [string, string]] : []),
      ...(counts.errors > 0 ? [['errors', `${counts.errors} (the task or a scorer threw, or the test timed out: see taskResults)`] as [string, string]] : []),
      ...(counts.notRun > 0 ? [['notRun', String(counts.notRun)] as [string, string]] : []),
      ...(counts.resumed > 0 ? [['resumed', `${counts.resumed} trial(s) kept from the previous results (BENCH_RESUME)`] as [string, string]] : []),
      ['results', written === undefined ? 'NOT written (see the error below)' : relative(process.cwd(), written)],
    ]
    const trials = results.trials > 1 ? ` x ${results.trials} trial(s)` : ''
    const lines = ['', ` EVAL  ${results.name}  ${results.tasks} case(s)${trials} · threshold ${results.config.threshold}`]
    for (const [name, value] of rows) lines.push(`   ${name.padEnd(20)} ${value}`)
    for (const line of lines) this.#log(line)
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
}

export default EvalReporter
