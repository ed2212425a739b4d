import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FIXTURE_DATASET, fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir } from '../../fixtures/arte-e2e/harness.ts'
import { type ArteResults, readArteResults } from './results/results.ts'
import { type ScriptedResponse, scriptedError, scriptedRaw, startScriptedServer, truncatedCompletion } from '../testing/scripted-server.ts'
import { ArteReporter } from './vitest/reporter.ts'
import { scaledMs } from '../testing/time-scale.ts'

/** The faults a hostile network gives: rate limits, server errors, resets, stalls, and malformed 200 bodies. */
const FAULTS: ReadonlyArray<ScriptedResponse> = [
  scriptedError(429),
  scriptedError(500),
  scriptedError(503),
  { kind: 'drop' },
  truncatedCompletion('the answer is'),
  scriptedRaw('<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>', { contentType: 'text/html' }),
  scriptedRaw('{"id":"scripted-no-choices","object":"chat.completion","choices":[]}'),
  scriptedRaw('{"id":"scripted-stall"', { stallAfterHeaders: true }),
]

const scores = (results: ArteResults) => ({
  exactMatchAccuracy: results.exactMatchAccuracy,
  avgSemanticScore: results.avgSemanticScore,
  completedTasks: results.completedTasks,
  failedTasks: results.failedTasks,
  answers: results.taskResults.map((task) => [task.taskId, task.agentAnswer, task.outcome.kind]),
})

describe('ART-E under a 20% fault mix (scripted server)', () => {
  const scratch = scratchDir('arte-fault-mix')
  afterAll(() => scratch.remove())

  it(
    "gives the clean run's scores when 1 request in 5 fails, truncated and HTML bodies included",
    async () => {
      // The fixture rows plus 40 synthetic rows, all answered by the scripted responder.
      const dataset = join(scratch.dir, 'rows.jsonl')
      const synthetic = Array.from({ length: 40 }, (_, i) => ({
        id: 200 + i,
        question: `Synthetic question ${200 + i}?`,
        answer: `answer ${200 + i}`,
        message_ids: [],
        inbox_address: 'ann.lee@fernwood.example',
        query_date: '2003-03-10',
        how_realistic: 0.5,
        split: 'test',
      }))
      writeFileSync(dataset, `${readFileSync(FIXTURE_DATASET, 'utf8').trim()}\n${synthetic.map((row) => JSON.stringify(row)).join('\n')}\n`)
      const responder = fixtureResponder()
      const run = async (faulty: boolean, name: string): Promise<ArteResults> => {
        let faults = 0
        await using server = await startScriptedServer((request, index) => {
          if (faulty && index % 5 === 0) return FAULTS[faults++ % FAULTS.length] as ScriptedResponse
          return responder(request, index)
        })
        const env = fixtureEnv(server.baseURL, scratch.dir, {
          ARTE_DATASET: dataset,
          ARTE_OUTPUT: join(scratch.dir, `${name}.json`),
          BENCH_LLM_MAX_RETRIES: '4',
          BENCH_LLM_TIMEOUT_MS: '1000',
        })
        await runFixtureVitest(env, { reporters: [new ArteReporter({ silent: true })] })
        if (faulty) expect(faults).toBeGreaterThanOrEqual(FAULTS.length)
        return readArteResults(join(scratch.dir, `${name}.json`))
      }
      const clean = await run(false, 'clean')
      const faulty = await run(true, 'faulty')
      expect(clean.totalTasks).toBe(44)
      expect(scores(faulty)).toEqual(scores(clean))
    },
    scaledMs(120_000),
  )
})
