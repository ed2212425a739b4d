import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { withLinkedSignal } from './linked-signal.ts'

describe('withLinkedSignal', () => {
  it('leaves no listener on the long-lived signal after many requests', async () => {
    const task = new AbortController()
    for (let i = 0; i < 100; i++) {
      await withLinkedSignal(task.signal, async (signal) => {
        signal?.addEventListener('abort', () => {})
        expect(getEventListeners(task.signal, 'abort')).toHaveLength(1)
      })
    }
    expect(getEventListeners(task.signal, 'abort')).toHaveLength(0)
  })

  it('aborts the request signal with the reason when the task aborts, before or during the request', async () => {
    const before = new AbortController()
    before.abort(new Error('test timed out'))
    await withLinkedSignal(before.signal, async (signal) => expect((signal?.reason as Error).message).toBe('test timed out'))
    const during = new AbortController()
    const seen = await withLinkedSignal(during.signal, async (signal) => {
      during.abort('stop')
      return signal?.reason
    })
    expect(seen).toBe('stop')
  })
})
