import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FIXTURE_DATASET, fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { readArteResults } from '../results/results.ts'
import { TraceStore } from '../results/trace-store.ts'
import { MAX_STORED_ANSWER_CHARS } from '../../core/cap-stored.ts'
import { lastUserText, scriptedToolCalls, startScriptedServer } from '../../testing/scripted-server.ts'
import { ArteReporter } from './reporter.ts'

describe('ART-E bad input', () => {
  const scratch = scratchDir('arte-bad-input')
  afterAll(() => scratch.remove())

  it('an empty selection fails one test that names the dataset, the split and what the file holds', async () => {
    const dataset = join(scratch.dir, 'train-only.jsonl')
    writeFileSync(
      dataset,
      `${readFileSync(FIXTURE_DATASET, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"train"'))
        .join('\n')}\n`,
    )
    await using server = await startScriptedServer(fixtureResponder())
    const vitest = await runFixtureVitestWithErrors(fixtureEnv(server.baseURL, scratch.dir, { ARTE_DATASET: dataset }))
    expect(vitest.tests.map(({ name, state, annotations }) => ({ name, state, annotations }))).toEqual([
      { name: 'no ART-E rows selected from train-only.jsonl', state: 'failed', annotations: [] },
    ])
    expect(vitest.errors[0]).toMatch(/train-only\.jsonl has no rows for split test \(ARTE_SPLIT; limit none\): the file holds 1 row\(s\), of split train/)
    expect(server.requests).toHaveLength(0)
  })

  it('a bad row (not JSON, or missing a field) fails its own test; the other rows run', async () => {
    const dataset = join(scratch.dir, 'with-bad-rows.jsonl')
    const lines = readFileSync(FIXTURE_DATASET, 'utf8').trim().split('\n')
    const missingQuestion = JSON.stringify({ ...JSON.parse(lines[0] ?? '{}'), id: 201, question: undefined })
    writeFileSync(dataset, `${lines[0]}\n{"id": 200, "question": oops}\n${missingQuestion}\n${lines.slice(1).join('\n')}\n`)
    await using server = await startScriptedServer(fixtureResponder())
    const run = await runFixtureVitestWithErrors(fixtureEnv(server.baseURL, scratch.dir, { ARTE_DATASET: dataset, ARTE_DB: join(scratch.dir, 'bad-rows.db') }))
    const byName = Object.fromEntries(run.tests.map((test) => [test.name, test.state]))
    expect(byName['invalid ART-E row with-bad-rows.jsonl:2']).toBe('failed')
    expect(byName['invalid ART-E row with-bad-rows.jsonl:3']).toBe('failed')
    expect(byName['101']).toBe('passed')
    expect(
      Object.keys(byName)
        .filter((name) => /^\d+$/.test(name))
        .sort(),
    ).toEqual(['101', '102', '103', '104'])
    expect(run.errors.join('\n')).toMatch(/with-bad-rows\.jsonl:3[\s\S]*question/)
  })

  it('a 1 MB answer is scored in full but stored cut, with its full length recorded', async () => {
    const huge = `Room 4B ${'x'.repeat(1_000_000)}`
    const responder = fixtureResponder()
    await using server = await startScriptedServer((request, index) =>
      lastUserText(request).includes('catering')
        ? scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer: huge, sources: [] } }])
        : responder(request, index),
    )
    await runFixtureVitest(fixtureEnv(server.baseURL, scratch.dir), { reporters: [new ArteReporter({ silent: true })] })
    const results = readArteResults(join(scratch.dir, 'results.json'))
    const task = results.taskResults.find((result) => result.taskId === '102')
    expect(task?.agentAnswerChars).toBe(huge.length)
    expect(task?.agentAnswer.length).toBeLessThan(MAX_STORED_ANSWER_CHARS + 100)
    expect(task?.agentAnswer).toMatch(/\[truncated: 1,000,008 characters in full\]$/)
    using store = TraceStore.open(join(scratch.dir, 'traces.db'))
    const stored = store.get(task?.traceId ?? '')
    expect(JSON.stringify(stored?.trace).length).toBeLessThan(300_000)
    expect(statSync(join(scratch.dir, 'results.json')).size).toBeLessThan(100_000)
  })
})

/** Runs the fixture and returns the tests with the first error message of each failed one. */
async function runFixtureVitestWithErrors(
  env: Record<string, string>,
): Promise<{ tests: Array<{ name: string; state: string; annotations: string[] }>; errors: string[] }> {
  const errors: string[] = []
  const run = await runFixtureVitest(env, {
    reporters: [
      {
        onTestCaseResult(testCase) {
          const message = testCase.result().errors?.[0]?.message
          if (message !== undefined) errors.push(message)
        },
      },
    ],
  })
  return { tests: run.tests, errors }
}
