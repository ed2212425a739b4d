import { ConfigError } from '../../core/errors.ts'
import { ARTE_THRESHOLD_METRIC_NAMES, type ArteMetrics, type ArteOpenPipeScores, type ArteThresholdMetric } from './results.ts'

/** A comparison a threshold makes between the measured metric and its value. */
export type ThresholdOp = '>=' | '>' | '<=' | '<'

/** One quality gate on an aggregate metric, e.g. `exactMatchAccuracy >= 0.6`. */
export interface ArteThreshold {
  metric: ArteThresholdMetric
  op: ThresholdOp
  value: number
}

/**
 * Thresholds as reporter options: a record means minimums (`{exactMatchAccuracy: 0.6}` is
 * `exactMatchAccuracy >= 0.6`, like Vitest's coverage thresholds); a string uses explicit comparisons
 * (`'exactMatchAccuracy>=0.6,failedTasks<=2'`, the `ARTE_THRESHOLDS` syntax).
 */
export type ArteThresholdsOption = Partial<Record<ArteThresholdMetric, number>> | string | ReadonlyArray<ArteThreshold>

/** What thresholds are checked against: the doc's metrics and the OpenPipe-comparable scores (`llmJudgeAccuracy` only when a judge ran). */
export type ArteThresholdMetrics = ArteMetrics & ArteOpenPipeScores

/** One checked threshold with the measured value. */
export interface ArteThresholdCheck extends ArteThreshold {
  measured: number
  passed: boolean
}

const OPS: ReadonlyArray<ThresholdOp> = ['>=', '<=', '>', '<']

function isMetric(name: string): name is ArteThresholdMetric {
  return (ARTE_THRESHOLD_METRIC_NAMES as string[]).includes(name)
}

function badThreshold(text: string, source: string, why: string): ConfigError {
  return new ConfigError(`Invalid ART-E threshold ${JSON.stringify(text)} in ${source}: ${why}.`, {
    hint: `Write thresholds as \`metric>=number\` separated by commas, e.g. \`exactMatchAccuracy>=0.6,avgSemanticScore>=0.5\`; metrics: ${ARTE_THRESHOLD_METRIC_NAMES.join(', ')} (llmJudgeAccuracy needs ARTE_JUDGE_MODEL).`,
  })
}

/** Metrics that are rates or means of scores in [0, 1]; every other metric is a count or a time, never negative. */
const UNIT_METRICS: ReadonlySet<string> = new Set(['exactMatchAccuracy', 'avgSemanticScore', 'sourcesAccuracy', 'llmJudgeAccuracy'])

/** Why `value` is outside what `metric` can measure (a gate that could never fail or never pass), or undefined. */
function outOfRange(metric: ArteThresholdMetric, value: number): string | undefined {
  if (UNIT_METRICS.has(metric)) return value < 0 || value > 1 ? `${metric} is between 0 and 1, so ${value} can never decide the gate` : undefined
  return value < 0 ? `${metric} is never negative, so ${value} can never decide the gate` : undefined
}

/**
 * Parses `ARTE_THRESHOLDS` syntax: comma-separated `metric OP number` with OP one of `>=`, `>`, `<=`, `<`.
 * An empty string gives no thresholds. A value a metric can never reach (an accuracy of 1.5, a negative count) is an error.
 *
 * @param source where the text came from, named in errors (e.g. `ARTE_THRESHOLDS`)
 */
export function parseArteThresholds(text: string, source = 'ARTE_THRESHOLDS'): ArteThreshold[] {
  const thresholds: ArteThreshold[] = []
  for (const part of text.split(',')) {
    const item = part.trim()
    if (item === '') continue
    const op = OPS.find((candidate) => item.includes(candidate))
    if (op === undefined) throw badThreshold(item, source, 'expected one of >=, >, <=, <')
    const [name = '', raw = ''] = item.split(op).map((piece) => piece.trim())
    if (!isMetric(name)) throw badThreshold(item, source, `unknown metric ${JSON.stringify(name)}`)
    const value = Number(raw)
    if (raw === '' || !Number.isFinite(value)) throw badThreshold(item, source, `expected a number after ${op}`)
    const range = outOfRange(name, value)
    if (range !== undefined) throw badThreshold(item, source, range)
    thresholds.push({ metric: name, op, value })
  }
  return thresholds
}

