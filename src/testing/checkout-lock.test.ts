import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { withCheckoutLock } from './checkout-lock.ts'

describe('withCheckoutLock', () => {
  let dir: string
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  const fresh = (): string => {
    dir = mkdtempSync(join(tmpdir(), 'checkout-lock-'))
    return dir
  }

  it('runs holders of the same lock one after the other, and another lock beside them', async () => {
    const locks = fresh()
    const events: string[] = []
    let releaseFirst: () => void = () => {}
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve
    })
    const first = withCheckoutLock(
      'parts',
      async () => {
        events.push('first in')
        await firstHolds
        events.push('first out')
      },
      { dir: locks },
    )
    const second = withCheckoutLock('parts', async () => void events.push('second in'), { dir: locks })
    const other = withCheckoutLock('other', async () => void events.push('other in'), { dir: locks })
    await other
    expect(events).toEqual(['first in', 'other in'])
    releaseFirst()
    await Promise.all([first, second])
    expect(events).toEqual(['first in', 'other in', 'first out', 'second in'])
    expect(existsSync(join(locks, 'parts'))).toBe(false)
  })

  it('lets go when the holder throws, and passes the error on', async () => {
    const locks = fresh()
    await expect(
      withCheckoutLock(
        'parts',
        async () => {
          throw new Error('boom')
        },
        { dir: locks },
      ),
    ).rejects.toThrow('boom')
    await expect(withCheckoutLock('parts', async () => 'again', { dir: locks, waitMs: 0 })).resolves.toBe('again')
  })

  it('takes over a lock whose holder is no longer running', async () => {
    const locks = fresh()
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim()
    mkdirSync(join(locks, 'parts'), { recursive: true })
    writeFileSync(join(locks, 'parts', 'pid'), gone)
    await expect(withCheckoutLock('parts', async () => 'taken', { dir: locks, waitMs: 0 })).resolves.toBe('taken')
  })

  it('names the lock and its holder when a running holder keeps it past the wait', async () => {
    const locks = fresh()
    mkdirSync(join(locks, 'parts'), { recursive: true })
    writeFileSync(join(locks, 'parts', 'pid'), String(process.pid))
    await expect(withCheckoutLock('parts', async () => 'never', { dir: locks, waitMs: 100 })).rejects.toThrow(
      `The checkout lock ${join(locks, 'parts')} is still held by process ${process.pid} after 100 ms`,
    )
    expect(existsSync(join(locks, 'parts', 'pid'))).toBe(true)
  })
})
