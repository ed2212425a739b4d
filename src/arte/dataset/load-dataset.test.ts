import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type BenchError, ConfigError, InvalidFormatError } from '../../core/errors.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { DatasetNotFoundError } from './dataset-errors.ts'
import { loadArteDataset, loadArteDatasetFiles, splitFromFileName } from './load-dataset.ts'
import type { ArteRow } from './row.ts'
import { encodeTestParquet } from '../../testing/encode-parquet.ts'

const dir = mkdtempSync(join(tmpdir(), 'arte-load-'))

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

const ROWS: ArteRow[] = [
  {
    id: 1,
    question: 'Where is the offsite?',
    answer: 'Lisbon',
    message_ids: ['<a@demo>', '<b@demo>'],
    inbox_address: 'x@demo.example',
    query_date: '2001-03-02',
    how_realistic: 0.8,
    split: 'test',
  },
  {
    id: 2,
    question: 'Who signed it?',
    answer: 'Ana Ruiz',
    message_ids: ['<c@demo>'],
    inbox_address: 'y@demo.example',
    query_date: '2001-04-01',
    how_realistic: 0.5,
    split: 'train',
  },
  {
    id: 3,
    question: 'How much?',
    answer: '$4,200',
    message_ids: [],
    inbox_address: 'x@demo.example',
    query_date: '2001-05-01',
    how_realistic: 1,
    split: 'test',
  },
]

async function expectInvalid(promise: Promise<unknown>, where: RegExp, field: string): Promise<InvalidFormatError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(InvalidFormatError)
  const invalid = error as InvalidFormatError
  expect(invalid.message).toMatch(where)
  expect(invalid.field).toBe(field)
  expect(invalid.message).toContain(field)
  return invalid
}

describe('loadArteDataset: .jsonl', () => {
  const path = file('rows.jsonl', `${ROWS.map((r) => JSON.stringify(r)).join('\r\n')}\n\n`)

  it('reads every row, CRLF and blank lines included', async () => {
    expect(await loadArteDataset(path)).toEqual(ROWS)
  })

  it('ignores a UTF-8 byte order mark', async () => {
    expect(await loadArteDataset(file('bom.jsonl', `\uFEFF${JSON.stringify(ROWS[0])}\n`))).toEqual([ROWS[0]])
  })

  it('filters by split, then limits; limit 0 keeps all', async () => {
    expect((await loadArteDataset(path, { split: 'test' })).map((r) => r.id)).toEqual([1, 3])
    expect((await loadArteDataset(path, { split: 'test', limit: 1 })).map((r) => r.id)).toEqual([1])
    expect((await loadArteDataset(path, { split: 'train', limit: 0 })).map((r) => r.id)).toEqual([2])
    expect(await loadArteDataset(path, { limit: 0 })).toHaveLength(3)
  })

  it('rejects a negative or fractional limit', async () => {
    await expect(loadArteDataset(path, { limit: -1 })).rejects.toBeInstanceOf(ConfigError)
    await expect(loadArteDataset(path, { limit: 1.5 })).rejects.toBeInstanceOf(ConfigError)
  })

  it('names file, line and field of a bad row', async () => {
    const bad = file('bad.jsonl', [JSON.stringify(ROWS[0]), JSON.stringify({ ...ROWS[1], how_realistic: 'high' })].join('\n'))
    await expectInvalid(loadArteDataset(bad), /bad\.jsonl:2:\n {2}how_realistic: /, 'how_realistic')
  })

  it('names file and line of a line that is not JSON', async () => {
    const bad = file('broken.jsonl', `${JSON.stringify(ROWS[0])}\n{"id": 2,\n`)
    const error = await loadArteDataset(bad).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidFormatError)
    expect((error as Error).message).toMatch(/broken\.jsonl:2: not valid JSON/)
  })
})

