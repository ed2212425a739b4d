import { describe, expect, it } from 'vitest'
import { bootstrapMeanCi } from './bootstrap.ts'
import { wilsonIntervalOf } from './wilson.ts'
import { passHatK, passHatKCi, passHatKPerTask, tasksWithAllTrials, trialPasses } from './pass-hat-k.ts'

const T = true
const F = false

/** pass^j by its definition: over every task, the share of its j-trial subsets whose trials all pass, averaged. */
function bySubsets(trials: boolean[][], k: number): Record<string, number> {
  const subsets = (n: number, j: number, from = 0): number[][] =>
    j === 0
      ? [[]]
      : Array.from({ length: Math.max(0, n - from) }, (_, i) => from + i).flatMap((first) => subsets(n, j - 1, first + 1).map((rest) => [first, ...rest]))
  const out: Record<string, number> = {}
  for (let j = 1; j <= k; j++) {
    const perTask = trials.map((passes) => {
      const all = subsets(passes.length, j)
      return all.filter((subset) => subset.every((i) => passes[i])).length / all.length
    })
    out[String(j)] = perTask.reduce((a, b) => a + b, 0) / perTask.length
  }
  return out
}

describe('passHatK: tau-bench’s estimator, the mean over tasks of C(c, j) / C(n, j)', () => {
  it('uses every trial, not only the first j: [fail, pass, pass] counts for pass^1 and pass^2', () => {
    // The audit's case: the share of tasks whose first j trials all pass read 0.5 for every j.
    expect(
      passHatK(
        [
          [F, T, T],
          [T, T, T],
        ],
        3,
      ),
    ).toEqual({ '1': 5 / 6, '2': 2 / 3, '3': 0.5 })
    expect(
      passHatK(
        [
          [T, F, F],
          [F, F, T],
          [F, T, F],
        ],
        3,
      ),
    ).toEqual({ '1': 1 / 3, '2': 0, '3': 0 })
  })

  it('does not depend on the order of the trials', () => {
    const a = passHatK(
      [
        [T, T, F],
        [F, T, T],
      ],
      3,
    )
    expect(
      passHatK(
        [
          [F, T, T],
          [T, F, T],
        ],
        3,
      ),
    ).toEqual(a)
    expect(a).toEqual({ '1': 2 / 3, '2': 1 / 3, '3': 0 })
  })

  it('is the share of j-trial subsets that all pass, averaged over tasks', () => {
    const trials = [
      [T, T, T, T],
      [T, F, T, T],
      [F, T, F, T],
      [F, F, F, T],
      [F, F, F, F],
      [T, T, F, T],
    ]
    const expected = bySubsets(trials, 4)
    const actual = passHatK(trials, 4)
    expect(Object.keys(actual)).toEqual(['1', '2', '3', '4'])
    for (const j of Object.keys(expected)) expect(actual[j]).toBeCloseTo(expected[j] ?? Number.NaN, 12)
  })

  it('pass^1 is the mean share of passed trials, pass^n the share of tasks that passed every trial', () => {
    const trials = [
      [T, T, T],
      [T, F, T],
      [F, T, T],
      [T, T, F],
    ]
    expect(passHatK(trials, 3)).toEqual({ '1': 0.75, '2': 0.5, '3': 0.25 })
  })

  it('is over the tasks with at least k trials for every j, so it never rises with j', () => {
    // The fourth task failed trial 1 and has no trial 2: counted for pass^1 alone, pass^2 would read 2/3 > pass^1 2/4.
    const trials = [[T, T], [T, T], [F, F], [F]]
    expect(passHatK(trials, 2)).toEqual({ '1': 2 / 3, '2': 2 / 3 })
    expect(tasksWithAllTrials(trials, 2)).toBe(3)
    expect(passHatK([[T], [F]], 2)).toEqual({})
    expect(tasksWithAllTrials([[T], [F]], 2)).toBe(0)
    for (const pattern of [
      [
        [T, F, T, T],
        [F, T, T, F],
        [T, T, T, F],
      ],
      [[T, T, T, T]],
      [
        [F, F, F, T],
        [T, F, F, F],
      ],
    ]) {
      const values = Object.values(passHatK(pattern, 4))
      for (let j = 1; j < values.length; j++) expect(values[j]).toBeLessThanOrEqual(values[j - 1] ?? Number.NaN)
    }
  })

  it('takes n from each task’s own trials when a task has more than k', () => {
    // [T, T, F, F] has n = 4: pass^2 = C(2, 2) / C(4, 2) = 1/6.
    expect(passHatK([[T, T, F, F]], 2)).toEqual({ '1': 0.5, '2': 1 / 6 })
    expect(
      passHatK(
        [
          [T, T, F, F],
          [T, T],
        ],
        2,
      ),
    ).toEqual({ '1': 0.75, '2': (1 / 6 + 1) / 2 })
  })
})

