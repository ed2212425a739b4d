import { describe, expect, it } from 'vitest'
import { compareRuns, formatRunComparison } from '../../stats/compare-runs.ts'
import { arteComparable } from './comparable.ts'
import { computeArteMetrics, type ArteTaskResult } from './results.ts'

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: 0, calls: 1 }

function task(taskId: string, exactMatch: boolean): ArteTaskResult {
  return {
    taskId,
    question: 'q',
    groundTruth: 'g',
    agentAnswer: exactMatch ? 'g' : 'x',
    exactMatch,
    semanticScore: exactMatch ? 1 : 0,
    traceId: `trace-${taskId}`,
    executionTimeMs: 10,
    sources: [],
    inboxAddress: 'a@example.com',
    queryDate: '2001-01-01',
    outcome: { kind: 'answered', via: 'final-tool' },
    usage,
  }
}

/** A task an interrupted run never ran: no answer, scores of 0 that the metrics leave out. */
function notRun(taskId: string): ArteTaskResult {
  return { ...task(taskId, false), agentAnswer: '', semanticScore: 0, traceId: '', executionTimeMs: 0, outcome: { kind: 'not-run', reason: 'the run was interrupted before this task ran' } }
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
})
