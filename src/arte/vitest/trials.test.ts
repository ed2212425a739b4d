import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir, SCRIPTED_USAGE, type FixtureRunResult } from '../../../fixtures/arte-e2e/harness.ts'
import { readArteResults, type ArteResults } from '../results/results.ts'
import {
  type ReceivedRequest,
  type ScriptedResponder,
  type ScriptedServer,
  lastUserText,
  scriptedToolCalls,
  startScriptedServer,
  toolResults,
} from '../../testing/scripted-server.ts'
import { ArteReporter } from './reporter.ts'
import { trialCases } from './define-arte-tests.ts'

/**
 * The fixture replies, except that the final answers vary by trial (tests run one at a time, in order, so the n-th
 * final answer to a question is trial n): 101 is right in trials 1 and 3, 102 is right in trials 1 and 2.
 * Scripted, not model output.
 */
function trialResponder(): ScriptedResponder {
  const base = fixtureResponder()
  const finals = new Map<string, number>()
  const final = (answer: string) => scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer, sources: [] } }], { usage: SCRIPTED_USAGE })
  return (request: ReceivedRequest, index: number) => {
    const question = lastUserText(request)
    const count = (key: string): number => {
      const n = (finals.get(key) ?? 0) + 1
      finals.set(key, n)
      return n
    }
    if (question.includes('budget review') && toolResults(request).length > 0) return final(count('101') === 2 ? 'room 5' : 'Room 4B')
    if (question.includes('catering')) return final(count('102') === 3 ? 'Harbor Deli' : 'Harbor Street Deli')
    return base(request, index)
  }
}

describe('BENCH_TRIALS=3 with the scripted server', () => {
  let server: ScriptedServer
  const scratch = scratchDir('arte-trials')
  let run: FixtureRunResult
  let results: ArteResults

  beforeAll(async () => {
    server = await startScriptedServer(trialResponder())
    run = await runFixtureVitest(fixtureEnv(server.baseURL, scratch.dir, { BENCH_TRIALS: '3', BENCH_CONCURRENCY: '1' }), {
      reporters: [new ArteReporter({ silent: true })],
    })
    results = readArteResults(join(scratch.dir, 'results.json'))
  })

  afterAll(async () => {
    await server?.close()
    scratch.remove()
  })

  it('names one test per row and trial, `{id} [trial=j]`', () => {
    expect(run.tests.map((t) => t.name)).toEqual(['101', '102', '103', '104'].flatMap((id) => [1, 2, 3].map((j) => `${id} [trial=${j}]`)))
    expect(trialCases('7', 1)).toEqual([{ name: '7', trial: undefined }])
  })

  it('writes trials, passHatK and per-task trialResults; taskResults keeps one entry per task (trial 1)', () => {
    expect(results.trials).toBe(3)
    // 101 [T, F, T], 102 [T, T, F], 103 and 104 never: tau-bench's pass^j, the mean of C(c, j) / C(3, j).
    expect(results.passHatK).toEqual({ '1': 1 / 3, '2': 1 / 6, '3': 0 })
    // Each pass^j's seeded bootstrap over the 4 tasks of C(c, j) / C(3, j); pass^3's values are 0/1 (no task passed all
    // 3 trials), so it has the Wilson interval of 0 of 4, not a collapsed [0, 0].
    const method = 'percentile bootstrap over 4 task(s), 2000 resamples, seed 20260311'
    expect(results.passHatKCi).toEqual({
      '1': { low: 0, high: 0.666667, level: 0.95, method },
      '2': { low: 0, high: 0.333333, level: 0.95, method },
      '3': { low: 0, high: 0.489891, level: 0.95, method: 'Wilson score interval over 4 task(s)' },
    })
    expect(results.taskResults.map((t) => t.taskId)).toEqual(['101', '102', '103', '104'])
    expect(results.totalTasks).toBe(4)
    expect(results.exactMatchAccuracy).toBe(0.5)
    const byId = Object.fromEntries(results.taskResults.map((t) => [t.taskId, t]))
    expect(byId['101']?.trialResults?.map((t) => [t.trial, t.exactMatch, t.agentAnswer])).toEqual([
      [1, true, 'Room 4B'],
      [2, false, 'room 5'],
      [3, true, 'Room 4B'],
    ])
    expect(new Set(byId['101']?.trialResults?.map((t) => t.traceId)).size).toBe(3)
    expect(byId['102']?.trialResults?.map((t) => t.exactMatch)).toEqual([true, true, false])
  })

  it('counts the usage of every trial: tokens, calls and cost are what the run spent', () => {
    const calls = results.taskResults.flatMap((task) => task.trialResults ?? []).length
    expect(calls).toBe(12)
    // Every trial of the fixture makes the same calls as trial 1, so the run's usage is 3x trial 1's.
    const trialOne = results.taskResults.reduce((sum, task) => sum + task.usage.calls, 0)
    expect(results.usage.calls).toBe(3 * trialOne)
    expect(results.usage.totalTokens).toBe(3 * results.taskResults.reduce((sum, task) => sum + task.usage.totalTokens, 0))
  })

  it('gives intervals over tasks that contain the estimates', () => {
    const ci = results.confidenceIntervals?.exactMatchAccuracy
    expect(ci?.low).toBeLessThanOrEqual(0.5)
    expect(ci?.high).toBeGreaterThanOrEqual(0.5)
    expect(ci?.method).toContain('over 4 task(s)')
    expect(results.graderSuspects).toEqual([])
  })

  it('BENCH_RESUME=1 gives each trial back its own stored trace, not one trace copied into every trial', async () => {
    const resumeServer = await startScriptedServer(trialResponder())
    try {
      await runFixtureVitest(fixtureEnv(resumeServer.baseURL, scratch.dir, { BENCH_TRIALS: '3', BENCH_CONCURRENCY: '1', BENCH_RESUME: '1' }), {
        reporters: [new ArteReporter({ silent: true })],
      })
      const resumed = readArteResults(join(scratch.dir, 'results.json'))
      const trialsOf = (r: ArteResults) => r.taskResults.map((t) => [t.taskId, t.trialResults?.map((trial) => [trial.trial, trial.exactMatch, trial.traceId])])
      expect(trialsOf(resumed)).toEqual(trialsOf(results))
      expect(resumed.passHatK).toEqual({ '1': 1 / 3, '2': 1 / 6, '3': 0 })
      expect(resumed.passHatKCi).toEqual(results.passHatKCi)
    } finally {
      await resumeServer.close()
    }
  })
})

