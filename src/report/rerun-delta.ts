import type { ArteResults } from '../arte/results/results.ts'
import type { Summary } from '../mpcbench/summary/summary.ts'
import { firstTrials } from '../mpcbench/summary/summary-statistics.ts'
import { fixed, signed } from './html.ts'

const MAX_TASK_LINES = 20

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length
}

/** `after (was before, delta; note)`, or `- (note)` when nothing was scored. */
function moved(before: number | null, after: number | null, digits: number, note = ''): string {
  if (before === null || after === null) return note === '' ? '-' : `- (${note})`
  return `${fixed(after, digits)} (was ${fixed(before, digits)}, ${signed(after - before, digits)}${note === '' ? '' : `; ${note}`})`
}

/**
 * Watch mode: how the ART-E tasks that reran moved since the previous run in this process, as lines for the
 * terminal. Only tasks that ran in both runs are compared (a task not run, as in an interrupted run, is no failure:
 * the metrics leave it out), and how many were left out is said. Empty when no task of `after` was in `before`.
 */
export function arteRerunDelta(before: ArteResults, after: ArteResults): string[] {
  const previous = new Map(before.taskResults.map((task) => [task.taskId, task]))
  const shared = after.taskResults.flatMap((task) => {
    const then = previous.get(task.taskId)
    return then === undefined ? [] : [{ now: task, then }]
  })
  if (shared.length === 0) return []
  const pairs = shared.filter((p) => p.now.outcome.kind !== 'not-run' && p.then.outcome.kind !== 'not-run')
  const leftOut = shared.length - pairs.length
  const notRun = leftOut === 0 ? '' : ` (and ${leftOut} left out: not run in one of the two runs)`
  if (pairs.length === 0) return [`ART-E rerun since the last run: no task ran in both runs${notRun}`]
  const exactNow = pairs.filter((p) => p.now.exactMatch).length
  const exactThen = pairs.filter((p) => p.then.exactMatch).length
  const lines = [
    `ART-E rerun of ${pairs.length} task(s) since the last run${notRun}: exact match ${exactNow}/${pairs.length} (was ${exactThen}/${pairs.length}), semantic ${moved(
      mean(pairs.map((p) => p.then.semanticScore)),
      mean(pairs.map((p) => p.now.semanticScore)),
      3,
    )}`,
  ]
  const changed = pairs.filter((p) => p.now.exactMatch !== p.then.exactMatch || Math.abs(p.now.semanticScore - p.then.semanticScore) > 1e-9)
  for (const { now, then } of changed.slice(0, MAX_TASK_LINES)) {
    const em = now.exactMatch === then.exactMatch ? '' : ` EM ${then.exactMatch ? '✓' : '✗'}→${now.exactMatch ? '✓' : '✗'}`
    lines.push(`  ${now.taskId}:${em} semantic ${fixed(then.semanticScore)} → ${fixed(now.semanticScore)}`)
  }
  if (changed.length > MAX_TASK_LINES) lines.push(`  … ${changed.length - MAX_TASK_LINES} more changed task(s)`)
  if (changed.length === 0) lines.push('  no task changed')
  return lines
}

/**
 * Watch mode: how the MPCBench tasks that reran moved since the previous run in this process; each axis's means are
 * over the tasks judged on it in both runs (unjudged, null, left out as the row means skip it).
 */
export function mpcbenchRerunDelta(before: Summary, after: Summary): string[] {
  type Score = Summary['scores'][string][number]
  const previous = new Map<string, Score>()
  // Trial 1 of each task, as the row means and the ART-E delta (later trials would overwrite it).
  for (const [pair, scores] of Object.entries(before.scores)) for (const score of firstTrials(scores)) previous.set(`${pair}\u0000${score.task_id}`, score)
  const pairs: Array<{ label: string; now: Score; then: Score }> = []
  for (const [pair, scores] of Object.entries(after.scores)) {
    for (const score of firstTrials(scores)) {
      const then = previous.get(`${pair}\u0000${score.task_id}`)
      if (then !== undefined) pairs.push({ label: `${score.task_id} [${pair.replace('__judge=', ', judge=')}]`, now: score, then })
    }
  }
  if (pairs.length === 0) return []
  type Axis = 'answer_requirements_satisfaction' | 'source_grounded_reasoning'
  // Over the tasks judged on the axis in both runs: an unjudged score (null) is no 0, as the row means skip it.
  const axis = (key: Axis): string => {
    const judged = pairs.filter((p) => p.then[key] !== null && p.now[key] !== null)
    const unjudged = pairs.length - judged.length
    const note = unjudged === 0 ? '' : `${unjudged} left out: unjudged in one of the two runs`
    return moved(mean(judged.map((p) => p.then[key] ?? 0)), mean(judged.map((p) => p.now[key] ?? 0)), 2, note)
  }
  const lines = [
    `MPCBench rerun of ${pairs.length} task(s) since the last run: requirements ${axis('answer_requirements_satisfaction')}, grounding ${axis('source_grounded_reasoning')}`,
  ]
  const show = (value: number | null) => (value === null ? '-' : String(value))
  const changed = pairs.filter(
    (p) =>
      p.now.answer_requirements_satisfaction !== p.then.answer_requirements_satisfaction ||
      p.now.source_grounded_reasoning !== p.then.source_grounded_reasoning ||
      p.now.error !== p.then.error,
  )
  for (const { label, now, then } of changed.slice(0, MAX_TASK_LINES)) {
    lines.push(
      `  ${label}: requirements ${show(then.answer_requirements_satisfaction)} → ${show(now.answer_requirements_satisfaction)}, grounding ${show(then.source_grounded_reasoning)} → ${show(now.source_grounded_reasoning)}${now.error === null ? '' : ` (${now.error})`}`,
    )
  }
  if (changed.length > MAX_TASK_LINES) lines.push(`  … ${changed.length - MAX_TASK_LINES} more changed task(s)`)
  if (changed.length === 0) lines.push('  no task changed')
  return lines
}
