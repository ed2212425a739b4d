/**
 * tau-bench's pass^k as the issue defines it: for each j = 1..k, the share of tasks whose first j trials all pass.
 * `trials[t]` holds task t's pass/fail for its trials 1, 2, ... in order (see {@link trialPasses}); tasks with fewer
 * than j trials do not count for j. Keys are `"1"`..`"k"`; a j no task reached is left out.
 */
export function passHatK(trials: ReadonlyArray<ReadonlyArray<boolean>>, k: number): Record<string, number> {
  const out: Record<string, number> = {}
  for (let j = 1; j <= k; j++) {
    const eligible = trials.filter((passes) => passes.length >= j)
    if (eligible.length === 0) continue
    const allPass = eligible.filter((passes) => passes.slice(0, j).every(Boolean)).length
    out[String(j)] = allPass / eligible.length
  }
  return out
}

/** One trial of a task for {@link trialPasses}: `passed` undefined when its outcome is not known (not run, unjudged). */
export interface TrialOutcome {
  trial: number
  passed: boolean | undefined
}

/**
 * A task's pass/fail for trials 1, 2, ... by trial number, up to the first trial that is missing or unknown: what
 * {@link passHatK} takes per task. So a task whose trial 2 did not run counts for pass^1 only, and its trial 3 never
 * stands in for trial 2.
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
