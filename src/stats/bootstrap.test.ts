import { describe, expect, it } from 'vitest'
import { bootstrapMeanCi, bootstrapMeanCis, formatWithCi, pairedBootstrapDiffCi, quantile } from './bootstrap.ts'
import { passHatK, tasksWithAllTrials, trialPasses } from './pass-hat-k.ts'
import { DEFAULT_SEED, seededRandom } from './random.ts'

/** Synthetic pass/fail scores: a 60% pass rate, drawn from a seeded generator. */
function synthetic(n: number, seed: number): number[] {
  const random = seededRandom(seed)
  return Array.from({ length: n }, () => (random() < 0.6 ? 1 : 0))
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length

describe('bootstrapMeanCi', () => {
  it('contains its estimate and is identical on rerun', () => {
    for (const seed of [1, 2, 3]) {
      const values = synthetic(10, seed)
      const ci = bootstrapMeanCi(values)
      expect(ci).not.toBeNull()
      if (ci === null) return
      expect(ci.low).toBeLessThanOrEqual(mean(values))
      expect(ci.high).toBeGreaterThanOrEqual(mean(values))
      expect(bootstrapMeanCi(values)).toEqual(ci)
      expect(ci).toMatchObject({ level: 0.95, method: expect.stringContaining('percentile bootstrap over 10 task(s)') })
    }
  })

  it('shrinks as tasks grow: n=1000 is several times narrower than n=10', () => {
    const small = bootstrapMeanCi(synthetic(10, 7))
    const large = bootstrapMeanCi(synthetic(1000, 7))
    if (small === null || large === null) throw new Error('expected intervals')
    const width = (ci: { low: number; high: number }): number => ci.high - ci.low
    // The width falls like 1/sqrt(n): 10x for 100x the tasks; allow for sampling noise.
    expect(width(small) / width(large)).toBeGreaterThan(5)
    expect(width(large)).toBeLessThan(0.1)
  })

  it('gives null for no values and [v, v] for one or for constant values', () => {
    expect(bootstrapMeanCi([])).toBeNull()
    expect(bootstrapMeanCi([0.4])).toMatchObject({ low: 0.4, high: 0.4 })
    expect(bootstrapMeanCi([1, 1, 1])).toMatchObject({ low: 1, high: 1 })
  })

  it('changes with the seed but keeps the level', () => {
    const values = synthetic(30, 5)
    expect(bootstrapMeanCi(values, { seed: 1 })).not.toEqual(bootstrapMeanCi(values, { seed: 2 }))
    expect(bootstrapMeanCi(values, { level: 0.5 })?.level).toBe(0.5)
  })
})

/** The bootstrap as first written (a seededRandom closure, one series at a time): what the fast one must equal. */
function referenceCi(values: number[], resamples: number, seed: number, level: number): { low: number; high: number } {
  const random = seededRandom(seed)
  const stats: number[] = []
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)] ?? 0
    stats.push(sum / values.length)
  }
  stats.sort((a, b) => a - b)
  const round = (value: number): number => Math.round(value * 1e6) / 1e6
  const tail = (1 - level) / 2
  return { low: round(Math.min(quantile(stats, tail), mean(values))), high: round(Math.max(quantile(stats, 1 - tail), mean(values))) }
}