describe('loadArteDataset: .json', () => {
  it('reads an array and {rows: [...]}', async () => {
    expect(await loadArteDataset(file('array.json', JSON.stringify(ROWS)))).toEqual(ROWS)
    expect(await loadArteDataset(file('object.json', JSON.stringify({ rows: ROWS })))).toEqual(ROWS)
  })

  it('reads the Hugging Face rows-API shape, taking the split from the file name', async () => {
    const api = {
      features: [],
      rows: ROWS.map(({ split: _split, ...row }, index) => ({ row_idx: index, row, truncated_cells: [] })),
      num_rows_total: 3,
    }
    const rows = await loadArteDataset(file('rows-test-0-100.json', JSON.stringify(api)))
    expect(rows.map((r) => r.split)).toEqual(['test', 'test', 'test'])
    expect(rows.map((r) => r.answer)).toEqual(ROWS.map((r) => r.answer))
  })

  it('keeps a split field over the file name', async () => {
    const rows = await loadArteDataset(file('test-rows.json', JSON.stringify(ROWS)))
    expect(rows.map((r) => r.split)).toEqual(['test', 'train', 'test'])
  })

  it('names the row and field of a bad row', async () => {
    const { split: _split, ...noSplit } = ROWS[0] as ArteRow
    await expectInvalid(loadArteDataset(file('nosplit.json', JSON.stringify([ROWS[1], noSplit]))), /nosplit\.json row 2:/, 'split')
  })

  it('rejects JSON that holds no rows', async () => {
    await expectInvalid(loadArteDataset(file('scalar.json', '{"data": 1}')), /expected an array of rows/, 'rows')
  })
})

describe('loadArteDataset: .csv', () => {
  it('reads JSON-array, Python-list and NumPy-repr message_ids, multi-line fields, numbers from text', async () => {
    const csv = [
      'id,question,answer,message_ids,inbox_address,query_date,how_realistic,split',
      `1,Where is the offsite?,Lisbon,"['<a@demo>', '<b@demo>']",x@demo.example,2001-03-02,0.8,test`,
      `2,"Who signed it?","Ana
Ruiz","[""<c@demo>""]",y@demo.example,2001-04-01,0.5,train`,
      `3,How much?,"$4,200","['<d@demo>'
 '<e@demo>']",x@demo.example,2001-05-01,1,test`,
    ].join('\n')
    const rows = await loadArteDataset(file('rows.csv', csv))
    expect(rows.map((r) => r.message_ids)).toEqual([['<a@demo>', '<b@demo>'], ['<c@demo>'], ['<d@demo>', '<e@demo>']])
    expect(rows[1]?.answer).toBe('Ana\nRuiz')
    expect(rows.map((r) => [r.id, r.how_realistic])).toEqual([
      [1, 0.8],
      [2, 0.5],
      [3, 1],
    ])
  })

  it('names the line and field of a bad row', async () => {
    const csv = [
      'id,question,answer,message_ids,inbox_address,query_date,how_realistic,split',
      `1,Q?,A,"['<a@demo>']",x@demo.example,2001-03-02,0.8,test`,
      `2,Q?,A,<not-a-list>,x@demo.example,2001-03-02,0.8,test`,
    ].join('\n')
    await expectInvalid(loadArteDataset(file('badids.csv', csv)), /badids\.csv:3:/, 'message_ids')
  })

  it('reports malformed CSV as an InvalidFormatError naming the file', async () => {
    const csv = 'id,question\n1,"unterminated\n'
    const error = await loadArteDataset(file('broken.csv', csv)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidFormatError)
    expect((error as InvalidFormatError).file).toMatch(/broken\.csv:\d+$/)
  })
})

