import { type BootstrapOptions, type ConfidenceInterval, bootstrapMeanCis } from './bootstrap.ts'
import { wilsonIntervalOf } from './wilson.ts'

/**
 * tau-bench's pass^k estimator (sierra-research/tau-bench, `run.py`; Yao et al. 2024, arXiv 2406.12045): for each
 * j = 1..k, the mean over tasks of C(c, j) / C(n, j), where a task has n trials of which c passed. That is the chance
 * that j of the task's trials drawn without replacement all pass: an unbiased estimate of p^j for a task that passes
 * each trial with probability p. It uses every trial and not their order, so it varies less than the share of tasks
 * whose first j trials all pass (which reads a task's [fail, pass, pass] as 0 for every j); at j = n both are the
 * share of tasks that passed every trial, and pass^1 is the mean share of passed trials.
 *
 * `trials[t]` holds task t's pass/fail for its trials 1, 2, ... in order, up to its first trial without an outcome
 * (see {@link trialPasses}); n is its length. Every j is computed over the same tasks, those with at least k trials
 * (see {@link tasksWithAllTrials}), so pass^j never rises with j: a task whose trial 2 has no outcome (not run,
 * unjudged) is left out rather than counted for pass^1 alone. Keys are `"1"`..`"k"`; empty when no task has k trials.
 */
export function passHatK(trials: ReadonlyArray<ReadonlyArray<boolean>>, k: number): Record<string, number> {
  const out: Record<string, number> = {}
  const complete = trials.filter((passes) => passes.length >= k)
  if (complete.length === 0) return out
  for (let j = 1; j <= k; j++) {
    // Summed as whole numbers per trial count n, then divided once: 2 tasks with c = 3, 2 of n = 3 give exactly 5/6.
    const combinations = new Map<number, number>()
    for (const passes of complete) {
      const c = passes.filter(Boolean).length
      combinations.set(passes.length, (combinations.get(passes.length) ?? 0) + choose(c, j))
    }
    let sum = 0
    for (const [n, total] of combinations) sum += total / (choose(n, j) * complete.length)
    out[String(j)] = sum
  }
  return out
}

/**
 * Each task's C(c, j) / C(n, j) for j = 1..k, over the tasks {@link passHatK} is computed over (those with at least k
 * trials), in `trials` order: `out[j - 1][t]`. pass^j is the mean of `out[j - 1]`.
 */
export function passHatKPerTask(trials: ReadonlyArray<ReadonlyArray<boolean>>, k: number): number[][] {
  const complete = trials.filter((passes) => passes.length >= k)
  const out: number[][] = []
  for (let j = 1; j <= k; j++) {
    out.push(complete.map((passes) => choose(passes.filter(Boolean).length, j) / choose(passes.length, j)))
  }
  return out
}

/**
 * An interval for each pass^j of {@link passHatK} (keys `"1"`..`"k"`, empty when it is), over tasks, not trials,
 * since a task's trials are not independent of each other. When every task's value C(c, j) / C(n, j) (see
 * {@link passHatKPerTask}) is 0 or 1 (j = n for every task: each task passed all its j trials or not), pass^j is a
 * share of tasks and gets the Wilson score interval, which does not shrink to a point when no task (or every task)
 * passed. Otherwise it is the seeded percentile bootstrap over tasks of those values; one draw of tasks serves every
 * such j (see `bootstrapMeanCis`). Same defaults as the other intervals (95%, 2000 resamples, `DEFAULT_SEED`). The
 * bootstrap still reads `[x, x]` when every task has the same fractional value.
 */
export function passHatKCi(trials: ReadonlyArray<ReadonlyArray<boolean>>, k: number, options: BootstrapOptions = {}): Record<string, ConfidenceInterval> {
  const out: Record<string, ConfidenceInterval> = {}
  const perTask = passHatKPerTask(trials, k)
  bootstrapMeanCis(perTask, options).forEach((ci, i) => {
    const values = perTask[i] ?? []
    const shares = values.every((value) => value === 0 || value === 1) ? wilsonIntervalOf(values, options) : ci
    if (shares !== null) out[String(i + 1)] = shares
  })
  return out
}

/** C(n, j), the number of ways to choose j of n (0 when j > n); exact while it stays below 2^53. */
function choose(n: number, j: number): number {
  if (j > n) return 0
  let out = 1
  for (let i = 0; i < j; i++) out = (out * (n - i)) / (i + 1)
  return out
}

/** How many tasks {@link passHatK} is computed over: those with an outcome for each of trials 1..k. */
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
