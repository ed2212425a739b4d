import { setFlagsFromString } from 'node:v8'

let applied: number | undefined

/**
 * Sets V8's heap growing percent of this process (`BENCH_HEAP_GROWING_PERCENT`, see
 * `DEFAULT_BENCH_HEAP_GROWING_PERCENT`): the old generation then grows to (1 + percent/100) x what was live after the
 * last full GC before the next one, instead of V8's factor of up to 4x, so a long run's garbage is collected while
 * it is small. 0 leaves V8's default. Applied once per process (a later different value replaces it).
 * Returns whether the flag was set by this call.
 */
export function applyHeapGrowingPercent(percent: number): boolean {
  if (percent <= 0 || applied === percent) return false
  setFlagsFromString(`--heap-growing-percent=${percent}`)
  applied = percent
  return true
}
