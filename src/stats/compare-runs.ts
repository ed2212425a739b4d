import { z } from 'zod'
import { type BootstrapOptions, type ConfidenceInterval, ConfidenceIntervalSchema, DEFAULT_RESAMPLES } from './bootstrap.ts'
import { DEFAULT_SEED } from './random.ts'
import { type ClusteredPair, pairedClusterBootstrapDiffCi } from './cluster-bootstrap.ts'
import { SIGNIFICANCE_LEVEL, formatPValue, signFlipTest } from './sign-flip-test.ts'
import { wilsonInterval } from './wilson.ts'

/**
 * One task of a run, as {@link compareRuns} sees it: whether it passed, and its metric values (null = not scored).
 * `pass` is null when the run has no outcome for the task (ART-E: not run, an interrupted run; MPCBench: requirements
 * unjudged, or not run): such a task is left out of the flips, as the run's own metrics leave it out.
 */
export interface ComparableTask {
  pass: boolean | null
  metrics: Record<string, number | null>
  /**
   * The benchmark task this entry belongs to (MPCBench: `task_id`, shared by its agent × judge entries): the intervals
   * resample, and the test flips, a cluster's entries together, since one task scored by three judges is not three
   * independent tasks. Paired entries take run A's cluster. Default: the entry's own id.
   */
  cluster?: string
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
  /** The clusters (benchmark tasks) of those: fewer than `tasks` when a task has several entries (MPCBench judges). */
  clusters: z.number(),
})

/**
 * `agent-bench compare A B --json`: tasks in both runs, flips (tasks whose pass differs) and the flip rate with its
 * interval, improved (fail in A, pass in B) and regressed ids, each metric's delta with a paired bootstrap interval,
 * and whether the difference of the primary metric is significant: the p-value of a paired sign-flip test by task (see
 * {@link signFlipTest}) below 0.05.
 */
