import { describe, expect, it } from 'vitest'
import type { ArteTestMeta } from './arte-meta.ts'
import { formatArteStatistics, graderSuspectWarning, judgeErrorWarning, judgeUsageRows } from './format-statistics.ts'
import { computeArteMetrics, sumTaskUsage } from './results.ts'
import { arteRunStatistics, judgeVerdict } from './run-statistics.ts'

function meta(taskId: string, exactMatch: boolean, fields: Partial<ArteTestMeta> = {}): ArteTestMeta {
  return {
    taskId,
    question: `q${taskId}`,
    groundTruth: 'x',
    agentAnswer: exactMatch ? 'x' : 'y',
    sources: [],
    exactMatch,
    semanticScore: exactMatch ? 1 : 0.5,
    traceId: `t${taskId}-${fields.trial ?? 1}`,
    executionTimeMs: 10,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 },
    model: 'scripted',
    modelKind: 'llm',
    outcome: { kind: 'answered', via: 'text' },
    inboxAddress: 'a@b.example',
    queryDate: '2001-01-01',
    split: 'test',
    dataset: 'd.jsonl',
    ...fields,
  }
}

describe('arteRunStatistics', () => {
  it('gives one result per task with intervals that contain the estimates, the same on rerun', () => {
    const metas = Array.from({ length: 10 }, (_, i) => meta(String(i + 1), i < 6))
    const stats = arteRunStatistics(metas)
    expect(stats.taskResults.map((t) => t.taskId)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'])
    expect(stats.trials).toBe(1)
    expect(stats.passHatK).toEqual({ '1': 0.6 })
    // One trial: pass^1 is exactMatchAccuracy, whose Wilson interval is the one given.
    expect(stats).not.toHaveProperty('passHatKCi')
    expect(stats.taskResults[0]).not.toHaveProperty('trialResults')
    // 6/10 exact matches: the Wilson score interval of a share of 0/1 outcomes; the semantic score keeps the bootstrap.
    expect(stats.confidenceIntervals.exactMatchAccuracy).toEqual({ low: 0.312674, high: 0.83182, level: 0.95, method: 'Wilson score interval over 10 task(s)' })
    const semantic = stats.confidenceIntervals.avgSemanticScore
    expect(semantic?.method).toBe('percentile bootstrap over 10 task(s), 2000 resamples, seed 20260311')
    expect(semantic?.low).toBeLessThanOrEqual(0.8)
    expect(semantic?.high).toBeGreaterThanOrEqual(0.8)
    expect(arteRunStatistics([...metas].reverse())).toEqual(stats)
    expect(stats.graderSuspects).toEqual([])
  })

  it('an interrupted run: the intervals are over the tasks that ran, as the metrics are', () => {
    const notRun = { outcome: { kind: 'not-run', reason: 'the run was interrupted before this task ran' } } as const
    const metas = Array.from({ length: 10 }, (_, i) => (i < 5 ? meta(String(i + 1), i < 4) : meta(String(i + 1), false, notRun)))
    const stats = arteRunStatistics(metas)
    const metrics = computeArteMetrics(stats.taskResults)
    expect(metrics).toMatchObject({ exactMatchAccuracy: 0.8, notRunTasks: 5 })
    expect(stats.confidenceIntervals.exactMatchAccuracy?.high).toBeGreaterThanOrEqual(0.8)
    expect(stats.confidenceIntervals.exactMatchAccuracy?.low).toBeLessThanOrEqual(0.8)
    expect(stats.confidenceIntervals.exactMatchAccuracy?.method).toContain('over 5 task(s)')
  })

  it('with trials: trial 1 is the task result, every trial in trialResults, pass^k over all the trials (tau-bench)', () => {
    const pattern: Record<string, boolean[]> = { a: [true, true, true], b: [true, false, true], c: [false, true, true] }
    const metas = Object.entries(pattern).flatMap(([id, passes]) => passes.map((p, i) => meta(id, p, { trial: i + 1 })))
    const stats = arteRunStatistics(metas.reverse())
    expect(stats.trials).toBe(3)
    // c = 3, 2, 2 passes of 3: pass^j is the mean of C(c, j) / C(3, j), whichever trials failed.
    expect(stats.passHatK).toEqual({ '1': 7 / 9, '2': 5 / 9, '3': 1 / 3 })
    const b = stats.taskResults.find((t) => t.taskId === 'b')
    expect(b?.exactMatch).toBe(true)
    expect(b?.trialResults?.map((t) => [t.trial, t.exactMatch, t.traceId])).toEqual([
      [1, true, 'tb-1'],
      [2, false, 'tb-2'],
      [3, true, 'tb-3'],
    ])
    expect(Object.keys(b?.trialResults?.[0] ?? {}).sort()).toEqual([
      'agentAnswer',
      'exactMatch',
      'executionTimeMs',
      'outcome',
      'semanticScore',
      'sourcesCorrect',
      'traceId',
      'trial',
    ])
  })

  it('with trials: each trial says how it ended, so a trial not run or failed is not read as a wrong answer', () => {
    const notRun = { kind: 'not-run', reason: 'the run was interrupted before this task ran' } as const
    const error = { kind: 'error', code: 'ERR_TEST_TIMEOUT', message: 'timed out' } as const
    const stats = arteRunStatistics([
      meta('a', true, { trial: 1 }),
      meta('a', false, { trial: 2, outcome: error }),
      meta('a', false, { trial: 3, outcome: notRun }),
    ])
    expect(stats.taskResults[0]?.trialResults?.map((t) => [t.trial, t.outcome?.kind])).toEqual([
      [1, 'answered'],
      [2, 'error'],
      [3, 'not-run'],
    ])
  })

  it('pass^k: a trial that failed counts as not passed, one not run or missing ends the trials its task counts for', () => {
    const error = { kind: 'error', code: 'ERR_TEST_TIMEOUT', message: 'timed out' } as const
    const metas = [
      ...[true, false, true].map((p, i) => meta('a', p, { trial: i + 1, ...(i === 1 ? { outcome: error } : {}) })),
      meta('b', true, { trial: 1 }),
      meta('b', false, { trial: 2, outcome: { kind: 'not-run', reason: 'the run was interrupted before this task ran' } }),
      meta('b', true, { trial: 3 }),
      meta('c', true, { trial: 1 }),
      meta('c', true, { trial: 3 }),
    ]
    // a: [pass, fail, pass]; b and c: trial 1 only (b's trial 2 never ran, c's was not selected), so trial 3 never stands in for trial 2.
    const stats = arteRunStatistics(metas)
    expect(stats).toMatchObject({ passHatK: { '1': 2 / 3, '2': 1 / 3, '3': 0 }, passHatKTasks: 1 })
    const rows = formatArteStatistics({ ...computeArteMetrics(stats.taskResults), ...stats } as never, 3)
    // Over one task the bootstrap has nothing to resample: [x, x], said by its method (over 1 task); pass^3's value is
    // 0/1, so it has the Wilson interval of 0 of 1.
    expect(rows).toContainEqual([
      'pass^k (3 trials, over the 1 task(s) with an outcome in every trial)',
      '1: 0.667 [0.667, 0.667] · 2: 0.333 [0.333, 0.333] · 3: 0.000 [0.000, 0.793]',
    ])
    expect(rows).toContainEqual([
      'interval',
      expect.stringMatching(
        /; percentile bootstrap over 1 task\(s\), 2000 resamples, seed 20260311 \(pass\^1, pass\^2\); Wilson score interval over 1 task\(s\) \(pass\^3\)$/,
      ),
    ])
  })

  it("pass^k with trials: each pass^j has the seeded bootstrap interval over tasks of C(c, j) / C(n, j) (Wilson's when those are 0/1), printed beside it", () => {
    const pattern = ['111', '101', '011', '000', '110', '111', '001', '111', '000', '101']
    const metas = pattern.flatMap((passes, t) => [...passes].map((pass, i) => meta(String(t + 1), pass === '1', { trial: i + 1 })))
    const stats = arteRunStatistics(metas)
    expect(stats.passHatK).toEqual({ '1': 0.6, '2': 13 / 30, '3': 0.3 })
    const method = 'percentile bootstrap over 10 task(s), 2000 resamples, seed 20260311'
    expect(stats.passHatKCi).toEqual({
      '1': { low: 0.366667, high: 0.8, level: 0.95, method },
      '2': { low: 0.2, high: 0.666667, level: 0.95, method },
      '3': { low: 0.107791, high: 0.603222, level: 0.95, method: 'Wilson score interval over 10 task(s)' },
    })
    expect(arteRunStatistics([...metas].reverse()).passHatKCi).toEqual(stats.passHatKCi)
    const rows = formatArteStatistics({ ...computeArteMetrics(stats.taskResults), ...stats } as never, 6)
    expect(rows).toContainEqual(['pass^k (3 trials)', '1: 0.600 [0.367, 0.800] · 2: 0.433 [0.200, 0.667] · 3: 0.300 [0.108, 0.603]'])
    expect(rows).toContainEqual([
      'interval',
      `95% Wilson score interval over 10 task(s) (exactMatchAccuracy, sourcesAccuracy, pass^3); ${method} (avgSemanticScore, pass^1, pass^2)`,
    ])
  })

  it('toolTimeouts: the metric counts trial 1 of each task, from the metas through the task results', () => {
    const metas = [
      meta('1', true, { trial: 1, toolTimeouts: 2 }),
      meta('1', true, { trial: 2, toolTimeouts: 5 }),
      meta('2', false, { trial: 1, toolTimeouts: 1 }),
      meta('2', false, { trial: 2 }),
      meta('3', true, { trial: 1 }),
      meta('3', true, { trial: 2, toolTimeouts: 4 }),
    ]
    const stats = arteRunStatistics(metas)
    expect(stats.taskResults.map((task) => task.toolTimeouts)).toEqual([2, 1, undefined])
    expect(stats.taskResults[2]).not.toHaveProperty('toolTimeouts')
    expect(computeArteMetrics(stats.taskResults).toolTimeouts).toBe(3)
    expect(computeArteMetrics(arteRunStatistics([meta('1', true)]).taskResults).toolTimeouts).toBe(0)
  })

  it('a task reported by two tests counts once, as the first test reported it, and is listed as duplicated', () => {
    // Row 7 registered by two eval files: the first passed, the second failed (and timed out a tool call).
    const metas = [
      meta('7', true, { traceId: 'first' }),
      meta('8', true),
      meta('7', false, { traceId: 'second', toolTimeouts: 1, usage: { promptTokens: 5, completionTokens: 1, totalTokens: 6, costUsd: 0, calls: 1 } }),
      meta('9', false),
    ]
    const stats = arteRunStatistics(metas)
    expect(stats.trials).toBe(1)
    expect(stats.taskResults.map((task) => [task.taskId, task.traceId])).toEqual([
      ['7', 'first'],
      ['8', 't8-1'],
      ['9', 't9-1'],
    ])
    expect(stats.taskResults[0]).not.toHaveProperty('trialResults')
    expect(stats.passHatK).toEqual({ '1': 2 / 3 })
    expect(stats.confidenceIntervals.exactMatchAccuracy?.method).toContain('over 3 task(s)')
    expect(computeArteMetrics(stats.taskResults)).toMatchObject({ totalTasks: 3, exactMatchAccuracy: 2 / 3, toolTimeouts: 0 })
    // The reporter sums the usage over every test: what the run spent, the duplicate's calls included.
    expect(sumTaskUsage(metas).calls).toBe(1)
    // Whichever test came first counts.
    const swapped = arteRunStatistics([metas[2]!, metas[1]!, metas[0]!, metas[3]!])
    expect(swapped.taskResults[0]).toMatchObject({ traceId: 'second', exactMatch: false, toolTimeouts: 1 })
    expect(swapped.passHatK).toEqual({ '1': 1 / 3 })
    expect(stats.duplicateTaskIds).toEqual(['7'])
    expect(arteRunStatistics([meta('7', true), meta('8', true)]).duplicateTaskIds).toEqual([])
  })

  it('with trials, a (task, trial) reported by two tests keeps the first; the trials stay the trials', () => {
    const first = [1, 2].map((trial) => meta('a', true, { trial, traceId: `first-${trial}` }))
    const second = [1, 2].map((trial) => meta('a', false, { trial, traceId: `second-${trial}` }))
    const stats = arteRunStatistics([first[0]!, second[0]!, first[1]!, second[1]!, meta('b', true, { trial: 1 }), meta('b', false, { trial: 2 })])
    expect(stats.trials).toBe(2)
    expect(stats.taskResults[0]?.trialResults?.map((trial) => [trial.trial, trial.traceId])).toEqual([
      [1, 'first-1'],
      [2, 'first-2'],
    ])
    // a [pass, pass] (the first test's trials), b [pass, fail].
    expect(stats.passHatK).toEqual({ '1': 0.75, '2': 0.5 })
    expect(stats.duplicateTaskIds).toEqual(['a'])
  })

  it('lists tasks an empty answer passed as grader suspects', () => {
    const stats = arteRunStatistics([meta('1', true, { agentAnswer: '', groundTruth: '' }), meta('2', false, { agentAnswer: '' })])
    expect(stats.graderSuspects).toEqual(['1'])
    expect(graderSuspectWarning(stats)).toContain('an empty answer passed ART-E task(s) 1')
  })

  it('formats the scores with their intervals, how each interval was computed, and pass^k', () => {
    const bootstrap = 'percentile bootstrap over 10 task(s), 2000 resamples, seed 20260311'
    const results = {
      exactMatchAccuracy: 0.6,
      avgSemanticScore: 0.625,
      totalTasks: 10,
      notRunTasks: 0,
      confidenceIntervals: {
        exactMatchAccuracy: { low: 0.312674, high: 0.83182, level: 0.95, method: 'Wilson score interval over 10 task(s)' },
        avgSemanticScore: { low: 0.4, high: 0.8, level: 0.95, method: bootstrap },
      },
      trials: 2,
      passHatK: { '1': 0.6, '2': 0.5 },
    }
    expect(formatArteStatistics(results as never, 6)).toEqual([
      ['exactMatchAccuracy', '0.600 [0.313, 0.832] (6/10)'],
      ['avgSemanticScore', '0.625 [0.400, 0.800]'],
      ['interval', `95% Wilson score interval over 10 task(s) (exactMatchAccuracy); ${bootstrap} (avgSemanticScore)`],
      ['pass^k (2 trials)', '1: 0.600 · 2: 0.500'],
    ])
    // With pass^k's intervals (results written since they exist).
    const passHatKCi = { '1': { low: 0.3, high: 0.9, level: 0.95, method: bootstrap }, '2': { low: 0.2, high: 0.8, level: 0.95, method: bootstrap } }
    expect(formatArteStatistics({ ...results, passHatKCi } as never, 6).slice(2)).toEqual([
      ['interval', `95% Wilson score interval over 10 task(s) (exactMatchAccuracy); ${bootstrap} (avgSemanticScore, pass^k)`],
      ['pass^k (2 trials)', '1: 0.600 [0.300, 0.900] · 2: 0.500 [0.200, 0.800]'],
    ])
    // Results written when every interval was a bootstrap name the method once.
    const old = {
      ...results,
      confidenceIntervals: { ...results.confidenceIntervals, exactMatchAccuracy: { low: 0.3, high: 0.9, level: 0.95, method: bootstrap } },
    }
    expect(formatArteStatistics(old as never, 6)).toContainEqual(['interval', `95% ${bootstrap}`])
  })

  it('gives the shares of 0/1 task outcomes Wilson score intervals, which do not collapse when every task failed', () => {
    const judged = { llmJudgeModel: 'openai/judge', llmJudgeCorrect: false, sourcesCorrect: false }
    const stats = arteRunStatistics(Array.from({ length: 10 }, (_, i) => meta(String(i + 1), false, judged)))
    const wilson = { low: 0, high: 0.277533, level: 0.95, method: 'Wilson score interval over 10 task(s)' }
    expect(stats.confidenceIntervals).toMatchObject({ exactMatchAccuracy: wilson, sourcesAccuracy: wilson, llmJudgeAccuracy: wilson })
    const rows = formatArteStatistics({ ...computeArteMetrics(stats.taskResults), ...stats } as never, 0)
    expect(rows).toContainEqual(['exactMatchAccuracy', '0.000 [0.000, 0.278] (0/10)'])
    expect(rows).toContainEqual([
      'interval',
      expect.stringMatching(
        /^95% Wilson score interval over 10 task\(s\) \(exactMatchAccuracy, sourcesAccuracy, llmJudgeAccuracy\); percentile bootstrap over 10 task\(s\), 2000 resamples, seed \d+ \(avgSemanticScore\)$/,
      ),
    ])
  })

  it('sourcesAccuracy: the share of the tasks that ran whose sources held the first message id, with its interval', () => {
    const notRun = { outcome: { kind: 'not-run', reason: 'interrupted' } } as const
    const metas = [
      meta('1', true, { sourcesCorrect: true }),
      meta('2', false, { sourcesCorrect: true }),
      meta('3', true, { sourcesCorrect: false }),
      // A task without a result (timed out, as collect-arte-tasks builds it) has no sourcesCorrect: not correct.
      meta('4', false, { outcome: { kind: 'error', code: 'ERR_TEST_TIMEOUT', message: 'timed out' } }),
      meta('5', false, { sourcesCorrect: true, ...notRun }),
    ]
    const stats = arteRunStatistics(metas)
    expect(stats.sourcesAccuracy).toBe(2 / 4)
    expect(stats.confidenceIntervals.sourcesAccuracy?.method).toContain('over 4 task(s)')
    expect(stats.taskResults.map((task) => task.sourcesCorrect)).toEqual([true, true, false, false, true])
    expect(stats).not.toHaveProperty('llmJudgeAccuracy')
    expect(stats).not.toHaveProperty('llmJudge')
    expect(stats.confidenceIntervals).not.toHaveProperty('llmJudgeAccuracy')
    const rows = formatArteStatistics({ ...computeArteMetrics(stats.taskResults), ...stats } as never, 2)
    expect(rows).toContainEqual(['sourcesAccuracy', expect.stringMatching(/^0\.500 \[\d\.\d{3}, \d\.\d{3}\] \(2\/4\)$/)])
    expect(rows.map(([name]) => name)).not.toContain('llmJudgeAccuracy')
  })

  it('llmJudgeAccuracy: over the judged tasks; no answer counts as not correct, a judge error is left out and counted', () => {
    const judge = (fields: Partial<ArteTestMeta>): Partial<ArteTestMeta> => ({
      llmJudgeModel: 'openai/judge',
      llmJudgeUsage: { promptTokens: 10, completionTokens: 1, totalTokens: 11, costUsd: 0.001, calls: 1 },
      ...fields,
    })
    const none = { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 }
    const metas = [
      meta('1', true, judge({ llmJudgeCorrect: true })),
      meta('2', false, judge({ llmJudgeCorrect: true })),
      meta('3', false, judge({ llmJudgeCorrect: false })),
      meta('4', false, judge({ llmJudgeError: { code: 'ERR_ARTE_JUDGE_REPLY', message: 'The judge replied "Maybe"' } })),
      meta('5', false, judge({ llmJudgeCorrect: false, llmJudgeUsage: none, outcome: { kind: 'max-turns', maxTurns: 2 } })),
      // Timed out before the judge: no answer, so not correct.
      meta('6', false, { outcome: { kind: 'error', code: 'ERR_TEST_TIMEOUT', message: 'timed out' } }),
      // Trial 2 of task 1: its judge's usage counts, its verdict does not (the metrics are trial 1's).
      meta('1', false, judge({ trial: 2, llmJudgeCorrect: false })),
    ]
    const stats = arteRunStatistics(metas)
    expect(stats.llmJudgeAccuracy).toBe(2 / 5)
    expect(stats.llmJudge).toEqual({
      model: 'openai/judge',
      judgedTasks: 5,
      errors: 1,
      usage: { promptTokens: 50, completionTokens: 5, totalTokens: 55, costUsd: expect.closeTo(0.005, 10), calls: 5 },
    })
    expect(stats.confidenceIntervals.llmJudgeAccuracy?.method).toContain('over 5 task(s)')
    expect(stats.taskResults.map(judgeVerdict)).toEqual([true, true, false, undefined, false, false])
    const results = { ...computeArteMetrics(stats.taskResults), ...stats }
    const rows = formatArteStatistics(results as never, 1)
    expect(rows).toContainEqual([
      'llmJudgeAccuracy',
      expect.stringMatching(
        /^0\.400 \[[^\]]+\] \(2\/5 judged by openai\/judge\) over 5 judged of 6 task\(s\); 1 judge error\(s\) \(the accuracy leaves them out and is biased toward unanswered tasks/,
      ),
    ])
    expect(judgeUsageRows(results)).toEqual([
      ['judge tokens', '55 (50 prompt, 5 completion) in 5 call(s)'],
      ['judge cost', '$0.0050'],
    ])
    expect(judgeErrorWarning(results)).toContain('gave no verdict on 1 task(s), left out of llmJudgeAccuracy, which is then biased toward the unanswered tasks')
    expect(judgeErrorWarning(results)).toContain(': 4 (ERR_ARTE_JUDGE_REPLY: The judge replied "Maybe")')
    expect(judgeErrorWarning({ ...results, llmJudge: { ...stats.llmJudge!, errors: 0 } })).toBeUndefined()
  })

  // A judge that is down gives no verdict on any answered task; the unanswered ones are judged false without a call.
  it('llmJudgeAccuracy has no value (no 0, no interval) when no task the judge was asked about got a verdict', () => {
    const down = (fields: Partial<ArteTestMeta>): Partial<ArteTestMeta> => ({
      llmJudgeModel: 'openai/judge',
      llmJudgeError: { code: 'ERR_MODEL_AUTH', message: 'HTTP 401' },
      ...fields,
    })
    const metas = [
      meta('1', true, down({})),
      meta('2', false, down({})),
      meta('3', false, { llmJudgeModel: 'openai/judge', llmJudgeCorrect: false, agentAnswer: "I don't know" }),
      meta('4', false, { llmJudgeModel: 'openai/judge', llmJudgeCorrect: false, agentAnswer: '', outcome: { kind: 'max-turns', maxTurns: 2 } }),
    ]
    const stats = arteRunStatistics(metas)
    expect(stats).not.toHaveProperty('llmJudgeAccuracy')
    expect(stats.confidenceIntervals).not.toHaveProperty('llmJudgeAccuracy')
    expect(stats.llmJudge).toMatchObject({ judgedTasks: 2, errors: 2 })
    const rows = formatArteStatistics({ ...computeArteMetrics(stats.taskResults), ...stats } as never, 1)
    expect(rows).toContainEqual([
      'llmJudgeAccuracy',
      'no verdict from openai/judge (over 2 judged of 4 task(s); 2 judge error(s) (the accuracy leaves them out and is biased toward unanswered tasks, which need no judge call))',
    ])
    // One verdict on an answered task is enough for a value; a run where no task needed the judge keeps its 0.
    expect(arteRunStatistics([...metas.slice(1), meta('1', true, { llmJudgeModel: 'openai/judge', llmJudgeCorrect: true })]).llmJudgeAccuracy).toBe(1 / 3)
    expect(arteRunStatistics(metas.slice(2)).llmJudgeAccuracy).toBe(0)
  })
})
