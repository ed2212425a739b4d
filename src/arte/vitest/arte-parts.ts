import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { arteParts } from '../settings.ts'

/** Where the ART-E part files are written (relative to the project root; `.tmp/` is not committed). */
export const ARTE_PARTS_DIR = '.tmp/arte-parts'
/** The single ART-E eval file, replaced by the part files when there are several parts. */
export const ARTE_EVAL_FILE = 'bench/arte/arte.eval.ts'


function partFile(index: number, count: number): string {
  const width = String(count).length
  return `part-${String(index).padStart(width, '0')}-of-${count}.eval.ts`
}

/**
 * The test files of ART-E for a Vitest config. With `count` parts (`ARTE_PARTS=n`, n > 1), writes n part files into
 * {@link ARTE_PARTS_DIR}, part k registering the rows whose position modulo n is k - 1, and returns them in place of
 * {@link ARTE_EVAL_FILE}: Vitest shards by file, so `vitest --shard=i/N` then splits the rows between machines, and
 * `--merge-reports` puts every row back together. Returns globs (relative to `root`) to add to `include` and
 * `exclude`.
 */
export function arteTestFiles(root: string, count: number = arteParts()): { include: string[]; exclude: string[] } {
  const dir = join(root, ARTE_PARTS_DIR)
  if (count === 1) return { include: [], exclude: [] }
  mkdirSync(dir, { recursive: true })
  const wanted = new Set(Array.from({ length: count }, (_, i) => partFile(i + 1, count)))
  for (const name of readdirSync(dir)) if (name.endsWith('.eval.ts') && !wanted.has(name)) rmSync(join(dir, name), { force: true })
  const define = relative(dir, join(root, 'src/arte/vitest/define-arte-tests.ts')).replaceAll('\\', '/')
  for (let index = 1; index <= count; index++) {
    writeFileSync(
      join(dir, partFile(index, count)),
      `// Written by src/arte/vitest/arte-parts.ts for ARTE_PARTS=${count}: part ${index} of the ART-E rows (see ${ARTE_EVAL_FILE}).\n` +
        `import { defineArteTests } from '${define}'\n\nawait defineArteTests({ part: { index: ${index}, count: ${count} } })\n`,
    )
  }
  return { include: [`${ARTE_PARTS_DIR}/*-of-${count}.eval.ts`], exclude: [ARTE_EVAL_FILE] }
}
