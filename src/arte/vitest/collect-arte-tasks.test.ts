import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { startVitest } from 'vitest/node'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { readArteResults } from '../results/results.ts'
import { lastUserText, startScriptedServer } from '../../testing/scripted-server.ts'
import { scaledMs } from '../../testing/time-scale.ts'
import { ArteReporter } from './reporter.ts'
import { TEST_FAILED_CODE, TEST_TIMEOUT_CODE } from './collect-arte-tasks.ts'

const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

describe('every selected ART-E task appears in the results once', () => {
  const scratch = scratchDir('arte-accounting')
  afterAll(() => scratch.remove())

  it('a model that hangs: the call ends before the test timeout (derived deadline), the task fails and is counted', async () => {
    const responder = fixtureResponder()
    // 103 ("chairs") hangs far past the test timeout; the others answer as scripted, well within it even on a busy
    // machine (1.5 s failed them at a load of 17-20; BENCH_TEST_TIME_SCALE stretches it, see docs/contributing.md).
    const testTimeout = scaledMs(4_000)
    await using server = await startScriptedServer((request, index) =>
      lastUserText(request).includes('chairs') ? { kind: 'reply', content: 'late', delayMs: 100 * testTimeout } : responder(request, index),
    )
    const run = await runFixtureVitest(fixtureEnv(server.baseURL, scratch.dir), { testTimeout, reporters: [new ArteReporter({ silent: true })] })
    expect(run.tests.map((test) => `${test.name}:${test.state}`)).toEqual(['101:passed', '102:passed', '103:failed', '104:failed'])
    const results = readArteResults(join(scratch.dir, 'results.json'))
    expect(results.taskResults.map((task) => task.taskId)).toEqual(['101', '102', '103', '104'])
    expect(results.completedTasks + results.failedTasks + results.notRunTasks).toBe(4)
    expect(results).toMatchObject({ totalTasks: 4, completedTasks: 2, failedTasks: 2, notRunTasks: 0, exactMatchAccuracy: 0.25 })
    const timedOut = results.taskResults.find((task) => task.taskId === '103')
    expect(timedOut).toMatchObject({ agentAnswer: '', exactMatch: false, semanticScore: 0, outcome: { kind: 'error', code: 'ERR_MODEL_TIMEOUT' } })
    expect(timedOut?.traceId).not.toBe('')
  })

  it('a test that times out, or fails before its result, is a failed task; a filtered-out test is not selected', async () => {
    const vitest = await startVitest(
      'test',
      ['tasks.eval.ts'],
      {
        config: fileURLToPath(new URL('../../../fixtures/accounting/vitest.config.ts', import.meta.url)),
        watch: false,
        reporters: [new ArteReporter({ silent: true, outputFile: join(scratch.dir, 'accounting.json') })],
      },
      {},
      { stdout: quiet(), stderr: quiet() },
    )
    const durations = new Map(vitest.state.getTestModules().flatMap((m) => [...m.children.allTests()].map((test) => [test.name, test.diagnostic()?.duration])))
    await vitest.close()
    const results = readArteResults(join(scratch.dir, 'accounting.json'))
    expect(results).toMatchObject({ totalTasks: 3, completedTasks: 1, failedTasks: 2, notRunTasks: 0, exactMatchAccuracy: 1 / 3 })
    expect(results.taskResults.map((task) => [task.taskId, task.outcome.kind === 'error' ? task.outcome.code : task.outcome.kind])).toEqual([
      ['1', 'answered'],
      ['2', TEST_TIMEOUT_CODE],
      ['3', TEST_FAILED_CODE],
    ])
    // Task 1 ran its 5 ms (its meta); the tests of 2 (timed out at the fixture's 1000 ms) and 3 (threw) ran for their durations.
    const times = results.taskResults.map((task) => task.executionTimeMs)
    expect(times).toEqual([5, durations.get('2'), durations.get('3')])
    expect(times[1]).toBeGreaterThanOrEqual(990)
    expect(results.avgExecutionTimeMs).toBe((times[0]! + times[1]! + times[2]!) / 3)
  })

  it('a trial that fails before its result is counted as its own trial, not as trial 1', async () => {
    const vitest = await startVitest(
      'test',
      ['trials.eval.ts'],
      {
        config: fileURLToPath(new URL('../../../fixtures/accounting/vitest.config.ts', import.meta.url)),
        watch: false,
        reporters: [new ArteReporter({ silent: true, outputFile: join(scratch.dir, 'trials.json') })],
      },
      {},
      { stdout: quiet(), stderr: quiet() },
    )
    await vitest.close()
    const results = readArteResults(join(scratch.dir, 'trials.json'))
    expect(results.trials).toBe(3)
    expect(results.taskResults[0]?.trialResults?.map((trial) => [trial.trial, trial.exactMatch, trial.traceId])).toEqual([
      [1, true, 't1'],
      [2, false, ''],
      [3, true, 't3'],
    ])
    expect(results.passHatK).toEqual({ '1': 2 / 3, '2': 1 / 3, '3': 0 })
    expect(results.taskResults[0]).toMatchObject({ exactMatch: true, traceId: 't1' })
  })
})
