import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { scaledMs } from './time-scale.ts'

/** Where the locks of {@link withCheckoutLock} are kept: the checkout's `.tmp/` (not committed). */
export const CHECKOUT_LOCKS_DIR = fileURLToPath(new URL('../../.tmp/locks/', import.meta.url))

/** Whether process `pid` is running (a lock whose holder is gone is taken over). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The pid written in a lock folder, or undefined while its holder has not written it yet. */
function holder(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'))
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/**
 * Runs `fn` holding the lock `name` of this checkout, across test files and processes: for tests that write a place
 * of the checkout that other test files write too, such as the ART-E part files of `bench/arte/parts`, which a run
 * with another part count replaces (Vitest runs test files in parallel on a machine of more than two cores). The lock
 * is a folder made atomically; a holder that is no longer running loses it. Waits up to `waitMs`.
 */
export async function withCheckoutLock<T>(name: string, fn: () => Promise<T>, options: { dir?: string; waitMs?: number } = {}): Promise<T> {
  const dir = options.dir ?? CHECKOUT_LOCKS_DIR
  const lock = join(dir, name)
  const waitMs = options.waitMs ?? scaledMs(300_000)
  const until = Date.now() + waitMs
  mkdirSync(dir, { recursive: true })
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const pid = holder(lock)
      if (pid !== undefined && !running(pid)) {
        rmSync(lock, { recursive: true, force: true })
        continue
      }
      if (Date.now() > until) {
        throw new Error(
          `The checkout lock ${lock} is still held by process ${pid ?? '(starting)'} after ${waitMs} ms; remove the folder if no test is running.`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  writeFileSync(join(lock, 'pid'), String(process.pid))
  try {
    return await fn()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}
