import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

interface Layer {
  folder: string
  layer: number
}

/** The `| layer | folder | what |` rows of ARCHITECTURE.md. */
function readLayers(): Layer[] {
  const text = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8')
  const rows = [...text.matchAll(/^\|\s*(\d+)\s*\|\s*`([^`]+)`\s*\|/gm)]
  return rows.map((match) => ({ layer: Number(match[1]), folder: match[2] as string }))
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).replaceAll('\\', '/'))
}

/** Relative import specifiers of a file, read by TypeScript's own pre-processor (strings and comments are not imports). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
  return info.importedFiles.map((f) => f.fileName).filter((name) => name.startsWith('.'))
}

const layers = readLayers()

/** The relative imports of every file under `src/`, by repository path. */
function importsUnderSrc(): Map<string, string[]> {
  return new Map(sourceFiles(join(root, 'src')).map((file) => [file, importsOf(file)]))
}

/**
 * Sub-folders of a layered folder that only its own files of the same kind may import: a file outside `vitest/` and
 * `cli/` must not import the folder's `vitest/` glue (ARCHITECTURE.md, "Inside a benchmark folder").
 */
const GLUE = 'vitest'
const GLUE_USERS = ['vitest', 'cli']

/** Every import that breaks the layering rules, as `from -> to (reason)`. */
function violations(files: Map<string, string[]>, layers: Layer[]): string[] {
  // The most specific row holds a file: `src/arte/index.ts` (an entry) before `src/arte`.
  const ownerOf = (path: string): Layer | undefined =>
    layers.filter((l) => path === l.folder || path.startsWith(`${l.folder}/`)).sort((a, b) => b.folder.length - a.folder.length)[0]
  const found: string[] = []
  for (const [file, specifiers] of files) {
    const from = ownerOf(file.replace(/\.test\.ts$/, '.ts')) ?? ownerOf(file)
    if (from === undefined) {
      found.push(`${file}: not in any folder of ARCHITECTURE.md`)
      continue
    }
    const isTest = file.endsWith('.test.ts')
    for (const specifier of specifiers) {
      const target = posix.normalize(posix.join(posix.dirname(file), specifier))
      const to = ownerOf(target)
      if (to === undefined) {
        if (!isTest) found.push(`${file} -> ${target} (outside the layered folders)`)
        continue
      }
      if (to.folder === from.folder) {
        // Tests may drive the glue end to end (a reporter over a fixture run); production files may not.
        const sub = (path: string) => path.slice(from.folder.length + 1).split('/')
        const fromSub = sub(file)
        const toSub = sub(target)
        const inGlue = toSub.length > 1 && toSub[0] === GLUE
        const mayUseGlue = fromSub.length > 1 && GLUE_USERS.includes(fromSub[0] as string)
        if (inGlue && !mayUseGlue && !isTest) {
          found.push(`${file} -> ${target} (only ${from.folder}/{${GLUE_USERS.join(',')}}/ may import ${from.folder}/${GLUE}/)`)
        }
        continue
      }
      if (to.layer > from.layer) found.push(`${file} -> ${target} (layer ${from.layer} imports layer ${to.layer})`)
      else if (to.layer === from.layer) found.push(`${file} -> ${target} (${from.folder} and ${to.folder} are peers)`)
    }
  }
  return found
}

describe('ARCHITECTURE.md', () => {
  it('lists the layers', () => {
    expect(layers.map((l) => l.folder)).toEqual(expect.arrayContaining(['src/core', 'src/arte', 'src/mpcbench', 'src/llm', 'src/agent']))
  })

  it('is obeyed by every import under src/', () => {
    expect(violations(importsUnderSrc(), layers)).toEqual([])
  })
})

describe('the architecture check', () => {
  const synthetic: Layer[] = [
    { folder: 'src/core', layer: 0 },
    { folder: 'src/llm', layer: 3 },
    { folder: 'src/arte', layer: 6 },
    { folder: 'src/mpcbench', layer: 6 },
    { folder: 'src/report', layer: 7 },
    { folder: 'src/arte/index.ts', layer: 8 },
  ]
  const check = (file: string, ...imports: string[]) => violations(new Map([[file, imports]]), synthetic)

  it('catches a lower folder of a benchmark importing its vitest/ glue', () => {
    expect(check('src/arte/results/results.ts', '../vitest/arte-meta.ts')).toEqual([
      'src/arte/results/results.ts -> src/arte/vitest/arte-meta.ts (only src/arte/{vitest,cli}/ may import src/arte/vitest/)',
    ])
    expect(check('src/mpcbench/run/run-task.ts', '../vitest/mpcbench-meta.ts')).toHaveLength(1)
    expect(check('src/mpcbench/summary/summary.ts', '../vitest/reporter.ts')).toHaveLength(1)
  })

  it('lets the glue, the CLI and tests import the glue, and any file its lower folders', () => {
    expect(check('src/arte/vitest/reporter.ts', './task-meta.ts', '../results/results.ts')).toEqual([])
    expect(check('src/arte/cli/arte.ts', '../vitest/arte-parts.ts')).toEqual([])
    expect(check('src/arte/fault-mix.test.ts', './vitest/reporter.ts')).toEqual([])
    expect(check('src/arte/results/results.ts', '../dataset/row.ts', '../../llm/model.ts')).toEqual([])
  })

  it('catches imports across and up the layers', () => {
    expect(check('src/core/errors.ts', '../arte/settings.ts')).toEqual(['src/core/errors.ts -> src/arte/settings.ts (layer 0 imports layer 6)'])
    expect(check('src/arte/x.ts', '../mpcbench/settings.ts')).toEqual(['src/arte/x.ts -> src/mpcbench/settings.ts (src/arte and src/mpcbench are peers)'])
    expect(check('src/other/x.ts')).toEqual(['src/other/x.ts: not in any folder of ARCHITECTURE.md'])
  })

  it('places a benchmark entry file by its own row, so it may import any layer and no lower file may import it', () => {
    expect(check('src/arte/index.ts', './vitest/task-meta.ts', '../report/report-data.ts')).toEqual([])
    expect(check('src/arte/results/results.ts', '../index.ts')).toEqual(['src/arte/results/results.ts -> src/arte/index.ts (layer 6 imports layer 8)'])
  })
})
