import { type ClusteredPair, clusterSums } from './cluster-bootstrap.ts'
import { DEFAULT_SEED, MULBERRY32_STEP, mulberry32 } from './random.ts'

/** A difference is significant when its p-value is below this. */
export const SIGNIFICANCE_LEVEL = 0.05

/** Up to this many clusters that differ, {@link signFlipTest} enumerates every sign assignment (2^20, about a million). */
export const EXACT_SIGN_FLIP_CLUSTERS = 20

/** Sign assignments {@link signFlipTest} draws beyond {@link EXACT_SIGN_FLIP_CLUSTERS} unless told otherwise. */
export const DEFAULT_SIGN_FLIP_DRAWS = 20_000

/** Options of {@link signFlipTest}. */
export interface SignFlipOptions {
  /** Seed of the Monte Carlo draws (more than {@link EXACT_SIGN_FLIP_CLUSTERS} clusters differ). @default DEFAULT_SEED */
  seed?: number
  /** @default 20000 */
  draws?: number
}

/** What {@link signFlipTest} found. */
export interface SignFlipResult {
  /** Two-sided p-value: the share of sign assignments whose |sum| is at least the observed |sum|. */
  pValue: number
  /** Clusters with a pair. */
  clusters: number
  /** Clusters whose differences do not sum to 0: those whose signs are flipped. */
  differing: number
  exact: boolean
  /** `exact paired sign-flip test by task, 12 task(s), 3 differ`. */
  method: string
}

/**
 * Exact two-sided paired sign-flip (permutation) test of `b - a`, by cluster: under "the runs do not differ", each
 * cluster's summed difference is as likely to have either sign, so p is the share of the 2^m sign assignments of the m
 * clusters that differ whose |sum| is at least the observed |sum| (ties within a relative 1e-9, for float sums). With
 * more than {@link EXACT_SIGN_FLIP_CLUSTERS} such clusters it draws `draws` seeded assignments and gives
 * (count + 1) / (draws + 1). For 0/1 scores with one pair per cluster it is the exact McNemar (sign) test. `null` for no
 * pairs; 1 when no cluster differs.
 */
export function signFlipTest(pairs: ReadonlyArray<ClusteredPair>, options: SignFlipOptions = {}): SignFlipResult | null {
  if (pairs.length === 0) return null
  const { sums } = clusterSums(pairs)
  let scale = 0
  for (const sum of sums) scale += Math.abs(sum)
  const tolerance = 1e-9 * scale
  const values = sums.filter((sum) => Math.abs(sum) > tolerance)
  let observed = 0
  for (const value of values) observed += value
  const threshold = Math.abs(observed) - tolerance
  const m = values.length
  const counted = `, ${sums.length} task(s), ${m} differ`
  if (m <= EXACT_SIGN_FLIP_CLUSTERS) {
    return {
      pValue: m === 0 ? 1 : exactShare(values, threshold),
      clusters: sums.length,
      differing: m,
      exact: true,
      method: `exact paired sign-flip test by task${counted}`,
    }
  }
  const draws = options.draws ?? DEFAULT_SIGN_FLIP_DRAWS
  const seed = options.seed ?? DEFAULT_SEED
  const count = monteCarloCount(values, threshold, draws, seed)
  return {
    pValue: (count + 1) / (draws + 1),
    clusters: sums.length,
    differing: m,
    exact: false,
    method: `Monte Carlo paired sign-flip test by task (${draws} draws, seed ${seed})${counted}`,
  }
}

/**
 * How many of `draws` seeded sign assignments of `values` have |sum| >= `threshold`. A sum only depends on how many
 * values of each magnitude come out positive, so the magnitudes are sorted into runs of equal ones, each draw of the
 * generator gives the signs of 32 values (one bit each), and a run adds its magnitude times (positives - negatives).
 */
function monteCarloCount(values: ReadonlyArray<number>, threshold: number, draws: number, seed: number): number {
  const magnitudes = values.map(Math.abs).sort((x, y) => x - y)
  const runs: Array<{ magnitude: number; start: number; end: number }> = []
  for (let k = 0; k < magnitudes.length; k++) {
    const magnitude = magnitudes[k] as number
    const last = runs.at(-1)
    if (last !== undefined && last.magnitude === magnitude) last.end = k + 1
    else runs.push({ magnitude, start: k, end: k + 1 })
  }
  const draw = mulberry32
  const step = MULBERRY32_STEP
  let state = seed >>> 0
  let count = 0
  for (let d = 0; d < draws; d++) {
    let sum = 0
    let bits = 0
    let word = -1
    for (const run of runs) {
      let positive = 0
      for (let k = run.start; k < run.end; ) {
        if (k >>> 5 !== word) {
          word = k >>> 5
          state = (state + step) >>> 0
          bits = (draw(state) * 4_294_967_296) >>> 0
        }
        const from = k & 31
        const take = Math.min(32 - from, run.end - k)
        positive += popcount(take === 32 ? bits : (bits >>> from) & ((1 << take) - 1))
        k += take
      }
      sum += run.magnitude * (2 * positive - (run.end - run.start))
    }
    if (Math.abs(sum) >= threshold) count++
  }
  return count
}

/** The 1 bits of a 32-bit integer. */
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff
}

/** Every signed sum of `values` (bit k of the index set: value k negated), each from at most `values.length` additions. */
function signedSums(values: ReadonlyArray<number>): Float64Array {
  const out = new Float64Array(2 ** values.length)
  for (const value of values) out[0] = (out[0] as number) + value
  for (let mask = 1; mask < out.length; mask++) {
    const low = mask & -mask
    out[mask] = (out[mask ^ low] as number) - 2 * (values[31 - Math.clz32(low)] as number)
  }
  return out
}

/** The share of the 2^m sign assignments of `values` whose |sum| >= `threshold`, split in two halves of signed sums. */
function exactShare(values: ReadonlyArray<number>, threshold: number): number {
  if (threshold <= 0) return 1
  const half = Math.floor(values.length / 2)
  const left = signedSums(values.slice(0, half))
  const right = signedSums(values.slice(half)).sort()
  let count = 0
  for (const x of left) {
    // |x + y| >= threshold: y >= threshold - x or y <= -threshold - x, counted in the sorted right half.
    count += right.length - lowerBound(right, threshold - x) + upperBound(right, -threshold - x)
  }
  return count / (left.length * right.length)
}

/** The first index whose value is >= `target`. */
function lowerBound(sorted: Float64Array, target: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] as number) < target) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The first index whose value is > `target`. */
function upperBound(sorted: Float64Array, target: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] as number) <= target) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * A p-value as the text gives it: `p = 0.125`, to 3 significant digits (`p = 0.0313`, `p = 1`), `p < 0.001` below
 * that, and never rounded across {@link SIGNIFICANCE_LEVEL} (0.04999 prints `p = 0.04999`, not `p = 0.05`).
 */
export function formatPValue(p: number): string {
  if (p < 0.001) return 'p < 0.001'
  for (let digits = 3; digits < 8; digits++) {
    const shown = Number(p.toPrecision(digits))
    if (shown < SIGNIFICANCE_LEVEL === p < SIGNIFICANCE_LEVEL) return `p = ${shown}`
  }
  return `p = ${p}`
}
