/**
 * tau-bench's pass^k as the issue defines it: for each j = 1..k, the share of tasks whose first j trials all pass.
 * `trials[t]` holds task t's pass/fail for its trials 1, 2, ... in order, up to its first trial without an outcome
 * (see {@link trialPasses}). Every j is computed over the same tasks, those with all k trials (see
 * {@link tasksWithAllTrials}), so pass^j never rises with j: a task whose trial 2 has no outcome (not run, unjudged)
 * is left out rather than counted for pass^1 alone. Keys are `"1"`..`"k"`; empty when no task has all k trials.
 */
export function passHatK(trials: ReadonlyArray<ReadonlyArray<boolean>>, k: number): Record<string, number> {
  const out: Record<string, number> = {}
  const complete = trials.filter((passes) => passes.length >= k)
  if (complete.length === 0) return out
  for (let j = 1; j <= k; j++) out[String(j)] = complete.filter((passes) => passes.slice(0, j).every(Boolean)).length / complete.length
  return out
}

/** How many tasks {@link passHatK} is computed over: those with an outcome for each of the k trials. */
export function tasksWithAllTrials(trials: ReadonlyArray<ReadonlyArray<boolean>>, k: number): number {
  return trials.filter((passes) => passes.length >= k).length
}

/** One trial of a task for {@link trialPasses}: `passed` undefined when its outcome is not known (not run, unjudged). */
export interface TrialOutcome {
  trial: number
  passed: boolean | undefined
}

/**
 * A task's pass/fail for trials 1, 2, ... by trial number, up to the first trial that is missing or unknown: what
 * {@link passHatK} takes per task. So a task's trial 3 never stands in for a trial 2 that did not run.
 */
export function trialPasses(runs: Iterable<TrialOutcome>): boolean[] {
  const byTrial = new Map<number, boolean | undefined>()
  for (const run of runs) byTrial.set(run.trial, run.passed)
  const out: boolean[] = []
  for (let trial = 1; ; trial++) {
    const passed = byTrial.get(trial)
    if (passed === undefined) return out
    out.push(passed)
  }
}
