import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { type TestContext, afterAll, describe, test } from 'vitest'
import { BenchError } from '../core/errors.ts'
import { runInCacheScope, trialCacheScope } from '../llm/response-cache.ts'
import { type EvalTaskResult, evalFolderName, readEvalResults } from '../results/eval-results.ts'
import { storedValue, valueText } from '../results/stored-value.ts'
import { annotateTest } from './annotate.ts'
import { flushTracing, testTraceId, traceEvalTask } from '../otel/tracing.ts'
import { evalSettings } from './eval-settings.ts'
import { isRunCancel, skipCancelled, withRunCancel } from './run-cancel.ts'
import type { EvalPlannedCase, EvalScore, EvalTestMeta } from './eval-meta.ts'
import type { Scorer } from './scorer.ts'

/** One case of an eval: what the task gets, and what a scorer compares its output with. */
export interface EvalCase<Input, Expected> {
  /**
   * The case id: names the test (`-t`, JUnit) and the results row; unique in the eval, not empty. With
   * trials, the tests are `{id} [trial=1]` .. `{id} [trial=k]`.
   * @default none: the test is named by `name`, else `${index + 1}: ${input}` (shortened), and the results row by that name
   */
  id?: string
  input: Input
  expected: Expected
  /** The test name when the case has no `id`; must be unique in the eval. @default `${index + 1}: ${input}` (shortened) */
  name?: string
  /** Anything else about the case (`loadDataset` keeps every other column of the row here). */
  metadata?: Record<string, unknown>
}

/** What the task gets besides the input. */
export interface EvalTaskContext {
  /** Aborts when the test times out or the run is cancelled: pass it to your model calls. */
  signal: AbortSignal
  /** Which run of the case this is, 1-based (`BENCH_TRIALS` or the `trials` option; 1 for a single trial). */
  trial: number
}

/** Options of {@link describeEval}. */
export interface DescribeEvalOptions<Input, Output, Expected> {
  /** The cases, one test each (per trial). `loadDataset` reads them from a file. */
  data: ReadonlyArray<EvalCase<Input, Expected>>
  /**
   * Runs the system under test (an agent, a prompt) on one input. Model calls of this package's model client made
   * inside it record and replay (`BENCH_CACHE`) in the trial's own scope, so no trial replays another's.
   */
  task: (input: Input, context: EvalTaskContext) => Output | Promise<Output>
  /**
   * Each scores every output; a case's score is their mean. They run where the task ran: in the trial's cache scope
   * (a `createJudgeScorer` judge records and replays per trial) and in the case's OpenTelemetry trace.
   */
  scorers: ReadonlyArray<Scorer<Input, Output, Expected>>
  /**
   * A case fails when its mean score is below this: a number from 0 to 1, as scores are (another is an
   * {@link EvalThresholdRangeError} when the eval is declared).
   * @default 1
   */
  threshold?: number
  /**
   * Run the cases of this eval concurrently (Vitest's `maxConcurrency` at a time).
   * @default false
   */
  concurrent?: boolean
  /** Per-case timeout in ms. @default Vitest's `testTimeout` */
  timeout?: number
  /**
   * Runs per case: each case gets `trials` tests, `{id} [trial=1]` .. `{id} [trial=k]`, and the results give pass^k.
   * @default `BENCH_TRIALS`, else 1
   */
  trials?: number
}

/** A case's mean score is below the eval's threshold. */
export class EvalThresholdError extends BenchError {
  /** The failing case's scores. */
  readonly meta: EvalTestMeta

  constructor(meta: EvalTestMeta) {
    const lines = meta.scores.map((s) => `  ${s.name}: ${s.score.toFixed(3)}${s.reason === undefined ? '' : ` (${s.reason})`}`)
    super('ERR_EVAL_BELOW_THRESHOLD', `Mean score ${meta.mean.toFixed(3)} is below the threshold ${meta.threshold}:\n${lines.join('\n')}`, {
      hint: 'Improve the task, or lower the `threshold` option of describeEval.',
    })
    this.meta = meta
  }
}

