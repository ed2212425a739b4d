import type { ArteResults } from '../arte/results/results.ts'
import type { Summary } from '../mpcbench/summary.ts'
import { firstTrials } from '../mpcbench/summary-statistics.ts'
import { fixed, signed } from './html.ts'

const MAX_TASK_LINES = 20

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length
}

function moved(before: number, after: number, digits: number): string {
  return `${fixed(after, digits)} (was ${fixed(before, digits)}, ${signed(after - before, digits)})`
}

/**
 * Watch mode: how the ART-E tasks that reran moved since the previous run in this process, as lines for the
 * terminal. Empty when no task of `after` was in `before`.
 */
export function arteRerunDelta(before: ArteResults, after: ArteResults): string[] {
  const previous = new Map(before.taskResults.map((task) => [task.taskId, task]))
  const pairs = after.taskResults.flatMap((task) => {
    const then = previous.get(task.taskId)
    return then === undefined ? [] : [{ now: task, then }]
  })
  if (pairs.length === 0) return []
  const exactNow = pairs.filter((p) => p.now.exactMatch).length
  const exactThen = pairs.filter((p) => p.then.exactMatch).length
  const lines = [
    `ART-E rerun of ${pairs.length} task(s) since the last run: exact match ${exactNow}/${pairs.length} (was ${exactThen}/${pairs.length}), semantic ${moved(
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

/** Watch mode: how the MPCBench tasks that reran moved since the previous run in this process. */
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
  const axis = (score: Score, key: 'answer_requirements_satisfaction' | 'source_grounded_reasoning') => score[key] ?? 0
  const lines = [
    `MPCBench rerun of ${pairs.length} task(s) since the last run: requirements ${moved(
      mean(pairs.map((p) => axis(p.then, 'answer_requirements_satisfaction'))),
      mean(pairs.map((p) => axis(p.now, 'answer_requirements_satisfaction'))),
      2,
    )}, grounding ${moved(mean(pairs.map((p) => axis(p.then, 'source_grounded_reasoning'))), mean(pairs.map((p) => axis(p.now, 'source_grounded_reasoning'))), 2)}`,
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
