import { describe, expect, it } from 'vitest'
import { mpcbenchComparable } from './comparable.ts'
import { MPCBENCH_PASS_SCORE, graderSuspects, rowPassHatK } from './summary-statistics.ts'
import { buildSummary } from './summary.ts'
import type { MpcbenchJudgeMeta, MpcbenchTestMeta } from '../run/mpcbench-meta.ts'

const noUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 }

/** A judged trial of `taskId` whose requirements score is `ars` (fixed test inputs, not a judge's output). */
function meta(taskId: string, ars: number, extra: Partial<MpcbenchTestMeta> = {}): MpcbenchTestMeta {
  const judge: MpcbenchJudgeMeta = {
    judgeModel: 'j',
    judgeKind: 'llm',
    judgeInputFile: 'i',
    judgeResultFile: 'r',
    usage: noUsage,
    kind: 'scored',
    answerRequirementsSatisfaction: ars,
    sourceGroundedReasoning: 5,
  }
  return {
    taskId,
    taskType: 'planning',
    scenarioId: 's',
    agentModel: 'm',
    agentModelKind: 'llm',
    agentOutcome: 'answered',
    toolCalls: 1,
    turns: 1,
    durationMs: 1,
    costUsd: 0,
    totalTokens: 0,
    usage: noUsage,
    runLogFile: 'x',
    judges: [judge],
    ...extra,
  }
}

describe(`MPCBench pass (requirements >= ${MPCBENCH_PASS_SCORE}): a score exactly at the pass score passes`, () => {
  it('in pass^k', () => {
    const at = MPCBENCH_PASS_SCORE
    const rows = rowPassHatK([meta('t1', at, { trial: 1 }), meta('t1', at, { trial: 2 }), meta('t2', at - 1, { trial: 1 }), meta('t2', at, { trial: 2 })])
    expect([...rows.values()].map((row) => row.passHatK)).toEqual([{ '1': 3 / 4, '2': 1 / 2 }])
  })

  it('in agent-bench compare (pass of each task)', () => {
    const run = mpcbenchComparable(buildSummary([meta('t1', MPCBENCH_PASS_SCORE), meta('t2', MPCBENCH_PASS_SCORE - 1)]))
    expect([...run.tasks.entries()].map(([key, task]) => [key, task.pass])).toEqual([
      ['t1 [agent=m] [judge=j]', true],
      ['t2 [agent=m] [judge=j]', false],
    ])
  })

  it('in the grader suspects (an empty answer that passed)', () => {
    const suspects = graderSuspects([meta('t1', MPCBENCH_PASS_SCORE, { emptyAnswer: true }), meta('t2', MPCBENCH_PASS_SCORE - 1, { emptyAnswer: true })])
    expect(suspects.map((suspect) => suspect.task_id)).toEqual(['t1'])
  })
})