describe('loadArteDataset: .parquet', () => {
  const parquet = encodeTestParquet([
    { name: 'id', type: 'int64', values: [6143n, 9_007_199_254_740_993n] },
    { name: 'question', type: 'string', values: ['Who will interview?', 'Quién firmó?'] },
    { name: 'answer', type: 'string', values: ['Zimin Lu.', 'Ana'] },
    { name: 'message_ids', type: 'string-list', values: [['<a@demo>', '<b@demo>'], []] },
    { name: 'how_realistic', type: 'float', values: [0.6, 0.75] },
    { name: 'inbox_address', type: 'string', values: ['x@demo.example', 'y@demo.example'] },
    { name: 'query_date', type: 'string', values: ['2000-05-10', '2001-01-14'] },
  ])

  it('reads rows, bigint ids as numbers (or strings past 2^53), float32 scores, the split from the file name', async () => {
    const rows = await loadArteDataset(file('train-00000-of-00001.parquet', parquet))
    expect(rows).toEqual([
      {
        id: 6143,
        question: 'Who will interview?',
        answer: 'Zimin Lu.',
        message_ids: ['<a@demo>', '<b@demo>'],
        how_realistic: 0.6000000238418579,
        inbox_address: 'x@demo.example',
        query_date: '2000-05-10',
        split: 'train',
      },
      {
        id: '9007199254740993',
        question: 'Quién firmó?',
        answer: 'Ana',
        message_ids: [],
        how_realistic: 0.75,
        inbox_address: 'y@demo.example',
        query_date: '2001-01-14',
        split: 'train',
      },
    ])
    expect(await loadArteDataset(join(dir, 'train-00000-of-00001.parquet'), { split: 'test' })).toEqual([])
  })

  it('names the row and field of a null value', async () => {
    const bad = encodeTestParquet([
      { name: 'id', type: 'int64', values: [1n, 2n] },
      { name: 'question', type: 'string', values: ['Q?', 'Q?'] },
      { name: 'answer', type: 'string', values: ['A', null] },
      { name: 'message_ids', type: 'string-list', values: [[], []] },
      { name: 'how_realistic', type: 'double', values: [0.5, 0.5] },
      { name: 'inbox_address', type: 'string', values: ['x@demo.example', 'x@demo.example'] },
      { name: 'query_date', type: 'string', values: ['2001-01-01', '2001-01-01'] },
    ])
    await expectInvalid(loadArteDataset(file('test.parquet', bad)), /test\.parquet row 2:/, 'answer')
  })

  it('reports a file that is not parquet', async () => {
    const error = await loadArteDataset(file('fake.parquet', 'not parquet at all')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidFormatError)
    expect((error as Error).message).toMatch(/fake\.parquet: not a readable parquet file/)
  })
})

describe('loadArteDataset: files', () => {
  it('fails with DatasetNotFoundError for a missing file', async () => {
    const error = await loadArteDataset(join(dir, 'missing.jsonl')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DatasetNotFoundError)
    expect((error as BenchError).code).toBe('ERR_DATASET_NOT_FOUND')
  })

  it('rejects an unknown extension with a hint listing the supported ones', async () => {
    const error = await loadArteDataset(file('rows.txt', '')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidFormatError)
    expect((error as BenchError).hint).toMatch(/\.jsonl, \.json, \.csv or \.parquet/)
  })

  it('loads several files as one, the limit spanning them', async () => {
    const a = file('a.jsonl', ROWS.map((r) => JSON.stringify(r)).join('\n'))
    const b = file('b.jsonl', ROWS.map((r) => JSON.stringify({ ...r, id: Number(r.id) + 10 })).join('\n'))
    expect((await loadArteDatasetFiles([a, b], { split: 'test' })).map((r) => r.id)).toEqual([1, 3, 11, 13])
    expect((await loadArteDatasetFiles([a, b], { split: 'test', limit: 3 })).map((r) => r.id)).toEqual([1, 3, 11])
  })

  it('takes the split from the file name only when exactly one is named', () => {
    expect(splitFromFileName('/x/test-00000-of-00001.parquet')).toBe('test')
    expect(splitFromFileName('/train/rows.parquet')).toBeUndefined()
    expect(splitFromFileName('train_test.json')).toBeUndefined()
    expect(splitFromFileName('contest.json')).toBeUndefined()
    expect(splitFromFileName('rows-train-0-100.json')).toBe('train')
  })
})

describeWithSharedData('loadArteDataset on the real ART-E rows', () => {
  const path = sharedDataPath('art_e_questions', 'vince_kaminski_questions.jsonl')

  it('loads all 2,020 rows, and the splits add up', async () => {
    const all = await loadArteDataset(path)
    const test = await loadArteDataset(path, { split: 'test' })
    const train = await loadArteDataset(path, { split: 'train' })
    expect(all).toHaveLength(2020)
    expect(test.length + train.length).toBe(2020)
    expect(test.length).toBeGreaterThan(0)
    expect(all.every((r) => r.inbox_address === 'vince.kaminski@enron.com')).toBe(true)
  })

  it('round-trips through CSV with Python-style message_ids, and through parquet', async () => {
    const rows = await loadArteDataset(path, { limit: 50 })
    const quote = (s: string) => `"${s.replaceAll('"', '""')}"`
    const csv = [
      'id,question,answer,message_ids,inbox_address,query_date,how_realistic,split',
      ...rows.map((r) =>
        [
          r.id,
          quote(r.question),
          quote(r.answer),
          quote(`[${r.message_ids.map((m) => `'${m}'`).join(', ')}]`),
          r.inbox_address,
          r.query_date,
          r.how_realistic,
          r.split,
        ].join(','),
      ),
    ].join('\n')
    expect(await loadArteDataset(file('real.csv', csv))).toEqual(rows)

    const testRows = rows.filter((r) => r.split === 'test')
    const parquet = encodeTestParquet([
      { name: 'id', type: 'int64', values: testRows.map((r) => BigInt(r.id)) },
      { name: 'question', type: 'string', values: testRows.map((r) => r.question) },
      { name: 'answer', type: 'string', values: testRows.map((r) => r.answer) },
      { name: 'message_ids', type: 'string-list', values: testRows.map((r) => r.message_ids) },
      { name: 'how_realistic', type: 'double', values: testRows.map((r) => r.how_realistic) },
      { name: 'inbox_address', type: 'string', values: testRows.map((r) => r.inbox_address) },
      { name: 'query_date', type: 'string', values: testRows.map((r) => r.query_date) },
    ])
    expect(await loadArteDataset(file('test-0000.parquet', parquet))).toEqual(testRows)
  })
})

