import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

/**
 * Whether the compiled `dist/` of a checkout is current with its sources: `scripts/build-if-stale.ts` builds when it is
 * not, and `agent-bench arte` runs the bench from `dist/` only when it is (else from the TypeScript sources).
 */

/** Where the start time of the last successful build is kept, relative to the project root. */
export const BUILD_STAMP = 'node_modules/.cache/vitest-agent-bench/build-stamp.json'
/** Files outside `src/` whose change makes `dist/` stale. */
export const BUILD_CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json']
/** Files a build always writes; a `dist/` without one of them is stale. */
export const BUILD_ENTRIES = ['dist/main.js', 'dist/index.js', 'dist/vitest.js']

const StampSchema = z.object({ startedAtMs: z.number() })

/**
 * The latest modification time (ms) of `path` and, for a folder, of everything under it but the files `skip` names;
 * 0 when it does not exist.
 */
export function newestChangeMs(path: string, skip: (name: string) => boolean = () => false): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) if (!skip(entry)) newest = Math.max(newest, newestChangeMs(join(path, entry), skip))
  return newest
}

/** Test files, which the build leaves out (`tsconfig.build.json`): editing one leaves `dist/` current. */
const isTestFile = (name: string): boolean => name.endsWith('.test.ts')

/**
 * Why `dist/` under `root` must be built again, or `undefined` when it is fresh: fresh when the last build finished
 * (its stamp, {@link BUILD_STAMP}), its entry files exist, and no input (a file or folder under `src/` but a test file,
 * or one of {@link BUILD_CONFIG_FILES}) changed after that build started. A deleted or added file changes its
 * folder's time, so it counts as a change too.
 */
export function staleReason(root: string): string | undefined {
  const stampFile = join(root, BUILD_STAMP)
  if (!existsSync(stampFile)) return 'no finished build recorded'
  const stamp = StampSchema.safeParse(
    (() => {
      try {
        return JSON.parse(readFileSync(stampFile, 'utf8'))
      } catch {
        return undefined
      }
    })(),
  )
  if (!stamp.success) return `${BUILD_STAMP} is unreadable`
  const missing = BUILD_ENTRIES.find((entry) => !existsSync(join(root, entry)))
  if (missing !== undefined) return `${missing} is missing`
  const inputs = ['src', ...BUILD_CONFIG_FILES]
  const changed = inputs.find((input) => newestChangeMs(join(root, input), isTestFile) >= stamp.data.startedAtMs)
  return changed === undefined ? undefined : `${changed} changed since the last build`
}
