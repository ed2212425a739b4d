/**
 * tau-bench's pass^k as the issue defines it: for each j = 1..k, the share of tasks whose first j trials all pass.
 * `trials[t]` holds task t's pass/fail per trial in trial order; tasks with fewer than j trials do not count for j.
 * Keys are `"1"`..`"k"`; a j no task reached is left out.
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
