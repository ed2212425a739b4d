import { CallAbortedError } from './errors.ts'

/** How retries are spaced. */
export interface RetryPolicy {
  /** Retries after the first attempt. @default 4 */
  maxRetries: number
  /** Delay before the first retry; doubles each retry. @default 1000 */
  baseDelayMs: number
  /** Cap on one exponential delay. @default 30000 */
  maxDelayMs: number
  /** Cap on a server-requested `retry-after`; longer requests are clamped to it. @default 60000 */
  maxRetryAfterMs: number
  /** Random source in [0, 1), for jitter. @default Math.random */
  random: () => number
}

/** Defaults of {@link RetryPolicy}. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
}

/** What the retry loop needs to know about a failure. */
export type FailureClass = { kind: 'retryable'; reason: string; retryAfterMs: number | null } | { kind: 'fatal' } | { kind: 'aborted' }

/** One failed attempt, as logged. */
export interface AttemptRecord {
  attempt: number
  reason: string
  delayMs: number
}

/** The value and how many retries it took. */
export interface RetryResult<T> {
  value: T
  retries: number
  attempts: AttemptRecord[]
}

/** Thrown when the loop gives up; carries the last error and the attempt history. */
export class RetriesExhausted extends Error {
  readonly lastError: unknown
  readonly retries: number
  readonly attempts: AttemptRecord[]
  /** True when the loop stopped because the deadline left no time for another attempt. */
  readonly deadlineReached: boolean

  constructor(lastError: unknown, retries: number, attempts: AttemptRecord[], deadlineReached = false) {
    super('retries exhausted', { cause: lastError })
    this.lastError = lastError
    this.retries = retries
    this.attempts = attempts
    this.deadlineReached = deadlineReached
  }
}

/** Least time an attempt needs to be worth starting before a deadline. */
export const MIN_ATTEMPT_MS = 1000

/**
 * Parses `retry-after-ms` (milliseconds) or `retry-after` (seconds, or an HTTP date) into milliseconds;
 * null when absent or unparsable.
 */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | null {
  if (headers === undefined) return null
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms)
  const value = headers.get('retry-after')
  if (value === null || value.trim() === '') return null
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

/** Exponential delay with jitter for the `retry`-th retry (0-based): base·2^retry capped, times a factor in [0.5, 1). */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry)
  return Math.round(exponential * (0.5 + policy.random() / 2))
}

/** Waits `ms`, rejecting with {@link CallAbortedError} as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(signal))
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(abortedError(signal as AbortSignal))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** The error a cancelled call rejects with. */
export function abortedError(signal: AbortSignal): CallAbortedError {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted')
  return new CallAbortedError(`Model call aborted: ${reason}`, { cause: signal.reason })
}

/**
 * Runs `attempt` until it succeeds, retrying failures that `classify` calls retryable, with exponential backoff and jitter
 * (or the server's `retry-after`, clamped to `maxRetryAfterMs`). Never waits past `signal`: an abort rejects at once with
 * {@link CallAbortedError}. Gives up with {@link RetriesExhausted} (fatal failure, retries used up, or no time left
 * before `deadline` (epoch ms) for a wait and one more attempt of {@link MIN_ATTEMPT_MS}).
 * Each failed attempt is appended to `options.attempts` when given (the same array the result and the error carry), so
 * a caller whose call is aborted still has them.
 */
export async function withRetry<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  classify: (error: unknown) => FailureClass,
  options: { policy?: Partial<RetryPolicy>; signal?: AbortSignal; deadline?: number; now?: () => number; attempts?: AttemptRecord[] } = {},
): Promise<RetryResult<T>> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.policy }
  const { signal, deadline } = options
  const now = options.now ?? Date.now
  const attempts: AttemptRecord[] = options.attempts ?? []
  for (let retry = 0; ; retry++) {
    if (signal?.aborted) throw abortedError(signal)
    try {
      const value = await attempt(retry + 1)
      return { value, retries: retry, attempts }
    } catch (error) {
      if (signal?.aborted) throw abortedError(signal)
      const failure = classify(error)
      if (failure.kind === 'aborted') throw abortedError(signal ?? AbortSignal.abort())
      if (failure.kind === 'fatal' || retry >= policy.maxRetries) {
        if (failure.kind === 'retryable') attempts.push({ attempt: retry + 1, reason: failure.reason, delayMs: 0 })
        throw new RetriesExhausted(error, retry, attempts)
      }
      const delayMs = failure.retryAfterMs !== null ? Math.min(failure.retryAfterMs, policy.maxRetryAfterMs) : backoffDelay(retry, policy)
      if (deadline !== undefined && now() + delayMs + MIN_ATTEMPT_MS > deadline) {
        attempts.push({ attempt: retry + 1, reason: failure.reason, delayMs: 0 })
        throw new RetriesExhausted(error, retry, attempts, true)
      }
      attempts.push({ attempt: retry + 1, reason: failure.reason, delayMs })
      await sleep(delayMs, signal)
    }
  }
}
