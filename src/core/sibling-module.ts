import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

/** A module to load in a worker thread: its URL, and tsx's loader to register first when it is TypeScript. */
export interface SiblingModule {
  /** `file:` URL of the module. */
  href: string
  /** `file:` URL of tsx's ES module API (its `register()`) when the module is TypeScript, else `undefined`. */
  tsx: string | undefined
}

/**
 * tsx's ES module API, as its `exports` map gives it for `import` (its CommonJS build's `register()` fails on Node 20:
 * it resolves its loader relative to the wrong folder).
 */
function tsxEsmApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json')
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> }).exports
  const entry = exports['./esm/api']?.import?.default ?? './dist/esm/api/index.mjs'
  return new URL(entry, pathToFileURL(manifest)).href
}

/**
 * The module named `baseName` beside the caller (`importMetaUrl`): `.js` in the built package, `.ts` when the caller
 * runs from the sources (tests, `tsx` scripts), then loaded through tsx's loader, because worker threads have no
 * TypeScript loader of their own and Node 20 ignores `--import` in a worker's `execArgv`.
 * Pass it as `workerData`; the worker's plain-JavaScript source loads it with {@link LOAD_MODULE_SOURCE}.
 */
export function siblingModule(importMetaUrl: string, baseName: string): SiblingModule {
  const typescript = importMetaUrl.endsWith('.ts')
  return {
    href: new URL(`./${baseName}${typescript ? '.ts' : '.js'}`, importMetaUrl).href,
    tsx: typescript ? tsxEsmApi(importMetaUrl) : undefined,
  }
}

/**
 * Worker source (CommonJS) defining `loadModule({ href, tsx })`: registers tsx's loader when `tsx` is set, then
 * imports `href`; resolves to the module.
 */
export const LOAD_MODULE_SOURCE = `const loadModule = ({ href, tsx }) =>
  (tsx === undefined ? Promise.resolve() : import(tsx).then((api) => { api.register() })).then(() => import(href))`
