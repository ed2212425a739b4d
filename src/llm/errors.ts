import { BenchError } from '../core/errors.ts'

/** A model call failed for good: a non-retryable HTTP error, or retries ran out. */
export class ModelCallError extends BenchError {
  /** HTTP status, when the server answered. */
  readonly status: number | undefined
  /** Retries made before giving up. */
  readonly retries: number

  constructor(code: string, message: string, options: { hint: string; status?: number | undefined; retries: number; cause?: unknown }) {
    super(code, message, options)
    this.status = options.status
    this.retries = options.retries
  }
}

/** A model call was cancelled through its AbortSignal (including during a retry wait). */
export class CallAbortedError extends BenchError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('ERR_ABORTED', message, { hint: 'The call was cancelled by its caller (e.g. a test timeout); raise the timeout if it needs longer.', ...options })
  }
}

/** In `replay` mode, a request had no recorded response. */
export class CacheMissError extends BenchError {
  /** The cache key of the request. */
  readonly key: string

  constructor(message: string, options: { hint: string; key: string }) {
    super('ERR_CACHE_MISS', message, options)
    this.key = options.key
  }
}
