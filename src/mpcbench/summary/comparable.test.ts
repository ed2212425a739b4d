import { describe, expect, it } from 'vitest'
import { compareRuns } from '../../stats/compare-runs.ts'
import { mpcbenchComparable, pairMpcbenchRuns } from './comparable.ts'
import { buildSummary, type UnfinishedTest } from './summary.ts'
import type { MpcbenchJudgeMeta, MpcbenchTestMeta } from '../run/mpcbench-meta.ts'

const noUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 }
const judge = { judgeModel: 'j', judgeKind: 'llm', judgeInputFile: 'i', judgeResultFile: 'r', usage: noUsage } as const

function meta(taskId: string, verdict: MpcbenchJudgeMeta | MpcbenchJudgeMeta[], agentOutcome: MpcbenchTestMeta['agentOutcome'] = 'answered'): MpcbenchTestMeta {
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
    judges: Array.isArray(verdict) ? verdict : [verdict],
  }
}

const scored = (ars: number | null, sgr: number | null): MpcbenchJudgeMeta => ({
  ...judge,
  kind: 'scored',
  answerRequirementsSatisfaction: ars,
  sourceGroundedReasoning: sgr,
})
const judgeError: MpcbenchJudgeMeta = { ...judge, kind: 'judge-error', code: 'ERR_JUDGE_REPLY', message: 'rate limited' }

describe('pairMpcbenchRuns', () => {
  const ids = ['t1', 't2', 't3', 't4', 't5']
  const before = buildSummary(ids.map((id) => meta(id, scored(5, 5))))

  it('leaves a task the judge could not score (judge error, unjudged) out of the flips, as the row means skip it', () => {
    const after = buildSummary([meta('t1', judgeError), meta('t2', scored(null, null)), ...['t3', 't4', 't5'].map((id) => meta(id, scored(5, 5)))])
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

  it('keeps pairing the grounding score of a task whose requirements are unjudged, on that axis alone', () => {
    const after = buildSummary([meta('t1', scored(null, 2)), ...ids.slice(1).map((id) => meta(id, scored(5, 5)))])
    const c = compareRuns(...pairMpcbenchRuns(before, after))
    expect(c).toMatchObject({ tasks: 4, leftOut: ['t1 [agent=m] [judge=j]'], flips: [] })
    expect(c.metrics.answer_requirements_satisfaction).toMatchObject({ delta: 0, tasks: 4 })
    expect(c.metrics.source_grounded_reasoning).toMatchObject({ a: 5, b: 4.4, tasks: 5 })
  })

  it("counts a test that timed out or failed before its score as a failure under each of its agent's judges; one not run is left out", () => {
    const judges = [scored(5, 5), { ...scored(5, 5), judgeModel: 'k' }]
    const twoJudges = buildSummary(ids.map((id) => meta(id, judges)))
    const unfinished = (taskId: string, outcome: UnfinishedTest['outcome'], agent = 'm'): UnfinishedTest => ({
      task_id: taskId,
      task_type: 'planning',
      agent_model: agent,
      outcome,
      message: outcome,
    })
    const after = buildSummary(
      ['t3', 't4', 't5'].map((id) => meta(id, judges)),
      new Date(0),
      [unfinished('t1', 'timed-out'), unfinished('t2', 'failed'), unfinished('t5', 'timed-out', 'm'), unfinished('t2', 'not-run', 'other')],
    )
    // t5 scored in trial 1 and timed out in trial 2: trial 2 does not count.
    after.unfinished = (after.unfinished ?? []).map((test) => (test.task_id === 't5' ? { ...test, trial: 2 } : test))
    const c = compareRuns(...pairMpcbenchRuns(twoJudges, after))
    const both = (taskId: string) => [`${taskId} [agent=m] [judge=j]`, `${taskId} [agent=m] [judge=k]`]
    expect(c).toMatchObject({
      tasks: 10,
      leftOut: [],
      flips: [...both('t1'), ...both('t2')],
      regressed: [...both('t1'), ...both('t2')],
      onlyInB: ['t2 [agent=other] [judge=j]', 't2 [agent=other] [judge=k]'],
    })
    // No score, as the row means: the failures are in the flips, not in the deltas.
    expect(c.metrics.answer_requirements_satisfaction).toMatchObject({ delta: 0, tasks: 6, clusters: 3 })

    const interrupted = buildSummary(
      ['t2', 't3', 't4', 't5'].map((id) => meta(id, scored(5, 5))),
      new Date(0),
      [unfinished('t1', 'not-run')],
    )
    expect(compareRuns(...pairMpcbenchRuns(before, interrupted))).toMatchObject({ tasks: 4, leftOut: ['t1 [agent=m] [judge=j]'], flips: [], onlyInA: [] })
    // An agent without a score (all its tests timed out) fails under the summary's judges.
    const lost = mpcbenchComparable({ scores: before.scores, unfinished: [unfinished('t9', 'timed-out', 'lost')] })
    expect(lost.tasks.get('t9 [agent=lost] [judge=j]')).toEqual({
      pass: false,
      metrics: { answer_requirements_satisfaction: null, source_grounded_reasoning: null },
      cluster: 't9',
    })
  })

  it('puts the entries of one task (one per judge) in one cluster, so three judges weigh as one task', () => {
    const three = (score: number) => ['j', 'k', 'l'].map((judgeModel) => ({ ...scored(score, score), judgeModel }))
    const a = [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]
    const b = [5, 4, 4, 2, 3, 3, 3, 3, 3, 3, 3, 3]
    const summaries = (judges: (score: number) => MpcbenchJudgeMeta[]) =>
      [a, b].map((scores) => buildSummary(scores.map((score, i) => meta(`t${i + 1}`, judges(score))))) as [
        ReturnType<typeof buildSummary>,
        ReturnType<typeof buildSummary>,
      ]
    const byThree = compareRuns(...pairMpcbenchRuns(...summaries(three)))
    const byOne = compareRuns(...pairMpcbenchRuns(...summaries((score) => [scored(score, score)])))
    // What resampling 36 entries gave was [+0.028, +0.500], significant; by task it is one judge's interval, p = 0.5.
    expect(byThree.metrics.answer_requirements_satisfaction?.ci).toMatchObject({ low: -0.166667, high: 0.666667 })
    expect(byThree).toMatchObject({ pValue: 0.5, significant: false })
    expect(byOne).toMatchObject({ pValue: 0.5, significant: false })
    const { low, high } = byOne.metrics.answer_requirements_satisfaction?.ci ?? {}
    expect(byThree.metrics.answer_requirements_satisfaction).toMatchObject({ tasks: 36, clusters: 12, ci: { low, high } })
    const entries = [...mpcbenchComparable(summaries(three)[0]).tasks]
    expect(entries.map(([id, task]) => id.replace(/ \[.*/, '') === task.cluster)).toEqual(Array(36).fill(true))
  })
})
