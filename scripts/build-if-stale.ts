/**
 * `npm run build` (with `--force`) and the build step of `npm test` (without): compiles `src/` to `dist/` with
 * `tsc -p tsconfig.build.json`, and without `--force` only when `dist/` is stale, so `npm install && npm test` builds
 * once (`prepare`) instead of three times. `dist/` is fresh when the last build finished, its entry files exist, and
 * no input (a file or folder under `src/`, `tsconfig.json`, `tsconfig.build.json`, `package.json`) changed after that
 * build started. A deleted source changes its folder's time, so it counts as a change too.
 *
 * The build's start time is kept in `node_modules/.cache/vitest-agent-bench/build-stamp.json`, written only when
 * `tsc` succeeded (an interrupted or failed build leaves `dist/` stale).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/** Where the start time of the last successful build is kept, relative to the project root. */
export const BUILD_STAMP = 'node_modules/.cache/vitest-agent-bench/build-stamp.json'
/** Files outside `src/` whose change makes `dist/` stale. */
export const BUILD_CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json']
/** Files a build always writes; a `dist/` without one of them is stale. */
export const BUILD_ENTRIES = ['dist/main.js', 'dist/index.js', 'dist/vitest.js']

const StampSchema = z.object({ startedAtMs: z.number() })

/** The latest modification time (ms) of `path` and, for a folder, of everything under it; 0 when it does not exist. */
export function newestChangeMs(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChangeMs(join(path, entry)))
  return newest
}

/** Why `dist/` under `root` must be built again, or `undefined` when it is fresh. */
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
  const changed = inputs.find((input) => newestChangeMs(join(root, input)) >= stamp.data.startedAtMs)
  return changed === undefined ? undefined : `${changed} changed since the last build`
}

/** Removes `dist/`, runs `tsc -p tsconfig.build.json` in `root`, and records the build on success; returns tsc's exit code. */
export function build(root: string): number {
  const startedAtMs = Date.now()
  rmSync(join(root, 'dist'), { recursive: true, force: true })
  rmSync(join(root, BUILD_STAMP), { force: true })
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc')
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
  const code = result.status ?? 1
  if (code === 0) {
    mkdirSync(dirname(join(root, BUILD_STAMP)), { recursive: true })
    writeFileSync(join(root, BUILD_STAMP), `${JSON.stringify({ startedAtMs })}\n`)
  }
  return code
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const force = process.argv.includes('--force')
  const reason = force ? 'npm run build' : staleReason(root)
  if (reason === undefined) {
    console.log('dist/ is up to date with src/ (no build needed).')
  } else {
    console.log(`Building dist/ (${reason}).`)
    process.exitCode = build(root)
  }
}
