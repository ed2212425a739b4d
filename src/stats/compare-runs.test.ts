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
})
