import { afterAll, describe, test } from 'vitest'
import { BenchError } from '../core/errors.ts'
import { annotateTest } from './annotate.ts'
import { flushTracing, traceEvalTask } from '../otel/tracing.ts'
import { isRunCancel, skipCancelled, withRunCancel } from './run-cancel.ts'
import type { EvalScore, EvalTestMeta } from './eval-meta.ts'
import type { Scorer } from './scorer.ts'

/** One case of an eval: what the task gets, and what a scorer compares its output with. */
export interface EvalCase<Input, Expected> {
  input: Input
  expected: Expected
  /** The test name; must be unique in the eval. @default `${index + 1}: ${input}` (shortened) */
  name?: string
}

/** Options of {@link describeEval}. */
export interface DescribeEvalOptions<Input, Output, Expected> {
  /** The cases, one test each. */
  data: ReadonlyArray<EvalCase<Input, Expected>>
  /** Runs the system under test (an agent, a prompt) on one input; `signal` aborts when the test times out or the run is cancelled. */
  task: (input: Input, context: { signal: AbortSignal }) => Output | Promise<Output>
  /** Each scores every output; a case's score is their mean. */
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
    const shown = typeof threshold === 'number' ? String(threshold) : JSON.stringify(threshold) ?? String(threshold)
    const never = typeof threshold === 'number' && threshold > 1 ? ': every case would fail' : typeof threshold === 'number' && threshold < 0 ? ': no case could fail' : ''
    super('ERR_EVAL_INVALID_THRESHOLD', `describeEval(${JSON.stringify(suite)}): \`threshold\` is ${shown}, but scores are from 0 to 1${never}.`, {
      hint: 'Pass a threshold from 0 to 1 (the mean score a case needs, e.g. 0.5 or 0.8), or leave it out for 1.',
    })
  }
}

function caseName(input: unknown, index: number): string {
  const text = typeof input === 'string' ? input : JSON.stringify(input) ?? String(input)
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

/**
 * Declares one Vitest test per case of `options.data` (in the spirit of vitest-evals' `describeEval`): the test
 * runs `task` on the case's input, scores the output with every scorer, puts the scores in the test's meta
 * (`meta.eval`, see {@link EvalTestMeta}) and annotations, and fails when their mean is below `threshold`.
 *
 * ```ts
 * describeEval('capitals', {
 *   data: [{ input: 'France', expected: 'Paris' }],
 *   task: async (country) => askMyAgent(`Capital of ${country}?`),
 *   scorers: [exactMatchScorer, jaccardScorer],
 *   threshold: 0.5,
 * })
 * ```
 */
export function describeEval<Input, Output, Expected>(name: string, options: DescribeEvalOptions<Input, Output, Expected>): void {
  const threshold = options.threshold ?? 1
  if (typeof threshold !== 'number' || Number.isNaN(threshold) || threshold < 0 || threshold > 1) throw new EvalThresholdRangeError(name, threshold)
  const declare = options.concurrent === true ? test.concurrent : test
  describe(name, () => {
    afterAll(() => flushTracing())
    options.data.forEach((item, index) => {
      declare(
        item.name ?? caseName(item.input, index),
        async (context) => {
          // A task that a cancelled run cut off is skipped (not run), as Vitest skips the tests it had not started.
          const output = await withRunCancel(context.signal, async (signal) => {
            try {
              if (isRunCancel(signal.reason)) skipCancelled(context, signal.reason)
              // OpenTelemetry (when on): the case is one trace, `invoke_agent {suite}`; its scores land on it when the test ends.
              return await traceEvalTask(context, { benchmark: 'eval', agent: name }, () => options.task(item.input, { signal }))
            } catch (error) {
              if (isRunCancel(signal.reason)) skipCancelled(context, signal.reason)
              throw error
            }
          })
          const scores: EvalScore[] = []
          for (const [i, scorer] of options.scorers.entries()) {
            const label = scorer.name === '' ? `scorer${i + 1}` : scorer.name
            const result = await scorer(item.input, output, item.expected)
            scores.push({ name: label, score: checkScore(label, result.score), ...(result.reason === undefined ? {} : { reason: result.reason }) })
          }
          const mean = scores.length === 0 ? 0 : scores.reduce((sum, s) => sum + s.score, 0) / scores.length
          const meta: EvalTestMeta = { suite: name, scores, mean, threshold }
          context.task.meta.eval = meta
          await annotateTest(context, scores.map((s) => `${s.name} ${s.score.toFixed(3)}`).join(', '), 'eval')
          if (mean < threshold) throw new EvalThresholdError(meta)
        },
        options.timeout,
      )
    })
  })
}
