import { ARTE_METRIC_NAMES, type ArteResults } from '../arte/results/results.ts'
import { compareArteResults, type ScoredComparison, withoutNotes } from '../arte/results/score-comparison.ts'
import { paidCostUsd } from '../llm/usage.ts'
import { pairMpcbenchRuns } from '../mpcbench/summary/comparable.ts'
import type { Summary } from '../mpcbench/summary/summary.ts'
import type { ConfidenceInterval } from '../stats/bootstrap.ts'
import { compareRuns } from '../stats/compare-runs.ts'

/** How the page writes a run total: as the metrics table writes it (counts, milliseconds, scores, 0-5 means, dollars). */
export type TotalFormat = 'count' | 'ms' | 'score' | 'mean' | 'usd'

/** One figure of each run as its results file has it (not paired by task), before and after. */
export interface TotalDelta {
  name: string
  before: number | null
  after: number | null
  delta: number | null
  format: TotalFormat
  /** The figure's interval in each run's file, when that file carries one (scores, means). */
  beforeCi?: ConfidenceInterval
  afterCi?: ConfidenceInterval
}

/** What the page shows of a run against the previous one. */
export interface PageComparison {
  /**
   * Exactly what `agent-bench compare PREVIOUS CURRENT --json` gives: flips, paired deltas with intervals, significance,
   * and the notes on scores not compared or measured by different judges.
   */
  paired: ScoredComparison
  /**
   * Each run's own totals as their files have them: ART-E's scores (exactMatchAccuracy, avgSemanticScore, and
   * sourcesAccuracy and llmJudgeAccuracy when either run has them) and MPCBench's row means, each with its interval
   * when the file carries one; then tasks, times, tokens and cost.
   */
  totals: TotalDelta[]
}

function total(
  name: string,
  before: number | null,
  after: number | null,
  format: TotalFormat,
  cis: { before?: ConfidenceInterval | null; after?: ConfidenceInterval | null } = {},
): TotalDelta {
  return {
    name,
    before,
    after,
    delta: before === null || after === null ? null : after - before,
    format,
    ...(cis.before === undefined || cis.before === null ? {} : { beforeCi: cis.before }),
    ...(cis.after === undefined || cis.after === null ? {} : { afterCi: cis.after }),
  }
}

const ARTE_TOTAL_FORMAT: Partial<Record<(typeof ARTE_METRIC_NAMES)[number], TotalFormat>> = {
  exactMatchAccuracy: 'score',
  avgSemanticScore: 'score',
  avgExecutionTimeMs: 'ms',
  totalTimeMs: 'ms',
  completedTasks: 'count',
  failedTasks: 'count',
  notRunTasks: 'count',
  totalTasks: 'count',
  toolTimeouts: 'count',
}

/** ART-E scores that only some results carry: a run without one shows `-`, never 0. */
const ARTE_OPTIONAL_SCORES = ['sourcesAccuracy', 'llmJudgeAccuracy'] as const

/** Compares an ART-E run with an earlier one: the paired comparison of `agent-bench compare`, and the runs' totals. */
export function compareArteRuns(before: ArteResults, after: ArteResults): PageComparison {
  const totals: TotalDelta[] = []
  const cis = (name: keyof NonNullable<ArteResults['confidenceIntervals']>) => ({
    before: before.confidenceIntervals?.[name],
    after: after.confidenceIntervals?.[name],
  })
  const scores = ['exactMatchAccuracy', 'avgSemanticScore'] as const
  // The scores first, as the metrics table lists them, then the counts and times.
  for (const name of scores) totals.push(total(name, before[name], after[name], 'score', cis(name)))
  for (const name of ARTE_OPTIONAL_SCORES) {
    if (before[name] !== undefined || after[name] !== undefined) totals.push(total(name, before[name] ?? null, after[name] ?? null, 'score', cis(name)))
  }
  for (const name of ARTE_METRIC_NAMES) {
    const format = ARTE_TOTAL_FORMAT[name]
    if (format !== undefined && format !== 'score') totals.push(total(name, before[name], after[name], format))
  }
  totals.push(total('totalTokens', before.usage.totalTokens, after.usage.totalTokens, 'count'))
  // What each run paid: calls replayed from the response cache cost nothing.
  totals.push(total('paidCostUsd', paidCostUsd(before.usage), paidCostUsd(after.usage), 'usd'))
  return { paired: compareArteResults(before, after), totals }
}

/**
 * Compares an MPCBench summary with an earlier one: the paired comparison of `agent-bench compare` (trial 1,
 * pass = requirements >= 4, unjudged left out), and the row means and usage of each summary.
 */
export function compareMpcbenchRuns(before: Summary, after: Summary): PageComparison {
  const [a, b] = pairMpcbenchRuns(before, after)
  const rowKey = (row: Summary['rows'][number]) => `${row.agent_model} × ${row.judge_model} · ${row.task_type}`
  const beforeRows = new Map(before.rows.map((row) => [rowKey(row), row]))
  const totals: TotalDelta[] = []
  for (const row of after.rows) {
    const then = beforeRows.get(rowKey(row))
    totals.push(
      total(`${rowKey(row)} requirements`, then?.mean_answer_requirements_satisfaction ?? null, row.mean_answer_requirements_satisfaction, 'mean', {
        before: then?.ci?.answer_requirements_satisfaction,
        after: row.ci?.answer_requirements_satisfaction,
      }),
      total(`${rowKey(row)} grounding`, then?.mean_source_grounded_reasoning ?? null, row.mean_source_grounded_reasoning, 'mean', {
        before: then?.ci?.source_grounded_reasoning,
        after: row.ci?.source_grounded_reasoning,
      }),
    )
  }
  totals.push(total('totalTokens', before.usage.total.totalTokens, after.usage.total.totalTokens, 'count'))
  totals.push(total('paidCostUsd', paidCostUsd(before.usage.total), paidCostUsd(after.usage.total), 'usd'))
  return { paired: withoutNotes(compareRuns(a, b)), totals }
}