export const RunComparisonSchema = z.object({
  kind: z.string(),
  /** Tasks in both runs with a pass or fail in each: what the flips and the flip rate are over. */
  tasks: z.number(),
  /** Tasks in both runs left out of the flips: not run (ART-E) or unjudged (MPCBench) in A or in B. */
  leftOut: z.array(z.string()),
  flips: z.array(z.string()),
  /** `flips.length / tasks` (0 with no tasks). */
  flipRate: z.number(),
  /** The flip rate's interval (see {@link flipRateCi}); null with no tasks. */
  flipRateCi: ConfidenceIntervalSchema.nullable(),
  improved: z.array(z.string()),
  regressed: z.array(z.string()),
  onlyInA: z.array(z.string()),
  onlyInB: z.array(z.string()),
  metrics: z.record(z.string(), MetricComparisonSchema),
  primaryMetric: z.string(),
  /** Two-sided p-value of the primary metric's delta (paired sign-flip test by cluster); null when no task pairs on it. */
  pValue: z.number().nullable(),
  /** The test `pValue` comes from, e.g. `exact paired sign-flip test by task, 12 task(s), 3 differ`; null with it. */
  test: z.string().nullable(),
  /** `pValue` < 0.05. */
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
 * A 95% interval (`options.level`) of the flip rate, the share of the paired entries whose pass differs, `null` for
 * none. The rate counts entries, but the entries of one cluster (MPCBench: a task's agent × judge entries) are not
 * independent draws: one task's judges tend to flip together. So:
 * - every cluster has one entry (ART-E; MPCBench with one agent and one judge): the Wilson score interval of
 *   `flips` of `entries` (see `wilsonInterval`);
 * - else the paired cluster bootstrap (see `pairedClusterBootstrapDiffCi`, same seed and resamples as the metrics'
 *   intervals) of the flip share, each entry a pair (0, 1 if it flipped): each resample draws clusters with all their
 *   entries, its statistic is the drawn flips over the drawn entries;
 * - except when no entry flipped, or every one did, where that bootstrap would read `[0, 0]` or `[1, 1]`: the Wilson
 *   interval of 0 (or all) of the clusters, as if each task were one entry. It errs on the wide side: with as many
 *   entries per task, the per-entry rate is never above the share of tasks with a flipped entry (nor below the share
 *   whose entries all flipped).
 */
export function flipRateCi(entries: ReadonlyArray<{ cluster: string; flipped: boolean }>, options: BootstrapOptions = {}): ConfidenceInterval | null {
  if (entries.length === 0) return null
  const level = options.level === undefined ? {} : { level: options.level }
  const flips = entries.filter((entry) => entry.flipped).length
  const clusters = new Set(entries.map((entry) => entry.cluster)).size
  if (clusters === entries.length) return wilsonInterval(flips, entries.length, level)
  const of = `${clusters} benchmark task(s) (${entries.length} entries, each task's taken together)`
  if (flips === 0 || flips === entries.length) {
    const ci = wilsonInterval(flips === 0 ? 0 : clusters, clusters, level)
    return ci === null ? null : { ...ci, method: `Wilson score interval over ${of}` }
  }
  const ci = pairedClusterBootstrapDiffCi(
    entries.map((entry) => ({ cluster: entry.cluster, a: 0, b: entry.flipped ? 1 : 0 })),
    options,
  )
  if (ci === null) return null
  const resampling = `${options.resamples ?? DEFAULT_RESAMPLES} resamples, seed ${options.seed ?? DEFAULT_SEED}`
  return { ...ci, method: `cluster percentile bootstrap over ${of}, ${resampling}` }
}

/**
 * Compares run `b` with run `a` over the tasks both ran (paired by task id): a task with no pass or fail (`pass: null`)
 * in either run is left out of the flips, and a metric is paired over the tasks scored on it in both. Intervals and the
 * significance test treat each cluster (see {@link ComparableTask.cluster}) as one draw.
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
  const flipped = new Set(flips)
  const metrics: RunComparison['metrics'] = {}
  const pairsOf = new Map<string, ClusteredPair[]>()
  for (const name of a.metricNames) {
    const pairs: ClusteredPair[] = []
    for (const id of shared) {
      const taskA = a.tasks.get(id)
      const x = taskA?.metrics[name]
      const y = b.tasks.get(id)?.metrics[name]
      if (typeof x === 'number' && typeof y === 'number') pairs.push({ cluster: taskA?.cluster ?? id, a: x, b: y })
    }
    pairsOf.set(name, pairs)
    const meanA = mean(pairs.map((pair) => pair.a))
    const meanB = mean(pairs.map((pair) => pair.b))
    metrics[name] = {
      a: meanA,
      b: meanB,
      delta: meanA === null || meanB === null ? null : meanB - meanA,
      ci: pairedClusterBootstrapDiffCi(pairs, options),
      tasks: pairs.length,
      clusters: new Set(pairs.map((pair) => pair.cluster)).size,
    }
  }
  const primaryMetric = a.metricNames[0] ?? ''
  const test = signFlipTest(pairsOf.get(primaryMetric) ?? [], options.seed === undefined ? {} : { seed: options.seed })
  return {
    kind: a.kind,
    tasks: paired.length,
    leftOut: shared.filter((id) => !pairedIds.has(id)),
    flips,
    flipRate: paired.length === 0 ? 0 : flips.length / paired.length,
    flipRateCi: flipRateCi(
      paired.map((id) => ({ cluster: a.tasks.get(id)?.cluster ?? id, flipped: flipped.has(id) })),
      options,
    ),
    improved,
    regressed,
    onlyInA: [...a.tasks.keys()].filter((id) => !b.tasks.has(id)).sort(byId),
    onlyInB: [...b.tasks.keys()].filter((id) => !a.tasks.has(id)).sort(byId),
    metrics,
    primaryMetric,
    pValue: test?.pValue ?? null,
    test: test?.method ?? null,
    significant: test !== null && test.pValue < SIGNIFICANCE_LEVEL,
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

/** The flip rate as a percentage with its interval, `60.0% [31.3%, 83.2%]` (the rate alone when there is none). */
export function formatFlipRate(c: Pick<RunComparison, 'flipRate' | 'flipRateCi'>): string {
  const percent = (value: number): string => `${(value * 100).toFixed(1)}%`
  const ci = c.flipRateCi
  return ci === null ? percent(c.flipRate) : `${percent(c.flipRate)} [${percent(ci.low)}, ${percent(ci.high)}]`
}

/** The comparison as text: tasks and flips, each metric `a -> b (delta [low, high])`, and the verdict. */
export function formatRunComparison(c: RunComparison, labels: { a: string; b: string }): string {
  const lines = [
    `${c.kind}: A = ${labels.a}`,
    `${' '.repeat(c.kind.length)}  B = ${labels.b}`,
    `tasks in both: ${c.tasks}${c.onlyInA.length + c.onlyInB.length > 0 ? ` (only in A: ${c.onlyInA.length}, only in B: ${c.onlyInB.length})` : ''}`,
    ...(c.leftOut.length > 0 ? [`  left out, not run or unjudged in A or B: ${c.leftOut.length} (${list(c.leftOut)})`] : []),
    `flips: ${c.flips.length} (${formatFlipRate(c)})`,
    `  improved (fail -> pass): ${list(c.improved)}`,
    `  regressed (pass -> fail): ${list(c.regressed)}`,
  ]
  for (const [name, m] of Object.entries(c.metrics)) {
    const ci = m.ci === null ? '' : ` [${signed(m.ci.low, 3)}, ${signed(m.ci.high, 3)}]`
    const clusters = m.clusters < m.tasks ? ` of ${m.clusters} benchmark task(s)` : ''
    lines.push(
      `${name}: ${m.a === null ? '-' : m.a.toFixed(3)} -> ${m.b === null ? '-' : m.b.toFixed(3)}  delta ${signed(m.delta, 3)}${ci}  (${m.tasks} paired task(s)${clusters})`,
    )
  }
  lines.push(significanceLine(c))
  return lines.join('\n')
}

/**
 * The verdict as a line: `significant: no (p = 0.125, exact paired sign-flip test by task, 20 task(s), 4 differ, on
 * exactMatchAccuracy): the runs may differ only by chance`.
 */
function significanceLine(c: Pick<RunComparison, 'significant' | 'pValue' | 'test' | 'primaryMetric'>): string {
  if (c.pValue === null) return `significant: no (no task scored on ${c.primaryMetric} in both runs)`
  const why = `${formatPValue(c.pValue)}, ${c.test ?? 'paired sign-flip test'}, on ${c.primaryMetric}`
  return c.significant ? `significant: yes (${why})` : `significant: no (${why}): the runs may differ only by chance`
}
