import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { ARTE_EVAL_FILE, ARTE_PARTS_DIR, arteTestFiles, automaticArtePartCount } from './arte-parts.ts'

const scratch = scratchDir('arte-parts')

/** A dataset of `count` test rows (and one train row) in a fresh project root. */
function projectWithRows(name: string, count: number): { root: string; env: Record<string, string> } {
  const root = join(scratch.dir, name)
  mkdirSync(root, { recursive: true })
  const row = (id: string, split: string) =>
    JSON.stringify({
      id,
      question: `q${id}?`,
      answer: 'a',
      message_ids: ['<m@x>'],
      inbox_address: 'a@x.example',
      query_date: '2001-05-01',
      how_realistic: 0.8,
      split,
    })
  const lines = Array.from({ length: count }, (_, i) => row(String(i + 1), 'test'))
  writeFileSync(join(root, 'rows.jsonl'), `${[...lines, row('train-1', 'train')].join('\n')}\n`)
  return { root, env: { ARTE_DATASET: 'rows.jsonl', ARTE_LIMIT: '0' } }
}

afterEach(() => scratch.remove())

describe('automaticArtePartCount', () => {
  it('is one part per ARTE_TESTS_PER_PART tests of the selected rows, trials included', async () => {
    const { root, env } = projectWithRows('count', 7)
    expect(await automaticArtePartCount(env, root)).toBe(1)
    expect(await automaticArtePartCount({ ...env, ARTE_TESTS_PER_PART: '3' }, root)).toBe(3)
    expect(await automaticArtePartCount({ ...env, ARTE_TESTS_PER_PART: '7' }, root)).toBe(1)
    expect(await automaticArtePartCount({ ...env, ARTE_TESTS_PER_PART: '7', BENCH_TRIALS: '2' }, root)).toBe(2)
    expect(await automaticArtePartCount({ ...env, ARTE_TESTS_PER_PART: '3', ARTE_LIMIT: '3' }, root)).toBe(1)
  })

  it('is 1, never an error, when ART-E is left out or the settings or dataset are bad (the tests report those)', async () => {
    const { root, env } = projectWithRows('bad', 7)
    const small = { ...env, ARTE_TESTS_PER_PART: '2' }
    expect(await automaticArtePartCount(small, root)).toBe(4)
    expect(await automaticArtePartCount({ ...small, BENCH_ONLY: 'mpcbench' }, root)).toBe(1)
    expect(await automaticArtePartCount({ ...small, ARTE_SPLIT: 'dev' }, root)).toBe(1)
    expect(await automaticArtePartCount({ ...small, ARTE_DATASET: 'missing.jsonl' }, root)).toBe(1)
    writeFileSync(join(root, 'broken.jsonl'), '{"id": 1,\n')
    expect(await automaticArtePartCount({ ...small, ARTE_DATASET: 'broken.jsonl' }, root)).toBe(1)
  })
})

describe('arteTestFiles', () => {
  it('one part: no files written, and part files of an earlier run are excluded', async () => {
    const { root, env } = projectWithRows('one', 3)
    const files = await arteTestFiles(root, env)
    expect(files).toEqual({ count: 1, explicit: false, oneAtATime: false, include: [], exclude: [`${ARTE_PARTS_DIR}/**`] })
    expect(existsSync(join(root, ARTE_PARTS_DIR))).toBe(false)
  })

  it('automatic parts replace the single file, run one at a time, and are inside bench/arte', async () => {
    const { root, env } = projectWithRows('auto', 5)
    const files = await arteTestFiles(root, { ...env, ARTE_TESTS_PER_PART: '2' })
    expect(files).toEqual({ count: 3, explicit: false, oneAtATime: true, include: [`${ARTE_PARTS_DIR}/*-of-3.eval.ts`], exclude: [ARTE_EVAL_FILE] })
    expect(ARTE_PARTS_DIR.startsWith('bench/arte/')).toBe(true)
    const dir = join(root, ARTE_PARTS_DIR)
    expect(readdirSync(dir).sort()).toEqual(['part-1-of-3.eval.ts', 'part-2-of-3.eval.ts', 'part-3-of-3.eval.ts'])
    expect(readFileSync(join(dir, 'part-2-of-3.eval.ts'), 'utf8')).toContain('await defineArteTests({ part: { index: 2, count: 3 } })\n')
    expect(readFileSync(join(dir, 'part-2-of-3.eval.ts'), 'utf8')).toContain('from "../../../src/arte/vitest/define-arte-tests.ts"')
  })

  it('ARTE_PARTS sets the count (run as Vitest schedules files), removes part files of another count, and leaves unchanged files untouched', async () => {
    const { root, env } = projectWithRows('explicit', 5)
    await arteTestFiles(root, { ...env, ARTE_TESTS_PER_PART: '2' })
    const dir = join(root, ARTE_PARTS_DIR)
    writeFileSync(join(dir, 'notes.txt'), 'kept')
    const files = await arteTestFiles(root, { ...env, ARTE_PARTS: '2' })
    expect(files).toMatchObject({ count: 2, explicit: true, oneAtATime: false, include: [`${ARTE_PARTS_DIR}/*-of-2.eval.ts`] })
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'part-1-of-2.eval.ts', 'part-2-of-2.eval.ts'])
    const written = statSync(join(dir, 'part-1-of-2.eval.ts')).mtimeMs
    await new Promise((resolve) => setTimeout(resolve, 20))
    await arteTestFiles(root, { ...env, ARTE_PARTS: '2' })
    // Watch mode sees no change when the config is loaded again.
    expect(statSync(join(dir, 'part-1-of-2.eval.ts')).mtimeMs).toBe(written)
  })
})
