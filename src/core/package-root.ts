import { existsSync, realpathSync } from 'node:fs'
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder of this package (with `package.json`, `bench/`, `data/`), whether it runs from `src/` or `dist/`. */
export const packageRoot: string = fileURLToPath(new URL('../../', import.meta.url))

/** `.ts` when the package runs from its sources (tsx, Vitest), `.js` when it runs compiled from `dist/`. */
export const moduleExtension: string = extname(fileURLToPath(import.meta.url))

/**
 * A file of the package by its path in the sources, e.g. `src/arte/vitest/global-setup.ts`: that file when the
 * package runs from its sources, else its compiled twin under `dist/` (`dist/arte/vitest/global-setup.js`).
 */
export function packageModule(sourcePath: string): string {
  if (moduleExtension === '.ts') return join(packageRoot, sourcePath)
  return join(packageRoot, 'dist', sourcePath.replace(/^src\//, '').replace(/\.ts$/, '.js'))
}

function real(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

/**
 * Whether `agent-bench` runs outside this package's own checkout (installed in another project, or from
 * another folder): the benchmark commands then use the package's own bench files, data and setup instead of
 * the current folder's Vitest config. Outputs still go to the current folder.
 */
export function runsOutsidePackage(cwd: string = process.cwd()): boolean {
  return real(cwd) !== real(packageRoot)
}

/** The subset of a Vite plugin that {@link shippedSourcesPlugin} uses (Vite itself is Vitest's dependency). */
export interface ResolvePlugin {
  name: string
  enforce: 'pre'
  resolveId(source: string, importer: string | undefined): string | null
}

/**
 * The shipped `bench/**\/*.eval.ts` files import the package's sources (`../../src/...ts`), which an installed
 * package does not contain: this Vite plugin resolves those imports to the compiled `dist/` files instead. With
 * `built` (a checkout whose `dist/` is current, see `staleReason` in dist-freshness.ts) it does so even where the
 * source exists, so the bench runs the built JavaScript rather than transforming the TypeScript it was built from.
 */
export function shippedSourcesPlugin(root: string = packageRoot, built = false): ResolvePlugin {
  const src = join(root, 'src') + sep
  return {
    name: 'agent-bench:shipped-sources',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer === undefined || !source.startsWith('.') || !source.endsWith('.ts')) return null
      const target = resolve(importer, '..', source)
      if (!target.startsWith(src) || (!built && existsSync(target))) return null
      const compiled = join(root, 'dist', relative(src, target)).replace(/\.ts$/, '.js')
      return existsSync(compiled) ? compiled : null
    },
  }
}

/**
 * The Vitest `server.deps.external` pattern of the package's compiled `dist/` files: Node imports them as they are
 * (Vite neither transforms nor source-maps them), wherever the package lies (a checkout, a linked or an installed
 * package; Vitest externalizes only what it finds under `node_modules` by itself).
 */
export function distExternal(root: string = packageRoot): RegExp {
  const dist = `${join(root, 'dist').replaceAll('\\', '/')}/`
  return new RegExp(`^${dist.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)
}

/**
 * A default input file or folder of a command (`data`, `prompt_config.json`, ...): the one in the current folder
 * when it exists, else the package's own copy when it has one (so the commands work in any project), else the
 * current folder's path (for the error message).
 */
export function defaultInput(path: string, cwd: string = process.cwd()): string {
  const local = resolve(cwd, path)
  if (existsSync(local)) return local
  const shipped = join(packageRoot, path)
  return existsSync(shipped) ? shipped : local
}

/**
 * The one line a benchmark command prints on stderr when it takes inputs from the package because the current folder
 * has none (`labels`, e.g. `data/`, `prompt_config.json`), e.g. `ART-E: no data/arte-demo-questions.jsonl in the
 * current folder: using the package's (node_modules/vitest-agent-bench)`; `undefined` when there are none. `root` is
 * the folder looked in, shown relative to `cwd`.
 */
export function packageInputsNote(bench: string, labels: ReadonlyArray<string>, root: string = process.cwd(), cwd: string = process.cwd()): string | undefined {
  if (labels.length === 0) return undefined
  const shown = (path: string): string => {
    const rel = relative(cwd, path)
    return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? resolve(path) : rel
  }
  const where = resolve(root) === resolve(cwd) ? 'the current folder' : shown(root)
  return `${bench}: no ${labels.join(', ')} in ${where}: using the package's (${shown(packageRoot)})`
}
