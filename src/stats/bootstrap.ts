import { z } from 'zod'
import { DEFAULT_SEED, MULBERRY32_STEP, mulberry32 } from './random.ts'

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

/** An interval's end as every interval here gives it: rounded to 6 decimals. */
export function roundEnd(value: number): number {
  return Math.round(value * 1e6) / 1e6
}

/** Percentile interval of resampled statistics (sorted here), widened to contain the estimate itself. */
export function percentileInterval(stats: number[], estimate: number, level: number, method: string): ConfidenceInterval {
  stats.sort((a, b) => a - b)
  const tail = (1 - level) / 2
  return {
    low: roundEnd(Math.min(quantile(stats, tail), estimate)),
    high: roundEnd(Math.max(quantile(stats, 1 - tail), estimate)),
    level,
    method,
  }
}

/**
 * Percentile-bootstrap interval of the mean of `values` (one value per task: resample tasks, not trials). Seeded:
 * the same values give the same interval on every run. `null` for no values; a single value gives `[v, v]`.
 */
export function bootstrapMeanCi(values: ReadonlyArray<number>, options: BootstrapOptions = {}): ConfidenceInterval | null {
  return bootstrapMeanCis([values], options)[0] ?? null
}

/**
 * {@link bootstrapMeanCi} of several series over the same tasks (`series[k][i]` is task i's value of the k-th score),
 * computed with shared draws: each interval is exactly the one `bootstrapMeanCi(series[k], options)` gives (same seed,
 * same draws, same sums), for the price of drawing once per two series instead of once per series.
 */
export function bootstrapMeanCis(series: ReadonlyArray<ReadonlyArray<number>>, options: BootstrapOptions = {}): Array<ConfidenceInterval | null> {
  const n = series[0]?.length ?? 0
  if (series.some((values) => values.length !== n)) {
    throw new RangeError(`bootstrapMeanCis needs series of one length (got ${series.map((values) => values.length).join(', ')})`)
  }
  if (n === 0) return series.map(() => null)
  const level = options.level ?? DEFAULT_LEVEL
  const resamples = options.resamples ?? DEFAULT_RESAMPLES
  const seed = options.seed ?? DEFAULT_SEED
  const means: number[][] = []
  for (let k = 0; k < series.length; k += 2) {
    const pair = resampledMeans(series[k] ?? [], series[k + 1] ?? series[k] ?? [], resamples, seed)
    means.push(...pair.slice(0, Math.min(2, series.length - k)))
  }
  const method = `percentile bootstrap over ${n} task(s), ${resamples} resamples, seed ${seed}`
  return series.map((values, k) => percentileInterval(means[k] ?? [], mean(values), level, method))
}

/**
 * The mean of each resample of two series of `n` values under the same draws of tasks: the draws of
 * `seededRandom(seed)`, with the generator's state and the sums kept in locals, since this loop runs resamples x tasks
 * times (20 million draws for 10,000 tasks) and a closure's state or a store per draw was most of its cost.
 */
function resampledMeans(a: ReadonlyArray<number>, b: ReadonlyArray<number>, resamples: number, seed: number): [number[], number[]] {
  const n = a.length
  // Task-major: a draw reads task i's two values from one place in memory.
  const table = new Float64Array(2 * n)
  for (let i = 0; i < n; i++) {
    table[2 * i] = a[i] ?? 0
    table[2 * i + 1] = b[i] ?? 0
  }
  const meansA = new Array<number>(resamples)
  const meansB = new Array<number>(resamples)
  // Local copies: reading the imports on every draw made this loop about 2x slower (measured on Node 20).
  const draw = mulberry32
  const step = MULBERRY32_STEP
  let state = seed >>> 0
  for (let r = 0; r < resamples; r++) {
    let sumA = 0
    let sumB = 0
    for (let i = 0; i < n; i++) {
      state = (state + step) >>> 0
      const at = 2 * Math.floor(draw(state) * n)
      sumA += table[at] as number
      sumB += table[at + 1] as number
    }
    meansA[r] = sumA / n
    meansB[r] = sumB / n
  }
  return [meansA, meansB]
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