/** Normalizes any {@link ArteThresholdsOption} to a list of thresholds. */
export function resolveArteThresholds(option: ArteThresholdsOption | undefined, source = 'reporter option `thresholds`'): ArteThreshold[] {
  if (option === undefined) return []
  if (typeof option === 'string') return parseArteThresholds(option, source)
  if (Array.isArray(option)) return [...(option as ReadonlyArray<ArteThreshold>)]
  const thresholds: ArteThreshold[] = []
  for (const [name, value] of Object.entries(option)) {
    if (!isMetric(name)) throw badThreshold(name, source, `unknown metric ${JSON.stringify(name)}`)
    if (typeof value !== 'number' || !Number.isFinite(value)) throw badThreshold(name, source, 'expected a number')
    const range = outOfRange(name, value)
    if (range !== undefined) throw badThreshold(`${name}>=${value}`, source, range)
    thresholds.push({ metric: name, op: '>=', value })
  }
  return thresholds
}

function holds(measured: number, op: ThresholdOp, value: number): boolean {
  switch (op) {
    case '>=':
      return measured >= value
    case '>':
      return measured > value
    case '<=':
      return measured <= value
    case '<':
      return measured < value
  }
}

/**
 * How much of a run the LLM judge gave a verdict on (`llmJudge` of the results and the tasks that ran): a threshold on
 * `llmJudgeAccuracy` is checked only when every task that ran has a verdict.
 */
export interface ArteJudgeCoverage {
  /** Tasks that ran (all but the ones not run). */
  tasks: number
  /** Tasks that ran whose judge gave no verdict (`llmJudge.errors`). */
  errors: number
}

/** Whether `threshold` can be checked: its metric was measured and, for `llmJudgeAccuracy`, no task lacks a verdict. */
function checkable(metrics: ArteThresholdMetrics, threshold: ArteThreshold, judge: ArteJudgeCoverage | undefined): boolean {
  if (metrics[threshold.metric] === undefined) return false
  return threshold.metric !== 'llmJudgeAccuracy' || judge === undefined || judge.errors === 0
}

/**
 * Checks every threshold that can be checked against the metrics (see {@link unmeasuredThresholds} for the others: a
 * metric not measured, or `llmJudgeAccuracy` with judge errors, which never meets a threshold on missing verdicts).
 */
export function checkArteThresholds(metrics: ArteThresholdMetrics, thresholds: ReadonlyArray<ArteThreshold>, judge?: ArteJudgeCoverage): ArteThresholdCheck[] {
  return thresholds.flatMap((threshold) => {
    const measured = metrics[threshold.metric]
    return measured === undefined || !checkable(metrics, threshold, judge)
      ? []
      : [{ ...threshold, measured, passed: holds(measured, threshold.op, threshold.value) }]
  })
}

/**
 * The thresholds that cannot be checked, each failing the run with its own error (see
 * {@link formatUnmeasuredThreshold}): a metric the run did not measure (`llmJudgeAccuracy` without a judge, or without
 * any verdict), or `llmJudgeAccuracy` while some task has no verdict.
 */
export function unmeasuredThresholds(metrics: ArteThresholdMetrics, thresholds: ReadonlyArray<ArteThreshold>, judge?: ArteJudgeCoverage): ArteThreshold[] {
  return thresholds.filter((threshold) => !checkable(metrics, threshold, judge))
}

/**
 * The error line of a threshold that cannot be checked: no judge ran, or (with `judge`) how many tasks have no
 * verdict and how to get them judged.
 */
export function formatUnmeasuredThreshold(threshold: ArteThreshold, judge?: ArteJudgeCoverage): string {
  const gate = `ERROR: ART-E threshold ${threshold.metric} ${threshold.op} ${threshold.value} cannot be checked`
  if (threshold.metric === 'llmJudgeAccuracy' && judge !== undefined) {
    const missing = judge.errors > 0 ? `${judge.errors} of ${judge.tasks} task(s) have no verdict (judge errors)` : `no task of ${judge.tasks} has a verdict`
    return `${gate}: ${missing}; \`agent-bench arte --resume\` asks the judge again for those only.`
  }
  const why =
    threshold.metric === 'llmJudgeAccuracy' ? 'no LLM judge ran (set ARTE_JUDGE_MODEL or agent-bench arte --judge-model)' : 'the results do not have it'
  return `${gate}: ${threshold.metric} was not measured, as ${why}.`
}

/** The error line for a failed threshold, in the style of Vitest's coverage thresholds. */
export function formatThresholdFailure(check: ArteThresholdCheck): string {
  return `ERROR: ART-E ${check.metric} (${formatMetricValue(check.measured)}) does not meet threshold ${check.metric} ${check.op} ${check.value}`
}

/** A metric value for display: integers as is, fractions with up to 4 decimals. */
export function formatMetricValue(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4)))
}
