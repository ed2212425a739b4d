/**
 * The deadline (epoch ms) for the model calls of a run that must end within `timeoutMs` of `startedAt` (a test
 * timeout): the timeout minus a margin (10%, from 200 ms up to 5 s) left for scoring and storing the result.
 * `undefined` when there is no timeout (0 or less).
 */
export function deadlineWithin(timeoutMs: number | undefined, startedAt: number = Date.now()): number | undefined {
  if (timeoutMs === undefined || !Number.isFinite(timeoutMs) || timeoutMs <= 0) return undefined
  const margin = Math.min(5000, Math.max(200, timeoutMs * 0.1))
  return startedAt + Math.max(0, timeoutMs - margin)
}
