import type { ConfidenceInterval } from '../stats/bootstrap.ts'
import { type TrialOutcome, passHatK, passHatKCi, tasksWithAllTrials, trialPasses } from '../stats/pass-hat-k.ts'

/** pass^k of a run's tasks, its intervals and the tasks it is over: what every results file of this package carries. */
export interface PassHatKSummary {
  /** `{"1": x, ..., "k": z}`: tau-bench's estimator (see `passHatK`). */
  passHatK: Record<string, number>
  /** A 95% interval of each pass^j (see `passHatKCi`). */
  passHatKCi: Record<string, ConfidenceInterval>
  /** The tasks pass^k is over: those with an outcome in each of trials 1..k. */
  passHatKTasks: number
}

/**
 * pass^k over `trials` trials of each task, from every task's trial outcomes (a trial with `passed: undefined`, not run
 * or unjudged, ends the task's trials there: see `trialPasses`), with its intervals and the number of tasks it is over.
 * The one computation ART-E's results and the results of evals share. `intervals: false` leaves `passHatKCi` empty.
 */
export function passHatKSummary(tasks: Iterable<Iterable<TrialOutcome>>, trials: number, options: { intervals?: boolean } = {}): PassHatKSummary {
  const passes = [...tasks].map((runs) => trialPasses(runs))
  // The intervals bootstrap over tasks (2,000 resamples): a caller that shows none (ART-E with one trial) skips them.
  const passHatKCiOf = options.intervals === false ? {} : passHatKCi(passes, trials)
  return { passHatK: passHatK(passes, trials), passHatKCi: passHatKCiOf, passHatKTasks: tasksWithAllTrials(passes, trials) }
}
