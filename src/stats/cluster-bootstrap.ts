import { type BootstrapOptions, type ConfidenceInterval, DEFAULT_LEVEL, DEFAULT_RESAMPLES, percentileInterval } from './bootstrap.ts'
import { DEFAULT_SEED, MULBERRY32_STEP, mulberry32 } from './random.ts'

/**
 * One task scored in two runs (`a`, `b`), and the cluster it belongs to: the benchmark task, whose entries (MPCBench:
 * one per agent × judge) are not independent draws and are resampled or sign-flipped together.
 */
export interface ClusteredPair {
  cluster: string
  a: number
  b: number
}

/** The pairs' differences `b - a` summed per cluster, clusters in the order they first appear. */
export interface ClusterSums {
  sums: number[]
  sizes: number[]
}

/** Sums each cluster's differences `b - a` (in pair order) and counts its pairs. */
export function clusterSums(pairs: ReadonlyArray<ClusteredPair>): ClusterSums {
  const at = new Map<string, number>()
  const sums: number[] = []
  const sizes: number[] = []
  for (const pair of pairs) {
    let index = at.get(pair.cluster)
    if (index === undefined) {
      index = sums.length
      at.set(pair.cluster, index)
      sums.push(0)
      sizes.push(0)
    }
    sums[index] = (sums[index] ?? 0) + (pair.b - pair.a)
    sizes[index] = (sizes[index] ?? 0) + 1
  }
  return { sums, sizes }
}

/**
 * Paired cluster-bootstrap interval of the mean difference `b - a` over all pairs: each resample draws clusters with
 * replacement, takes every pair of each drawn cluster, and its statistic is the sum of the drawn differences over their
 * count. With one pair per cluster it is exactly `pairedBootstrapDiffCi` of the same pairs (same seed, same draws, same
 * sums, same interval). Seeded; `null` for no pairs.
 */
export function pairedClusterBootstrapDiffCi(pairs: ReadonlyArray<ClusteredPair>, options: BootstrapOptions = {}): ConfidenceInterval | null {
  if (pairs.length === 0) return null
  const level = options.level ?? DEFAULT_LEVEL
  const resamples = options.resamples ?? DEFAULT_RESAMPLES
  const seed = options.seed ?? DEFAULT_SEED
  const { sums, sizes } = clusterSums(pairs)
  const clusters = sums.length
  const table = new Float64Array(2 * clusters)
  for (let c = 0; c < clusters; c++) {
    table[2 * c] = sums[c] ?? 0
    table[2 * c + 1] = sizes[c] ?? 0
  }
  const stats = new Array<number>(resamples)
  // Local copies and the generator's state in a local, as in bootstrap.ts's loop (this one runs resamples x clusters).
  const draw = mulberry32
  const step = MULBERRY32_STEP
  let state = seed >>> 0
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    let count = 0
    for (let c = 0; c < clusters; c++) {
      state = (state + step) >>> 0
      const at = 2 * Math.floor(draw(state) * clusters)
      sum += table[at] as number
      count += table[at + 1] as number
    }
    stats[r] = sum / count
  }
  let total = 0
  for (const pair of pairs) total += pair.b - pair.a
  const estimate = total / pairs.length
  const over = clusters === pairs.length ? `${clusters} task(s)` : `${clusters} task(s) (${pairs.length} pairs, each task's drawn together)`
  return percentileInterval(stats, estimate, level, `paired percentile bootstrap of the difference over ${over}, ${resamples} resamples, seed ${seed}`)
}
