import { basename } from 'node:path'
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { InvalidFormatError } from '../../core/errors.ts'
import { parseWith } from '../../core/parse.ts'
import type { Level } from '../data/schemas.ts'
import type { PolicyDocumentFormat } from '../tools/scheduling-tools.ts'

const TraceMessageSchema = z.union([
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    tool_calls: z.array(z.object({ id: z.string(), type: z.string(), function: z.object({ name: z.string(), arguments: z.string() }) })).optional(),
  }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string() }),
])

/** A row of upstream's results files, as `run_eval.py` writes it. */
export const RecordedRowSchema = z.object({
  instance_id: z.string(),
  metrics: z.object({ f1: z.number(), precision: z.number(), recall: z.number(), exact_match: z.boolean() }).nullable(),
  pred: z.array(z.array(z.string())).nullable(),
  gold: z.array(z.array(z.string())).nullable(),
  error: z.string().nullable(),
  trace: z.array(TraceMessageSchema).nullable().optional(),
})
export type RecordedRow = z.infer<typeof RecordedRowSchema>

/** A results file of upstream's and what its name says. */
export interface RecordedResults {
  file: string
  level: Level
  /** The data suffix (`exp1`, or `test` for files named without one). */
  suffix: string
  /** The model name upstream ran (`gpt-4o`, `gpt-5`, `o4-mini`). */
  model: string
  /** `YYYYMMDD_HHMMSS`, local time of the run. */
  timestamp: string
  /** Each row with its line text as upstream wrote it. */
  rows: Array<{ row: RecordedRow; text: string }>
}

const NAME = /^eval_L([123])_(?:([A-Za-z0-9]+)_)?(.+)_(\d{8}_\d{6})\.jsonl$/

/** Reads an upstream results file (`eval_L<level>[_<suffix>]_<model>_<YYYYMMDD_HHMMSS>.jsonl`). */
export function readRecordedResults(file: string): RecordedResults {
  const match = NAME.exec(basename(file))
  if (match === null) {
    throw new InvalidFormatError(`${file} is not named as upstream names its results files`, {
      file,
      hint: 'Name it eval_L<level>[_<suffix>]_<model>_<YYYYMMDD_HHMMSS>.jsonl, as evaluation/run_eval.py does.',
    })
  }
  const [, level, suffix, model, timestamp] = match as unknown as [string, string, string | undefined, string, string]
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .map((text, index) => ({ text, line: index + 1 }))
    .filter(({ text }) => text.trim() !== '')
    .map(({ text, line }) => ({ row: parseWith(RecordedRowSchema, JSON.parse(text), 'MPCBench v2 results row', `${file}:${line}`), text }))
  return { file, level: Number(level) as Level, suffix: suffix ?? 'test', model, timestamp, rows }
}

/**
 * Which `read_policy_document` a recorded run had. Upstream changed its result in commit 25e5bb0 (2026-02-11 16:07
 * +0900), which also added that day's runs (level 1, which calls no document tool, so no row tells). Runs before that
 * day had the `legacy` form: their recorded `read_policy_document` results show it.
 */
export function policyDocumentFormatOf(results: Pick<RecordedResults, 'timestamp'>): PolicyDocumentFormat {
  return results.timestamp < '20260211_000000' ? 'legacy' : 'e398410'
}
