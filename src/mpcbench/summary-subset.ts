import { relative } from 'node:path'
import { z } from 'zod'
import { chooseOutputFile, type OutputChoice } from '../core/subset-output.ts'
import type { Summary } from './summary.ts'

/** Just what a subset check reads of an earlier summary. */
const EarlierSummarySchema = z.object({ scores: z.record(z.string(), z.array(z.object({ task_id: z.string() }))) })

function keys(scores: Record<string, ReadonlyArray<{ task_id: string }>>): string[] {
  return Object.entries(scores).flatMap(([pair, list]) => list.map((score) => `${pair}/${score.task_id}`))
}

/**
 * Where the MPCBench reporter writes `summary`: `outputFile`, or `summary.subset.json` beside it when this run
 * covered only some of the task × agent × judge scores of the summary already there, so running one folder
 * (`npx vitest run bench/planning`) or a watch-mode rerun never silently replaces the full run's summary.
 */
export function chooseSummaryOutput(outputFile: string, summary: Summary): OutputChoice {
  return chooseOutputFile(outputFile, keys(summary.scores), (existing) => {
    const earlier = EarlierSummarySchema.safeParse(existing)
    return earlier.success ? keys(earlier.data.scores) : undefined
  })
}

/** The line printed when a run went to the subset file. */
export function formatSummarySubsetNote(choice: OutputChoice, cwd = process.cwd()): string | undefined {
  if (choice.subset === undefined) return undefined
  const full = relative(cwd, choice.subset.fullFile)
  return `This run covered ${choice.subset.ran} of the ${choice.subset.kept} scores in ${full}: its summary went to ${relative(cwd, choice.file)} and ${full} was kept. Run all the tasks (or delete it) to replace it.`
}
