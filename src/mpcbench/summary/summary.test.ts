import { describe, expect, it } from 'vitest'
import type { MpcbenchTestMeta } from '../run/mpcbench-meta.ts'
import { SummarySchema, buildSummary, formatSummaryTable, formatSummaryUsage } from './summary.ts'
import { formatSummaryStatistics } from './summary-statistics.ts'

const noUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 }
/** Scripted token counts of an LLM agent run (3 calls) and of one LLM judge call. */
const agentUsage = { promptTokens: 900, completionTokens: 100, totalTokens: 1000, costUsd: 0.002, calls: 3 }
const judgeUsage = { promptTokens: 400, completionTokens: 50, totalTokens: 450, costUsd: 0.001, calls: 1 }

function meta(
  taskId: string,
  taskType: MpcbenchTestMeta['taskType'],
  agentModel: string,
  judges: MpcbenchTestMeta['judges'],
  agentOutcome: MpcbenchTestMeta['agentOutcome'] = 'answered',
): MpcbenchTestMeta {
  return {
    taskId,
    taskType,
    scenarioId: 's',
    agentModel,
    agentModelKind: agentModel === 'baseline' ? 'baseline' : 'llm',
    agentOutcome,
    toolCalls: 2,
    turns: 3,
    durationMs: 5,
    costUsd: 0,
    totalTokens: 0,
    usage: agentModel === 'baseline' ? noUsage : agentUsage,
    runLogFile: `evaluation/logs/${taskId}__agent-${agentModel}_run.json`,
    judges,
  }
}

const scored = (judgeModel: string, ars: number, sgr: number): MpcbenchTestMeta['judges'][number] => ({
  judgeModel,
  judgeKind: judgeModel === 'rules' ? 'rules' : 'llm',
  judgeInputFile: 'i',
  judgeResultFile: 'r',
  usage: judgeModel === 'rules' ? noUsage : judgeUsage,
  kind: 'scored',
  answerRequirementsSatisfaction: ars,
  sourceGroundedReasoning: sgr,
})

describe('buildSummary', () => {
  const metas = [
    meta('p2', 'planning', 'baseline', [scored('rules', 3, 4)]),
    meta('p1', 'planning', 'baseline', [scored('rules', 5, 5)]),
    meta('e1', 'email_reply', 'baseline', [scored('rules', 2, 1)]),
    meta('p1', 'planning', 'openai/gpt-4.1', [
      scored('rules', 4, 4),
      {
        judgeModel: 'gpt-5.1',
        judgeKind: 'llm',
        judgeInputFile: 'i',
        judgeResultFile: 'r',
        usage: judgeUsage,
        kind: 'judge-error',
        code: 'ERR_JUDGE_REPLY',
        message: 'bad',
      },
    ]),
    meta('p2', 'planning', 'openai/gpt-4.1', [scored('rules', 0, 0), scored('gpt-5.1', 1, 2)], 'max-turns'),
  ]

  it('sums tokens and cost over the run: agents, judges (including judge calls that gave no score) and both', () => {
    const summary = buildSummary(metas, new Date('2026-01-01T00:00:00Z'))
    // Two gpt-4.1 agent runs (2 x agentUsage); two gpt-5.1 judge calls, one scored and one judge error (2 x judgeUsage).
    expect(summary.usage.agents).toEqual({ promptTokens: 1800, completionTokens: 200, totalTokens: 2000, costUsd: 0.004, calls: 6 })
    expect(summary.usage.judges).toEqual({ promptTokens: 800, completionTokens: 100, totalTokens: 900, costUsd: 0.002, calls: 2 })
    expect(summary.usage.total).toMatchObject({ totalTokens: 2900, calls: 8 })
    expect(summary.usage.total.costUsd).toBeCloseTo(0.006, 10)
    expect(formatSummaryUsage(summary).split('\n')[2]).toBe('total : 2,900 tokens (2,600 prompt, 300 completion) in 8 call(s), cost $0.0060')
  })

  it('averages per agent x judge x task type, counting failures', () => {
    const summary = buildSummary(metas, new Date('2026-01-01T00:00:00Z'))
    expect(SummarySchema.parse(summary)).toEqual(summary)
    expect(
      summary.rows.map((r) => [
        r.agent_model,
        r.judge_model,
        r.task_type,
        r.count,
        r.scored,
        r.failures,
        r.mean_answer_requirements_satisfaction,
        r.mean_source_grounded_reasoning,
      ]),
    ).toEqual([
      ['baseline', 'rules', 'email_reply', 1, 1, 0, 2, 1],
      ['baseline', 'rules', 'planning', 2, 2, 0, 4, 4.5],
      ['openai/gpt-4.1', 'gpt-5.1', 'planning', 2, 1, 2, 1, 2],
      ['openai/gpt-4.1', 'rules', 'planning', 2, 2, 1, 2, 2],
    ])
    expect(summary.rows.map((r) => [Boolean(r.agent_label?.includes('not an LLM')), Boolean(r.judge_label?.includes('not an LLM'))])).toEqual([
      [true, true],
      [true, true],
      [false, false],
      [false, true],
    ])
    expect(Object.keys(summary.scores)).toEqual(['agent=baseline__judge=rules', 'agent=openai/gpt-4.1__judge=gpt-5.1', 'agent=openai/gpt-4.1__judge=rules'])
    expect(summary.scores['agent=openai/gpt-4.1__judge=gpt-5.1']).toEqual([
      { task_id: 'p1', task_type: 'planning', answer_requirements_satisfaction: null, source_grounded_reasoning: null, error: 'ERR_JUDGE_REPLY: bad' },
      { task_id: 'p2', task_type: 'planning', answer_requirements_satisfaction: 1, source_grounded_reasoning: 2, error: 'agent max-turns' },
    ])
  })

  it('does not depend on the order of the tests (shards merge in any order)', () => {
    const a = buildSummary(metas, new Date(0))
    const b = buildSummary([...metas].reverse(), new Date(0))
    expect(b).toEqual(a)
  })

  it('prints a table that marks non-LLM models', () => {
    const table = formatSummaryTable(buildSummary(metas))
    expect(table.split('\n')[0]).toMatch(/^agent\s+judge\s+task type\s+requirements\s+grounding\s+n\s+failed\s+unjudged$/)
    expect(table).toContain('baseline (non-LLM)  rules (non-LLM)')
    expect(table).toMatch(/planning\s+4\.00 \[3\.00, 5\.00\]\s+4\.50 \[4\.00, 5\.00\]\s+2\s+0\s+0\/0/)
  })
})