/** The `threshold` option of an eval is not a number from 0 to 1, the range of the mean score it is compared with. */
export class EvalThresholdRangeError extends BenchError {
  constructor(suite: string, threshold: unknown) {
    const shown = typeof threshold === 'number' ? String(threshold) : (JSON.stringify(threshold) ?? String(threshold))
    const never =
      typeof threshold === 'number' && threshold > 1 ? ': every case would fail' : typeof threshold === 'number' && threshold < 0 ? ': no case could fail' : ''
    super('ERR_EVAL_INVALID_THRESHOLD', `describeEval(${JSON.stringify(suite)}): \`threshold\` is ${shown}, but scores are from 0 to 1${never}.`, {
      hint: 'Pass a threshold from 0 to 1 (the mean score a case needs, e.g. 0.5 or 0.8), or leave it out for 1.',
    })
  }
}

/** Two cases of an eval share an id or a test name, an id is empty, or `trials` is not a whole number >= 1. */
export class EvalCaseError extends BenchError {
  constructor(message: string, hint: string) {
    super('ERR_EVAL_INVALID_CASE', message, { hint })
  }
}

function caseName(input: unknown, index: number): string {
  const text = valueText(input)
  return `${index + 1}: ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`
}

function checkScore(name: string, score: unknown): number {
  if (typeof score !== 'number' || Number.isNaN(score) || score < 0 || score > 1) {
    throw new BenchError('ERR_EVAL_INVALID_SCORE', `Scorer ${name} returned score ${JSON.stringify(score)}.`, {
      hint: 'Return { score } with a number in [0, 1] from the scorer.',
    })
  }
  return score
}

/** The id (results row) and test name of every case; throws on an empty id or two cases of one name. */
function caseKeys(suite: string, data: ReadonlyArray<EvalCase<unknown, unknown>>): string[] {
  const seen = new Map<string, number>()
  return data.map((item, index) => {
    if (item.id !== undefined && (typeof item.id !== 'string' || item.id.trim() === '')) {
      throw new EvalCaseError(
        `describeEval(${JSON.stringify(suite)}): case ${index + 1} has the id ${JSON.stringify(item.id)}.`,
        'Give every case a non-empty string id, or leave `id` out.',
      )
    }
    const key = item.id ?? item.name ?? caseName(item.input, index)
    const first = seen.get(key)
    if (first !== undefined) {
      const what = item.id === undefined ? 'test name' : 'id'
      throw new EvalCaseError(
        `describeEval(${JSON.stringify(suite)}): cases ${first + 1} and ${index + 1} have the ${what} ${JSON.stringify(key)}.`,
        `Give every case a unique ${what}: it names the test and the results row.`,
      )
    }
    seen.set(key, index)
    return key
  })
}

/** The trial count: the option, else `BENCH_TRIALS`, else 1. */
function trialCount(suite: string, option: unknown, fromEnv: number | undefined): number {
  if (option === undefined) return fromEnv ?? 1
  if (typeof option !== 'number' || !Number.isInteger(option) || option < 1) {
    throw new EvalCaseError(
      `describeEval(${JSON.stringify(suite)}): \`trials\` is ${JSON.stringify(option)}.`,
      'Pass a whole number >= 1 as `trials`, or leave it out for BENCH_TRIALS (default 1).',
    )
  }
  return option
}

/** `id` for a run of one trial (today's names), else `id [trial=j]`. */
function trialName(key: string, trial: number, trials: number): string {
  return trials <= 1 ? key : `${key} [trial=${trial}]`
}

/** Scores one output with every scorer, in order. */
async function scoreOutput<Input, Output, Expected>(
  scorers: ReadonlyArray<Scorer<Input, Output, Expected>>,
  labels: ReadonlyArray<string>,
  item: EvalCase<Input, Expected>,
  output: Output,
): Promise<EvalScore[]> {
  const scores: EvalScore[] = []
  for (const [i, scorer] of scorers.entries()) {
    const label = labels[i] as string
    const result = await scorer(item.input, output, item.expected)
    scores.push({ name: label, score: checkScore(label, result.score), ...(result.reason === undefined ? {} : { reason: result.reason }) })
  }
  return scores
}

