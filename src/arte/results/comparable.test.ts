import { describe, expect, it } from 'vitest'
import { arteTaskResult } from '../../../fixtures/arte-results/task-result.ts'
import { pairedBootstrapDiffCi } from '../../stats/bootstrap.ts'
import { compareRuns, formatRunComparison } from '../../stats/compare-runs.ts'
import { seededRandom } from '../../stats/random.ts'
import { arteComparable } from './comparable.ts'
import { computeArteMetrics, type ArteTaskResult } from './results.ts'

function task(taskId: string, exactMatch: boolean): ArteTaskResult {
  return arteTaskResult(taskId, exactMatch, { agentAnswer: exactMatch ? 'truth' : 'x' })
}

/** A task an interrupted run never ran: no answer, scores of 0 that the metrics leave out. */
function notRun(taskId: string): ArteTaskResult {
  return {
    ...task(taskId, false),
    agentAnswer: '',
    semanticScore: 0,
    traceId: '',
    executionTimeMs: 0,
    outcome: { kind: 'not-run', reason: 'the run was interrupted before this task ran' },
  }
}

const ids = Array.from({ length: 10 }, (_, i) => String(i + 1))

describe('arteComparable', () => {
  it('leaves the tasks an interrupted run never ran out of the comparison, as the metrics do', () => {
    const full = ids.map((id) => task(id, true))
    const interrupted = ids.map((id, i) => (i < 5 ? task(id, true) : notRun(id)))
    expect(computeArteMetrics(interrupted).exactMatchAccuracy).toBe(computeArteMetrics(full).exactMatchAccuracy)
    const c = compareRuns(arteComparable({ taskResults: full }), arteComparable({ taskResults: interrupted }))
    expect(c).toMatchObject({ tasks: 5, leftOut: ['6', '7', '8', '9', '10'], flips: [], improved: [], regressed: [], significant: false })
    expect(c.metrics.exactMatchAccuracy).toMatchObject({ a: 1, b: 1, delta: 0, tasks: 5 })
    expect(c.metrics.avgSemanticScore).toMatchObject({ a: 1, b: 1, delta: 0, tasks: 5 })
    expect(formatRunComparison(c, { a: 'a.json', b: 'b.json' })).toContain('left out, not run or unjudged in A or B: 5 (6, 7, 8, 9, 10)')
  })

  it('still counts a task that ran and failed as a regression', () => {
    const c = compareRuns(arteComparable({ taskResults: [task('1', true), task('2', true)] }), arteComparable({ taskResults: [task('1', false), notRun('2')] }))
    expect(c).toMatchObject({ tasks: 1, leftOut: ['2'], regressed: ['1'] })
  })

  it('shares no task between runs of different row selections, as between runs of different splits', () => {
    const test = ids.map((id) => task(id, true))
    const train = ids.map((id) => task(`t${id}`, true))
    const bySplit = compareRuns(arteComparable({ taskResults: test }), arteComparable({ taskResults: train }))
    expect(bySplit).toMatchObject({ tasks: 0, flips: [], significant: false })
    expect(bySplit.onlyInA).toHaveLength(10)
    expect(bySplit.onlyInB).toHaveLength(10)

    const openpipe = ids.slice(0, 8).map((id) => task(id, false))
    const bySelection = compareRuns(
      arteComparable({ taskResults: test, config: { rows: 'all' } }),
      arteComparable({ taskResults: openpipe, config: { rows: 'openpipe' } }),
    )
    expect(bySelection).toMatchObject({ tasks: 0, flips: [], regressed: [], significant: false })
    expect(bySelection.onlyInA).toHaveLength(10)
    expect(bySelection.onlyInB).toEqual(ids.slice(0, 8).map((id) => `${id} [rows=openpipe]`))
    expect(bySelection.metrics.exactMatchAccuracy).toMatchObject({ a: null, b: null, tasks: 0 })
    // Results written before the selection was recorded ran every row.
    expect(compareRuns(arteComparable({ taskResults: test }), arteComparable({ taskResults: openpipe, config: { rows: 'openpipe' } })).tasks).toBe(0)
  })

  it('pairs two runs of the same selection task by task', () => {
    const before = arteComparable({ taskResults: [task('1', true), task('2', true)], config: { rows: 'openpipe' } })
    const after = arteComparable({ taskResults: [task('1', true), task('2', false)], config: { rows: 'openpipe' } })
    expect(compareRuns(before, after)).toMatchObject({ tasks: 2, regressed: ['2 [rows=openpipe]'] })
    expect(
      compareRuns(arteComparable({ taskResults: [task('1', true)], config: { rows: 'all' } }), arteComparable({ taskResults: [task('1', false)] })),
    ).toMatchObject({ tasks: 1, regressed: ['1'] })
  })

  it('makes each task its own cluster, so the intervals are the paired bootstrap of every task, as before clusters', () => {
    const random = seededRandom(3)
    const scored = (id: string) => arteTaskResult(id, random() < 0.5, { semanticScore: Math.round(random() * 100) / 100 })
    const a = Array.from({ length: 40 }, (_, i) => scored(String(i + 1)))
    const b = Array.from({ length: 40 }, (_, i) => scored(String(i + 1)))
    const runA = arteComparable({ taskResults: a, config: { rows: 'openpipe' } })
    expect([...runA.tasks.entries()].slice(0, 2)).toEqual([
      ['1 [rows=openpipe]', expect.objectContaining({ cluster: '1' })],
      ['2 [rows=openpipe]', expect.objectContaining({ cluster: '2' })],
    ])
    const c = compareRuns(runA, arteComparable({ taskResults: b, config: { rows: 'openpipe' } }))
    const byId = (tasks: ArteTaskResult[]) => [...tasks].sort((x, y) => x.taskId.localeCompare(y.taskId, 'en', { numeric: true }))
    const em = (tasks: ArteTaskResult[]) => byId(tasks).map((task) => (task.exactMatch ? 1 : 0))
    const semantic = (tasks: ArteTaskResult[]) => byId(tasks).map((task) => task.semanticScore)
    expect(c.metrics.exactMatchAccuracy).toMatchObject({ tasks: 40, clusters: 40, ci: pairedBootstrapDiffCi(em(a), em(b)) })
    expect(c.metrics.avgSemanticScore).toMatchObject({ tasks: 40, clusters: 40, ci: pairedBootstrapDiffCi(semantic(a), semantic(b)) })
    expect(c.test).toBe(`exact paired sign-flip test by task, 40 task(s), ${c.flips.length} differ`)
  })
})