describe('passHatKCi: a seeded bootstrap over tasks of each pass^j', () => {
  const trials = [
    [T, T, T],
    [T, F, T],
    [F, T, F],
    [F, F, F],
    [T, T, F],
    [T, T, T],
    [F, F, T],
    [T, T, T],
    [F, F, F],
    [T, F, T],
    [T, T],
  ]

  it('resamples the per-task values C(c, j) / C(n, j) of the tasks pass^k is over, whose means are pass^j', () => {
    const perTask = passHatKPerTask(trials, 3)
    // The last task has 2 trials of 3: left out, as passHatK leaves it out.
    expect(perTask.map((values) => values.length)).toEqual([10, 10, 10])
    expect(perTask[1]?.slice(0, 3)).toEqual([1, 1 / 3, 0])
    const estimate = passHatK(trials, 3)
    perTask.forEach((values, i) => expect(values.reduce((a, b) => a + b, 0) / values.length).toBeCloseTo(estimate[String(i + 1)] ?? Number.NaN, 12))
  })

  it('gives each j the interval bootstrapMeanCi gives its per-task values (one draw of tasks for every j), or the Wilson interval when they are 0/1, around pass^j', () => {
    const cis = passHatKCi(trials, 3)
    const estimate = passHatK(trials, 3)
    expect(Object.keys(cis)).toEqual(Object.keys(estimate))
    const perTask = passHatKPerTask(trials, 3)
    for (const [k, ci] of Object.entries(cis)) {
      // pass^3 of tasks with 3 trials is a share of 0/1 values: the Wilson interval; the others the bootstrap.
      const values = perTask[Number(k) - 1] ?? []
      expect(ci).toEqual(values.every((value) => value === 0 || value === 1) ? wilsonIntervalOf(values) : bootstrapMeanCi(values))
      expect(ci.low).toBeLessThanOrEqual(estimate[k] ?? Number.NaN)
      expect(ci.high).toBeGreaterThanOrEqual(estimate[k] ?? Number.NaN)
      expect(ci.high).toBeGreaterThan(ci.low)
    }
    expect(cis['1']).toMatchObject({ level: 0.95, method: 'percentile bootstrap over 10 task(s), 2000 resamples, seed 20260311' })
    expect(cis).toEqual({
      '1': { low: 0.333333, high: 0.8, level: 0.95, method: 'percentile bootstrap over 10 task(s), 2000 resamples, seed 20260311' },
      '2': { low: 0.166667, high: 0.666667, level: 0.95, method: 'percentile bootstrap over 10 task(s), 2000 resamples, seed 20260311' },
      '3': { low: 0.107791, high: 0.603222, level: 0.95, method: 'Wilson score interval over 10 task(s)' },
    })
    // Seeded: the same trials give the same intervals; the options are the other intervals'.
    expect(passHatKCi(trials, 3)).toEqual(cis)
    expect(passHatKCi(trials, 3, { level: 0.9, seed: 7, resamples: 500 })['2']).toMatchObject({
      level: 0.9,
      method: 'percentile bootstrap over 10 task(s), 500 resamples, seed 7',
    })
  })

  it('is empty when pass^k is: no task has k trials', () => {
    expect(passHatKCi([[T], [F]], 2)).toEqual({})
    expect(passHatKCi([], 3)).toEqual({})
  })
})

describe('trialPasses', () => {
  it('orders trials by number and stops at the first missing or unknown trial', () => {
    expect(
      trialPasses([
        { trial: 3, passed: F },
        { trial: 1, passed: T },
        { trial: 2, passed: T },
      ]),
    ).toEqual([T, T, F])
    expect(
      trialPasses([
        { trial: 1, passed: T },
        { trial: 3, passed: T },
      ]),
    ).toEqual([T])
    expect(
      trialPasses([
        { trial: 1, passed: F },
        { trial: 2, passed: undefined },
        { trial: 3, passed: T },
      ]),
    ).toEqual([F])
    expect(trialPasses([{ trial: 2, passed: T }])).toEqual([])
  })
})
