import { z } from 'zod'
import { type ConfidenceInterval, ConfidenceIntervalSchema, bootstrapMeanCi } from '../../stats/bootstrap.ts'
import { compareNatural } from '../../core/natural-order.ts'
import { passHatKSummary } from '../../results/pass-hat-k-summary.ts'
import { wilsonInterval } from '../../stats/wilson.ts'
import type { ResultsRow } from './results-row.ts'

/** Upstream's metrics of one row (`null` when the run failed before it was scored). */
export const InstanceMetricsSchema = z.object({ f1: z.number(), precision: z.number(), recall: z.number(), exact_match: z.boolean() })

/**
 * One instance x trial in the summary: upstream's row without its trace (the rows files keep that), plus the trial and,
 * with OpenTelemetry on, the trace id of its `invoke_agent` span.
 */
export const InstanceResultSchema = z.object({
  instanceId: z.string(),
  /** 1-based. */
  trial: z.int().positive(),
  metrics: InstanceMetricsSchema.nullable(),
  pred: z.array(z.array(z.string())).nullable(),
  gold: z.array(z.array(z.string())).nullable(),
  error: z.string().nullable(),
  /** With OpenTelemetry on: the trace id of the instance's `invoke_agent` span, to open it in a trace viewer. */
  otelTraceId: z.string().optional(),
})
/** See {@link InstanceResultSchema}. */
export type InstanceResult = z.infer<typeof InstanceResultSchema>

/** One level x data x model of a run: upstream's two numbers with intervals, and pass^k over trials. */
export const LevelSummarySchema = z.object({
  level: z.number(),
  worldId: z.string(),
  model: z.string(),
  modelKind: z.enum(['llm', 'baseline']),
  /** Instances with a trial-1 row. */
  instances: z.number(),
  /** Trial-1 rows that were scored (upstream's averages are over these; `errors` were not). */
  scored: z.number(),
  errors: z.number(),
  /** Upstream's "Avg F1": the mean F1 of the scored trial-1 rows, with a percentile bootstrap interval over instances. */
  avgF1: z.number().nullable(),
  avgF1Ci: ConfidenceIntervalSchema.nullable(),
  /** Upstream's "EM Rate": the share of scored trial-1 rows that are an exact match, with a Wilson interval. */
  emRate: z.number().nullable(),
  emRateCi: ConfidenceIntervalSchema.nullable(),
  /** `BENCH_TRIALS`: the most trials an instance has. */
  trials: z.number(),
  /** pass^j for j = 1..trials, pass = exact match (an error is a fail): tau-bench's estimator (the shared results core). */
  passHatK: z.record(z.string(), z.number()),
  /** A 95% interval of each pass^j (Wilson when each instance's value is 0 or 1, else the seeded bootstrap); empty with one trial. */
  passHatKCi: z.record(z.string(), ConfidenceIntervalSchema),
  /** The instances pass^k is over: those with every trial. */
  passHatKTasks: z.int().nonnegative(),
  /** Every instance x trial, by instance id (natural order) then trial. */
  results: z.array(InstanceResultSchema),
})
export type LevelSummary = z.infer<typeof LevelSummarySchema>

/** The v2 summary file, `evaluation/mpcbench-v2/summary.json`. */
export const MpcbenchV2SummarySchema = z.object({
  benchmark: z.literal('mpcbench-v2'),
  /** Upstream's repository and commit the data, tools and scoring follow. */
  upstream: z.string(),
  /** The run's history id (`evaluation/history/{runId}/mpcbench-v2/summary.json`), when a copy was kept. */
  runId: z.string().optional(),
  /** When the reporter wrote it (ISO). */
  generatedAt: z.string(),
  levels: z.array(LevelSummarySchema),
})
/** See {@link MpcbenchV2SummarySchema}. */
export type MpcbenchV2Summary = z.infer<typeof MpcbenchV2SummarySchema>

/** The summary's copy in a run's history folder. */
export const MPCBENCH_V2_HISTORY_NAME = 'mpcbench-v2/summary.json'

