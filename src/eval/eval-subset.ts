import { relative } from 'node:path'
import { z } from 'zod'
import { type OutputChoice, chooseOutputFile as chooseCoreOutputFile } from '../core/subset-output.ts'
import type { EvalResults } from '../results/eval-results.ts'

/** Just what a subset check reads of an earlier eval results file. */
const EarlierEvalResultsSchema = z.object({
  name: z.string(),
  trials: z.int(),
  taskResults: z.array(z.object({ id: z.string(), trial: z.int() })),
})

function keys(rows: ReadonlyArray<{ id: string; trial: number }>): string[] {
  return rows.map((row) => `${row.id}/trial=${row.trial}`)
}

/**
 * Where an eval's results go: `file`, or `results.subset.json` beside it when this run covered only some of the cases
 * and trials of the same eval's results already there (same name and trial count), so a `-t` or watch-mode rerun never
 * silently replaces the full run's results; a run of another trial count replaces them.
 */
export function chooseOutputFile(file: string, results: EvalResults): OutputChoice {
  return chooseCoreOutputFile(file, keys(results.taskResults), (existing) => {
    const earlier = EarlierEvalResultsSchema.safeParse(existing)
    if (!earlier.success || earlier.data.name !== results.name || earlier.data.trials !== results.trials) return undefined
    return keys(earlier.data.taskResults)
  })
}

/** The line printed when a run went to the subset file. */
export function formatSubsetChoice(choice: OutputChoice, cwd = process.cwd()): string | undefined {
  if (choice.subset === undefined) return undefined
  const full = relative(cwd, choice.subset.fullFile)
  return `This run covered ${choice.subset.ran} of the ${choice.subset.kept} case trial(s) in ${full}: its results went to ${relative(cwd, choice.file)} and ${full} was kept. Run all its cases (or delete it) to replace it.`
}
