import { describe, expect, it } from 'vitest'
import { pairedBootstrapDiffCi, quantile } from './bootstrap.ts'
import { type ClusteredPair, clusterSums, pairedClusterBootstrapDiffCi } from './cluster-bootstrap.ts'
import { DEFAULT_SEED, seededRandom } from './random.ts'

/** `n` tasks with seeded scores in both runs, each its own cluster. */
function singles(n: number, seed: number, round: (value: number) => number = (value) => value): ClusteredPair[] {
  const random = seededRandom(seed)
  return Array.from({ length: n }, (_, i) => ({ cluster: `t${i}`, a: round(random()), b: round(random()) }))
}

/** The cluster bootstrap written plainly (a seededRandom closure, clusters by a filter): what the fast one must equal. */
function referenceCi(pairs: ClusteredPair[], resamples: number, seed: number, level: number): { low: number; high: number } {
  const clusters = [...new Set(pairs.map((pair) => pair.cluster))]
  const random = seededRandom(seed)
  const stats: number[] = []
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    let count = 0
    for (let i = 0; i < clusters.length; i++) {
      const drawn = clusters[Math.floor(random() * clusters.length)]
      const members = pairs.filter((pair) => pair.cluster === drawn)
      sum += members.reduce((total, pair) => total + (pair.b - pair.a), 0)
      count += members.length
    }
    stats.push(sum / count)
  }
  stats.sort((x, y) => x - y)
  const estimate = pairs.reduce((total, pair) => total + (pair.b - pair.a), 0) / pairs.length
  const round = (value: number): number => Math.round(value * 1e6) / 1e6
  const tail = (1 - level) / 2
  return { low: round(Math.min(quantile(stats, tail), estimate)), high: round(Math.max(quantile(stats, 1 - tail), estimate)) }
}

/** The audit's MPCBench case: 12 tasks, B better on 3 and worse on 1, each task scored by `judges` judges alike. */
function twelveTasks(judges: number): ClusteredPair[] {
  const b = [5, 4, 4, 2, 3, 3, 3, 3, 3, 3, 3, 3]
  return b.flatMap((score, i) => Array.from({ length: judges }, () => ({ cluster: `t${i + 1}`, a: 3, b: score })))
}

describe('pairedClusterBootstrapDiffCi', () => {
  it('gives exactly the paired bootstrap of today with one pair per cluster (ART-E compare unchanged)', () => {
    for (const [n, seed, resamples, level] of [
      [1, 3, 50, 0.95],
      [6, 11, 2000, 0.95],
      [40, 5, 2000, 0.9],
      [500, 9, 300, 0.95],
    ] as const) {
      for (const pairs of [singles(n, seed), singles(n, seed, (value) => (value < 0.5 ? 0 : 1))]) {
        const options = { seed, resamples, level }
        expect(pairedClusterBootstrapDiffCi(pairs, options)).toEqual(
          pairedBootstrapDiffCi(
            pairs.map((pair) => pair.a),
            pairs.map((pair) => pair.b),
            options,
          ),
        )
      }
    }
    expect(pairedClusterBootstrapDiffCi(singles(10, 1))?.method).toBe(
      `paired percentile bootstrap of the difference over 10 task(s), 2000 resamples, seed ${DEFAULT_SEED}`,
    )
  })

  it('resamples a task scored by three judges as one task: the interval of one judge, not one sqrt(3) narrower', () => {
    const one = pairedClusterBootstrapDiffCi(twelveTasks(1))
    expect(one).toMatchObject({ low: -0.166667, high: 0.666667 })
    expect(pairedClusterBootstrapDiffCi(twelveTasks(3))).toMatchObject({ low: one?.low, high: one?.high })
    expect(pairedClusterBootstrapDiffCi(twelveTasks(3))?.method).toContain("over 12 task(s) (36 pairs, each task's drawn together)")
    // What resampling the 36 entries as tasks gave: an interval that wrongly excludes 0.
    const pairs = twelveTasks(3)
    expect(
      pairedBootstrapDiffCi(
        pairs.map((pair) => pair.a),
        pairs.map((pair) => pair.b),
      ),
    ).toMatchObject({ low: 0.027778, high: 0.5 })
  })

  it('takes the mean over every pair drawn when clusters differ in size', () => {
    const random = seededRandom(17)
    const pairs = Array.from({ length: 30 }, (_, i) => ({ cluster: `t${i % 7 === 0 ? 0 : i % 4}`, a: random(), b: random() * 1.2 }))
    expect(clusterSums(pairs).sizes).toEqual([11, 7, 6, 6])
    for (const seed of [1, 2]) {
      expect(pairedClusterBootstrapDiffCi(pairs, { seed, resamples: 500 })).toMatchObject(referenceCi(pairs, 500, seed, 0.95))
    }
    const estimate = pairs.reduce((total, pair) => total + pair.b - pair.a, 0) / pairs.length
    const ci = pairedClusterBootstrapDiffCi(pairs)
    expect(ci?.low).toBeLessThanOrEqual(estimate)
    expect(ci?.high).toBeGreaterThanOrEqual(estimate)
  })

  it('is seeded, and null for no pairs', () => {
    const pairs = twelveTasks(2)
    expect(pairedClusterBootstrapDiffCi(pairs)).toEqual(pairedClusterBootstrapDiffCi(pairs))
    expect(pairedClusterBootstrapDiffCi(singles(30, 4), { seed: 1 })).not.toEqual(pairedClusterBootstrapDiffCi(singles(30, 4), { seed: 2 }))
    expect(pairedClusterBootstrapDiffCi([])).toBeNull()
  })
})
