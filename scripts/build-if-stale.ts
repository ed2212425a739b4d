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
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUILD_STAMP, staleReason } from '../src/core/dist-freshness.ts'

// The freshness rule lives in src/ (`agent-bench arte` reads it too, to run the bench from dist/ only when it is current).
export { BUILD_CONFIG_FILES, BUILD_ENTRIES, BUILD_STAMP, newestChangeMs, staleReason } from '../src/core/dist-freshness.ts'

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