describe('BENCH_TRIALS=3 with the response cache (BENCH_CACHE)', () => {
  const scratch = scratchDir('arte-trials-cache')

  afterAll(() => {
    scratch.remove()
  })

  it('records each trial apart, so no trial replays another, and replays each trial its own responses', async () => {
    const trialsOf = (r: ArteResults) =>
      r.taskResults.map((t) => [t.taskId, t.trialResults?.map((trial) => [trial.trial, trial.exactMatch, trial.agentAnswer])])
    // A cassette is replayed only for the server it was recorded from: both runs go to one server.
    await using server = await startScriptedServer(trialResponder())
    const run = async (mode: string, dir: string): Promise<{ results: ArteResults; requests: number }> => {
      const before = server.requests.length
      const cache = { BENCH_CACHE: mode, BENCH_CACHE_DIR: join(scratch.dir, 'cassettes') }
      await runFixtureVitest(fixtureEnv(server.baseURL, dir, { BENCH_TRIALS: '3', BENCH_CONCURRENCY: '1', ...cache }), {
        reporters: [new ArteReporter({ silent: true })],
      })
      return { results: readArteResults(join(dir, 'results.json')), requests: server.requests.length - before }
    }
    const recorded = await run('read-write', join(scratch.dir, 'recorded'))
    expect(recorded.requests).toBeGreaterThan(0)
    // As without the cache: 101 right in trials 1 and 3, 102 in trials 1 and 2.
    expect(recorded.results.passHatK).toEqual({ '1': 1 / 3, '2': 1 / 6, '3': 0 })
    const replayed = await run('replay', join(scratch.dir, 'replayed'))
    expect(replayed.requests).toBe(0)
    expect(trialsOf(replayed.results)).toEqual(trialsOf(recorded.results))
  })
})
