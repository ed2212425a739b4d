import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { readArteResults } from '../results/results.ts'
import { lastUserText, startScriptedServer } from '../../testing/scripted-server.ts'
import { ArteReporter } from './reporter.ts'
import { TEST_TIMEOUT_CODE } from './collect-arte-tasks.ts'

describe('every selected ART-E task appears in the results once', () => {
  const scratch = scratchDir('arte-accounting')
  afterAll(() => scratch.remove())

  it('counts a task whose model hangs past the test timeout as failed (timed out), not as missing', async () => {
    const responder = fixtureResponder()
    // 103 ("chairs") hangs far past the test timeout; the others answer as scripted.
    await using server = await startScriptedServer((request, index) =>
      lastUserText(request).includes('chairs') ? { kind: 'reply', content: 'late', delayMs: 60_000 } : responder(request, index),
    )
    const run = await runFixtureVitest(fixtureEnv(server.baseURL, scratch.dir), { testTimeout: 1500, reporters: [new ArteReporter({ silent: true })] })
    expect(run.tests.map((test) => `${test.name}:${test.state}`)).toEqual(['101:passed', '102:passed', '103:failed', '104:failed'])
    const results = readArteResults(join(scratch.dir, 'results.json'))
    expect(results.taskResults.map((task) => task.taskId)).toEqual(['101', '102', '103', '104'])
    expect(results.completedTasks + results.failedTasks + results.notRunTasks).toBe(4)
    expect(results).toMatchObject({ totalTasks: 4, completedTasks: 2, failedTasks: 2, notRunTasks: 0, exactMatchAccuracy: 0.25 })
    const timedOut = results.taskResults.find((task) => task.taskId === '103')
    expect(timedOut).toMatchObject({ agentAnswer: '', exactMatch: false, semanticScore: 0, outcome: { kind: 'error', code: TEST_TIMEOUT_CODE } })
    expect(timedOut?.outcome.kind === 'error' && timedOut.outcome.message).toMatch(/timed out in 1500ms/)
  })
})
