import { describe, expect, it } from 'vitest'
import { bootstrapMeanCi } from '../stats/bootstrap.ts'
import { passHatK, passHatKCi } from '../stats/pass-hat-k.ts'
import { wilsonInterval } from '../stats/wilson.ts'
import { type EvalTaskResult, computeEvalResults, evalFolderName } from './eval-results.ts'
import { passHatKSummary } from './pass-hat-k-summary.ts'

const info = { name: 'e', trials: 2, scorers: ['s'], threshold: 1, testRunEndReason: 'passed' as const, files: [], startedAt: '', finishedAt: '' }

function row(id: string, trial: number, status: EvalTaskResult['status'], score = 0): EvalTaskResult {
  const scored = status === 'scored'
  return { id, trial, status, passed: scored && score >= 1, scores: scored ? { s: score } : {}, mean: scored ? score : 0, durationMs: 1 }
}

describe('computeEvalResults', () => {
  it('metrics over trial 1 of the cases that ran (an error scores 0, a case not run is left out); pass^k over every trial', () => {
    const rows = [
      row('10', 1, 'scored', 1),
      row('2', 1, 'error'),
      row('3', 1, 'not-run'),
      row('2', 2, 'scored', 1),
      row('10', 2, 'scored', 0.5),
      row('3', 2, 'scored', 1),
    ]
    const results = computeEvalResults(rows, info)
    // Natural id order: 2, 3, 10.
    expect(results.taskResults.map((r) => `${r.id}#${r.trial}`)).toEqual(['2#1', '2#2', '3#1', '3#2', '10#1', '10#2'])
    expect(results.tasks).toBe(3)
    expect(results.metrics.passRate).toEqual({ value: 0.5, ci: wilsonInterval(1, 2) })
    expect(results.metrics.s).toEqual({ mean: 0.5, ci: bootstrapMeanCi([0, 1]) })
    // Case 3 has no outcome in trial 1: it is left out of pass^k; 2 is [fail, pass], 10 is [pass, fail].
    expect(results.passHatK).toEqual(
      passHatK(
        [
          [false, true],
          [true, false],
        ],
        2,
      ),
    )
    expect(results.passHatK).toEqual({ '1': 0.5, '2': 0 })
    expect(results.passHatKCi).toEqual(
      passHatKCi(
        [
          [false, true],
          [true, false],
        ],
        2,
      ),
    )
    expect(results.passHatKTasks).toBe(2)
    expect(results.counts).toEqual({ passed: 3, failed: 1, errors: 1, notRun: 1, resumed: 0 })
  })

  it('gives the same numbers for the rows in any order', () => {
    const rows = [
      row('a', 1, 'scored', 1),
      row('b', 1, 'scored', 0.25),
      row('c', 1, 'scored', 0.5),
      row('a', 2, 'scored', 1),
      row('b', 2, 'scored', 1),
      row('c', 2, 'error'),
    ]
    expect(computeEvalResults([...rows].reverse(), info)).toEqual(computeEvalResults(rows, info))
  })

  it('with no case that ran: zeros and no intervals', () => {
    const results = computeEvalResults([row('a', 1, 'not-run')], { ...info, trials: 1 })
    expect(results.metrics).toEqual({ passRate: { value: 0, ci: null }, s: { mean: 0, ci: null } })
    expect(results.passHatK).toEqual({})
  })
})

describe('passHatKSummary', () => {
  it("is pass^k, its intervals and its tasks from each task's trial outcomes; a trial without an outcome ends the task's trials", () => {
    const tasks = [
      [
        { trial: 2, passed: true },
        { trial: 1, passed: true },
      ],
      [
        { trial: 1, passed: false },
        { trial: 2, passed: undefined },
      ],
    ]
    expect(passHatKSummary(tasks, 2)).toEqual({ passHatK: passHatK([[true, true]], 2), passHatKCi: passHatKCi([[true, true], [false]], 2), passHatKTasks: 1 })
    expect(passHatKSummary(tasks, 2, { intervals: false }).passHatKCi).toEqual({})
  })
})

describe('evalFolderName', () => {
  it('keeps letters, digits, dot, underscore and dash, and turns every other run of characters into one dash', () => {
    expect(evalFolderName('capitals')).toBe('capitals')
    expect(evalFolderName('  my eval: v2 / EU ')).toBe('my-eval-v2-EU')
    expect(evalFolderName('../x')).toBe('x')
    expect(evalFolderName('***')).toBe('eval')
  })
})
