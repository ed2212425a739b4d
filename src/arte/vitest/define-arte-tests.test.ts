import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import type { ArteRow } from '../dataset/row.ts'
import { InvalidFormatError } from '../../core/errors.ts'
import { type ReceivedRequest, startScriptedServer } from '../../testing/scripted-server.ts'
import config from '../../../vitest.config.ts'
import { benchConcurrency } from '../settings.ts'
import { assertUniqueIds, datasetLabel, selectPart } from './define-arte-tests.ts'

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

  it('runs BENCH_CONCURRENCY tasks at once against a slow server, and no more', async () => {
    const delayMs = 300
    const arrivals: number[] = []
    const responder = fixtureResponder({ delayMs })
    await using server = await startScriptedServer((request: ReceivedRequest, index: number) => {
      arrivals.push(performance.now())
      return responder(request, index)
    })
    const dataset = join(scratch.dir, 'fifty.jsonl')
    writeFileSync(dataset, `${Array.from({ length: 50 }, (_, i) => JSON.stringify(row(i + 1))).join('\n')}\n`)
    const run = await runFixtureVitest(fixtureEnv(server.baseURL, scratch.dir, { ARTE_DATASET: dataset, BENCH_CONCURRENCY: '5' }))
    expect(run.tests).toHaveLength(50)
    expect(run.tests.every((test) => test.state === 'passed')).toBe(true)
    expect(arrivals).toHaveLength(50)
    // Requests in flight when each one arrived: those that arrived less than delayMs before it.
    const inFlight = arrivals.map((at) => arrivals.filter((other) => other <= at && at < other + delayMs).length)
    expect(Math.max(...inFlight)).toBe(5)
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
