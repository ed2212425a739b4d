import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { InvalidFormatError } from '../core/errors.ts'
import { encodeTestParquet } from '../testing/encode-parquet.ts'
import { DatasetFileNotFoundError, loadDataset } from './load-dataset.ts'

const dir = mkdtempSync(join(tmpdir(), 'eval-dataset-'))

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

async function failure(promise: Promise<unknown>): Promise<InvalidFormatError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(InvalidFormatError)
  return error as InvalidFormatError
}

const CSV = 'id,country,capital,region\nfr,France,Paris,Europe\npe,Peru,Lima,"South America, west"\n'

describe('loadDataset', () => {
  it('reads a CSV with named columns: id, input and expected from them, every other column as metadata', async () => {
    const cases = await loadDataset(file('capitals.csv', CSV), { id: 'id', input: 'country', expected: 'capital' })
    expect(cases).toEqual([
      { id: 'fr', input: 'France', expected: 'Paris', metadata: { region: 'Europe' } },
      { id: 'pe', input: 'Peru', expected: 'Lima', metadata: { region: 'South America, west' } },
    ])
  })

  it('reads .jsonl, .json ({rows}) and .parquet the same way; numbers and bigints become string ids', async () => {
    const jsonl = await loadDataset(
      file('a.jsonl', '{"id": 1, "input": {"q": "2+2"}, "expected": 4, "tag": "math"}\n\n{"id": 2, "input": {"q": "3+3"}, "expected": 6}\n'),
    )
    expect(jsonl).toEqual([
      { id: '1', input: { q: '2+2' }, expected: 4, metadata: { tag: 'math' } },
      { id: '2', input: { q: '3+3' }, expected: 6, metadata: {} },
    ])
    const json = await loadDataset(file('a.json', JSON.stringify({ rows: [{ key: 'k1', question: 'q1', answer: 'a1' }] })), {
      id: 'key',
      input: 'question',
      expected: 'answer',
    })
    expect(json).toEqual([{ id: 'k1', input: 'q1', expected: 'a1', metadata: {} }])
    const parquet = encodeTestParquet([
      { name: 'id', type: 'int64', values: [7n, 9_007_199_254_740_993n] },
      { name: 'question', type: 'string', values: ['q7', 'q8'] },
      { name: 'answer', type: 'string', values: ['a7', 'a8'] },
      { name: 'difficulty', type: 'double', values: [0.5, 1] },
    ])
    const fromParquet = await loadDataset(file('a.parquet', parquet), { input: 'question', expected: 'answer' })
    expect(fromParquet).toEqual([
      { id: '7', input: 'q7', expected: 'a7', metadata: { difficulty: 0.5 } },
      { id: '9007199254740993', input: 'q8', expected: 'a8', metadata: { difficulty: 1 } },
    ])
  })

  it('takes functions of the row for id, input and expected', async () => {
    const cases = await loadDataset<string, string[]>(file('f.csv', CSV), {
      id: (row) => `${String(row.id)}-x`,
      input: (row, index) => `${index}:${String(row.country)}`,
      expected: (row) => [String(row.capital)],
    })
    expect(cases.map((c) => [c.id, c.input, c.expected])).toEqual([
      ['fr-x', '0:France', ['Paris']],
      ['pe-x', '1:Peru', ['Lima']],
    ])
    // Columns a function reads stay in the metadata: only named columns are taken out.
    expect(cases[0]?.metadata).toEqual({ id: 'fr', country: 'France', capital: 'Paris', region: 'Europe' })
  })

  it('without an id column the cases have no ids; without an expected column their expected is undefined', async () => {
    const cases = await loadDataset(file('plain.jsonl', '{"input": "a"}\n{"input": "b"}\n'))
    expect(cases).toEqual([
      { input: 'a', expected: undefined, metadata: {} },
      { input: 'b', expected: undefined, metadata: {} },
    ])
    expect(cases[0]).not.toHaveProperty('id')
  })

  it('a missing file names the file and the fix', async () => {
    const error = await loadDataset(join(dir, 'nope.csv')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DatasetFileNotFoundError)
    expect((error as DatasetFileNotFoundError).code).toBe('ERR_DATASET_NOT_FOUND')
    expect((error as Error).message).toContain(`Cannot read dataset ${join(dir, 'nope.csv')}`)
    expect((error as Error).message).toContain('Fix: Check the path given to loadDataset')
  })

  it("a missing column names the file, the row, the column and the row's columns", async () => {
    const path = file('missing.csv', CSV)
    const error = await failure(loadDataset(path, { input: 'nation', expected: 'capital' }))
    expect(error.problem).toBe(`Invalid dataset row ${path}:2: no \`nation\` column (the case's input).`)
    expect(error.file).toBe(`${path}:2`)
    expect(error.field).toBe('nation')
    expect(error.hint).toBe(
      `Add a \`nation\` value to every row of ${path}, or pass loadDataset(file, { input: 'another column' }) naming the column that holds it (this row has: id, country, capital, region).`,
    )
    // A named id column that one row lacks.
    const jsonl = file('no-id.jsonl', '{"key": "a", "input": 1}\n{"input": 2}\n')
    const noId = await failure(loadDataset(jsonl, { id: 'key' }))
    expect(noId.problem).toBe(`Invalid dataset row ${jsonl}:2: it has no \`key\` column, but every case needs a non-empty id (a string or a number).`)
    expect(noId.file).toBe(`${jsonl}:2`)
  })

  it('an empty id names its row; a duplicate id names both rows', async () => {
    const empty = file('empty.csv', 'id,input,expected\na,1,1\n  ,2,2\n')
    const emptyError = await failure(loadDataset(empty))
    expect(emptyError.problem).toBe(`Invalid dataset row ${empty}:3: its id is an empty string, but every case needs a non-empty id (a string or a number).`)
    expect(emptyError.hint).toContain('unique in')
    const duplicate = file('dup.csv', 'id,input,expected\na,1,1\nb,2,2\na,3,3\n')
    const duplicateError = await failure(loadDataset(duplicate))
    expect(duplicateError.problem).toBe(`Invalid dataset ${duplicate}: two rows have the id "a": ${duplicate}:2 and ${duplicate}:4.`)
    expect(duplicateError.file).toBe(`${duplicate}:4`)
    expect(duplicateError.hint).toBe(
      `Give every row of ${duplicate} a unique id: it names the test and the results row (change or remove one of the two rows).`,
    )
  })

  it('bad JSON and bad CSV name the line; an unknown extension names the file', async () => {
    const jsonl = file('bad.jsonl', '{"input": 1}\n{"input": \n')
    expect((await failure(loadDataset(jsonl))).problem).toMatch(new RegExp(`^Invalid dataset row ${jsonl}:2: `))
    const csv = file('bad.csv', 'id,input\na,1\nb,2,3\n')
    const csvError = await failure(loadDataset(csv))
    expect(csvError.file).toBe(`${csv}:3`)
    expect(csvError.hint).toContain('one cell per header column (id,input)')
    const txt = file('cases.txt', 'x')
    expect((await failure(loadDataset(txt))).problem).toBe(`Unsupported dataset file ${txt}: unknown extension ".txt"`)
  })

  it('a row that is not an object, and an id function that throws, name the row', async () => {
    const jsonl = file('scalar.jsonl', '{"input": 1}\n5\n')
    expect((await failure(loadDataset(jsonl))).problem).toBe(`Invalid dataset row ${jsonl}:2: expected an object (one value per column), got 5.`)
    const throwing = await failure(
      loadDataset(file('t.csv', CSV), {
        input: 'country',
        id: (row) => {
          if (row.id === 'pe') throw new Error('no peru')
          return String(row.id)
        },
      }),
    )
    expect(throwing.problem).toContain(':3: the `id` function of loadDataset threw: no peru')
  })
})
