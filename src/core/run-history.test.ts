import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from './errors.ts'
import { historyRunId, historySettingsFromEnv, keepInHistory, latestInHistory } from './run-history.ts'

describe('run history', () => {
  it('keeps a copy per run and removes the oldest runs beyond the cap', () => {
    const dir = mkdtempSync(join(tmpdir(), 'history-'))
    const file = join(dir, 'results.json')
    for (let i = 0; i < 4; i++) {
      writeFileSync(file, JSON.stringify({ run: i }))
      keepInHistory({ dir: join(dir, 'h'), keep: 3 }, `2026-01-0${i + 1}T00-00-00-000Z`, file, 'r.json')
    }
    expect(readdirSync(join(dir, 'h'))).toEqual(['2026-01-02T00-00-00-000Z', '2026-01-03T00-00-00-000Z', '2026-01-04T00-00-00-000Z'])
    const latest = latestInHistory(join(dir, 'h'), 'r.json', 2)
    expect(latest.map((f) => JSON.parse(readFileSync(f, 'utf8')).run)).toEqual([2, 3])
    expect(keepInHistory({ dir: join(dir, 'none'), keep: 0 }, 'x', file, 'r.json')).toBeUndefined()
    expect(latestInHistory(join(dir, 'none'), 'r.json', 2)).toEqual([])
  })

  it('gives one id per run object, sortable and file-safe', () => {
    const run = {}
    const id = historyRunId(run, new Date('2026-03-11T09:30:00.000Z'))
    expect(id).toBe('2026-03-11T09-30-00-000Z')
    expect(historyRunId(run, new Date('2027-01-01T00:00:00Z'))).toBe(id)
  })

  it('reads BENCH_HISTORY_DIR and BENCH_HISTORY_KEEP, rejecting a bad cap', () => {
    expect(historySettingsFromEnv({}, '/r')).toEqual({ dir: '/r/evaluation/history', keep: 20 })
    expect(historySettingsFromEnv({ BENCH_HISTORY_DIR: 'h', BENCH_HISTORY_KEEP: '0' }, '/r')).toEqual({ dir: '/r/h', keep: 0 })
    expect(() => historySettingsFromEnv({ BENCH_HISTORY_KEEP: '-2' }, '/r')).toThrow(ConfigError)
  })
})
