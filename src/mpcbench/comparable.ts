import type { ComparableRun } from '../stats/compare-runs.ts'
import { MPCBENCH_PASS_SCORE, firstTrials } from './summary-statistics.ts'
import type { Summary } from './summary.ts'

/**
 * An MPCBench summary for `agent-bench compare`: one task per `{task_id} [agent=..] [judge=..]` (trial 1), pass =
 * requirements >= 4. Requirements unjudged (null: a judge error, or a judge that could not judge the task) is neither
 * pass nor fail, as the row means skip it; a task whose agent failed keeps the score its judge gave (0 for an empty
 * answer) and counts. When the two runs share no such key but each ran one agent, tasks are keyed without the agent
 * (`{task_id} [judge=..]`), so two agents can be compared on the same tasks; see {@link pairMpcbenchRuns}.
 */
export function mpcbenchComparable(summary: Pick<Summary, 'scores'>, withAgent = true): ComparableRun {
  const tasks: ComparableRun['tasks'] = new Map()
  for (const [pair, scores] of Object.entries(summary.scores)) {
    const match = /^agent=(.*)__judge=(.*)$/.exec(pair)
    const agent = match?.[1] ?? pair
    const judge = match?.[2] ?? ''
    for (const score of firstTrials(scores)) {
      const id = `${score.task_id}${withAgent ? ` [agent=${agent}]` : ''} [judge=${judge}]`
      const ars = score.answer_requirements_satisfaction
      tasks.set(id, {
        pass: ars === null ? null : ars >= MPCBENCH_PASS_SCORE,
        metrics: { answer_requirements_satisfaction: ars, source_grounded_reasoning: score.source_grounded_reasoning },
      })
    }
  }
  return { kind: 'MPCBench summary', metricNames: ['answer_requirements_satisfaction', 'source_grounded_reasoning'], tasks }
}

function agents(summary: Pick<Summary, 'scores'>): Set<string> {
  return new Set(Object.keys(summary.scores).map((pair) => /^agent=(.*)__judge=/.exec(pair)?.[1] ?? pair))
}

/** Both summaries as comparable runs, keyed with the agent unless they share no key and each ran a single agent. */
export function pairMpcbenchRuns(a: Pick<Summary, 'scores'>, b: Pick<Summary, 'scores'>): [ComparableRun, ComparableRun] {
  const withAgent: [ComparableRun, ComparableRun] = [mpcbenchComparable(a), mpcbenchComparable(b)]
  const shared = [...withAgent[0].tasks.keys()].some((id) => withAgent[1].tasks.has(id))
  if (shared || agents(a).size !== 1 || agents(b).size !== 1) return withAgent
  return [mpcbenchComparable(a, false), mpcbenchComparable(b, false)]
}