describe('loadArteDataset: query_date is a real calendar day', () => {
  const withDate = (query_date: string): ArteRow => ({ ...(ROWS[0] as ArteRow), query_date })

  it.each(['2023-02-30', '2023-13-45', '2023-03-01garbage', '2023-3-1', '03/01/2023', '2023-03-01T25:00'])(
    'rejects %j in .jsonl, naming the line, the value and the format',
    async (date) => {
      const bad = file(`date-${date.replace(/\W/g, '_')}.jsonl`, [JSON.stringify(ROWS[1]), JSON.stringify(withDate(date))].join('\n'))
      const error = await expectInvalid(loadArteDataset(bad), /\.jsonl:2:\n {2}query_date: expected a real calendar day written YYYY-MM-DD, got /, 'query_date')
      expect(error.message).toContain(JSON.stringify(date))
      expect(error.hint).toMatch(/^Set `query_date` in the ART-E row at \S+\.jsonl:2 to a real calendar day written YYYY-MM-DD, e\.g\. "2001-05-14"/)
    },
  )

  it('rejects an impossible day in .csv and .parquet too', async () => {
    const csv = [
      'id,question,answer,message_ids,inbox_address,query_date,how_realistic,split',
      `1,Q?,A,"['<a@demo>']",x@demo.example,2023-02-30,0.8,test`,
    ].join('\n')
    await expectInvalid(loadArteDataset(file('baddate.csv', csv)), /baddate\.csv:2:\n {2}query_date: .*got "2023-02-30"/, 'query_date')
    const parquet = encodeTestParquet([
      { name: 'id', type: 'int64', values: [1n] },
      { name: 'question', type: 'string', values: ['Q?'] },
      { name: 'answer', type: 'string', values: ['A'] },
      { name: 'message_ids', type: 'string-list', values: [[]] },
      { name: 'how_realistic', type: 'double', values: [0.5] },
      { name: 'inbox_address', type: 'string', values: ['x@demo.example'] },
      { name: 'query_date', type: 'string', values: ['2023-13-45'] },
    ])
    await expectInvalid(
      loadArteDataset(file('test-baddate.parquet', parquet)),
      /test-baddate\.parquet row 1:\n {2}query_date: .*got "2023-13-45"/,
      'query_date',
    )
  })

  it('accepts a leap day and a day followed by a time', async () => {
    const ok = file(
      'dates-ok.jsonl',
      ['2024-02-29', '2001-05-14T00:00:00', '2001-05-14 09:30', '2001-05-14T09:30:00.000Z', '2001-05-14T09:30:00-07:00']
        .map((date, i) => JSON.stringify({ ...withDate(date), id: i }))
        .join('\n'),
    )
    expect((await loadArteDataset(ok)).map((row) => row.query_date)).toEqual([
      '2024-02-29',
      '2001-05-14T00:00:00',
      '2001-05-14 09:30',
      '2001-05-14T09:30:00.000Z',
      '2001-05-14T09:30:00-07:00',
    ])
  })
})

