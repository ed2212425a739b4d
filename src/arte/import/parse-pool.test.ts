import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { ParsePool, type PendingMessage } from './parse-pool.ts'

function message(i: number): PendingMessage {
  const raw = [
    `Message-ID: <pool-${i}@example.com>`,
    'Date: Mon, 14 May 2001 16:39:00 -0700 (PDT)',
    `From: sender${i % 7}@enron.com`,
    'To: owner@enron.com',
    `Subject: Pool message ${i}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    `Body of message ${i}.`,
    '',
  ].join('\r\n')
  return { raw, fileName: `${i}.` }
}

const pools: ParsePool[] = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()))
})

describe('ParsePool', () => {
  it('has its worker threads parse chunks, with the same outcomes in the same order as the calling thread alone', async () => {
    const messages = Array.from({ length: 64 * 24 }, (_, i) => message(i))
    const alone = new ParsePool(0)
    pools.push(alone)
    const expected: unknown[] = []
    for await (const item of alone.parseInOrder(messages)) expected.push(item)
    expect(alone.parsedByWorkers).toBe(0)

    const shared = new ParsePool(1)
    pools.push(shared)
    const got: unknown[] = []
    for await (const item of shared.parseInOrder(messages)) {
      got.push(item)
      // A slow consumer (an insert per chunk): the worker, once its parser has loaded, claims the chunks ahead.
      if (got.length % 64 === 0) await sleep(50)
    }
    expect(got).toEqual(expected)
    // Zero would mean the worker never parsed: e.g. its module loader failed and the calling thread took every chunk.
    expect(shared.parsedByWorkers).toBeGreaterThan(0)
  })
})
