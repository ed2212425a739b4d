import { z } from 'zod'
import { type ConfidenceInterval, ConfidenceIntervalSchema, bootstrapMeanCi } from '../../stats/bootstrap.ts'
import { passHatK } from '../../stats/pass-hat-k.ts'
import { wilsonInterval } from '../../stats/wilson.ts'
import type { ResultsRow } from './results-row.ts'

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
  /** With more than one trial: pass^j for j = 1..trials, pass = exact match (an error is a fail). */
  passHatK: z.record(z.string(), z.number()).optional(),
})
export type LevelSummary = z.infer<typeof LevelSummarySchema>

/** The rows of one level x data x model, each instance's trials in order (trial 1 first). */
export interface LevelRows {
  level: number
  worldId: string
  model: string
  modelKind: 'llm' | 'baseline'
  /** Instance id -> its rows by trial (index 0 is trial 1). */
  trials: ReadonlyMap<string, ReadonlyArray<ResultsRow | undefined>>
}

/** Summarizes one group of rows; see {@link LevelSummarySchema}. */
export function summarizeLevel(group: LevelRows): LevelSummary {
  const first = [...group.trials.values()].map((rows) => rows[0]).filter((row): row is ResultsRow => row !== undefined)
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
  }
  if (trials > 1) {
    const passes = [...group.trials.values()].map((rows) => {
      const out: boolean[] = []
      for (const row of rows) {
        if (row === undefined) break
        out.push(row.metrics?.exact_match === true)
      }
      return out
    })
    summary.passHatK = passHatK(passes, trials)
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
    const pass = s.passHatK === undefined ? '' : `, pass^${s.trials} ${percent(s.passHatK[String(s.trials)] ?? null)}`
    const errors = s.errors === 0 ? '' : `, ${s.errors} error${s.errors === 1 ? '' : 's'}`
    return `MPCBench v2 level ${s.level} ${s.worldId} ${model}: Avg F1 ${s.avgF1 === null ? '-' : s.avgF1.toFixed(2)}${interval(s.avgF1Ci, false)}, EM rate ${percent(s.emRate)}${interval(s.emRateCi, true)} over ${s.scored} instance${s.scored === 1 ? '' : 's'}${errors}${pass}`
  })
}
