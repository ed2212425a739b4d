import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixedMeta } from '../../../fixtures/mpcbench-reporter/meta.ts'
import { type UnfinishedTest, buildSummary } from './summary.ts'
import { chooseSummaryOutput, formatSummarySubsetNote } from './summary-subset.ts'

const ids = ['t1', 't2', 't3', 't4', 't5']
const scored = (taskIds: ReadonlyArray<string>, score = 4) => taskIds.map((id) => fixedMeta(id, 'planning', 'baseline', score, score))
const unfinished = (taskId: string, outcome: UnfinishedTest['outcome']): UnfinishedTest => ({
  task_id: taskId,
  task_type: 'planning',
  agent_model: 'baseline',
  outcome,
  message: outcome,
})

describe('chooseSummaryOutput', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mpc-summary-subset-'))
  const file = join(dir, 'summary.json')
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const previous = (summary: ReturnType<typeof buildSummary>) => writeFileSync(file, JSON.stringify(summary))

  it('a full rerun in which a test timed out, failed early or was not run replaces summary.json', () => {
    previous(buildSummary(scored(ids, 2)))
    for (const outcome of ['timed-out', 'failed', 'not-run'] as const) {
      expect(chooseSummaryOutput(file, buildSummary(scored(ids.slice(0, 4), 5), new Date(), [unfinished('t5', outcome)]))).toEqual({ file })
    }
  })

  it('a full rerun after a run whose test did not finish replaces it, as does one where that test finishes now', () => {
    previous(buildSummary(scored(ids.slice(0, 4)), new Date(), [unfinished('t5', 'timed-out')]))
    expect(chooseSummaryOutput(file, buildSummary(scored(ids.slice(0, 4)), new Date(), [unfinished('t5', 'timed-out')]))).toEqual({ file })
    expect(chooseSummaryOutput(file, buildSummary(scored(ids)))).toEqual({ file })
  })

  it('rerunning only the test that did not finish goes to summary.subset.json and keeps the full run', () => {
    previous(buildSummary(scored(ids.slice(0, 4)), new Date(), [unfinished('t5', 'timed-out')]))
    const choice = chooseSummaryOutput(file, buildSummary(scored(['t5'])))
    expect(choice).toEqual({ file: join(dir, 'summary.subset.json'), subset: { ran: 1, kept: 5, fullFile: file } })
    expect(formatSummarySubsetNote(choice, dir)).toBe(
      'This run covered 1 of the 5 task x agent x judge tests in summary.json: its summary went to summary.subset.json and summary.json was kept. Run all the tasks (or delete it) to replace it.',
    )
  })

  it('a subset of the tasks, finished or not, still goes to summary.subset.json; a summary without `unfinished` is still read', () => {
    const { unfinished: _none, ...older } = buildSummary(scored(ids))
    previous(older as ReturnType<typeof buildSummary>)
    expect(chooseSummaryOutput(file, buildSummary(scored(['t1']), new Date(), [unfinished('t2', 'not-run')])).subset).toEqual({
      ran: 2,
      kept: 5,
      fullFile: file,
    })
  })

  it('a run of some tasks that scored nothing (all timed out or interrupted) goes to summary.subset.json', () => {
    previous(buildSummary(scored(ids)))
    expect(chooseSummaryOutput(file, buildSummary([], new Date(), [unfinished('t2', 'timed-out')])).subset).toEqual({ ran: 1, kept: 5, fullFile: file })
    expect(
      chooseSummaryOutput(
        file,
        buildSummary(
          [],
          new Date(),
          ids.map((id) => unfinished(id, 'not-run')),
        ),
      ).file,
    ).toBe(file)
  })

  it('a run configured with another trial count is a new run that replaces summary.json, though it covers only trial 1', () => {
    const trial = (j: number) => scored(ids).map((meta) => ({ ...meta, trial: j }))
    previous(buildSummary([...trial(1), ...trial(2), ...trial(3)]))
    // BENCH_TRIALS=1 after a run of three.
    expect(chooseSummaryOutput(file, buildSummary(scored(ids)), 1)).toEqual({ file })
    // -t 'trial=2' of the same three-trial configuration is still a subset.
    expect(chooseSummaryOutput(file, buildSummary(trial(2)), 3).subset).toEqual({ ran: 5, kept: 15, fullFile: file })
    previous(buildSummary(scored(ids)))
    expect(chooseSummaryOutput(file, buildSummary(scored(['t1'])), 1).subset).toEqual({ ran: 1, kept: 5, fullFile: file })
  })

  it('a run of one trial (-t "trial=2") after a run of two goes to summary.subset.json; a run of both trials replaces it', () => {
    const trial = (j: number) => scored(ids).map((meta) => ({ ...meta, trial: j }))
    previous(buildSummary([...trial(1), ...trial(2)]))
    expect(chooseSummaryOutput(file, buildSummary(trial(2))).subset).toEqual({ ran: 5, kept: 10, fullFile: file })
    expect(chooseSummaryOutput(file, buildSummary([...trial(1), ...trial(2)]))).toEqual({ file })
  })

  it('an earlier file that is not a summary is replaced', () => {
    writeFileSync(file, JSON.stringify({ taskResults: [] }))
    expect(chooseSummaryOutput(file, buildSummary(scored(['t1'])))).toEqual({ file })
  })
})
