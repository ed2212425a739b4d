import { relative } from 'node:path'
import { z } from 'zod'
import { chooseOutputFile, type OutputChoice } from '../../core/subset-output.ts'
import type { ArteResults } from './results.ts'

/** Just what a subset check reads of an earlier results JSON (older and newer files alike). */
const EarlierResultsSchema = z.object({
  config: z.object({ dataset: z.string(), split: z.string(), model: z.string().optional() }),
  trials: z.int().optional(),
  taskResults: z.array(z.object({ taskId: z.string(), trialResults: z.array(z.object({ trial: z.int() })).optional() })),
})

/** One key per task and trial a results file holds (trial 1 alone without `trialResults`). */
function testKeys(taskResults: ReadonlyArray<{ taskId: string; trialResults?: ReadonlyArray<{ trial: number }> | undefined }>): string[] {
  return taskResults.flatMap((task) =>
    (task.trialResults === undefined ? [1] : task.trialResults.map((t) => t.trial)).map((trial) => `${task.taskId}/trial=${trial}`),
  )
}

/**
 * Where the ART-E reporter writes `results`: `outputFile`, or `results.subset.json` beside it when this run
 * covered only some of the tasks and trials of the results already there (same dataset, split and model, and the
 * same configured trial count `trials` when known: `BENCH_TRIALS`), so a `-t` (`-t 'trial=2'` included)
 * or watch-mode rerun never silently replaces the full run's results, while a new run of another model or trial
 * count does.
 */
export function chooseArteOutput(outputFile: string, results: ArteResults, trials?: number): OutputChoice {
  return chooseOutputFile(outputFile, testKeys(results.taskResults), (existing) => {
    const earlier = EarlierResultsSchema.safeParse(existing)
    if (!earlier.success) return undefined
    const { config } = earlier.data
    if (config.dataset !== results.config.dataset || config.split !== results.config.split) return undefined
    if (config.model !== undefined && config.model !== results.config.model) return undefined
    if (trials !== undefined && (earlier.data.trials ?? 1) !== trials) return undefined
    return testKeys(earlier.data.taskResults)
  })
}

/** The line printed when a run went to the subset file. */
export function formatSubsetNote(choice: OutputChoice, cwd = process.cwd()): string | undefined {
  if (choice.subset === undefined) return undefined
  const full = relative(cwd, choice.subset.fullFile)
  return `This run covered ${choice.subset.ran} of the ${choice.subset.kept} task(s) in ${full}: its results went to ${relative(cwd, choice.file)} and ${full} was kept. Run all its tasks (or delete it) to replace it.`
}
