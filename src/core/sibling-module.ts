import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type * as Esbuild from 'esbuild'
import { writeFileAtomic } from './atomic-write.ts'
import { ConfigError } from './errors.ts'
import { packageRoot } from './package-root.ts'

/** Where bundles of worker modules are written when they run from the TypeScript sources (see {@link siblingModule}). */
export const WORKER_BUNDLE_DIR = join(packageRoot, 'node_modules', '.cache', 'vitest-agent-bench', 'workers')

/**
 * The `file:` URL of the module named `baseName` beside the caller (`importMetaUrl`), for a worker thread to import.
 * In the built package that is the `.js` file beside it. From the TypeScript sources (tests, `tsx` scripts, the
 * repository's bench runs) it is the `.ts` module bundled with its local imports into one ES module by esbuild
 * (packages stay imports), written by content hash under {@link WORKER_BUNDLE_DIR}, inside `node_modules` so those
 * imports resolve. Worker threads have no TypeScript loader of their own, and a loader in the worker (tsx's) cost
 * about 20 MB and 0.1 s a worker on Node 20, whose loader hooks run on a thread of their own. It bundles on every call
 * (tens of ms), so a worker started after an edit (watch mode, a restart after a timeout) never runs stale code.
 */
export function siblingModule(importMetaUrl: string, baseName: string): string {
  if (!importMetaUrl.endsWith('.ts')) return new URL(`./${baseName}.js`, importMetaUrl).href
  const entry = fileURLToPath(new URL(`./${baseName}.ts`, importMetaUrl))
  let esbuild: typeof Esbuild
  try {
    esbuild = createRequire(importMetaUrl)('esbuild') as typeof Esbuild
  } catch (error) {
    throw new ConfigError(`Running ${entry} on a worker thread from the TypeScript sources needs esbuild, which did not load.`, {
      hint: 'Run `npm install` in the vitest-agent-bench checkout (esbuild is a dev dependency), or use the built package (`dist/`).',
      cause: error,
    })
  }
  const built = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  })
  const code = built.outputFiles[0]?.contents ?? new Uint8Array()
  const file = join(WORKER_BUNDLE_DIR, `${baseName}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`)
  // Bytes, not text: the atomic writer redacts text, which must not touch code. The same content always has the same
  // name, so processes that write it at once write the same file.
  if (!existsSync(file)) writeFileAtomic(file, code)
  return pathToFileURL(file).href
}
