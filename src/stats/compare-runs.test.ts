import { describe, expect, it } from 'vitest'
import { type ComparableRun, compareRuns, formatRunComparison } from './compare-runs.ts'

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
    expect(none).toMatchObject({ tasks: 0, flipRate: 0, significant: false, metrics: { accuracy: { a: null, ci: null } } })
  })
})
