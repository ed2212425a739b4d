import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURE_DATASET } from '../../../fixtures/arte-e2e/harness.ts'
import { InvalidFormatError } from '../../core/errors.ts'
import { loadArteDataset } from '../dataset/load-dataset.ts'
import type { ArteRow } from '../dataset/row.ts'
import { assertUniqueIds } from './define-arte-tests.ts'

const dir = mkdtempSync(join(tmpdir(), 'arte-unique-ids-'))
const [a, b, c] = readFileSync(FIXTURE_DATASET, 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => JSON.parse(line) as ArteRow) as [ArteRow, ArteRow, ArteRow]

function thrown(fn: () => void): InvalidFormatError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidFormatError)
    return error as InvalidFormatError
  }
  throw new Error('expected assertUniqueIds to throw')
}

describe('assertUniqueIds names both rows of a duplicate id', () => {
  it('by file and line for rows loaded from a file, with both ids as written', async () => {
    const file = join(dir, 'dup.jsonl')
    writeFileSync(file, [a, { ...b, id: 7 }, c, { ...b, id: '7' }].map((row) => JSON.stringify(row)).join('\n'))
    const rows = await loadArteDataset(file)
    const error = thrown(() => assertUniqueIds(rows, file))
    expect(error.message).toBe(
      `ART-E dataset ${file} has two rows with id "7": 7 at ${file}:2 and "7" at ${file}:4.\n  Fix: Give every row a unique id: it is the test name.`,
    )
    expect(error.field).toBe('id')
    expect(error.file).toBe(`${file}:4`)
  })

  it('by position for rows given in code', () => {
    const error = thrown(() => assertUniqueIds([a, b, { ...c, id: a.id }], 'q.jsonl'))
    expect(error.message).toContain(`two rows with id "${a.id}": ${a.id} at row 1 of the rows given and ${a.id} at row 3 of the rows given.`)
  })
})