/** The rows of one level x data x model, each instance's trials in order (trial 1 first). */
export interface LevelRows {
  level: number
  worldId: string
  model: string
  modelKind: 'llm' | 'baseline'
  /** Instance id -> its rows by trial (index 0 is trial 1). */
  trials: ReadonlyMap<string, ReadonlyArray<ResultsRow | undefined>>
  /** Instance id -> the OpenTelemetry trace id of each trial (index 0 is trial 1), when tracing was on. */
  traceIds?: ReadonlyMap<string, ReadonlyArray<string | undefined>>
}

/** A row as the summary keeps it (no trace). */
function instanceResult(row: ResultsRow, trial: number, otelTraceId: string | undefined): InstanceResult {
  return {
    instanceId: row.instance_id,
    trial,
    metrics: row.metrics,
    pred: row.pred,
    gold: row.gold,
    error: row.error,
    ...(otelTraceId === undefined ? {} : { otelTraceId }),
  }
}

/** Summarizes one group of rows; see {@link LevelSummarySchema}. */
export function summarizeLevel(group: LevelRows): LevelSummary {
  const ids = [...group.trials.keys()].sort(compareNatural)
  const first = ids
    .map((id) => group.trials.get(id) ?? [])
    .map((rows) => rows[0])
    .filter((row): row is ResultsRow => row !== undefined)
  const scored = first.filter((row) => row.metrics !== null)
  const f1s = scored.map((row) => row.metrics?.f1 ?? 0)
  const exact = scored.filter((row) => row.metrics?.exact_match === true).length
  const avgF1Ci: ConfidenceInterval | null = f1s.length === 0 ? null : bootstrapMeanCi(f1s)
  const trials = Math.max(0, ...[...group.trials.values()].map((rows) => rows.length))
  const summary: LevelSummary = {
    level: group.level,
    worldId: group.worldId,
    model: group.model,
    modelKind: group.modelKind,
    instances: first.length,
    scored: scored.length,
    errors: first.length - scored.length,
    avgF1: f1s.length === 0 ? null : f1s.reduce((sum, value) => sum + value, 0) / f1s.length,
    avgF1Ci,
    emRate: scored.length === 0 ? null : exact / scored.length,
    emRateCi: wilsonInterval(exact, scored.length),
    trials,
    // Instances in id order, so the seeded intervals are the same whatever order the tests ended in.
    ...passHatKSummary(
      ids.map((id) =>
        Array.from(group.trials.get(id) ?? [], (row, k) => ({ trial: k + 1, passed: row === undefined ? undefined : row.metrics?.exact_match === true })),
      ),
      Math.max(1, trials),
      { intervals: trials > 1 },
    ),
    results: ids.flatMap((id) =>
      (group.trials.get(id) ?? []).flatMap((row, k) => (row === undefined ? [] : [instanceResult(row, k + 1, group.traceIds?.get(id)?.[k])])),
    ),
  }
  return summary
}

function percent(value: number | null): string {
  return value === null ? '-' : `${(value * 100).toFixed(0)}%`
}

function interval(ci: ConfidenceInterval | null, asPercent: boolean): string {
  if (ci === null) return ''
  const show = (value: number) => (asPercent ? percent(value) : value.toFixed(2))
  return ` [${show(ci.low)}, ${show(ci.high)}]`
}

/** The summary as a table of lines: level, data, model, Avg F1 and EM rate with 95% intervals, pass^k. */
export function formatSummaryLines(summaries: ReadonlyArray<LevelSummary>): string[] {
  return summaries.map((s) => {
    const model = s.modelKind === 'baseline' ? `${s.model} (non-LLM)` : s.model
    const pass = s.trials <= 1 ? '' : `, pass^${s.trials} ${percent(s.passHatK[String(s.trials)] ?? null)}`
    const errors = s.errors === 0 ? '' : `, ${s.errors} error${s.errors === 1 ? '' : 's'}`
    return `MPCBench v2 level ${s.level} ${s.worldId} ${model}: Avg F1 ${s.avgF1 === null ? '-' : s.avgF1.toFixed(2)}${interval(s.avgF1Ci, false)}, EM rate ${percent(s.emRate)}${interval(s.emRateCi, true)} over ${s.scored} instance${s.scored === 1 ? '' : 's'}${errors}${pass}`
  })
}