describe('buildSummary: intervals, unjudged scores, trials and grader suspects', () => {
  const withTrial = (m: MpcbenchTestMeta, trial: number, extra: Partial<MpcbenchTestMeta> = {}): MpcbenchTestMeta => ({ ...m, trial, ...extra })
  const firstTrialsOf = (metas: MpcbenchTestMeta[]): MpcbenchTestMeta[] => metas.filter((m) => (m.trial ?? 1) === 1).map(({ trial: _, ...rest }) => rest)

  it('skips null scores in means and intervals and counts them as unjudged', () => {
    const summary = buildSummary([
      meta('p1', 'planning', 'baseline', [scored('rules', 5, 4)]),
      meta('p2', 'planning', 'baseline', [
        { ...scored('rules', 0, 0), kind: 'scored', answerRequirementsSatisfaction: null, sourceGroundedReasoning: 2 } as MpcbenchTestMeta['judges'][number],
      ]),
      meta('p3', 'planning', 'baseline', [scored('rules', 3, 2)]),
    ])
    const row = summary.rows[0]
    expect(row).toMatchObject({ mean_answer_requirements_satisfaction: 4, unjudged_answer_requirements_satisfaction: 1, unjudged_source_grounded_reasoning: 0 })
    expect(row?.ci?.answer_requirements_satisfaction).toMatchObject({ low: 3, high: 5, level: 0.95 })
    expect(row?.ci?.answer_requirements_satisfaction?.method).toContain('over 2 task(s)')
    expect(formatSummaryTable(summary)).toMatch(/planning\s+4\.00 \[3\.00, 5\.00\]\s+2\.67 \[2\.00, 4\.00\]\s+3\s+0\s+1\/0/)
    expect(SummarySchema.parse(summary)).toEqual(summary)
  })

  it("computes means over trial 1 and pass^k (requirements >= 4, tau-bench's estimator) over all trials", () => {
    const metas = [1, 2, 3].flatMap((trial) => [
      withTrial(meta('p1', 'planning', 'baseline', [scored('rules', 5, 5)]), trial),
      withTrial(meta('p2', 'planning', 'baseline', [scored('rules', trial === 2 ? 1 : 4, 5)]), trial),
    ])
    const summary = buildSummary(metas)
    const row = summary.rows[0]
    // p1 passes 3 of 3, p2 2 of 3: pass^j is the mean of C(c, j) / C(3, j).
    expect(row).toMatchObject({ count: 2, mean_answer_requirements_satisfaction: 4.5, trials: 3, pass_hat_k: { '1': 5 / 6, '2': 2 / 3, '3': 0.5 } })
    // Each pass^j's seeded bootstrap over the 2 tasks of their C(c, j) / C(3, j): p1 1, 1, 1; p2 2/3, 1/3, 0. pass^3's
    // values are 0/1 (a share of tasks): its interval is Wilson's for 1 of 2.
    const method = 'percentile bootstrap over 2 task(s), 2000 resamples, seed 20260311'
    expect(row?.pass_hat_k_ci).toEqual({
      '1': { low: 0.666667, high: 1, level: 0.95, method },
      '2': { low: 0.333333, high: 1, level: 0.95, method },
      '3': { low: 0.094531, high: 0.905469, level: 0.95, method: 'Wilson score interval over 2 task(s)' },
    })
    expect(SummarySchema.parse(summary)).toEqual(summary)
    expect(summary.tests).toBe(6)
    expect(summary.scores['agent=baseline__judge=rules']?.filter((s) => s.trial === 2)).toHaveLength(2)
    const lines = formatSummaryStatistics(summary).split('\n')
    expect(lines).toContain(
      'pass^k (requirements >= 4, 3 trials) baseline x rules x planning: 1: 0.833 [0.667, 1.000] · 2: 0.667 [0.333, 1.000] · 3: 0.500 [0.095, 0.905]',
    )
    expect(lines[0]).toBe(
      "[low, high]: 95% seeded bootstrap interval over tasks (trial 1); nulls (unjudged) skipped; pass^k's over the tasks with an outcome in every trial, of their per-task C(c, j) / C(n, j) (Wilson's when those are all 0 or 1)",
    )
    // A summary written before pass^k had intervals prints pass^k alone.
    const old = { ...summary, rows: summary.rows.map(({ pass_hat_k_ci: _, ...rest }) => rest) }
    expect(formatSummaryStatistics(old).split('\n')).toContain(
      'pass^k (requirements >= 4, 3 trials) baseline x rules x planning: 1: 0.833 · 2: 0.667 · 3: 0.500',
    )
    expect(formatSummaryStatistics(old).split('\n')[0]).toBe('[low, high]: 95% seeded bootstrap interval over tasks (trial 1); nulls (unjudged) skipped')
    // One trial: no pass^k, no interval of it.
    expect(buildSummary(firstTrialsOf(metas)).rows[0]).not.toHaveProperty('pass_hat_k_ci')
  })

  it('pass^k counts a trial that timed out or failed before its score as not passed; one not run or unjudged ends the trials its task counts for', () => {
    const p = (id: string, trial: number, requirements: number | null): MpcbenchTestMeta =>
      withTrial(
        meta(id, 'planning', 'baseline', [
          { ...scored('rules', requirements ?? 0, 4), answerRequirementsSatisfaction: requirements } as MpcbenchTestMeta['judges'][number],
        ]),
        trial,
      )
    const metas = [
      p('p1', 1, 5),
      p('p1', 3, 5),
      p('p2', 1, 5),
      p('p2', 3, 5),
      p('p3', 1, 5),
      p('p3', 2, null),
      p('p3', 3, 5),
      p('p4', 1, 5),
      p('p4', 2, 5),
      p('p4', 3, 5),
    ]
    const unfinished = [
      { task_id: 'p1', task_type: 'planning', agent_model: 'baseline', trial: 2, outcome: 'timed-out', message: 'Test timed out in 1000ms.' },
      { task_id: 'p2', task_type: 'planning', agent_model: 'baseline', trial: 2, outcome: 'not-run', message: 'the run was interrupted before this test ran' },
    ] as const
    const summary = buildSummary(metas, new Date(), unfinished)
    // p1 [pass, fail, pass]; p4 passes all three; p2 and p3 have no outcome in trial 2 (not run, unjudged), so pass^k is
    // over p1 and p4 for every j (counting them for pass^1 alone could make pass^2 exceed pass^1).
    expect(summary.rows[0]).toMatchObject({ count: 4, trials: 3, pass_hat_k: { '1': 5 / 6, '2': 2 / 3, '3': 0.5 }, pass_hat_k_tasks: 2 })
    expect(summary.task_counts).toMatchObject({ selected: 12, failed: 1, not_run: 1 })
    expect(summary.rows[0]?.pass_hat_k_ci?.['1']?.method).toBe('percentile bootstrap over 2 task(s), 2000 resamples, seed 20260311')
    expect(formatSummaryStatistics(summary)).toContain(
      'pass^k (requirements >= 4, 3 trials, over the 2 task(s) with an outcome in every trial) baseline x rules x planning: 1: 0.833 [0.667, 1.000] · 2: 0.667 [0.333, 1.000] · 3: 0.500 [0.095, 0.905]',
    )
  })

  it('pass^k: a judge error leaves the trial without an outcome when the agent answered, a failure when it did not', () => {
    const judgeError = {
      ...scored('rules', 0, 0),
      kind: 'judge-error',
      code: 'ERR_JUDGE_REPLY',
      message: 'no usable reply',
    } as unknown as MpcbenchTestMeta['judges'][number]
    const metas = [
      withTrial(meta('p1', 'planning', 'baseline', [scored('rules', 5, 5)]), 1),
      withTrial(meta('p1', 'planning', 'baseline', [judgeError]), 2),
      withTrial(meta('p2', 'planning', 'baseline', [scored('rules', 5, 5)]), 1),
      withTrial(meta('p2', 'planning', 'baseline', [judgeError], 'max-turns'), 2),
    ]
    // p1's trial 2 is unknown (left out); p2 failed its trial 2 (the agent gave no answer).
    expect(buildSummary(metas).rows[0]).toMatchObject({ pass_hat_k: { '1': 0.5, '2': 0 }, pass_hat_k_tasks: 1 })
  })

  it('pass^k: a null requirements score is a failure when the agent did not answer, no outcome when it did', () => {
    const unscored = { ...scored('rules', 0, 3), answerRequirementsSatisfaction: null } as MpcbenchTestMeta['judges'][number]
    const metas = [
      withTrial(meta('p1', 'planning', 'baseline', [scored('rules', 5, 5)]), 1),
      withTrial(meta('p1', 'planning', 'baseline', [unscored], 'max-turns'), 2),
      withTrial(meta('p2', 'planning', 'baseline', [scored('rules', 5, 5)]), 1),
      withTrial(meta('p2', 'planning', 'baseline', [unscored], 'error'), 2),
      withTrial(meta('p3', 'planning', 'baseline', [scored('rules', 5, 5)]), 1),
      withTrial(meta('p3', 'planning', 'baseline', [scored('rules', 5, 5)]), 2),
      withTrial(meta('p4', 'planning', 'baseline', [scored('rules', 5, 5)]), 1),
      withTrial(meta('p4', 'planning', 'baseline', [unscored]), 2),
    ]
    // p1 (max turns) and p2 (error) failed trial 2: an unanswered attempt is no success. p4 answered and its answer was
    // not judged on requirements: no outcome, left out. So over p1, p2, p3: pass^1 = (1 + 1 + 2) / 6, pass^2 = 1/3.
    expect(buildSummary(metas).rows[0]).toMatchObject({ pass_hat_k: { '1': 2 / 3, '2': 1 / 3 }, pass_hat_k_tasks: 3 })
  })

  it('lists tests that an empty answer passed as grader suspects and warns', () => {
    const summary = buildSummary([
      meta('p1', 'planning', 'null', [scored('rules', 0, 0)]),
      { ...meta('p2', 'planning', 'null', [scored('rules', 4, 0), scored('gpt-5.1', 1, 0)]), emptyAnswer: true },
    ])
    expect(summary.grader_suspects).toEqual([{ task_id: 'p2', agent_model: 'null', judge_model: 'rules', trial: 1 }])
    expect(formatSummaryStatistics(summary)).toContain('WARNING: grader suspects: an empty answer scored >= 4 on requirements in p2 (agent null, judge rules)')
  })

  it('keeps runs of different tool profiles in separate rows and shows the profile', () => {
    const withProfile = (m: MpcbenchTestMeta, toolProfile: 'upstream-v1' | 'extended'): MpcbenchTestMeta => ({ ...m, toolProfile })
    const summary = buildSummary([
      withProfile(meta('p1', 'planning', 'baseline', [scored('rules', 5, 5)]), 'upstream-v1'),
      withProfile(meta('p1', 'planning', 'baseline', [scored('rules', 3, 3)]), 'extended'),
    ])
    expect(summary.rows.map((r) => [r.tool_profile, r.mean_answer_requirements_satisfaction])).toEqual([
      ['extended', 3],
      ['upstream-v1', 5],
    ])
    const table = formatSummaryTable(summary)
    expect(table.split('\n')[0]).toMatch(/^agent\s+judge\s+task type\s+tools\s+requirements/)
    expect(table).toMatch(/planning\s+upstream-v1\s+5\.00 \[5\.00, 5\.00\]\s+5\.00 \[5\.00, 5\.00\]\s+1\s+0/)
  })
})
