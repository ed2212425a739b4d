import { z } from 'zod'
import { DEFAULT_SEED, seededRandom } from './random.ts'

/** Resamples a bootstrap draws unless told otherwise. */
export const DEFAULT_RESAMPLES = 2000

/** Confidence level of every interval unless told otherwise. */
export const DEFAULT_LEVEL = 0.95

/**
 * A confidence interval of an aggregate: `[low, high]` at `level`, and how it was computed (`method`, e.g.
 * `percentile bootstrap over 10 tasks, 2000 resamples, seed 20260311`).
 */
export const ConfidenceIntervalSchema = z.object({
  low: z.number(),
  high: z.number(),
  level: z.number(),
  method: z.string(),
})

/** A confidence interval; see {@link ConfidenceIntervalSchema}. */
export type ConfidenceInterval = z.infer<typeof ConfidenceIntervalSchema>

/** Options of the bootstraps. */
export interface BootstrapOptions {
  /** @default 0.95 */
  level?: number
  /** @default 2000 */
  resamples?: number
  /** @default DEFAULT_SEED */
  seed?: number
}

function mean(values: ReadonlyArray<number>): number {
  let sum = 0
  for (const v of values) sum += v
  return sum / values.length
}

/** The `q` quantile (0-1) of sorted values, linearly interpolated. */
export function quantile(sorted: ReadonlyArray<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN
  const at = (sorted.length - 1) * q
  const below = Math.floor(at)
  const above = Math.ceil(at)
  const lo = sorted[below] ?? Number.NaN
  const hi = sorted[above] ?? Number.NaN
  return lo + (hi - lo) * (at - below)
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6
}

/** Percentile interval of resampled statistics, widened to contain the estimate itself. */
function percentileInterval(stats: number[], estimate: number, level: number, method: string): ConfidenceInterval {
  stats.sort((a, b) => a - b)
  const tail = (1 - level) / 2
  return {
    low: round(Math.min(quantile(stats, tail), estimate)),
    high: round(Math.max(quantile(stats, 1 - tail), estimate)),
    level,
    method,
  }
}

/**
 * Percentile-bootstrap interval of the mean of `values` (one value per task: resample tasks, not trials). Seeded:
 * the same values give the same interval on every run. `null` for no values; a single value gives `[v, v]`.
 */
export function bootstrapMeanCi(values: ReadonlyArray<number>, options: BootstrapOptions = {}): ConfidenceInterval | null {
  const n = values.length
  if (n === 0) return null
  const level = options.level ?? DEFAULT_LEVEL
  const resamples = options.resamples ?? DEFAULT_RESAMPLES
  const seed = options.seed ?? DEFAULT_SEED
  const random = seededRandom(seed)
  const stats: number[] = []
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)] ?? 0
    stats.push(sum / n)
  }
  return percentileInterval(stats, mean(values), level, `percentile bootstrap over ${n} task(s), ${resamples} resamples, seed ${seed}`)
}

/**
 * Paired-bootstrap interval of `mean(b) - mean(a)` over the same tasks (`a[i]` and `b[i]` are one task in two runs):
 * each resample draws tasks and takes both runs' values of each, so the task-to-task spread cancels out.
 */
export function pairedBootstrapDiffCi(a: ReadonlyArray<number>, b: ReadonlyArray<number>, options: BootstrapOptions = {}): ConfidenceInterval | null {
  if (a.length !== b.length) throw new RangeError(`paired bootstrap needs as many values in both runs (${a.length} vs ${b.length})`)
  const diffs = a.map((value, i) => (b[i] ?? 0) - value)
  const ci = bootstrapMeanCi(diffs, options)
  return ci === null ? null : { ...ci, method: ci.method.replace('percentile bootstrap', 'paired percentile bootstrap of the difference') }
}

/** `0.600 [0.300, 0.850]`: an estimate with its interval (or the estimate alone when there is none). */
export function formatWithCi(estimate: number, ci: Pick<ConfidenceInterval, 'low' | 'high'> | null | undefined, digits = 3): string {
  const base = estimate.toFixed(digits)
  return ci === null || ci === undefined ? base : `${base} [${ci.low.toFixed(digits)}, ${ci.high.toFixed(digits)}]`
}
