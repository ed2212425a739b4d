import { describe, expect, it } from 'vitest'
import { type ComparableRun, RunComparisonSchema, compareRuns, flipRateCi, formatRunComparison } from './compare-runs.ts'

function run(passes: Record<string, boolean>): ComparableRun {
  return {
    kind: 'test run',
    metricNames: ['accuracy'],
    tasks: new Map(Object.entries(passes).map(([id, pass]) => [id, { pass, metrics: { accuracy: pass ? 1 : 0 } }])),
  }
}

describe('compareRuns', () => {
  it('calls a consistent improvement over many tasks significant, and lists tasks only one run has', () => {
    const ids = Array.from({ length: 60 }, (_, i) => `t${i + 1}`)
    const a = run(Object.fromEntries(ids.map((id, i) => [id, i % 2 === 0])))
    const b = run({ ...Object.fromEntries(ids.map((id, i) => [id, i % 2 === 0 || i % 3 === 1])), extra: true })
    const c = compareRuns(a, b)
    expect(c.tasks).toBe(60)
    expect(c.regressed).toEqual([])
    expect(c.improved.length).toBe(10)
    expect(c.flipRate).toBeCloseTo(10 / 60, 12)
    expect(c.onlyInB).toEqual(['extra'])
    expect(c.metrics.accuracy?.delta).toBeCloseTo(10 / 60, 12)
    expect(c.metrics.accuracy?.ci?.low).toBeGreaterThan(0)
    expect(c.significant).toBe(true)
    expect(formatRunComparison(c, { a: 'a.json', b: 'b.json' })).toContain('significant: yes')
  })

  it('orders ids numerically and gives no interval without shared tasks', () => {
    const c = compareRuns(run({ '10': true, '2': false }), run({ '10': false, '2': true }))
    expect(c.flips).toEqual(['2', '10'])
    const none = compareRuns(run({ a: true }), run({ b: true }))
    expect(none).toMatchObject({ tasks: 0, flipRate: 0, flipRateCi: null, significant: false, metrics: { accuracy: { a: null, ci: null } } })
    expect(formatRunComparison(none, { a: 'a.json', b: 'b.json' }).split('\n')).toContain('flips: 0 (0.0%)')
  })

  it('leaves a task without a pass (not run, unjudged) in either run out of the flips, the flip rate and the metrics', () => {
    const unknown = { pass: null, metrics: { accuracy: null } }
    const a = run({ t1: true, t2: true, t3: true, t4: false })
    const b: ComparableRun = {
      kind: 'test run',
      metricNames: ['accuracy'],
      tasks: new Map([...run({ t1: true, t4: true }).tasks, ['t2', unknown], ['t3', unknown]]),
    }
    const c = compareRuns(a, b)
    expect(c).toMatchObject({ tasks: 2, leftOut: ['t2', 't3'], flips: ['t4'], flipRate: 0.5, improved: ['t4'], regressed: [], onlyInA: [], onlyInB: [] })
    expect(c.metrics.accuracy).toMatchObject({ a: 0.5, b: 1, tasks: 2 })
    expect(formatRunComparison(c, { a: 'a.json', b: 'b.json' }).split('\n')).toContain('  left out, not run or unjudged in A or B: 2 (t2, t3)')
    expect(formatRunComparison(compareRuns(a, a), { a: 'a.json', b: 'a.json' })).not.toContain('left out')
  })

  it('calls a difference significant only when an exact paired sign-flip test gives p < 0.05, not when the interval excludes 0', () => {
    const flipsOf = (n: number, improved: number) => {
      const ids = Array.from({ length: n }, (_, i) => `t${i + 1}`)
      return compareRuns(run(Object.fromEntries(ids.map((id) => [id, false]))), run(Object.fromEntries(ids.map((id, i) => [id, i < improved]))))
    }
    // One flipped task: its interval is [+1, +1], yet one task says nothing.
    const one = flipsOf(1, 1)
    expect(one.metrics.accuracy?.ci).toMatchObject({ low: 1, high: 1 })
    expect(one).toMatchObject({ pValue: 1, significant: false, test: 'exact paired sign-flip test by task, 1 task(s), 1 differ' })
    expect(flipsOf(2, 2)).toMatchObject({ pValue: 0.5, significant: false })
    const four = flipsOf(20, 4)
    expect(four.metrics.accuracy?.ci?.low).toBeGreaterThan(0)
    expect(four).toMatchObject({ pValue: 0.125, significant: false })
    expect(formatRunComparison(four, { a: 'a.json', b: 'b.json' }).split('\n')).toContain(
      'significant: no (p = 0.125, exact paired sign-flip test by task, 20 task(s), 4 differ, on accuracy): the runs may differ only by chance',
    )
    const six = flipsOf(20, 6)
    expect(six).toMatchObject({ pValue: 0.03125, significant: true })
    expect(formatRunComparison(six, { a: 'a.json', b: 'b.json' })).toContain(
      'significant: yes (p = 0.0313, exact paired sign-flip test by task, 20 task(s), 6 differ, on accuracy)',
    )
    const none = compareRuns(run({ a: true }), run({ b: true }))
    expect(RunComparisonSchema.parse(none)).toMatchObject({ pValue: null, test: null, significant: false })
    expect(formatRunComparison(none, { a: 'a.json', b: 'b.json' })).toContain('significant: no (no task scored on accuracy in both runs)')
  })

  it("resamples and tests a cluster's entries as one task: three judges of 12 tasks give the numbers of one judge", () => {
    const scored = (scores: number[], judges: number): ComparableRun => ({
      kind: 'test run',
      metricNames: ['requirements'],
      tasks: new Map(
        scores.flatMap((score, i) =>
          Array.from(
            { length: judges },
            (_, j) => [`t${i + 1} [judge=j${j + 1}]`, { pass: score >= 4, metrics: { requirements: score }, cluster: `t${i + 1}` }] as const,
          ),
        ),
      ),
    })
    const a = Array(12).fill(3)
    const b = [5, 4, 4, 2, 3, 3, 3, 3, 3, 3, 3, 3]
    const oneJudge = compareRuns(scored(a, 1), scored(b, 1))
    const threeJudges = compareRuns(scored(a, 3), scored(b, 3))
    // Resampling the 36 entries as tasks gave [+0.028, +0.500], significant.
    expect(threeJudges.metrics.requirements?.ci).toMatchObject({ low: -0.166667, high: 0.666667 })
    expect(threeJudges).toMatchObject({ pValue: 0.5, significant: false, test: 'exact paired sign-flip test by task, 12 task(s), 4 differ' })
    expect(oneJudge.metrics.requirements).toMatchObject({ delta: 0.25, ci: { low: -0.166667, high: 0.666667 }, tasks: 12, clusters: 12 })
    expect(threeJudges.metrics.requirements).toMatchObject({ delta: 0.25, tasks: 36, clusters: 12 })
    expect(oneJudge).toMatchObject({ pValue: 0.5, significant: false })
    expect(formatRunComparison(threeJudges, { a: 'a.json', b: 'b.json' })).toContain(
      'requirements: 3.000 -> 3.250  delta +0.250 [-0.167, +0.667]  (36 paired task(s) of 12 benchmark task(s))',
    )
  })

  it('gives the flip rate its Wilson score interval over the paired tasks, printed beside it', () => {
    const ids = Array.from({ length: 10 }, (_, i) => `t${i + 1}`)
    const c = compareRuns(run(Object.fromEntries(ids.map((id) => [id, false]))), run(Object.fromEntries(ids.map((id, i) => [id, i < 6]))))
    expect(c.flipRate).toBe(0.6)
    expect(c.flipRateCi).toEqual({ low: 0.312674, high: 0.83182, level: 0.95, method: 'Wilson score interval over 10 task(s)' })
    expect(formatRunComparison(c, { a: 'a.json', b: 'b.json' }).split('\n')).toContain('flips: 6 (60.0% [31.3%, 83.2%])')
    expect(RunComparisonSchema.parse(c).flipRateCi).toEqual(c.flipRateCi)
    // No flip still has an upper end: a bootstrap of 0/1 values would read [0.0%, 0.0%].
    const same = compareRuns(run(Object.fromEntries(ids.map((id) => [id, true]))), run(Object.fromEntries(ids.map((id) => [id, true]))))
    expect(same.flipRateCi).toMatchObject({ low: 0, high: 0.277533 })
    expect(formatRunComparison(same, { a: 'a.json', b: 'b.json' }).split('\n')).toContain('flips: 0 (0.0% [0.0%, 27.8%])')
    // The interval is over the paired tasks only: one left out (no pass in B) is not counted.
    const leftOut = compareRuns(run({ t1: true, t2: true }), {
      ...run({ t1: false }),
      tasks: new Map([...run({ t1: false }).tasks, ['t2', { pass: null, metrics: { accuracy: null } }]]),
    })
    expect(leftOut.flipRateCi).toMatchObject({ low: 0.206549, high: 1, method: 'Wilson score interval over 1 task(s)' })
  })

  it("counts a clustered run's flips per entry but draws its interval by cluster, the entries of one task together", () => {
    // 12 benchmark tasks x 3 judges: t1 flips under every judge, t2 under one, t3 under two: 6 of 36 entries.
    const entries = (flipped: (task: number, judge: number) => boolean) =>
      Array.from({ length: 12 }, (_, t) => [0, 1, 2].map((j) => ({ cluster: `t${t + 1}`, flipped: flipped(t, j) }))).flat()
    const some = entries((t, j) => t === 0 || (t === 1 && j === 0) || (t === 2 && j < 2))
    const method = "cluster percentile bootstrap over 12 benchmark task(s) (36 entries, each task's taken together), 2000 resamples, seed 20260311"
    expect(flipRateCi(some)).toEqual({ low: 0, high: 0.361111, level: 0.95, method })
    // The 36 entries taken as independent tasks gave a narrower interval: [0.079, 0.319].
    expect(flipRateCi(some.map((entry, i) => ({ ...entry, cluster: String(i) })))).toMatchObject({
      low: 0.078704,
      high: 0.318908,
      method: 'Wilson score interval over 36 task(s)',
    })
    expect(flipRateCi(some, { seed: 7, resamples: 500 })?.method).toBe(
      "cluster percentile bootstrap over 12 benchmark task(s) (36 entries, each task's taken together), 500 resamples, seed 7",
    )
    // No flip (or every entry flipped): the bootstrap would read [0, 0]; the Wilson interval of the clusters bounds the rate.
    const over = "Wilson score interval over 12 benchmark task(s) (36 entries, each task's taken together)"
    expect(flipRateCi(entries(() => false))).toEqual({ low: 0, high: 0.242494, level: 0.95, method: over })
    expect(flipRateCi(entries(() => true))).toEqual({ low: 0.757506, high: 1, level: 0.95, method: over })
    expect(flipRateCi([])).toBeNull()
    // Through compareRuns: the entries' clusters are run A's.
    const scored = (pass: (task: number, judge: number) => boolean): ComparableRun => ({
      kind: 'test run',
      metricNames: ['requirements'],
      tasks: new Map(
        Array.from({ length: 12 }, (_, t) =>
          [0, 1, 2].map(
            (j) => [`t${t + 1} [judge=j${j + 1}]`, { pass: pass(t, j), metrics: { requirements: pass(t, j) ? 5 : 1 }, cluster: `t${t + 1}` }] as const,
          ),
        ).flat(),
      ),
    })
    const c = compareRuns(
      scored(() => false),
      scored((t, j) => t === 0 || (t === 1 && j === 0) || (t === 2 && j < 2)),
    )
    expect(c).toMatchObject({ tasks: 36, flipRate: 6 / 36, flipRateCi: { low: 0, high: 0.361111, method } })
    expect(formatRunComparison(c, { a: 'a.json', b: 'b.json' }).split('\n')).toContain('flips: 6 (16.7% [0.0%, 36.1%])')
  })
})
