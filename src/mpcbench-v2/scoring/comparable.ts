import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { InvalidFormatError } from '../../core/errors.ts'
import { parseWith } from '../../core/parse.ts'
import type { ComparableRun } from '../../stats/compare-runs.ts'
import { type InstanceResult, InstanceMetricsSchema, type MpcbenchV2Summary, MpcbenchV2SummarySchema } from './summary.ts'

/** The metrics `agent-bench compare` reports for MPCBench v2, the first (F1) deciding significance. */
export const MPCBENCH_V2_COMPARED_METRICS = ['f1', 'exactMatch', 'precision', 'recall'] as const

/** A row of upstream's results file (`eval_L1_exp1_gpt-4o.jsonl`) as far as a comparison reads it. */
const UpstreamRowSchema = z.object({
  instance_id: z.string(),
  metrics: InstanceMetricsSchema.nullable(),
  pred: z.array(z.array(z.string())).nullable(),
  gold: z.array(z.array(z.string())).nullable(),
  error: z.string().nullable(),
})

/** Whether a parsed JSON value is a v2 summary (its `benchmark` says so). */
export function looksLikeMpcbenchV2Summary(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { benchmark?: unknown }).benchmark === 'mpcbench-v2'
}

/** Reads upstream's results rows (`.jsonl`, one row a line; the v2 reporter's rows files); errors name the line. */
export function readMpcbenchV2RowsFile(file: string, text: string = readFileSync(file, 'utf8')): InstanceResult[] {
  const results: InstanceResult[] = []
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return
    let raw: unknown
    try {
      raw = JSON.parse(line)
    } catch (error) {
      throw new InvalidFormatError(`Cannot read MPCBench v2 results row ${file}:${index + 1}: ${(error as Error).message}`, {
        file,
        hint: `Fix line ${index + 1}: each line of an MPCBench v2 rows file is one JSON row of upstream's results format.`,
        cause: error,
      })
    }
    const row = parseWith(UpstreamRowSchema, raw, 'MPCBench v2 results row', `${file}:${index + 1}`)
    results.push({ instanceId: row.instance_id, trial: 1, metrics: row.metrics, pred: row.pred, gold: row.gold, error: row.error })
  })
  return results
}

/**
 * The trial-1 results of a v2 summary keyed by instance id. A summary holding the same instance under two models (or
 * two data sets) cannot be paired by instance id: that is an error naming the file and the rows files to pass instead.
 */
export function summaryTrialOne(summary: MpcbenchV2Summary, file: string): InstanceResult[] {
  const seen = new Map<string, string>()
  const results: InstanceResult[] = []
  for (const level of summary.levels) {
    const label = `level ${level.level} ${level.worldId} ${level.model}`
    for (const result of level.results) {
      if (result.trial !== 1) continue
      const other = seen.get(result.instanceId)
      if (other !== undefined) {
        throw new InvalidFormatError(`${file} holds ${result.instanceId} twice (${other}; ${label}), so it cannot be paired by instance id.`, {
          file,
          hint: 'Compare the rows files of one model each (evaluation/mpcbench-v2/eval_L<N>_<data>_<model>.jsonl), or summaries of runs of one model.',
        })
      }
      seen.set(result.instanceId, label)
      results.push(result)
    }
  }
  return results
}

/** Reads a v2 summary (`.json`) or rows file (`.jsonl`) as trial-1 results to compare. */
export function readMpcbenchV2Comparable(file: string): InstanceResult[] {
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '')
  let whole: unknown
  try {
    whole = JSON.parse(text)
  } catch {
    return readMpcbenchV2RowsFile(file, text)
  }
  if (looksLikeMpcbenchV2Summary(whole)) return summaryTrialOne(parseWith(MpcbenchV2SummarySchema, whole, 'MPCBench v2 summary', file), file)
  // A rows file of one row parses as JSON as a whole.
  return readMpcbenchV2RowsFile(file, text)
}

/**
 * MPCBench v2 results as `compareRuns` reads a run: one task per instance id, pass = exact match, metrics F1 (primary:
 * its paired interval and the sign-flip p-value), exact match (1/0), precision and recall. A row whose run failed
 * (`error`, no metrics) fails and scores 0 on each, as it gave no answer (upstream's averages leave it out; a paired
 * comparison counts it, so a run that stops answering is not flattered).
 */
export function mpcbenchV2ComparableRun(results: ReadonlyArray<InstanceResult>): ComparableRun {
  const tasks: ComparableRun['tasks'] = new Map()
  for (const result of results) {
    if (result.trial !== 1 || tasks.has(result.instanceId)) continue
    const m = result.metrics
    tasks.set(result.instanceId, {
      pass: m?.exact_match === true,
      metrics: { f1: m?.f1 ?? 0, exactMatch: m?.exact_match === true ? 1 : 0, precision: m?.precision ?? 0, recall: m?.recall ?? 0 },
    })
  }
  return { kind: 'MPCBench v2 results', tasks, metricNames: [...MPCBENCH_V2_COMPARED_METRICS] }
}
