import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Vitest } from 'vitest/node'
import { FIXTURE_DATASET, fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { TEST_ENDED_SETUP, onTestEnded } from '../../../fixtures/test-ended/watch.ts'
import type { ArteRow } from '../dataset/row.ts'
import { InvalidFormatError } from '../../core/errors.ts'
import {
  type ReceivedRequest,
  type ScriptedResponse,
  lastUserText,
  scriptedText,
  scriptedToolCalls,
  startScriptedServer,
} from '../../testing/scripted-server.ts'
import { readArteResults } from '../results/results.ts'
import { TraceStore } from '../results/trace-store.ts'
import { ARTE_JUDGE_SYSTEM_PROMPT, JUDGE_REPLY_CODE } from '../scoring/llm-judge.ts'
import { ArteReporter } from './reporter.ts'
import config from '../../../vitest.config.ts'
import { benchConcurrency } from '../settings.ts'
import { assertUniqueIds, datasetLabel, selectPart } from './define-arte-tests.ts'
import { scaledMs } from '../../testing/time-scale.ts'

function row(id: number | string): ArteRow {
  return {
    id,
    question: `Synthetic question ${id}?`,
    answer: `answer ${id}`,
    message_ids: [],
    inbox_address: 'ann.lee@fernwood.example',
    query_date: '2003-03-10',
    how_realistic: 0.5,
    split: 'test',
  }
}

describe('selectPart', () => {
  it('splits rows round-robin into parts that cover every row once', () => {
    const rows = [1, 2, 3, 4, 5]
    expect(selectPart(rows, { index: 1, count: 2 })).toEqual([1, 3, 5])
    expect(selectPart(rows, { index: 2, count: 2 })).toEqual([2, 4])
    expect(selectPart(rows, undefined)).toEqual(rows)
    expect(() => selectPart(rows, { index: 3, count: 2 })).toThrow(/1 <= index <= count/)
  })
})

describe('assertUniqueIds', () => {
  it('rejects two rows with the same id (test names must be unique)', () => {
    expect(() => assertUniqueIds([row(1), row('1')], 'q.jsonl')).toThrow(InvalidFormatError)
    expect(() => assertUniqueIds([row(1), row('1')], 'q.jsonl')).toThrow(/q\.jsonl has two rows with id "1"/)
    expect(() => assertUniqueIds([row(1), row(2)], 'q.jsonl')).not.toThrow()
  })
})

describe('ART-E tests concurrency', () => {
  it('is set from BENCH_CONCURRENCY in the bench project of vitest.config.ts', () => {
    const bench = config.test?.projects?.find((project) => typeof project === 'object' && 'test' in project && project.test?.name === 'bench')
    expect(bench).toMatchObject({ test: { maxConcurrency: benchConcurrency() } })
    expect(benchConcurrency({})).toBe(5)
    expect(benchConcurrency({ BENCH_CONCURRENCY: '12' })).toBe(12)
  })

  const scratch = scratchDir('arte-concurrency')
  afterAll(() => scratch.remove())

  it('runs BENCH_CONCURRENCY tasks at once, and no more', async () => {
    // The server holds requests until five are waiting, then a moment longer (so that a sixth, if the limit let one
    // through, is counted), and releases them together. The last tasks, fewer than five, are released after a pause
    // with no new arrival. Overlap is counted, not inferred from arrival times, which a busy machine stretches.
    const limit = 5
    const responder = fixtureResponder()
    const held: Array<() => void> = []
    let waiting = 0
    let mostWaiting = 0
    let releaseTimer: NodeJS.Timeout | undefined
    const releaseAll = (): void => {
      clearTimeout(releaseTimer)
      for (const release of held.splice(0)) release()
    }
    await using server = await startScriptedServer((request: ReceivedRequest, index: number) => {
      waiting++
      mostWaiting = Math.max(mostWaiting, waiting)
      const reply = responder(request, index)
      if (reply.kind !== 'reply') return reply
      const after = new Promise<void>((resolve) => held.push(resolve)).then(() => {
        waiting--
      })
      clearTimeout(releaseTimer)
      releaseTimer = setTimeout(releaseAll, held.length >= limit ? scaledMs(200) : scaledMs(1500))
      return { ...reply, after }
    })
    const dataset = join(scratch.dir, 'fifty.jsonl')
    writeFileSync(dataset, `${Array.from({ length: 50 }, (_, i) => JSON.stringify(row(i + 1))).join('\n')}\n`)
    const run = await runFixtureVitest(fixtureEnv(server.baseURL, scratch.dir, { ARTE_DATASET: dataset, BENCH_CONCURRENCY: String(limit) }))
    releaseAll()
    expect(run.tests).toHaveLength(50)
    expect(run.tests.every((test) => test.state === 'passed')).toBe(true)
    expect(server.requests.length).toBeGreaterThanOrEqual(50)
    expect(mostWaiting).toBe(limit)
  })
})

describe('BENCH_ONLY', () => {
  const scratch = scratchDir('arte-bench-only')
  afterAll(() => scratch.remove())

  it('leaving ART-E out, builds no database and fails the ART-E file saying why', async () => {
    const db = join(scratch.dir, 'not-built.db')
    const run = await runFixtureVitest(fixtureEnv('http://127.0.0.1:9', scratch.dir, { ARTE_DB: db, BENCH_ONLY: 'mpcbench' }))
    expect(run.tests).toEqual([])
    expect(run.moduleErrors.join('\n')).toContain('The ART-E tests cannot run: BENCH_ONLY=mpcbench leaves arte out of this run')
    expect(run.exitCode).toBe(1)
    expect(existsSync(db)).toBe(false)
  })
})

describe('datasetLabel', () => {
  it('records a dataset inside the working directory relative to it, any other one as given', () => {
    expect(datasetLabel('/work/project/data/rows.jsonl', '/work/project')).toBe('data/rows.jsonl')
    expect(datasetLabel('/elsewhere/rows.jsonl', '/work/project')).toBe('/elsewhere/rows.jsonl')
    expect(datasetLabel('/work/project-b/rows.jsonl', '/work/project')).toBe('/work/project-b/rows.jsonl')
  })
})

describe('ART-E with an LLM judge end to end (fixture project, openai client, scripted server)', () => {
  const scratch = scratchDir('arte-judge')
  afterAll(() => scratch.remove())

  const JUDGE = 'scripted-judge'
  const JUDGE_USAGE = { prompt_tokens: 50, completion_tokens: 1 }
  /** The fixture rows (101-104 in the test split) and 201, which the agent answers exactly without sources. */
  function dataset(): string {
    const file = join(scratch.dir, 'rows.jsonl')
    const extra = { ...row(201), message_ids: ['<fx-1001@fernwood.example>'] }
    writeFileSync(file, `${readFileSync(FIXTURE_DATASET, 'utf8').trimEnd()}\n${JSON.stringify(extra)}\n`)
    return file
  }
  const isJudge = (request: ReceivedRequest): boolean => String(request.body.model).startsWith(JUDGE)
  /** Agent requests go to the fixture's responder; the judge answers by the AI answer in its message. */
  function responder(verdicts: Record<string, string>, options: { delayMs?: number } = {}) {
    const agent = fixtureResponder()
    return (request: ReceivedRequest, index: number): ScriptedResponse => {
      if (!isJudge(request)) return agent(request, index)
      const answer = /\nAI answer: (.*)$/.exec(lastUserText(request))?.[1] ?? ''
      return scriptedText(verdicts[answer] ?? `scripted: no verdict for ${answer}`, { usage: JUDGE_USAGE, ...options })
    }
  }

  it(
    'records the verdicts, sources and judge usage apart, resumes keeping them, and asks again only where the judge erred',
    async () => {
      const verdicts: Record<string, string> = { 'room 4b': 'True', 'Harbor Deli': 'False', 'answer 201': 'Maybe' }
      await using server = await startScriptedServer(responder(verdicts))
      const env = fixtureEnv(server.baseURL, scratch.dir, { ARTE_DATASET: dataset(), ARTE_JUDGE_MODEL: JUDGE })
      const run = await runFixtureVitest(env, { reporters: [new ArteReporter({ silent: true })] })
      expect(run.tests.map((test) => `${test.name}:${test.state}`)).toEqual(['101:passed', '102:passed', '103:passed', '104:failed', '201:passed'])

      // The judge was asked OpenPipe's question once per answer; not for "I don't know" (103) nor without an answer (104).
      const judged = server.requests.filter(isJudge)
      expect(judged.map((request) => /AI answer: (.*)$/.exec(lastUserText(request))?.[1]).sort()).toEqual(['Harbor Deli', 'answer 201', 'room 4b'])
      const room = judged.find((request) => lastUserText(request).endsWith('room 4b'))
      expect(room?.body).toMatchObject({ model: JUDGE, temperature: 0 })
      expect(room?.body.tools).toBeUndefined()
      expect(room?.body.messages).toEqual([
        { role: 'system', content: ARTE_JUDGE_SYSTEM_PROMPT },
        { role: 'user', content: 'Question: Which room is the budget review in?\nCorrect answer: Room 4B\nAI answer: room 4b' },
      ])

      const results = readArteResults(env.ARTE_OUTPUT!)
      const byId = Object.fromEntries(results.taskResults.map((task) => [task.taskId, task]))
      expect(byId['101']).toMatchObject({ sourcesCorrect: true, llmJudgeCorrect: true })
      expect(byId['102']).toMatchObject({ exactMatch: false, sourcesCorrect: true, llmJudgeCorrect: false })
      expect(byId['103']).toMatchObject({ sourcesCorrect: false, llmJudgeCorrect: false, llmJudgeUsage: { calls: 0 } })
      expect(byId['104']).toMatchObject({ sourcesCorrect: false, llmJudgeCorrect: false })
      expect(byId['201']).toMatchObject({ exactMatch: true, sourcesCorrect: false, llmJudgeError: { code: JUDGE_REPLY_CODE } })
      expect(byId['201']).not.toHaveProperty('llmJudgeCorrect')
      expect(results.exactMatchAccuracy).toBe(2 / 5)
      expect(results.sourcesAccuracy).toBe(2 / 5)
      // Over the four judged tasks: the judge error (201) is left out, not counted as wrong.
      expect(results.llmJudgeAccuracy).toBe(1 / 4)
      expect(results.llmJudge).toEqual({
        model: JUDGE,
        judgedTasks: 4,
        errors: 1,
        usage: { promptTokens: 150, completionTokens: 3, totalTokens: 153, costUsd: null, calls: 3 },
      })
      // The agent's usage is the agent's only: 101 two calls, 102 one, 103 one, 104 two, 201 one.
      expect(results.usage).toMatchObject({ promptTokens: 700, completionTokens: 140, calls: 7 })
      expect(results.confidenceIntervals?.sourcesAccuracy?.method).toContain('over 5 task(s)')
      expect(results.confidenceIntervals?.llmJudgeAccuracy?.method).toContain('over 4 task(s)')
      const traces = TraceStore.open(env.ARTE_TRACES_DB!)
      try {
        expect((traces.get(byId['101']!.traceId)?.trace as unknown as { llmJudge?: unknown } | undefined)?.llmJudge).toMatchObject({
          model: JUDGE,
          correct: true,
        })
      } finally {
        traces.close()
      }

      // Resumed: no agent call; the stored verdicts stand, and the judge is asked again only for 201, where it erred.
      const before = server.requests.length
      verdicts['answer 201'] = 'True'
      verdicts['room 4b'] = 'False'
      const resumed = await runFixtureVitest({ ...env, BENCH_RESUME: '1' }, { reporters: [new ArteReporter({ silent: true })] })
      expect(resumed.tests.map((test) => test.state)).toEqual(['passed', 'passed', 'passed', 'failed', 'passed'])
      const again = server.requests.slice(before)
      expect(again.map((request) => [isJudge(request), lastUserText(request).split('\n').at(-1)])).toEqual([[true, 'AI answer: answer 201']])
      const second = readArteResults(env.ARTE_OUTPUT!)
      expect(second.taskResults.map((task) => [task.taskId, task.llmJudgeCorrect ?? task.llmJudgeError?.code])).toEqual([
        ['101', true],
        ['102', false],
        ['103', false],
        ['104', false],
        ['201', true],
      ])
      expect(second.llmJudgeAccuracy).toBe(2 / 5)
      expect(second.llmJudge).toMatchObject({ judgedTasks: 5, errors: 0 })

      // Another judge is no other configuration of the agent: its traces stand (no agent call), only the new judge is
      // asked about each answered task, and the stored traces get its judgments, so the next resume asks nothing.
      const other = server.requests.length
      const rejudge = { ...env, BENCH_RESUME: '1', ARTE_JUDGE_MODEL: 'scripted-judge-2' }
      await runFixtureVitest(rejudge, { reporters: [new ArteReporter({ silent: true })] })
      expect(server.requests.slice(other).map((request) => request.body.model)).toEqual(['scripted-judge-2', 'scripted-judge-2', 'scripted-judge-2'])
      const third = readArteResults(env.ARTE_OUTPUT!)
      expect(third.llmJudge).toMatchObject({ model: 'scripted-judge-2', judgedTasks: 5, errors: 0 })
      expect(third.taskResults.map((task) => task.traceId)).toEqual(second.taskResults.map((task) => task.traceId))
      const settled = server.requests.length
      await runFixtureVitest(rejudge, { reporters: [new ArteReporter({ silent: true })] })
      expect(server.requests.length).toBe(settled)
    },
    scaledMs(120_000),
  )

  it(
    'judges a finished run that had no judge on --resume: only the judge is called, the agent does not run again',
    async () => {
      const verdicts: Record<string, string> = { 'room 4b': 'True', 'Harbor Deli': 'False', 'answer 201': 'True' }
      await using server = await startScriptedServer(responder(verdicts))
      const env = fixtureEnv(server.baseURL, scratch.dir, {
        ARTE_DATASET: dataset(),
        ARTE_TRACES_DB: join(scratch.dir, 'unjudged-traces.db'),
        ARTE_OUTPUT: join(scratch.dir, 'unjudged.json'),
      })
      await runFixtureVitest(env, { reporters: [new ArteReporter({ silent: true })] })
      expect(server.requests.some(isJudge)).toBe(false)
      expect(readArteResults(env.ARTE_OUTPUT!).llmJudge).toBeUndefined()
      const before = server.requests.length
      await runFixtureVitest({ ...env, BENCH_RESUME: '1', ARTE_JUDGE_MODEL: JUDGE }, { reporters: [new ArteReporter({ silent: true })] })
      expect(server.requests.slice(before).map(isJudge)).toEqual([true, true, true])
      expect(readArteResults(env.ARTE_OUTPUT!)).toMatchObject({ llmJudgeAccuracy: 2 / 5, llmJudge: { model: JUDGE, judgedTasks: 5, errors: 0 } })
    },
    scaledMs(120_000),
  )

  it(
    'a cancelled run cuts off the judge call: the task is skipped, its trace kept, and --resume asks only the judge',
    async () => {
      const SLOW_MS = scaledMs(40_000)
      let vitest: Vitest | undefined
      const slow = responder({ 'answer 1': 'True' }, { delayMs: SLOW_MS })
      await using server = await startScriptedServer((request, index) => {
        if (isJudge(request)) setImmediate(() => void vitest?.cancelCurrentRun('keyboard-input'))
        return slow(request, index)
      })
      const rows = join(scratch.dir, 'one.jsonl')
      writeFileSync(rows, `${JSON.stringify(row(1))}\n`)
      const env = fixtureEnv(server.baseURL, scratch.dir, {
        ARTE_DATASET: rows,
        ARTE_JUDGE_MODEL: JUDGE,
        ARTE_TRACES_DB: join(scratch.dir, 'cancel-traces.db'),
        ARTE_OUTPUT: join(scratch.dir, 'cancel.json'),
      })
      const started = Date.now()
      const run = await runFixtureVitest(env, { testTimeout: 2 * SLOW_MS, reporters: [{ onInit: (instance: Vitest) => void (vitest = instance) }] })
      expect(Date.now() - started, 'the run ended without waiting for the judge').toBeLessThan(SLOW_MS)
      expect(run.tests.map((test) => test.state)).toEqual(['skipped'])
      expect(server.requests.map(isJudge)).toEqual([false, true])

      await using fast = await startScriptedServer(responder({ 'answer 1': 'True' }))
      const resumed = await runFixtureVitest({ ...env, OPENAI_BASE_URL: fast.baseURL, BENCH_RESUME: '1' }, { reporters: [new ArteReporter({ silent: true })] })
      expect(resumed.tests.map((test) => test.state)).toEqual(['passed'])
      expect(fast.requests.map(isJudge)).toEqual([true])
      expect(readArteResults(env.ARTE_OUTPUT!)).toMatchObject({ llmJudgeAccuracy: 1, llmJudge: { judgedTasks: 1, errors: 0 } })
    },
    scaledMs(120_000),
  )
})

describe('a cancelled run and the concurrent ART-E tasks Vitest marked skipped', () => {
  const scratch = scratchDir('arte-cancel-race')
  afterAll(() => scratch.remove())
  const SLOW_MS = scaledMs(40_000)

  // Vitest marks every test of the file still running as skipped when the run is cancelled, also those it no longer
  // lists as running (task 2 here: task 4 ending after task 3 drops it from the list). Task 2's work then ends on the
  // cancel, and its annotation threw "Cannot annotate tests outside of the test run", failing the task.
  it(
    'a task cut off by the cancel after Vitest marked it skipped is not run, not a failure',
    async () => {
      const dataset = join(scratch.dir, 'race-rows.jsonl')
      writeFileSync(dataset, `${[1, 2, 3, 4].map((id) => JSON.stringify({ ...row(id), question: `Synthetic question ${id}?` })).join('\n')}\n`)
      let vitest: Vitest | undefined
      let lastDone = false
      let requests = 0
      const cancelWhenReady = (): void => {
        if (lastDone && requests === 4) void vitest?.cancelCurrentRun('keyboard-input')
      }
      await using server = await startScriptedServer((request) => {
        const n = /^Synthetic question (\d+)\?$/.exec(lastUserText(request))?.[1] ?? '0'
        requests++
        setImmediate(cancelWhenReady)
        // Tasks 1 and 2 wait on the model; 3 answers at once and 4 a little later, so they end in that order.
        const delayMs = n === '3' ? 0 : n === '4' ? 1_500 : SLOW_MS
        return scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer: `answer ${n}`, sources: [] } }], { delayMs })
      })
      // Task 4's end is heard through a file: its result can reach the main process only once the slow tasks end.
      const ended = join(scratch.dir, 'race-ended.txt')
      const stopWatching = onTestEnded(ended, '4', () => {
        lastDone = true
        cancelWhenReady()
      })
      const env = fixtureEnv(server.baseURL, scratch.dir, {
        ARTE_DATASET: dataset,
        BENCH_CONCURRENCY: '4',
        ARTE_OUTPUT: join(scratch.dir, 'race.json'),
        TEST_ENDED_FILE: ended,
      })
      const started = Date.now()
      const result = await runFixtureVitest(env, {
        testTimeout: 2 * SLOW_MS,
        setupFiles: [TEST_ENDED_SETUP],
        reporters: [new ArteReporter({ silent: true }), { onInit: (instance: Vitest) => void (vitest = instance) }],
      }).finally(stopWatching)
      expect(Date.now() - started, 'the run ended without waiting for the slow replies').toBeLessThan(SLOW_MS)
      expect(result.tests.map((test) => [test.name, test.state])).toEqual([
        ['1', 'skipped'],
        ['2', 'skipped'],
        ['3', 'passed'],
        ['4', 'passed'],
      ])
      const results = readArteResults(env.ARTE_OUTPUT!)
      expect(results.taskResults.map((task) => [task.taskId, task.outcome.kind])).toEqual([
        ['1', 'not-run'],
        ['2', 'not-run'],
        ['3', 'answered'],
        ['4', 'answered'],
      ])
      expect(results).toMatchObject({ failedTasks: 0, notRunTasks: 2, completedTasks: 2 })
    },
    3 * SLOW_MS,
  )
})

