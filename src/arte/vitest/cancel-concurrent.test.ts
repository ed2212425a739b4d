import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Vitest } from 'vitest/node'
import { fixtureEnv, runFixtureVitest, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { TEST_ENDED_SETUP, onTestEnded } from '../../../fixtures/test-ended/watch.ts'
import { lastUserText, scriptedToolCalls, startScriptedServer } from '../../testing/scripted-server.ts'
import { scaledMs } from '../../testing/time-scale.ts'

/** Rows 1..TASKS; row 1 answers at once, the others only after {@link SLOW_MS}. */
const TASKS = 5
const SLOW_MS = scaledMs(40_000)

function rows(): string {
  return `${Array.from({ length: TASKS }, (_, i) =>
    JSON.stringify({
      id: i + 1,
      question: `Synthetic question ${i + 1}?`,
      answer: `answer ${i + 1}`,
      message_ids: [],
      inbox_address: 'ann.lee@fernwood.example',
      query_date: '2003-03-10',
      how_realistic: 0.5,
      split: 'test',
    }),
  ).join('\n')}\n`
}

describe('a cancelled run stops every concurrent ART-E task', () => {
  const scratch = scratchDir('arte-cancel-concurrent')
  afterAll(() => scratch.remove())

  // Vitest 4 aborts only the tests left in its list of running tests, and a test that ends first empties that list
  // (`addRunningTest`): here task 1 ends while 2..5 wait on the model, then the run is cancelled (Ctrl-C, `--bail`).
  it('the tasks still waiting on the model when the run is cancelled are skipped (not run), not left to finish', { timeout: 3 * SLOW_MS }, async () => {
    const dataset = join(scratch.dir, 'rows.jsonl')
    writeFileSync(dataset, rows())
    let vitest: Vitest | undefined
    let firstDone = false
    let requests = 0
    // Cancels once task 1 has ended and every task waits on the model, whichever comes last (a loaded machine may
    // start the slow tasks' calls after task 1 ended).
    const cancelWhenReady = (): void => {
      if (firstDone && requests === TASKS) void vitest?.cancelCurrentRun('keyboard-input')
    }
    await using server = await startScriptedServer((request) => {
      const n = /^Synthetic question (\d+)\?$/.exec(lastUserText(request))?.[1] ?? '0'
      requests++
      setImmediate(cancelWhenReady)
      return scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer: `answer ${n}`, sources: [] } }], n === '1' ? {} : { delayMs: SLOW_MS })
    })
    // Task 1's end is heard through a file: its result can reach the main process only once the slow tasks end.
    const ended = join(scratch.dir, 'ended.txt')
    const stopWatching = onTestEnded(ended, '1', () => {
      firstDone = true
      cancelWhenReady()
    })
    const env = fixtureEnv(server.baseURL, scratch.dir, { ARTE_DATASET: dataset, BENCH_CONCURRENCY: String(TASKS), TEST_ENDED_FILE: ended })
    const started = Date.now()
    const result = await runFixtureVitest(env, {
      testTimeout: 2 * SLOW_MS,
      setupFiles: [TEST_ENDED_SETUP],
      reporters: [{ onInit: (instance: Vitest) => void (vitest = instance) }],
    }).finally(stopWatching)
    const elapsed = Date.now() - started
    expect(server.requests.length).toBe(TASKS)
    expect(result.tests.map((test) => [test.name, test.state])).toEqual([
      ['1', 'passed'],
      ...Array.from({ length: TASKS - 1 }, (_, i) => [String(i + 2), 'skipped']),
    ])
    expect(elapsed, 'the run ended without waiting for the slow replies').toBeLessThan(SLOW_MS)
  })
})
