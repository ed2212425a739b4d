import { ARTE_METRIC_NAMES, type ArteResults } from '../arte/results/results.ts'
import { paidCostUsd } from '../llm/usage.ts'
import type { Summary } from '../mpcbench/summary.ts'
import { firstTrials } from '../mpcbench/summary-statistics.ts'

/** One metric before and after. */
export interface MetricDelta {
  name: string
  before: number | null
  after: number | null
  delta: number | null
}

/** How the tasks two runs share moved. */
export interface RunComparison {
  /** Tasks in both runs with a pass or fail in each (what the flips are over). */
  shared: number
  /** Tasks in both runs left out: not run (ART-E) or requirements unjudged (MPCBench) in either, as the metrics leave them out. */
  leftOut: string[]
  /** Tasks whose pass/fail differs (ART-E: exact match; MPCBench: requirements >= 4). */
  flips: string[]
  improved: string[]
  regressed: string[]
  /** Tasks only in the current run / only in the earlier one. */
  added: string[]
  removed: string[]
  metrics: MetricDelta[]
}

/** The MPCBench pass rule used for flips: requirements satisfaction of at least 4 (of 5). */
export const MPCBENCH_PASS_SCORE = 4

function delta(before: number | null, after: number | null): number | null {
  return before === null || after === null ? null : after - before
}

/** The sum of the moves of the scores known in both (null = not scored). */
function scoreMove(before: ReadonlyArray<number | null>, after: ReadonlyArray<number | null>): number {
  let sum = 0
  after.forEach((now, i) => {
    const then = before[i]
    if (now !== null && then !== null && then !== undefined) sum += now - then
  })
  return sum
}

/**
 * Tasks of both runs by id: flips of `pass`, and tasks that moved (a flip, else the sum of the `scores` known in both).
 * A task whose `pass` is null (no outcome) in either run is left out.
 */
function diffTasks<T>(
  before: Map<string, T>,
  after: Map<string, T>,
  pass: (value: T) => boolean | null,
  scores: (value: T) => ReadonlyArray<number | null>,
): Omit<RunComparison, 'metrics'> {
  const flips: string[] = []
  const improved: string[] = []
  const regressed: string[] = []
  const leftOut: string[] = []
  let shared = 0
  for (const [id, now] of after) {
    const then = before.get(id)
    if (then === undefined) continue
    const passNow = pass(now)
    const passThen = pass(then)
    if (passNow === null || passThen === null) {
      leftOut.push(id)
      continue
    }
    shared++
    if (passNow !== passThen) flips.push(id)
    const moved = passNow !== passThen ? (passNow ? 1 : -1) : Math.sign(scoreMove(scores(then), scores(now)))
    if (moved > 0) improved.push(id)
    else if (moved < 0) regressed.push(id)
  }
  return {
    shared,
    leftOut,
    flips,
    improved,
    regressed,
    added: [...after.keys()].filter((id) => !before.has(id)),
    removed: [...before.keys()].filter((id) => !after.has(id)),
  }
}

/** Compares an ART-E run with an earlier one: per-task flips, improved and regressed ids (tasks not run left out), metric deltas. */
export function compareArteRuns(before: ArteResults, after: ArteResults): RunComparison {
  const index = (results: ArteResults) => new Map(results.taskResults.map((task) => [task.taskId, task]))
  const tasks = diffTasks(
    index(before),
    index(after),
    (task) => (task.outcome.kind === 'not-run' ? null : task.exactMatch),
    (task) => [task.semanticScore],
  )
  const metrics: MetricDelta[] = ARTE_METRIC_NAMES.map((name) => ({
    name,
    before: before[name],
    after: after[name],
    delta: after[name] - before[name],
  }))
  metrics.push({ name: 'totalTokens', before: before.usage.totalTokens, after: after.usage.totalTokens, delta: after.usage.totalTokens - before.usage.totalTokens })
  // What each run paid: calls replayed from the response cache cost nothing.
  const paidBefore = paidCostUsd(before.usage)
  const paidAfter = paidCostUsd(after.usage)
  metrics.push({ name: 'paidCostUsd', before: paidBefore, after: paidAfter, delta: delta(paidBefore, paidAfter) })
  return { ...tasks, metrics }
}

type PairScore = Summary['scores'][string][number]

/** Task keys of a summary: `{task_id} [agent={model}, judge={model}]`, trial 1 (as the row means; see `agent-bench compare`). */
function indexScores(summary: Summary): Map<string, PairScore> {
  const map = new Map<string, PairScore>()
  for (const [pair, scores] of Object.entries(summary.scores)) {
    const label = pair.replace('__judge=', ', judge=')
    for (const score of firstTrials(scores)) map.set(`${score.task_id} [${label}]`, score)
  }
  return map
}

/** Compares an MPCBench summary with an earlier one: flips (requirements >= 4; unjudged left out), moved tasks, per-row mean deltas. */
export function compareMpcbenchRuns(before: Summary, after: Summary): RunComparison {
  const tasks = diffTasks(
    indexScores(before),
    indexScores(after),
    (score) => (score.answer_requirements_satisfaction === null ? null : score.answer_requirements_satisfaction >= MPCBENCH_PASS_SCORE),
    (score) => [score.answer_requirements_satisfaction, score.source_grounded_reasoning],
  )
  const rowKey = (row: Summary['rows'][number]) => `${row.agent_model} × ${row.judge_model} · ${row.task_type}`
  const beforeRows = new Map(before.rows.map((row) => [rowKey(row), row]))
  const metrics: MetricDelta[] = []
  for (const row of after.rows) {
    const then = beforeRows.get(rowKey(row))
    const requirementsBefore = then?.mean_answer_requirements_satisfaction ?? null
    const groundingBefore = then?.mean_source_grounded_reasoning ?? null
    metrics.push(
      { name: `${rowKey(row)} requirements`, before: requirementsBefore, after: row.mean_answer_requirements_satisfaction, delta: delta(requirementsBefore, row.mean_answer_requirements_satisfaction) },
      { name: `${rowKey(row)} grounding`, before: groundingBefore, after: row.mean_source_grounded_reasoning, delta: delta(groundingBefore, row.mean_source_grounded_reasoning) },
    )
  }
  return { ...tasks, metrics }
}