describe('loadArteDataset: the error of a bad row says what the field must hold', () => {
  it('says "missing" for a missing field, and the fix names its type with an example', async () => {
    const { query_date: _date, ...noDate } = ROWS[0] as ArteRow
    const error = await expectInvalid(
      loadArteDataset(file('nodate.jsonl', JSON.stringify(noDate))),
      /nodate\.jsonl:1:\n {2}query_date: missing$/m,
      'query_date',
    )
    expect(error.hint).toContain('a real calendar day written YYYY-MM-DD, e.g. "2001-05-14"')
    expect(error.cause).toBeUndefined()
  })

  it.each([
    ['how_realistic', 'high', 'a number from 0 to 1, got "high"', 'to a number from 0 to 1, e.g. 0.75'],
    ['id', true, 'a whole number or a non-empty string, got true', 'to a whole number or a non-empty string, e.g. 6143'],
    ['message_ids', '<a@b>', 'a list of Message-ID strings, got "<a@b>"', 'to a list of Message-ID strings, e.g. ["<'],
    ['split', 'dev', '"train" or "test", got "dev"', 'to "train" or "test", e.g. "test"'],
  ])('%s = %j', async (field, value, line, fix) => {
    const error = await expectInvalid(
      loadArteDataset(file(`bad-${field}.jsonl`, JSON.stringify({ ...ROWS[0], [field]: value }))),
      new RegExp(`bad-${field}\\.jsonl:1:\\n {2}${field}: expected `),
      field,
    )
    expect(error.message).toContain(line)
    expect(error.hint).toContain(fix)
  })

  it('names a line that is not an object', async () => {
    const error = (await loadArteDataset(file('scalar.jsonl', `${JSON.stringify(ROWS[0])}\n42\n`)).catch((e: unknown) => e)) as InvalidFormatError
    expect(error.message).toMatch(/scalar\.jsonl:2: expected an object with the row's fields, got 42/)
    expect(error.hint).toMatch(/as one object with the fields id, question, answer, message_ids, inbox_address, query_date, how_realistic, split/)
  })
})

describe('loadArteDataset: bad JSON and CSV are located', () => {
  it('gives line and column of bad JSON in a .json file, and shows the line', async () => {
    const text = '[\n  {"id": 1},\n  {"id": 2},\n]\n'
    const error = (await loadArteDataset(file('trailing.json', text)).catch((e: unknown) => e)) as InvalidFormatError
    expect(error).toBeInstanceOf(InvalidFormatError)
    expect(error.message).toContain(
      `trailing.json: not valid JSON at line 3, column 12: a trailing comma before ']' (remove it)\n  3 |   {"id": 2},\n    |            ^\n  Fix:`,
    )
    expect(error.message).not.toMatch(/position \d+/)
    expect(error.hint).toMatch(/Fix the JSON at \S+trailing\.json:3:12\./)
  })

  it('gives the column of bad JSON on a .jsonl line', async () => {
    const error = (await loadArteDataset(file('badline.jsonl', `${JSON.stringify(ROWS[0])}\n{"id": 2, "question": 'Q?'}\n`)).catch((e: unknown) => e)) as Error
    expect(error.message).toMatch(/badline\.jsonl:2: not valid JSON at column 23: a string in single quotes \(JSON needs double quotes\)\n {2}2 \| \{"id": 2/)
  })

  it('names a column missing from the CSV header', async () => {
    const csv = ['id,question,answer,message_ids,inbox_address,how_realistic,split', `1,Q?,A,"['<a@demo>']",x@demo.example,0.8,test`].join('\n')
    const error = await expectInvalid(
      loadArteDataset(file('nodate.csv', csv)),
      /nodate\.csv: its header \(line 1: id,question,.*\) has no column query_date\./,
      'query_date',
    )
    expect(error.hint).toMatch(
      /^Add query_date to the header line of \S+nodate\.csv; the columns are id,question,answer,message_ids,inbox_address,query_date,how_realistic,split/,
    )
  })

  it('names the CSV line with too few cells, and says how to quote', async () => {
    const csv = [
      'id,question,answer,message_ids,inbox_address,query_date,how_realistic,split',
      `1,Q?,A,"['<a@demo>']",x@demo.example,2001-03-02,0.8,test`,
      '2,Q?,A',
    ].join('\n')
    const error = (await loadArteDataset(file('short.csv', csv)).catch((e: unknown) => e)) as InvalidFormatError
    expect(error.file).toMatch(/short\.csv:3$/)
    expect(error.hint).toMatch(/^Give line 3 of \S+short\.csv one cell per header column \(id,question,.*\): a cell holding a comma/)
  })
})
