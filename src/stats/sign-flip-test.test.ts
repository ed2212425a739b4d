import { describe, expect, it } from 'vitest'
import type { ClusteredPair } from './cluster-bootstrap.ts'
import { formatPValue, signFlipTest } from './sign-flip-test.ts'

/** Pass/fail pairs of `n` tasks: `improved` go 0 -> 1, then `regressed` go 1 -> 0, the rest stay as they were. */
function flips(n: number, improved: number, regressed: number): ClusteredPair[] {
  return Array.from({ length: n }, (_, i) => {
    if (i < improved) return { cluster: `t${i}`, a: 0, b: 1 }
    if (i < improved + regressed) return { cluster: `t${i}`, a: 1, b: 0 }
    return { cluster: `t${i}`, a: i % 2, b: i % 2 }
  })
}

/** The exact two-sided McNemar (sign) test: 2 P(X <= min(up, down)) for X ~ Binomial(up + down, 1/2), at most 1. */
function mcnemar(up: number, down: number): number {
  const m = up + down
  let tail = 0
  let choose = 1
  for (let j = 0; j <= Math.min(up, down); j++) {
    if (j > 0) choose = (choose * (m - j + 1)) / j
    tail += choose
  }
  return Math.min(1, (2 * tail) / 2 ** m)
}