describe('BENCH_RESUME and an edited dataset row', () => {
  const scratch = scratchDir('arte-resume-edited')
  afterAll(() => scratch.remove())

  it(
    'a row whose question or answer was edited since runs again; an unchanged row is reused',
    async () => {
      await using server = await startScriptedServer((request) => {
        const n = /^(?:Synthetic|Edited) question (\d+)\?$/.exec(lastUserText(request))?.[1] ?? '0'
        return scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer: `answer ${n}`, sources: [] } }])
      })
      const dataset = join(scratch.dir, 'rows.jsonl')
      const write = (rows: ArteRow[]) => writeFileSync(dataset, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`)
      write([row(1), row(2), row(3)])
      const env = fixtureEnv(server.baseURL, scratch.dir, {
        ARTE_DATASET: dataset,
        ARTE_TRACES_DB: join(scratch.dir, 'traces.db'),
        ARTE_OUTPUT: join(scratch.dir, 'results.json'),
      })
      await runFixtureVitest(env, { reporters: [new ArteReporter({ silent: true })] })
      expect(server.requests).toHaveLength(3)

      write([{ ...row(1), answer: 'answer one' }, { ...row(2), question: 'Edited question 2?' }, row(3)])
      await runFixtureVitest({ ...env, BENCH_RESUME: '1' }, { reporters: [new ArteReporter({ silent: true })] })
      expect(server.requests.slice(3).map((request) => lastUserText(request))).toEqual(expect.arrayContaining(['Synthetic question 1?', 'Edited question 2?']))
      expect(server.requests).toHaveLength(5)
      const results = readArteResults(env.ARTE_OUTPUT!)
      expect(results.taskResults.map((task) => [task.taskId, task.resumedFrom !== undefined])).toEqual([
        ['1', false],
        ['2', false],
        ['3', true],
      ])
    },
    scaledMs(120_000),
  )
})
