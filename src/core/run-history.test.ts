import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from './errors.ts'
import { HistoryWriteError, historyRunId, historySettingsFromEnv, keepInHistory, latestInHistory } from './run-history.ts'

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

  it('writes a copy from the text itself (a run whose own file could not be written)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'history-'))
    const kept = keepInHistory({ dir, keep: 3 }, 'run-1', { text: '{"run":1}\n' }, 'r.json')
    expect(kept).toBe(join(dir, 'run-1', 'r.json'))
    expect(readFileSync(join(dir, 'run-1', 'r.json'), 'utf8')).toBe('{"run":1}\n')
  })

  it('a history folder that cannot be written is a HistoryWriteError naming BENCH_HISTORY_DIR and the fix, and leaves nothing behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'history-'))
    const file = join(dir, 'results.json')
    writeFileSync(file, '{}')
    const blocker = join(dir, 'blocker')
    writeFileSync(blocker, '')
    let error: unknown
    try {
      keepInHistory({ dir: join(blocker, 'h'), keep: 3 }, 'run-1', file, 'r.json')
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(HistoryWriteError)
    expect((error as HistoryWriteError).code).toBe('ERR_HISTORY_WRITE')
    expect((error as HistoryWriteError).problem).toBe(
      `This run was not kept in the history folder ${join(blocker, 'h')} (BENCH_HISTORY_DIR): cannot write ${join(blocker, 'h', 'run-1', 'r.json')}: ${blocker} is not a folder.`,
    )
    expect((error as HistoryWriteError).hint).toMatch(/^Set BENCH_HISTORY_DIR to a folder you can write .* or BENCH_HISTORY_KEEP=0 to keep no history\.$/)
    expect(readdirSync(dir).sort()).toEqual(['blocker', 'results.json'])
  })

  it('gives one id per run object, sortable and file-safe', () => {
    const run = {}
    const id = historyRunId(run, new Date('2026-03-11T09:30:00.000Z'))
    expect(id).toBe('2026-03-11T09-30-00-000Z')
    expect(historyRunId(run, new Date('2027-01-01T00:00:00Z'))).toBe(id)
  })

  it('a second write of a run replaces its file in the same folder (an interrupted run written on the signal, then at its end)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'history-'))
    const run = {}
    keepInHistory({ dir, keep: 3 }, historyRunId(run, new Date('2026-03-11T09:30:00.000Z')), { text: '{"completedTasks":9}' }, 'r.json')
    keepInHistory({ dir, keep: 3 }, historyRunId(run, new Date('2026-03-11T09:30:00.040Z')), { text: '{"completedTasks":10}' }, 'r.json')
    expect(readdirSync(dir)).toEqual(['2026-03-11T09-30-00-000Z'])
    expect(readFileSync(join(dir, '2026-03-11T09-30-00-000Z', 'r.json'), 'utf8')).toBe('{"completedTasks":10}')
  })

  it('reads BENCH_HISTORY_DIR and BENCH_HISTORY_KEEP, rejecting a bad cap', () => {
    expect(historySettingsFromEnv({}, '/r')).toEqual({ dir: '/r/evaluation/history', keep: 20 })
    expect(historySettingsFromEnv({ BENCH_HISTORY_DIR: 'h', BENCH_HISTORY_KEEP: '0' }, '/r')).toEqual({ dir: '/r/h', keep: 0 })
    expect(() => historySettingsFromEnv({ BENCH_HISTORY_KEEP: '-2' }, '/r')).toThrow(ConfigError)
  })
})
