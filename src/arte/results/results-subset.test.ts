import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ArteResults } from './results.ts'
import { chooseArteOutput } from './results-subset.ts'

/** What the subset check reads of a results file: its dataset and split, and each task's trials. */
function results(ids: ReadonlyArray<string>, trials?: ReadonlyArray<number>, model = 'gpt-x'): ArteResults {
  const taskResults = ids.map((taskId) => ({ taskId, ...(trials === undefined ? {} : { trialResults: trials.map((trial) => ({ trial })) }) }))
  return { config: { dataset: 'rows.jsonl', split: 'test', model }, trials: Math.max(1, ...(trials ?? [])), taskResults } as unknown as ArteResults
}

describe('chooseArteOutput', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arte-results-subset-'))
  const file = join(dir, 'results.json')
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('a run of one trial (-t "trial=2") after a run of two goes to results.subset.json and keeps the full results', () => {
    writeFileSync(file, JSON.stringify(results(['1', '2', '3'], [1, 2])))
    expect(chooseArteOutput(file, results(['1', '2', '3'], [2]))).toEqual({
      file: join(dir, 'results.subset.json'),
      subset: { ran: 3, kept: 6, fullFile: file },
    })
    expect(chooseArteOutput(file, results(['1', '2', '3'], [1, 2]))).toEqual({ file })
  })

  it('a run of some tasks goes to results.subset.json; a run of one trial after a run of one replaces it', () => {
    writeFileSync(file, JSON.stringify(results(['1', '2', '3'])))
    expect(chooseArteOutput(file, results(['2'])).subset).toEqual({ ran: 1, kept: 3, fullFile: file })
    expect(chooseArteOutput(file, results(['1', '2', '3']))).toEqual({ file })
  })

  it('a run configured with another trial count, or of another model, is a new run that replaces the results, whatever tasks it covers', () => {
    writeFileSync(file, JSON.stringify(results(['1', '2', '3'], [1, 2, 3])))
    // BENCH_TRIALS=1 after a run of three: trial 1 of every task, yet a full run of its own.
    expect(chooseArteOutput(file, results(['1', '2', '3']), 1)).toEqual({ file })
    // -t 'trial=2' of the same three-trial configuration is still a subset.
    expect(chooseArteOutput(file, results(['1', '2', '3'], [2]), 3).subset).toEqual({ ran: 3, kept: 9, fullFile: file })
    writeFileSync(file, JSON.stringify(results(['1', '2', '3'])))
    expect(chooseArteOutput(file, results(['2'], undefined, 'other-model'), 1)).toEqual({ file })
    expect(chooseArteOutput(file, results(['2']), 1).subset).toEqual({ ran: 1, kept: 3, fullFile: file })
  })
})