/**
 * Declares one Vitest test per case of `options.data` (in the spirit of vitest-evals' `describeEval`) and trial: the
 * test runs `task` on the case's input, scores the output with every scorer, puts the scores in the test's meta
 * (`meta.eval`, see {@link EvalTestMeta}) and annotations, and fails when their mean is below `threshold`. The eval
 * reporter (`vitest-agent-bench/reporters/eval`) writes each eval's results file from that meta.
 *
 * With `trials` (or `BENCH_TRIALS`) k > 1, each case gets k tests `{id} [trial=1]` .. `{id} [trial=k]`, and the task gets
 * the trial in its context. With `BENCH_RESUME=1`, a case that has a finished result (scored, not an error) for the same
 * trial, input and expected value in the eval's previous results file is not run again: its result is kept (with
 * OpenTelemetry on, on a short root span of its own marked `bench.resumed_from`).
 *
 * ```ts
 * describeEval('capitals', {
 *   data: [{ id: 'fr', input: 'France', expected: 'Paris' }],
 *   task: async (country, { signal }) => askMyAgent(`Capital of ${country}?`, { signal }),
 *   scorers: [exactMatchScorer, jaccardScorer],
 *   threshold: 0.5,
 * })
 * ```
 */
export function describeEval<Input, Output, Expected>(name: string, options: DescribeEvalOptions<Input, Output, Expected>): void {
  const threshold = options.threshold ?? 1
  if (typeof threshold !== 'number' || Number.isNaN(threshold) || threshold < 0 || threshold > 1) throw new EvalThresholdRangeError(name, threshold)
  const settings = evalSettings()
  const trials = trialCount(name, options.trials, settings.trials)
  const keys = caseKeys(name, options.data)
  const labels = options.scorers.map((scorer, i) => (scorer.name === '' ? `scorer${i + 1}` : scorer.name))
  if (labels.includes('passRate')) {
    throw new EvalCaseError(
      `describeEval(${JSON.stringify(name)}): a scorer is named \`passRate\`, the name of the pass rate in the results.`,
      'Give that scorer function another name.',
    )
  }
  const previous = settings.resume ? finishedResults(name, settings.outputDir) : undefined
  const declare = options.concurrent === true ? test.concurrent : test
  describe(name, () => {
    afterAll(() => flushTracing())
    options.data.forEach((item, index) => {
      const id = keys[index] as string
      const input = storedValue(item.input)
      const expected = storedValue(item.expected)
      for (let trial = 1; trial <= trials; trial++) {
        const planned: EvalPlannedCase = { suite: name, id, trial, trials, threshold, scorers: labels, input, expected }
        const earlier = previous?.find(id, trial, input, expected, labels)
        declare(
          trialName(id, trial, trials),
          { meta: { evalCase: planned }, ...(options.timeout === undefined ? {} : { timeout: options.timeout }) },
          async (context) => {
            let scores: EvalScore[]
            let output: unknown
            let durationMs: number
            if (earlier !== undefined) {
              // Resumed: this case finished in the previous run; its result stands and the task is not called.
              scores = labels.map((label) => ({
                name: label,
                score: earlier.row.scores[label] as number,
                ...(earlier.row.reasons?.[label] === undefined ? {} : { reason: earlier.row.reasons[label] }),
              }))
              output = earlier.row.output
              durationMs = earlier.row.durationMs
              // OpenTelemetry (when on): a short root span of its own, marked as resumed and pointing at the earlier trace
              // (where its model calls are); its stored scores land on it when the test ends, as a run case's do.
              const attributes = { 'bench.resumed_from': earlier.runId, 'bench.resumed_trace_id': earlier.row.otelTraceId }
              await traceEvalTask(context, { benchmark: 'eval', agent: name, taskId: id, trial, attributes }, () => {})
            } else {
              const started = performance.now()
              const result = await callTask(options.task, item.input, context, { suite: name, id, trial }, (taskOutput) =>
                scoreOutput(options.scorers, labels, item, taskOutput),
              )
              scores = result.scores
              output = storedValue(result.output)
              durationMs = performance.now() - started
            }
            const mean = scores.length === 0 ? 0 : scores.reduce((sum, s) => sum + s.score, 0) / scores.length
            const meta: EvalTestMeta = {
              suite: name,
              id,
              trial,
              scores,
              mean,
              threshold,
              passed: mean >= threshold,
              durationMs,
              ...(input === undefined ? {} : { input }),
              ...(expected === undefined ? {} : { expected }),
              ...(output === undefined ? {} : { output }),
              ...(earlier === undefined ? {} : { resumedFrom: earlier.runId }),
              ...otelTraceIdOf(context.task),
            }
            context.task.meta.eval = meta
            const resumed = earlier === undefined ? '' : ` (resumed: finished in run ${earlier.runId})`
            await annotateTest(context, `${scores.map((s) => `${s.name} ${s.score.toFixed(3)}`).join(', ')}${resumed}`, 'eval')
            if (mean < threshold) throw new EvalThresholdError(meta)
          },
        )
      }
    })
  })
}

