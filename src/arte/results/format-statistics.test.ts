import { describe, expect, it } from 'vitest'
import type { ArteResults } from './results.ts'
import { rowSelectionRows } from './format-statistics.ts'

function config(rows: ArteResults['config']['rows']): Pick<ArteResults, 'config'> {
  return {
    config: {
      model: 'baseline',
      modelKind: 'baseline',
      split: 'test',
      ...(rows === undefined ? {} : { rows }),
      dataset: 'data/arte-demo-questions.jsonl',
      startedAt: '2025-01-01T00:00:00.000Z',
      finishedAt: '2025-01-01T00:00:01.000Z',
    },
  }
}

describe('rowSelectionRows', () => {
  it("names the openpipe selection in one row: OpenPipe's filter and its ids", () => {
    expect(rowSelectionRows(config('openpipe'))).toEqual([
      ['rows', "openpipe (OpenPipe's evaluation rows: one source message at most, known-bad ids 49, 101, 129, 171, 208, 266, 327 left out)"],
    ])
  })

  it('prints nothing for every row of the split, recorded or not', () => {
    expect(rowSelectionRows(config('all'))).toEqual([])
    expect(rowSelectionRows(config(undefined))).toEqual([])
  })
})
