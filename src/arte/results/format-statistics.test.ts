import { describe, expect, it } from 'vitest'
import type { ArteResults } from './results.ts'
import { resumeHint, resumedRows, rowSelectionRows } from './format-statistics.ts'

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

describe('resumedRows', () => {
  it('says how many finished results a resumed run reused and how many tasks it ran now', () => {
    expect(resumedRows({ reused: 10, ranNow: 22, notRun: 0 })).toEqual([['resumed', '10 task(s) reused from earlier runs, 22 run now']])
  })

  it('names the tasks an interrupted resumed run did not run, and counts each trial with trials', () => {
    expect(resumedRows({ reused: 4, ranNow: 2, notRun: 6 }, 3)).toEqual([
      ['resumed', '4 task run(s) (each trial counts) reused from earlier runs, 2 run now, 6 not run'],
    ])
  })

  it("names what the reused tasks spent in their earlier runs, which the run's tokens and cost include", () => {
    const reusedUsage = { calls: 4, promptTokens: 300, completionTokens: 20, totalTokens: 320, costUsd: 0.0123 }
    expect(resumedRows({ reused: 2, ranNow: 1, notRun: 0, reusedUsage })[1]).toEqual([
      '',
      "the reused tasks' 4 call(s), 320 tokens, $0.0123, were spent in their earlier runs (counted in tokens and cost, which are the results' own)",
    ])
  })

  it('says why none was reused, and prints nothing for a run that did not resume', () => {
    expect(resumedRows({ reused: 0, ranNow: 5, notRun: 0 })[0]?.[1]).toBe(
      '0 task(s) reused from earlier runs (none had a finished result for this model, dataset, split, max turns and email database in the traces database), 5 run now',
    )
    expect(resumedRows(undefined)).toEqual([])
  })
})

describe('resumeHint', () => {
  it('tells an interrupted run how many tasks did not run and how to run only those', () => {
    expect(resumeHint({ testRunEndReason: 'interrupted', notRunTasks: 22 })).toBe(
      'ART-E run interrupted: 22 task(s) not run. To run only the tasks without a finished result, run the same command again with --resume (agent-bench arte) or BENCH_RESUME=1 (vitest run).',
    )
  })

  it('says which never-started files had their tasks counted as not run, and names those that were not', () => {
    const results = { testRunEndReason: 'interrupted' as const, notRunTasks: 3, notStartedFiles: ['bench/arte/parts/part-2-of-2.eval.ts', 'other.eval.ts'] }
    expect(resumeHint(results, ['other.eval.ts'])).toContain(
      'not run. 1 test file(s) never started: their tasks are counted as not run. 1 test file(s) never started, so their tasks are in no count: other.eval.ts. To run',
    )
    expect(resumeHint(results, [])).toContain('not run. 2 test file(s) never started: their tasks are counted as not run. To run')
    expect(resumeHint(results)).toContain('2 test file(s) never started, so their tasks are in no count: bench/arte/parts/part-2-of-2.eval.ts, other.eval.ts.')
  })

  it('says nothing when every task ran or the run was not interrupted', () => {
    expect(resumeHint({ testRunEndReason: 'interrupted', notRunTasks: 0 })).toBeUndefined()
    expect(resumeHint({ testRunEndReason: 'passed', notRunTasks: 0 })).toBeUndefined()
  })
})