/**
 * Calls the task of an eval on one case's input and scores its output: the one place `describeEval` runs the system
 * under test. Its signal aborts with the test's and when the run is cancelled. Task and scorers run in the case's
 * OpenTelemetry trace (its `invoke_agent` span active, so an LLM judge's `bench.judge` > `chat` spans land beside the
 * task's) and in the trial's cache scope (model calls inside, the judge's too, record and replay per trial). A task
 * that a cancelled run cut off is skipped (not run), as Vitest skips the tests it had not started.
 */
async function callTask<Input, Output>(
  task: DescribeEvalOptions<Input, Output, unknown>['task'],
  input: Input,
  context: Pick<TestContext, 'signal' | 'skip' | 'task' | 'onTestFinished'>,
  { suite, id, trial }: { suite: string; id: string; trial: number },
  score: (output: Output) => Promise<EvalScore[]>,
): Promise<{ output: Output; scores: EvalScore[] }> {
  return withRunCancel(context.signal, async (signal) => {
    try {
      if (isRunCancel(signal.reason)) skipCancelled(context, signal.reason)
      // OpenTelemetry (when on): the case is one trace, `invoke_agent {suite}`; its scores land on it when the test ends.
      return await traceEvalTask(context, { benchmark: 'eval', agent: suite, taskId: id, trial }, () =>
        runInCacheScope(trialCacheScope(trial), async () => {
          const output = await task(input, { signal, trial })
          return { output, scores: await score(output) }
        }),
      )
    } catch (error) {
      if (isRunCancel(signal.reason)) skipCancelled(context, signal.reason)
      throw error
    }
  })
}

function otelTraceIdOf(task: object): { otelTraceId?: string } {
  const traceId = testTraceId(task)
  return traceId === undefined ? {} : { otelTraceId: traceId }
}

/** The finished results of an eval's previous run, for `BENCH_RESUME=1`. */
interface FinishedResults {
  /** The finished row of case `id`'s trial `trial`, when its input and expected value are the ones stored. */
  find(id: string, trial: number, input: unknown, expected: unknown, scorers: ReadonlyArray<string>): { row: EvalTaskResult; runId: string } | undefined
}

/**
 * Reads the eval's previous results file (`{outputDir}/{eval}/results.json`) for `BENCH_RESUME=1`: rows that were
 * scored count as finished; an error or a trial not run runs again. No file: nothing is finished. A file that cannot be
 * read is an error naming it (resuming from it was asked for).
 */
function finishedResults(name: string, outputDir: string): FinishedResults | undefined {
  const file = join(outputDir, evalFolderName(name), 'results.json')
  if (!existsSync(file)) return undefined
  const results = readEvalResults(file)
  const runId = results.config.runId ?? results.config.finishedAt
  const rows = new Map<string, EvalTaskResult>()
  for (const row of results.taskResults) if (row.status === 'scored') rows.set(`${row.id}\u0000${row.trial}`, row)
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
  return {
    find(id, trial, input, expected, scorers) {
      const row = rows.get(`${id}\u0000${trial}`)
      // A case whose input or expected value changed since is another case, and one without a score of every scorer
      // (a scorer was added) has no result to keep: it runs again.
      if (row === undefined || !same(row.input, input) || !same(row.expected, expected)) return undefined
      if (scorers.some((scorer) => row.scores[scorer] === undefined)) return undefined
      return { row, runId: row.resumedFrom ?? runId }
    },
  }
}