describe('bootstrapMeanCis', () => {
  it('gives each series exactly the interval of the one-at-a-time bootstrap', () => {
    for (const [n, seed, resamples, level] of [
      [1, 3, 50, 0.95],
      [7, 11, 2000, 0.95],
      [1000, 5, 300, 0.9],
    ] as const) {
      const random = seededRandom(seed * 31)
      const series = [synthetic(n, seed), Array.from({ length: n }, () => Math.round(random() * 1000) / 1000), Array.from({ length: n }, () => random() * 5)]
      const cis = bootstrapMeanCis(series, { seed, resamples, level })
      series.forEach((values, k) => {
        expect(cis[k]).toMatchObject(referenceCi(values, resamples, seed, level))
        expect(cis[k]).toEqual(bootstrapMeanCi(values, { seed, resamples, level }))
      })
    }
  })

  it('keeps the intervals every earlier run printed (the generator and the draws are pinned)', () => {
    const random = seededRandom(DEFAULT_SEED)
    expect([random(), random(), random()]).toEqual([0.3223827602341771, 0.36127785849384964, 0.07975561846978962])
    const exact = [1, 0, 1, 1, 0, 1, 0, 1, 1, 0]
    const semantic = [1, 0.25, 1, 0.5, 0, 1, 0, 1, 0.75, 0.75]
    expect(bootstrapMeanCis([exact, semantic]).map((ci) => [ci?.low, ci?.high])).toEqual([
      [0.3, 0.9],
      [0.375, 0.85],
    ])
  })

  it('gives null for each series of no values and rejects series of different lengths', () => {
    expect(bootstrapMeanCis([[], []])).toEqual([null, null])
    expect(() => bootstrapMeanCis([[1, 0], [1]])).toThrow(/one length \(got 2, 1\)/)
  })
})

describe('pairedBootstrapDiffCi', () => {
  it('excludes 0 for a consistent improvement and includes 0 for noise', () => {
    const a = synthetic(200, 11)
    const better = a.map((v, i) => (i % 3 === 0 ? 1 : v))
    const ci = pairedBootstrapDiffCi(a, better)
    expect(ci?.low).toBeGreaterThan(0)
    const same = pairedBootstrapDiffCi(a, a)
    expect(same).toMatchObject({ low: 0, high: 0 })
    const flipped = a.map((v, i) => (i < 4 ? 1 - v : v))
    const noise = pairedBootstrapDiffCi(a, flipped)
    expect(noise?.low).toBeLessThanOrEqual(0)
    expect(noise?.high).toBeGreaterThanOrEqual(0)
  })

  it('rejects runs of different sizes', () => {
    expect(() => pairedBootstrapDiffCi([1], [1, 0])).toThrow(RangeError)
  })
})

describe('helpers', () => {
  it('interpolates quantiles', () => {
    expect(quantile([0, 10], 0.25)).toBe(2.5)
    expect(quantile([1, 2, 3], 0.5)).toBe(2)
  })

  it('formats an estimate with its interval', () => {
    expect(formatWithCi(0.6, { low: 0.3, high: 0.85 })).toBe('0.600 [0.300, 0.850]')
    expect(formatWithCi(3.456, { low: 2.5, high: 4 }, 2)).toBe('3.46 [2.50, 4.00]')
    expect(formatWithCi(0.6, null)).toBe('0.600')
  })

  it('computes pass^k as tau-bench does: C(c, j) / C(n, j) per task, averaged over tasks', () => {
    const trials = [
      [true, true, true],
      [true, false, true],
      [false, true, true],
      [true, true, false],
    ]
    expect(passHatK(trials, 3)).toEqual({ '1': 0.75, '2': 0.5, '3': 0.25 })
    expect(passHatK([[true], [false]], 2)).toEqual({})
  })

  it('computes every pass^j over the tasks with all k trials, so it never rises with j', () => {
    // The fourth task failed trial 1 and has no trial 2 (not run): counted for pass^1 alone, pass^2 would read 2/3 > pass^1 2/4.
    const trials = [[true, true], [true, true], [false, false], [false]]
    expect(passHatK(trials, 2)).toEqual({ '1': 2 / 3, '2': 2 / 3 })
    expect(tasksWithAllTrials(trials, 2)).toBe(3)
  })

  it('trialPasses orders trials by number and stops at the first missing or unknown trial', () => {
    expect(
      trialPasses([
        { trial: 3, passed: false },
        { trial: 1, passed: true },
        { trial: 2, passed: true },
      ]),
    ).toEqual([true, true, false])
    expect(
      trialPasses([
        { trial: 1, passed: true },
        { trial: 3, passed: true },
      ]),
    ).toEqual([true])
    expect(
      trialPasses([
        { trial: 1, passed: false },
        { trial: 2, passed: undefined },
        { trial: 3, passed: true },
      ]),
    ).toEqual([false])
    expect(trialPasses([{ trial: 2, passed: true }])).toEqual([])
  })
})
