import { describe, expect, it } from 'vitest'
import { compareRuns } from '../stats/compare-runs.ts'
import { pairMpcbenchRuns } from './comparable.ts'
import { buildSummary } from './summary.ts'
import type { MpcbenchJudgeMeta, MpcbenchTestMeta } from './vitest/mpcbench-meta.ts'

const noUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 }
const judge = { judgeModel: 'j', judgeKind: 'llm', judgeInputFile: 'i', judgeResultFile: 'r', usage: noUsage } as const

function meta(taskId: string, verdict: MpcbenchJudgeMeta, agentOutcome: MpcbenchTestMeta['agentOutcome'] = 'answered'): MpcbenchTestMeta {
  return {
    taskId,
    taskType: 'planning',
    scenarioId: 's',
    agentModel: 'm',
    agentModelKind: 'llm',
    agentOutcome,
    toolCalls: 1,
    turns: 1,
    durationMs: 1,
    costUsd: 0,
    totalTokens: 0,
    usage: noUsage,
    runLogFile: 'x',
    judges: [verdict],
  }
}

const scored = (ars: number | null, sgr: number | null): MpcbenchJudgeMeta => ({ ...judge, kind: 'scored', answerRequirementsSatisfaction: ars, sourceGroundedReasoning: sgr })
const judgeError: MpcbenchJudgeMeta = { ...judge, kind: 'judge-error', code: 'ERR_JUDGE_REPLY', message: 'rate limited' }

describe('pairMpcbenchRuns', () => {
  const ids = ['t1', 't2', 't3', 't4', 't5']
  const before = buildSummary(ids.map((id) => meta(id, scored(5, 5))))

  it('leaves a task the judge could not score (judge error, unjudged) out of the flips, as the row means skip it', () => {
    const after = buildSummary([
      meta('t1', judgeError),
      meta('t2', scored(null, null)),
      ...['t3', 't4', 't5'].map((id) => meta(id, scored(5, 5))),
    ])
    expect(after.rows[0]?.mean_answer_requirements_satisfaction).toBe(5)
    const c = compareRuns(...pairMpcbenchRuns(before, after))
    expect(c).toMatchObject({ tasks: 3, leftOut: ['t1 [agent=m] [judge=j]', 't2 [agent=m] [judge=j]'], flips: [], regressed: [], significant: false })
    expect(c.metrics.answer_requirements_satisfaction).toMatchObject({ a: 5, b: 5, delta: 0, tasks: 3 })
  })

  it('counts an agent failure, which its judge scored 0, as a regression', () => {
    const after = buildSummary([meta('t1', scored(0, 0), 'error'), ...ids.slice(1).map((id) => meta(id, scored(5, 5)))])
    expect(after.scores['agent=m__judge=j']?.[0]).toMatchObject({ answer_requirements_satisfaction: 0, error: 'agent error' })
    const c = compareRuns(...pairMpcbenchRuns(before, after))
    expect(c).toMatchObject({ tasks: 5, leftOut: [], flips: ['t1 [agent=m] [judge=j]'], regressed: ['t1 [agent=m] [judge=j]'] })
  })
})
