import { relative } from 'node:path'
import { z } from 'zod'
import { chooseOutputFile, type OutputChoice } from '../../core/subset-output.ts'
import type { Summary } from './summary.ts'

/** Just what a subset check reads of an earlier summary (summaries written before `unfinished` existed have none). */
const EarlierSummarySchema = z.object({
  rows: z.array(z.object({ trials: z.int().optional() })).optional(),
  scores: z.record(z.string(), z.array(z.object({ task_id: z.string(), trial: z.int().optional() }))),
  unfinished: z.array(z.object({ task_id: z.string(), agent_model: z.string(), trial: z.int().optional() })).optional(),
})

type KeyedSummary = z.infer<typeof EarlierSummarySchema>

/** The judges of a summary, from its `scores` keys (`agent={model}__judge={model}`, see `buildSummary`). */
function judgesOf(summary: KeyedSummary): string[] {
  const judges = Object.keys(summary.scores).flatMap((pair) => {
    const at = pair.lastIndexOf('__judge=')
    return at < 0 ? [] : [pair.slice(at + '__judge='.length)]
  })
  return [...new Set(judges)]
}

/** A test's key suffix: its task, and its trial when not the first (`-t 'trial=2'` covers other tests than trial 1). */
const testKey = (test: { task_id: string; trial?: number | undefined }): string =>
  (test.trial ?? 1) > 1 ? `${test.task_id}/trial=${test.trial}` : test.task_id

/**
 * One key per task × agent × judge × trial a summary covers: each score's, and each unfinished test's
 * (timed out, failed early, not run) under every one of `judges`, since every test of a run has the same judges. So
 * a full run in which some tests did not finish still covers every task of the run before it.
 */
function summaryKeys(summary: KeyedSummary, judges: ReadonlyArray<string>): string[] {
  const keys = Object.entries(summary.scores).flatMap(([pair, list]) => list.map((score) => `${pair}/${testKey(score)}`))
  for (const test of summary.unfinished ?? []) {
    if (judges.length === 0) keys.push(`agent=${test.agent_model}/${testKey(test)}`)
    for (const judge of judges) keys.push(`agent=${test.agent_model}__judge=${judge}/${testKey(test)}`)
  }
  return keys
}

/** The judges to key a summary's unfinished tests under: its own, or, when it scored nothing, the other summary's. */
function judgesFor(summary: KeyedSummary, other: KeyedSummary): string[] {
  const own = judgesOf(summary)
  return own.length > 0 ? own : judgesOf(other)
}

/** The trial count of a summary's run: its rows' `trials`, else its highest trial (1 for a run of one trial). */
function trialsOf(summary: KeyedSummary): number {
  const trials = (summary.rows ?? []).map((row) => row.trials ?? 1)
  const scored = Object.values(summary.scores).flatMap((list) => list.map((score) => score.trial ?? 1))
  return Math.max(1, ...trials, ...scored)
}

/**
 * Where the MPCBench reporter writes `summary`: `outputFile`, or `summary.subset.json` beside it when this run
 * covered only some of the task × agent × judge tests of the summary already there, scored or not (a test that timed
 * out, failed early or did not run counts as covered), so running one folder (`npx vitest run bench/planning`) or a
 * watch-mode rerun never silently replaces the full run's summary, and a full run in which some tests did not finish
 * does. A run configured with another trial count (`trials`, from `BENCH_TRIALS`, when known) is a new run, never a
 * subset.
 */
export function chooseSummaryOutput(outputFile: string, summary: Summary, trials?: number): OutputChoice {
  const earlierOf = (existing: unknown) => EarlierSummarySchema.safeParse(existing).data
  return chooseOutputFile(
    outputFile,
    (existing) => summaryKeys(summary, judgesFor(summary, earlierOf(existing) ?? summary)),
    (existing) => {
      const earlier = earlierOf(existing)
      if (earlier === undefined || (trials !== undefined && trialsOf(earlier) !== trials)) return undefined
      return summaryKeys(earlier, judgesFor(earlier, summary))
    },
  )
}

/** The line printed when a run went to the subset file. */
export function formatSummarySubsetNote(choice: OutputChoice, cwd = process.cwd()): string | undefined {
  if (choice.subset === undefined) return undefined
  const full = relative(cwd, choice.subset.fullFile)
  return `This run covered ${choice.subset.ran} of the ${choice.subset.kept} task x agent x judge tests in ${full}: its summary went to ${relative(cwd, choice.file)} and ${full} was kept. Run all the tasks (or delete it) to replace it.`
}
