import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { lastUserText, scriptedError, startScriptedServer } from '../../testing/scripted-server.ts'
import { readArteResults } from '../results/results.ts'
import { ArteReporter } from './reporter.ts'

/** The fixture task a request belongs to, by its question (see `fixtureResponder`). */
const taskOf = (question: string): string =>
  question.includes('budget review')
    ? '101'
    : question.includes('catering')
      ? '102'
      : question.includes('chairs')
        ? '103'
        : question.includes('launch party')
          ? '104'
          : '?'

describe('--resume (BENCH_RESUME=1) and the ART-E tasks that errored', () => {
  const scratch = scratchDir('arte-resume-errored')
  afterAll(() => scratch.remove())

  it('runs an errored task again and reuses the answered and max-turns ones', async () => {
    const env = fixtureEnv('', scratch.dir)
    // Run 1: the model fails task 102 with a 503 (no retries: an error outcome); the others end as scripted.
    const healthy = fixtureResponder()
    {
      await using failing = await startScriptedServer((request, index) =>
        lastUserText(request).includes('catering') ? scriptedError(503) : healthy(request, index),
      )
      await runFixtureVitest({ ...env, OPENAI_BASE_URL: failing.baseURL }, { reporters: [new ArteReporter({ silent: true })] })
    }
    const first = readArteResults(env.ARTE_OUTPUT!)
    expect(first.taskResults.map((task) => [task.taskId, task.outcome.kind])).toEqual([
      ['101', 'answered'],
      ['102', 'error'],
      ['103', 'answered'],
      ['104', 'max-turns'],
    ])

    // Run 2, resumed against a healthy model: only 102 asks the model again.
    await using server = await startScriptedServer(fixtureResponder())
    await runFixtureVitest({ ...env, OPENAI_BASE_URL: server.baseURL, BENCH_RESUME: '1' }, { reporters: [new ArteReporter({ silent: true })] })
    expect(new Set(server.requests.map((request) => taskOf(lastUserText(request)))), 'the tasks that asked the model').toEqual(new Set(['102']))
    const resumed = readArteResults(join(scratch.dir, 'results.json'))
    expect(resumed.taskResults.map((task) => [task.taskId, task.outcome.kind, task.resumedFrom === undefined ? 'run now' : 'reused'])).toEqual([
      ['101', 'answered', 'reused'],
      ['102', 'answered', 'run now'],
      ['103', 'answered', 'reused'],
      ['104', 'max-turns', 'reused'],
    ])
  })
})
