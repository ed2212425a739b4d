import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { loadArteDataset, loadArteDatasetFiles } from './load-dataset.ts'
import { OPENPIPE_EXCLUDED_IDS, isOpenPipeEvaluationRow } from './openpipe-rows.ts'
import type { ArteRow } from './row.ts'
import { selectsArteRow } from './row-selection.ts'

function row(id: number | string, messageIds: number, split: 'train' | 'test' = 'test'): ArteRow {
  return {
    id,
    question: `Question ${id}?`,
    answer: `answer ${id}`,
    message_ids: Array.from({ length: messageIds }, (_, i) => `<m${i}.${id}@demo.example>`),
    inbox_address: 'x@demo.example',
    query_date: '2001-03-02',
    how_realistic: 0.5,
    split,
  }
}

describe('isOpenPipeEvaluationRow (query_iterators.py: max_messages=1, bad_queries)', () => {
  it('keeps a row with one source message, or none (len(message_ids) <= 1)', () => {
    expect(isOpenPipeEvaluationRow(row(7, 1))).toBe(true)
    expect(isOpenPipeEvaluationRow(row(7, 0))).toBe(true)
  })

  it('leaves out a row citing several source messages', () => {
    expect(isOpenPipeEvaluationRow(row(7, 2))).toBe(false)
    expect(isOpenPipeEvaluationRow(row(7, 3))).toBe(false)
  })

  it("leaves out OpenPipe's seven known-bad ids, as numbers or as the same id written as text", () => {
    expect(OPENPIPE_EXCLUDED_IDS).toEqual([49, 101, 129, 171, 208, 266, 327])
    for (const id of OPENPIPE_EXCLUDED_IDS) {
      expect(isOpenPipeEvaluationRow(row(id, 1)), String(id)).toBe(false)
      expect(isOpenPipeEvaluationRow(row(String(id), 1)), JSON.stringify(String(id))).toBe(false)
    }
    expect(isOpenPipeEvaluationRow(row(50, 1))).toBe(true)
    expect(isOpenPipeEvaluationRow(row(1049, 1))).toBe(true)
  })

  it('looks at neither split: the ids are left out of train and test alike', () => {
    expect(isOpenPipeEvaluationRow(row(49, 1, 'train'))).toBe(false)
    expect(isOpenPipeEvaluationRow(row(48, 1, 'train'))).toBe(true)
  })

  it('is what the openpipe selection keeps; all keeps every row', () => {
    for (const candidate of [row(7, 1), row(7, 2), row(49, 1), row(8, 0)]) {
      expect(selectsArteRow('openpipe', candidate)).toBe(isOpenPipeEvaluationRow(candidate))
      expect(selectsArteRow('all', candidate)).toBe(true)
    }
  })
})

describe('loadArteDataset with rows: openpipe', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arte-openpipe-rows-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'rows.jsonl')
  // In file order: 1 (two sources), 2, 49 (known bad), 3 (no source), 4 (train), 5, 6.
  const rows = [row(1, 2), row(2, 1), row(49, 1), row(3, 0), row(4, 1, 'train'), row(5, 1), row(6, 1)]
  writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`)

  it('keeps the split first, then the openpipe rows, in file order', async () => {
    expect((await loadArteDataset(file, { split: 'test', rows: 'openpipe' })).map((r) => r.id)).toEqual([2, 3, 5, 6])
    expect((await loadArteDataset(file, { split: 'test', rows: 'all' })).map((r) => r.id)).toEqual([1, 2, 49, 3, 5, 6])
    expect((await loadArteDataset(file, { split: 'test' })).map((r) => r.id)).toEqual([1, 2, 49, 3, 5, 6])
  })

  it('applies the limit after the selection: the first N rows OpenPipe keeps (as its `queries[:limit]`)', async () => {
    expect((await loadArteDataset(file, { split: 'test', rows: 'openpipe', limit: 2 })).map((r) => r.id)).toEqual([2, 3])
    expect((await loadArteDataset(file, { split: 'test', rows: 'all', limit: 2 })).map((r) => r.id)).toEqual([1, 2])
    expect((await loadArteDatasetFiles([file, file], { split: 'test', rows: 'openpipe', limit: 5 })).map((r) => r.id)).toEqual([2, 3, 5, 6, 2])
  })
})

/**
 * OpenPipe's rule, written as their Python is (`len(x["message_ids"]) <= max_messages` and `x["id"] not in
 * bad_queries`), counted on the real rows by hand: 197 of 263 test rows and 1,380 of 1,757 train rows cite one message
 * (no row cites none, none has a known-bad id: the copy's ids run from 6,143 up).
 */
const EXPECTED_KEPT = { test: { all: 263, openpipe: 197 }, train: { all: 1757, openpipe: 1380 } } as const

describeWithSharedData('the openpipe selection on the real ART-E rows (vince.kaminski@enron.com)', () => {
  const file = sharedDataPath('art_e_questions', 'vince_kaminski_questions.jsonl')
  const raw = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { id: number; message_ids: string[]; split: 'train' | 'test' })

  for (const split of ['test', 'train'] as const) {
    const expected = EXPECTED_KEPT[split]
    it(`keeps ${expected.openpipe} of the ${expected.all} ${split} rows`, async ({ annotate }) => {
      const all = await loadArteDataset(file, { split })
      const kept = await loadArteDataset(file, { split, rows: 'openpipe' })
      await annotate(`openpipe keeps ${kept.length} of ${all.length} ${split} rows`)
      expect(all).toHaveLength(expected.all)
      expect(kept).toHaveLength(expected.openpipe)
      const byRule = raw.filter((r) => r.split === split && r.message_ids.length <= 1 && !OPENPIPE_EXCLUDED_IDS.includes(r.id))
      expect(kept.map((r) => r.id)).toEqual(byRule.map((r) => r.id))
      expect(kept.every((r) => r.message_ids.length === 1)).toBe(true)
    })
  }

  it('with a limit, runs the first rows OpenPipe keeps, in file order (its benchmark: test split, limit 100)', async () => {
    const kept = await loadArteDataset(file, { split: 'test', rows: 'openpipe' })
    const first = await loadArteDataset(file, { split: 'test', rows: 'openpipe', limit: 100 })
    expect(first.map((r) => r.id)).toEqual(kept.slice(0, 100).map((r) => r.id))
  })
})
