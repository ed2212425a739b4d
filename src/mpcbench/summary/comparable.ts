import type { ComparableRun } from '../../stats/compare-runs.ts'
import { MPCBENCH_PASS_SCORE, firstTrials } from './summary-statistics.ts'
import type { Summary } from './summary.ts'

/**
 * An MPCBench summary for `agent-bench compare`: one task per `{task_id} [agent=..] [judge=..]` (trial 1), pass =
 * requirements >= 4, each in the cluster of its `task_id` (its judges' scores are one task, resampled together).
 * Requirements unjudged (null: a judge error, or a judge that could not judge the task) is neither pass nor fail, as
 * the row means skip it; its grounding score still pairs on its own axis. A task whose agent failed keeps the score its
 * judge gave (0 for an empty answer) and counts. A test that timed out or failed before its score (`unfinished`) fails
 * under each judge of its agent (or of the summary, when its agent has no score), with no scores, as ART-E counts it;
 * one not run (an interrupted run) has no pass and is left out, as in ART-E. When the two runs share no such key but
 * each ran one agent, tasks are keyed without the agent (`{task_id} [judge=..]`), so two agents can be compared on the
 * same tasks; see {@link pairMpcbenchRuns}.
 */
export function mpcbenchComparable(summary: Pick<Summary, 'scores' | 'unfinished'>, withAgent = true): ComparableRun {
  const tasks: ComparableRun['tasks'] = new Map()
  const key = (taskId: string, agent: string, judge: string): string => `${taskId}${withAgent ? ` [agent=${agent}]` : ''} [judge=${judge}]`
  const judgesOf = new Map<string, Set<string>>()
  for (const [pair, scores] of Object.entries(summary.scores)) {
    const match = /^agent=(.*)__judge=(.*)$/.exec(pair)
    const agent = match?.[1] ?? pair
    const judge = match?.[2] ?? ''
    judgesOf.set(agent, (judgesOf.get(agent) ?? new Set<string>()).add(judge))
    for (const score of firstTrials(scores)) {
      const ars = score.answer_requirements_satisfaction
      tasks.set(key(score.task_id, agent, judge), {
        pass: ars === null ? null : ars >= MPCBENCH_PASS_SCORE,
        metrics: { answer_requirements_satisfaction: ars, source_grounded_reasoning: score.source_grounded_reasoning },
        cluster: score.task_id,
      })
    }
  }
  const allJudges = new Set([...judgesOf.values()].flatMap((judges) => [...judges]))
  for (const test of firstTrials(summary.unfinished ?? [])) {
    for (const judge of judgesOf.get(test.agent_model) ?? allJudges) {
      tasks.set(key(test.task_id, test.agent_model, judge), {
        pass: test.outcome === 'not-run' ? null : false,
        metrics: { answer_requirements_satisfaction: null, source_grounded_reasoning: null },
        cluster: test.task_id,
      })
    }
  }
  return { kind: 'MPCBench summary', metricNames: ['answer_requirements_satisfaction', 'source_grounded_reasoning'], tasks }
}

function agents(summary: Pick<Summary, 'scores'>): Set<string> {
  return new Set(Object.keys(summary.scores).map((pair) => /^agent=(.*)__judge=/.exec(pair)?.[1] ?? pair))
}

/** Both summaries as comparable runs, keyed with the agent unless they share no key and each ran a single agent. */
export function pairMpcbenchRuns(a: Pick<Summary, 'scores' | 'unfinished'>, b: Pick<Summary, 'scores' | 'unfinished'>): [ComparableRun, ComparableRun] {
  const withAgent: [ComparableRun, ComparableRun] = [mpcbenchComparable(a), mpcbenchComparable(b)]
  const shared = [...withAgent[0].tasks.keys()].some((id) => withAgent[1].tasks.has(id))
  if (shared || agents(a).size !== 1 || agents(b).size !== 1) return withAgent
  return [mpcbenchComparable(a, false), mpcbenchComparable(b, false)]
}
