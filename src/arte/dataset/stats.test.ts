import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { loadArteDataset } from './load-dataset.ts'
import type { ArteRow } from './row.ts'
import { computeArteStats, formatArteStats, formatArteStatsReport } from './stats.ts'

function row(overrides: Partial<ArteRow>): ArteRow {
  return {
    id: 1,
    question: 'q?',
    answer: 'a',
    message_ids: ['<m@x>'],
    inbox_address: 'a@x.example',
    query_date: '2001-01-01',
    how_realistic: 0.5,
    split: 'test',
    ...overrides,
  }
}

describe('formatArteStats', () => {
  it('prints the doc example exactly', () => {
    const text = formatArteStats({ totalTasks: 27_500, uniqueInboxes: 150, avgRealisticScore: 0.7821, avgMessageIdsPerTask: 2.43 })
    expect(text).toBe(
      ['Total tasks:              27,500', 'Unique inboxes:           150', 'Avg realistic score:      0.782', 'Avg message IDs per task: 2.4'].join('\n'),
    )
  })

  it('aligns every value at column 27', () => {
    const lines = formatArteStats({ totalTasks: 1_234_567, uniqueInboxes: 1_000, avgRealisticScore: 1, avgMessageIdsPerTask: 10 }).split('\n')
    expect(lines.map((line) => line.slice(26))).toEqual(['1,234,567', '1,000', '1.000', '10.0'])
    for (const line of lines) expect(line[25]).toBe(' ')
  })
})

describe('formatArteStatsReport', () => {
  it('frames the lines as the doc does', () => {
    const stats = { totalTasks: 27_500, uniqueInboxes: 150, avgRealisticScore: 0.782, avgMessageIdsPerTask: 2.4 }
    const rule = '═'.repeat(60)
    expect(formatArteStatsReport(stats, { split: 'test' })).toBe([rule, 'ART-E Dataset Statistics (test split)', rule, formatArteStats(stats), rule].join('\n'))
    expect(formatArteStatsReport(stats).split('\n')[1]).toBe('ART-E Dataset Statistics (all splits)')
  })
})

describe('computeArteStats', () => {
  it('is all zeros for no rows', () => {
    expect(computeArteStats([])).toEqual({ totalTasks: 0, uniqueInboxes: 0, avgRealisticScore: 0, avgMessageIdsPerTask: 0 })
  })

  it('counts distinct inboxes and averages scores and id counts', () => {
    const stats = computeArteStats([
      row({ inbox_address: 'a@x', how_realistic: 1, message_ids: ['<1>', '<2>', '<3>'] }),
      row({ inbox_address: 'b@x', how_realistic: 0.5, message_ids: [] }),
      row({ inbox_address: 'a@x', how_realistic: 0, message_ids: ['<4>', '<5>'] }),
    ])
    expect(stats).toEqual({ totalTasks: 3, uniqueInboxes: 2, avgRealisticScore: 0.5, avgMessageIdsPerTask: 5 / 3 })
  })
})

describeWithSharedData('computeArteStats on the real ART-E rows (vince.kaminski@enron.com)', () => {
  const file = sharedDataPath('art_e_questions', 'vince_kaminski_questions.jsonl')
  const raw = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { inbox_address: string; how_realistic: number; message_ids: string[]; split: string })

  it('matches values computed straight from the raw JSON', async () => {
    const rows = await loadArteDataset(file)
    expect(rows).toHaveLength(2020)
    const stats = computeArteStats(rows)
    expect(stats.totalTasks).toBe(raw.length)
    expect(stats.uniqueInboxes).toBe(new Set(raw.map((r) => r.inbox_address)).size)
    expect(stats.avgRealisticScore).toBeCloseTo(raw.reduce((sum, r) => sum + r.how_realistic, 0) / raw.length, 12)
    expect(stats.avgMessageIdsPerTask).toBeCloseTo(raw.reduce((sum, r) => sum + r.message_ids.length, 0) / raw.length, 12)
  })

  it('formats the test split with its own numbers', async () => {
    const testRaw = raw.filter((r) => r.split === 'test')
    const avgRealistic = testRaw.reduce((sum, r) => sum + r.how_realistic, 0) / testRaw.length
    const avgIds = testRaw.reduce((sum, r) => sum + r.message_ids.length, 0) / testRaw.length
    const text = formatArteStats(computeArteStats(await loadArteDataset(file, { split: 'test' })))
    expect(text).toBe(
      [
        `Total tasks:              ${testRaw.length}`,
        'Unique inboxes:           1',
        `Avg realistic score:      ${avgRealistic.toFixed(3)}`,
        `Avg message IDs per task: ${avgIds.toFixed(1)}`,
      ].join('\n'),
    )
  })
})
