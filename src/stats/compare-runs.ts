import { z } from 'zod'
import { type BootstrapOptions, ConfidenceIntervalSchema, pairedBootstrapDiffCi } from './bootstrap.ts'

/**
 * One task of a run, as {@link compareRuns} sees it: whether it passed, and its metric values (null = not scored).
 * `pass` is null when the run has no outcome for the task (ART-E: not run, an interrupted run; MPCBench: requirements
 * unjudged): such a task is left out of the flips, as the run's own metrics leave it out.
 */
export interface ComparableTask {
  pass: boolean | null
  metrics: Record<string, number | null>
}

/** A run reduced to what a comparison needs: its tasks by id, and which metric decides significance. */
export interface ComparableRun {
  /** What kind of file it came from (`ART-E results`, `MPCBench summary`); both runs must be of one kind. */
  kind: string
  tasks: Map<string, ComparableTask>
  /** The metrics in display order; the first is the primary one. */
  metricNames: string[]
}

/** One metric of a comparison: the means of both runs over the shared tasks, the difference and its paired interval. */
export const MetricComparisonSchema = z.object({
  a: z.number().nullable(),
  b: z.number().nullable(),
  delta: z.number().nullable(),
  /** Paired bootstrap interval of `b - a` over tasks scored in both runs; null when there is none. */
  ci: ConfidenceIntervalSchema.nullable(),
  /** Tasks scored in both runs. */
  tasks: z.number(),
})

/**
 * `agent-bench compare A B --json`: tasks in both runs, flips (tasks whose pass differs), improved (fail in A, pass
 * in B) and regressed ids, each metric's delta with a paired bootstrap interval, and whether the difference of the
 * primary metric is significant (its interval excludes 0).
 */
export const RunComparisonSchema = z.object({
  kind: z.string(),
  /** Tasks in both runs with a pass or fail in each: what the flips and the flip rate are over. */
  tasks: z.number(),
  /** Tasks in both runs left out of the flips: not run (ART-E) or unjudged (MPCBench) in A or in B. */
  leftOut: z.array(z.string()),
  flips: z.array(z.string()),
  flipRate: z.number(),
  improved: z.array(z.string()),
  regressed: z.array(z.string()),
  onlyInA: z.array(z.string()),
  onlyInB: z.array(z.string()),
  metrics: z.record(z.string(), MetricComparisonSchema),
  primaryMetric: z.string(),
  significant: z.boolean(),
})

/** A comparison of two runs; see {@link RunComparisonSchema}. */
export type RunComparison = z.infer<typeof RunComparisonSchema>

/** Ids ordered as `localeCompare(b, 'en', { numeric: true })`, with one collator for all comparisons. */
const byId = new Intl.Collator('en', { numeric: true }).compare

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((x, y) => x + y, 0) / values.length
}

/**
 * Compares run `b` with run `a` over the tasks both ran (paired by task id): a task with no pass or fail (`pass: null`)
 * in either run is left out of the flips, and a metric is paired over the tasks scored on it in both.
 */
export function compareRuns(a: ComparableRun, b: ComparableRun, options: BootstrapOptions = {}): RunComparison {
  const shared = [...a.tasks.keys()].filter((id) => b.tasks.has(id)).sort(byId)
  const known = (run: ComparableRun, id: string) => typeof run.tasks.get(id)?.pass === 'boolean'
  const paired = shared.filter((id) => known(a, id) && known(b, id))
  const pairedIds = new Set(paired)
  const flips: string[] = []
  const improved: string[] = []
  const regressed: string[] = []
  for (const id of paired) {
    const passA = a.tasks.get(id)?.pass === true
    const passB = b.tasks.get(id)?.pass === true
    if (passA === passB) continue
    flips.push(id)
    ;(passB ? improved : regressed).push(id)
  }
  const metrics: RunComparison['metrics'] = {}
  for (const name of a.metricNames) {
    const pairs = shared
      .map((id) => [a.tasks.get(id)?.metrics[name], b.tasks.get(id)?.metrics[name]] as const)
      .filter((pair): pair is readonly [number, number] => typeof pair[0] === 'number' && typeof pair[1] === 'number')
    const meanA = mean(pairs.map(([x]) => x))
    const meanB = mean(pairs.map(([, y]) => y))
    metrics[name] = {
      a: meanA,
      b: meanB,
      delta: meanA === null || meanB === null ? null : meanB - meanA,
      ci: pairedBootstrapDiffCi(
        pairs.map(([x]) => x),
        pairs.map(([, y]) => y),
        options,
      ),
      tasks: pairs.length,
    }
  }
  const primaryMetric = a.metricNames[0] ?? ''
  const primary = metrics[primaryMetric]?.ci
  return {
    kind: a.kind,
    tasks: paired.length,
    leftOut: shared.filter((id) => !pairedIds.has(id)),
    flips,
    flipRate: paired.length === 0 ? 0 : flips.length / paired.length,
    improved,
    regressed,
    onlyInA: [...a.tasks.keys()].filter((id) => !b.tasks.has(id)).sort(byId),
    onlyInB: [...b.tasks.keys()].filter((id) => !a.tasks.has(id)).sort(byId),
    metrics,
    primaryMetric,
    significant: primary != null && (primary.low > 0 || primary.high < 0),
  }
}

function signed(value: number | null, digits: number): string {
  if (value === null) return '-'
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`
}

function list(ids: ReadonlyArray<string>): string {
  if (ids.length === 0) return 'none'
  return ids.length > 20 ? `${ids.slice(0, 20).join(', ')}, ... (${ids.length})` : ids.join(', ')
}

/** The comparison as text: tasks and flips, each metric `a -> b (delta [low, high])`, and the verdict. */
export function formatRunComparison(c: RunComparison, labels: { a: string; b: string }): string {
  const lines = [
    `${c.kind}: A = ${labels.a}`,
    `${' '.repeat(c.kind.length)}  B = ${labels.b}`,
    `tasks in both: ${c.tasks}${c.onlyInA.length + c.onlyInB.length > 0 ? ` (only in A: ${c.onlyInA.length}, only in B: ${c.onlyInB.length})` : ''}`,
    ...(c.leftOut.length > 0 ? [`  left out, not run or unjudged in A or B: ${c.leftOut.length} (${list(c.leftOut)})`] : []),
    `flips: ${c.flips.length} (${(c.flipRate * 100).toFixed(1)}%)`,
    `  improved (fail -> pass): ${list(c.improved)}`,
    `  regressed (pass -> fail): ${list(c.regressed)}`,
  ]
  for (const [name, m] of Object.entries(c.metrics)) {
    const ci = m.ci === null ? '' : ` [${signed(m.ci.low, 3)}, ${signed(m.ci.high, 3)}]`
    lines.push(`${name}: ${m.a === null ? '-' : m.a.toFixed(3)} -> ${m.b === null ? '-' : m.b.toFixed(3)}  delta ${signed(m.delta, 3)}${ci}  (${m.tasks} paired task(s))`)
  }
  const ci = c.metrics[c.primaryMetric]?.ci
  lines.push(
    c.significant
      ? `significant: yes, the ${Math.round((ci?.level ?? 0.95) * 100)}% paired interval of the ${c.primaryMetric} delta excludes 0`
      : `significant: no, the ${Math.round((ci?.level ?? 0.95) * 100)}% paired interval of the ${c.primaryMetric} delta includes 0 (the runs may differ only by chance)`,
  )
  return lines.join('\n')
}