describe('signFlipTest', () => {
  it('is the exact McNemar test on pass/fail: 1 flip is no evidence, 2 of 2 or 4 of 4 improved are not enough', () => {
    expect(signFlipTest(flips(1, 1, 0))).toMatchObject({ pValue: 1, clusters: 1, differing: 1, exact: true })
    expect(signFlipTest(flips(2, 2, 0))?.pValue).toBe(0.5)
    expect(signFlipTest(flips(20, 4, 0))).toMatchObject({
      pValue: 0.125,
      clusters: 20,
      differing: 4,
      method: 'exact paired sign-flip test by task, 20 task(s), 4 differ',
    })
    expect(signFlipTest(flips(20, 6, 0))?.pValue).toBe(0.03125)
    expect(signFlipTest(flips(20, 0, 6))?.pValue).toBe(0.03125)
  })

  it('matches the binomial by hand on mixed flips, and everywhere up to 20 flips', () => {
    // 8 improved, 1 regressed: 2 (C(9,0) + C(9,1)) / 2^9 = 20/512.
    expect(signFlipTest(flips(30, 8, 1))?.pValue).toBe(20 / 512)
    // 9 improved, 2 regressed: 2 (1 + 11 + 55) / 2^11 = 134/2048.
    expect(signFlipTest(flips(30, 9, 2))?.pValue).toBe(134 / 2048)
    // 5 and 5: the observed sum is 0, every assignment is as far out.
    expect(signFlipTest(flips(10, 5, 5))?.pValue).toBe(1)
    for (let up = 0; up <= 20; up++) {
      for (let down = 0; up + down <= 20; down++) expect(signFlipTest(flips(up + down + 3, up, down))?.pValue).toBeCloseTo(mcnemar(up, down), 12)
    }
  })

  it('flips a cluster as one: a task scored by three judges counts once, its pairs summed', () => {
    const byJudge = (judges: number): ClusteredPair[] => flips(12, 3, 1).flatMap((pair) => Array.from({ length: judges }, () => pair))
    expect(signFlipTest(byJudge(3))).toMatchObject({ pValue: 0.625, clusters: 12, differing: 4 })
    expect(signFlipTest(byJudge(3))?.pValue).toBe(signFlipTest(byJudge(1))?.pValue)
    // Judges disagreeing within a task: t0 sums to +3 - 1 = +2, t1 to +1 + 1 = +2, t2 to 0 (no sign to flip), t3 to +2.
    const mixed = [
      { cluster: 't0', a: 1, b: 4 },
      { cluster: 't0', a: 3, b: 2 },
      { cluster: 't1', a: 1, b: 2 },
      { cluster: 't1', a: 2, b: 3 },
      { cluster: 't2', a: 1, b: 2 },
      { cluster: 't2', a: 2, b: 1 },
      { cluster: 't3', a: 2, b: 4 },
    ]
    // 2 of the 2^3 sign assignments of {2, 2, 2} are as far out as the observed +6.
    expect(signFlipTest(mixed)).toMatchObject({ pValue: 0.25, clusters: 4, differing: 3 })
  })

  it('counts float sums equal to the observed one as ties (0.1 + 0.2 vs 0.3)', () => {
    for (const [values, signs] of [
      [
        [0.1, 0.2, 0.3, 0.4],
        [1, 1, -1, 1],
      ],
      [
        [0.7, 0.1, 0.2, 0.3, 0.6],
        [1, -1, 1, 1, 1],
      ],
      [
        [0.3, 0.6, 0.1, 0.2],
        [1, 1, -1, 1],
      ],
    ] as const) {
      const scores = values.map((value, i) => ({ cluster: String(i), a: 0.2, b: 0.2 + (signs[i] ?? 1) * value }))
      const tenths = values.map((value, i) => ({ cluster: String(i), a: 0, b: (signs[i] ?? 1) * Math.round(value * 10) }))
      expect(signFlipTest(scores)?.pValue).toBe(signFlipTest(tenths)?.pValue)
    }
  })

  it('draws seeded sign assignments above 20 clusters that differ, with the (count + 1) / (draws + 1) correction', () => {
    // 30 improved, none regressed: no draw is as far out, so p is 1/20001 (exact: 2/2^30).
    expect(signFlipTest(flips(40, 30, 0))).toMatchObject({ pValue: 1 / 20_001, differing: 30, exact: false })
    expect(signFlipTest(flips(40, 30, 0))?.method).toMatch(/^Monte Carlo paired sign-flip test by task \(20000 draws, seed \d+\), 40 task\(s\), 30 differ$/)
    const mixed = flips(60, 17, 8)
    const p = signFlipTest(mixed)?.pValue ?? Number.NaN
    expect(Math.abs(p - mcnemar(17, 8))).toBeLessThan(0.01)
    expect(signFlipTest(mixed)?.pValue).toBe(p)
    expect(signFlipTest(mixed, { seed: 2 })?.pValue).not.toBe(p)
    const few = signFlipTest(mixed, { draws: 99 })
    expect(few?.method).toContain('(99 draws')
    expect(Number.isInteger(Math.round((few?.pValue ?? 0) * 100 * 1e9) / 1e9)).toBe(true)
  })

  it('draws the signs of values of many magnitudes as the exact distribution has them', () => {
    // 70 integer differences of 1 to 4 (runs of equal magnitude cross the 32-value words of the draws).
    const differences = Array.from({ length: 70 }, (_, i) => ((i * 7) % 4) + 1).map((d, i) => (i % 3 === 0 ? -d : d))
    const pairs = differences.map((d, i) => ({ cluster: `t${i}`, a: 0, b: d }))
    // The exact p from the distribution of the signed sum, built value by value.
    let ways = new Map<number, number>([[0, 1]])
    for (const d of differences) {
      const next = new Map<number, number>()
      for (const [sum, n] of ways) for (const s of [sum + d, sum - d]) next.set(s, (next.get(s) ?? 0) + n / 2)
      ways = next
    }
    const observed = Math.abs(differences.reduce((x, y) => x + y, 0))
    const exact = [...ways].filter(([sum]) => Math.abs(sum) >= observed).reduce((total, [, n]) => total + n, 0)
    expect(exact).toBeGreaterThan(0.01)
    expect(Math.abs((signFlipTest(pairs)?.pValue ?? Number.NaN) - exact)).toBeLessThan(0.01)
  })

  it('gives null for no pairs, and 1 when no cluster differs', () => {
    expect(signFlipTest([])).toBeNull()
    expect(signFlipTest(flips(5, 0, 0))).toMatchObject({ pValue: 1, clusters: 5, differing: 0 })
  })
})

describe('formatPValue', () => {
  it('gives 3 significant digits, never rounding across 0.05, and < 0.001 below', () => {
    expect(formatPValue(0.125)).toBe('p = 0.125')
    expect(formatPValue(1)).toBe('p = 1')
    expect(formatPValue(0.03125)).toBe('p = 0.0313')
    expect(formatPValue(0.049_98)).toBe('p = 0.04998')
    expect(formatPValue(0.050_01)).toBe('p = 0.05')
    expect(formatPValue(1 / 20_001)).toBe('p < 0.001')
  })
})
