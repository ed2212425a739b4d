import { describe, expect, it, vi } from 'vitest'
import { CallAbortedError } from './errors.ts'
import { DEFAULT_RETRY_POLICY, RetriesExhausted, backoffDelay, parseRetryAfter, sleep, withRetry } from './retry.ts'

const headers = (entries: Record<string, string>) => new Headers(entries)

describe('parseRetryAfter', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250)
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2000)
    const now = Date.parse('2025-01-01T00:00:00Z')
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000)
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeNull()
    expect(parseRetryAfter(headers({}))).toBeNull()
    expect(parseRetryAfter(undefined)).toBeNull()
  })
})

describe('backoffDelay', () => {
  it('doubles, is capped and jittered into [half, full)', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 }
    expect(backoffDelay(0, { ...policy, random: () => 0 })).toBe(50)
    expect(backoffDelay(2, { ...policy, random: () => 0.999 })).toBeCloseTo(400, -1)
    expect(backoffDelay(10, { ...policy, random: () => 0 })).toBe(500)
  })
})

describe('withRetry', () => {
  it('retries retryable failures then succeeds, recording attempts', async () => {
    let calls = 0
    const result = await withRetry(
      async () => {
        calls++
        if (calls < 3) throw new Error('flaky')
        return 'ok'
      },
      () => ({ kind: 'retryable', reason: 'flaky', retryAfterMs: null }),
      { policy: { baseDelayMs: 1 } },
    )
    expect(result).toMatchObject({ value: 'ok', retries: 2 })
    expect(result.attempts.map((a) => a.reason)).toEqual(['flaky', 'flaky'])
  })

  it('gives up after maxRetries and on fatal failures', async () => {
    let calls = 0
    const failing = withRetry(
      async () => {
        calls++
        throw new Error('down')
      },
      () => ({ kind: 'retryable', reason: 'down', retryAfterMs: 0 }),
      { policy: { maxRetries: 2 } },
    )
    await expect(failing).rejects.toBeInstanceOf(RetriesExhausted)
    expect(calls).toBe(3)
    const fatal = withRetry(
      async () => Promise.reject(new Error('bad')),
      () => ({ kind: 'fatal' }),
    )
    await expect(fatal).rejects.toMatchObject({ retries: 0 })
  })

  it('never waits past the signal', async () => {
    // Fake timers: the 60 s retry-after wait must end when the signal fires at 30 ms, however busy the machine.
    vi.useFakeTimers()
    try {
      const controller = new AbortController()
      setTimeout(() => controller.abort(new Error('test timeout')), 30)
      let settled: unknown = 'still waiting'
      const waiting = withRetry(
        async () => Promise.reject(new Error('429')),
        () => ({ kind: 'retryable', reason: '429', retryAfterMs: 60_000 }),
        {
          signal: controller.signal,
        },
      ).then(
        () => 'resolved',
        (error: unknown) => error,
      )
      void waiting.then((value) => void (settled = value))
      await vi.advanceTimersByTimeAsync(30)
      for (let i = 0; i < 10; i++) await Promise.resolve()
      expect(settled).toBeInstanceOf(CallAbortedError)
      expect(vi.getTimerCount(), 'no retry wait is left pending').toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('sleep rejects at once on an already aborted signal', async () => {
    await expect(sleep(10_000, AbortSignal.abort())).rejects.toThrow(/aborted/)
  })
})

describe('withRetry with a deadline', () => {
  it('starts no retry whose wait and shortest attempt would pass the deadline', async () => {
    let clock = 0
    let calls = 0
    const failing = async (): Promise<never> => {
      calls++
      clock += 400
      throw new Error('boom')
    }
    const classify = () => ({ kind: 'retryable' as const, reason: 'HTTP 503', retryAfterMs: 100 })
    const error = await withRetry(failing, classify, { policy: { maxRetries: 10 }, deadline: 2000, now: () => clock }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RetriesExhausted)
    expect((error as RetriesExhausted).deadlineReached).toBe(true)
    // Each attempt takes 400 ms; a retry needs its 100 ms wait and 1,000 ms of attempt before 2,000: after 400 and 800 yes, after 1,200 no.
    expect(calls).toBe(3)
  })
})
