import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
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
const ownerOf = (path: string): Layer | undefined =>
  layers.find((l) => path === l.folder || path.startsWith(`${l.folder}/`))

/** Every import that breaks the layering rules, as `from -> to (reason)`. */
function violations(): string[] {
  const found: string[] = []
  for (const file of sourceFiles(join(root, 'src'))) {
    const from = ownerOf(file.replace(/\.test\.ts$/, '.ts')) ?? ownerOf(file)
    if (from === undefined) {
      found.push(`${file}: not in any folder of ARCHITECTURE.md`)
      continue
    }
    const isTest = file.endsWith('.test.ts')
    for (const specifier of importsOf(file)) {
      const target = relative(root, resolve(root, dirname(file), specifier)).replaceAll('\\', '/')
      const to = ownerOf(target)
      if (to === undefined) {
        if (!isTest) found.push(`${file} -> ${target} (outside the layered folders)`)
        continue
      }
      if (to.folder === from.folder) continue
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
    expect(violations()).toEqual([])
  })
})
