import { describe, expect, it } from 'vitest'
import { normalQuantile, wilsonInterval, wilsonIntervalOf } from './wilson.ts'

const ends = (successes: number, n: number, level?: number): [number, number] | null => {
  const ci = wilsonInterval(successes, n, level === undefined ? {} : { level })
  return ci === null ? null : [ci.low, ci.high]
}

describe('wilsonInterval', () => {
  it('gives the textbook 95% Wilson score intervals (no continuity correction)', () => {
    const cases: Array<[number, number, number, number]> = [
      [6, 10, 0.3127, 0.8318],
      [0, 10, 0, 0.2775],
      [10, 10, 0.7225, 1],
      // Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3.
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ]
    for (const [successes, n, low, high] of cases) {
      const [l, h] = ends(successes, n) ?? [Number.NaN, Number.NaN]
      expect(l, `${successes}/${n} low`).toBeCloseTo(low, 4)
      expect(h, `${successes}/${n} high`).toBeCloseTo(high, 4)
    }
  })

  it('says how it was computed, and is null for no tasks', () => {
    expect(wilsonInterval(6, 10)).toEqual({ low: 0.312674, high: 0.83182, level: 0.95, method: 'Wilson score interval over 10 task(s)' })
    expect(wilsonInterval(0, 0)).toBeNull()
    expect(wilsonIntervalOf([])).toBeNull()
  })

  it('never collapses to one point: all passed, all failed or one task still leave room', () => {
    expect(ends(0, 10)).toEqual([0, 0.277533])
    expect(ends(10, 10)).toEqual([0.722467, 1])
    expect(ends(1, 1)).toEqual([0.206549, 1])
    expect(ends(0, 1)).toEqual([0, 0.793451])
  })

  it('contains the share itself, stays in [0, 1], is symmetric in pass and fail, and narrows with more tasks', () => {
    for (let n = 1; n <= 40; n++) {
      for (let successes = 0; successes <= n; successes++) {
        const [low, high] = ends(successes, n) ?? [Number.NaN, Number.NaN]
        expect(low).toBeGreaterThanOrEqual(0)
        expect(high).toBeLessThanOrEqual(1)
        expect(low).toBeLessThanOrEqual(successes / n)
        expect(high).toBeGreaterThanOrEqual(successes / n)
        const [mirrorLow, mirrorHigh] = ends(n - successes, n) ?? [Number.NaN, Number.NaN]
        expect(low).toBeCloseTo(1 - mirrorHigh, 6)
        expect(high).toBeCloseTo(1 - mirrorLow, 6)
      }
    }
    const width = (successes: number, n: number): number => {
      const [low, high] = ends(successes, n) ?? [Number.NaN, Number.NaN]
      return high - low
    }
    expect(width(60, 100)).toBeLessThan(width(6, 10))
    expect(width(600, 1000)).toBeLessThan(width(60, 100))
  })

  it('takes z from the level: wider at 99%, narrower at 90%', () => {
    const [low90, high90] = ends(6, 10, 0.9) ?? [Number.NaN, Number.NaN]
    const [low99, high99] = ends(6, 10, 0.99) ?? [Number.NaN, Number.NaN]
    expect(low90).toBeCloseTo(0.3516, 4)
    expect(high90).toBeCloseTo(0.8058, 4)
    expect(low99).toBeCloseTo(0.2482, 4)
    expect(high99).toBeCloseTo(0.8721, 4)
    expect(wilsonInterval(6, 10, { level: 0.9 })?.level).toBe(0.9)
  })

  it('rejects counts that are no proportion and values that are not 0/1', () => {
    expect(() => wilsonInterval(11, 10)).toThrow(RangeError)
    expect(() => wilsonInterval(-1, 10)).toThrow(RangeError)
    expect(() => wilsonInterval(2.5, 10)).toThrow(RangeError)
    expect(() => wilsonInterval(1, 10, { level: 1 })).toThrow(RangeError)
    expect(() => wilsonIntervalOf([1, 0.5])).toThrow(/0\/1 values \(got 0.5\)/)
    expect(wilsonIntervalOf([1, 1, 1, 1, 1, 1, 0, 0, 0, 0])).toEqual(wilsonInterval(6, 10))
  })
})

describe('normalQuantile', () => {
  it('gives the standard normal quantiles (checked against the normal CDF, erfc)', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12)
    expect(normalQuantile(0.95)).toBeCloseTo(1.6448536269514729, 12)
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489004, 12)
    expect(normalQuantile(0.5)).toBe(0)
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959963984540054, 12)
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 9)
    expect(normalQuantile(1e-30)).toBeCloseTo(-11.464024688443617, 9)
  })
})
