import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, it } from 'vitest'

/** `../shared/data` beside the checkout: real data that developers and CI have and a user's clone does not. */
export const sharedDataDir: string = fileURLToPath(new URL('../../../shared/data/', import.meta.url))

/** Whether `../shared/data` is present. */
export const hasSharedData: boolean = existsSync(sharedDataDir)

/** A path inside `../shared/data`. */
export function sharedDataPath(...parts: string[]): string {
  return join(sharedDataDir, ...parts)
}

/**
 * A `describe` block over real data in `../shared/data`. When that folder is absent the body is not run at all
 * (it may read the data while collecting); one skipped test says why.
 */
export function describeWithSharedData(name: string, body: () => void): void {
  if (hasSharedData) describe(name, body)
  else describe(name, () => it.skip(`skipped: ${sharedDataDir} is absent; real-data tests need ../shared beside the checkout`))
}
