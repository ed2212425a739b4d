import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CliOptions, Reporter, Vitest } from 'vitest/node'
import { startVitest } from 'vitest/node'
import {
  FIXTURE_CONFIG,
  FIXTURE_DATASET,
  REPO_ROOT,
  fixtureEnv,
  fixtureResponder,
  runFixtureVitest,
  scratchDir,
  withEnv,
} from '../../../fixtures/arte-e2e/harness.ts'
import { withCheckoutLock } from '../../testing/checkout-lock.ts'
import { outputRecorder } from '../../testing/output-recorder.ts'
import { TEST_ENDED_SETUP, onTestEnded } from '../../../fixtures/test-ended/watch.ts'
import { takeRunOutput } from '../../core/run-outputs.ts'
import { readArteResults, type ArteResults } from '../results/results.ts'
import { TraceStore } from '../results/trace-store.ts'
import { type ScriptedServer, lastUserText, startScriptedServer } from '../../testing/scripted-server.ts'
import { ArteReporter } from './reporter.ts'

/** The metrics that must not depend on timing (or on sharding). */
function deterministic(results: ArteResults) {
  const { avgExecutionTimeMs: _a, totalTimeMs: _b, config, taskResults, thresholds: _c, testRunEndReason: _d, ...rest } = results
  return {
    ...rest,
    config: { model: config.model, modelKind: config.modelKind, split: config.split, dataset: config.dataset },
    taskResults: taskResults.map(({ executionTimeMs: _e, traceId: _f, ...task }) => task),
  }
}

describe('ART-E reporter end to end (fixture project, scripted server)', () => {
  let server: ScriptedServer
  const scratch = scratchDir('arte-reporter')
  let unsharded: ArteResults
  let env: Record<string, string>

  beforeAll(async () => {
    server = await startScriptedServer(fixtureResponder())
    env = fixtureEnv(server.baseURL, scratch.dir)
    const run = await runFixtureVitest(env, {
      reporters: [['junit', { outputFile: join(scratch.dir, 'junit.xml') }], new ArteReporter({ silent: true })],
    })
    expect(run.tests.map((test) => `${test.name}:${test.state}`)).toEqual(['101:passed', '102:passed', '103:passed', '104:failed'])
    expect(run.exitCode).toBe(1)
    unsharded = readArteResults(join(scratch.dir, 'results.json'))
  })

  afterAll(async () => {
    await server?.close()
    scratch.remove()
  })

  it('writes the results JSON with hand-computed scores', () => {
    expect(unsharded.totalTasks).toBe(4)
    expect(unsharded.exactMatchAccuracy).toBe(0.25) // only 101: "room 4b" = "Room 4B"
    // Jaccard: 101 → 1; 102 "Harbor Deli" vs "Harbor Street Deli" → 2/3; 103 "I don't know" vs "48 chairs" → 0; 104 no answer → 0.
    expect(unsharded.avgSemanticScore).toBeCloseTo((1 + 2 / 3 + 0 + 0) / 4, 12)
    expect(unsharded.completedTasks).toBe(3)
    expect(unsharded.failedTasks).toBe(1)
    // Calls: 101 two, 102 one, 103 one, 104 two (maxTurns 2); 100 prompt + 20 completion tokens each.
    expect(unsharded.usage).toEqual({ promptTokens: 600, completionTokens: 120, totalTokens: 720, costUsd: null, calls: 6 })
    expect(unsharded.config).toMatchObject({ model: 'scripted-model', modelKind: 'llm', split: 'test', dataset: 'fixtures/arte-e2e/questions.jsonl' })
    expect(unsharded.testRunEndReason).toBe('failed')
    const byId = Object.fromEntries(unsharded.taskResults.map((task) => [task.taskId, task]))
    expect(Object.keys(byId)).toEqual(['101', '102', '103', '104'])
    expect(byId['101']).toMatchObject({ agentAnswer: 'room 4b', exactMatch: true, semanticScore: 1, sources: ['<fx-1001@fernwood.example>'] })
    expect(byId['102']).toMatchObject({ groundTruth: 'Harbor Street Deli', agentAnswer: 'Harbor Deli', exactMatch: false })
    expect(byId['102']!.semanticScore).toBeCloseTo(2 / 3, 12)
    expect(byId['103']).toMatchObject({ agentAnswer: "I don't know", semanticScore: 0, outcome: { kind: 'answered', via: 'text' } })
    expect(byId['104']).toMatchObject({ agentAnswer: '', semanticScore: 0, outcome: { kind: 'max-turns', maxTurns: 2 } })
  })

  it('stores every trace under its traceId, findable by score', () => {
    using store = TraceStore.open(join(scratch.dir, 'traces.db'))
    for (const task of unsharded.taskResults) {
      const stored = store.get(task.traceId)
      expect(stored?.taskId).toBe(task.taskId)
      expect(stored?.semanticScore).toBe(task.semanticScore)
    }
    const room = store.get(unsharded.taskResults[0]!.traceId)!
    expect(room.trace.toolCalls.map((call) => call.name)).toEqual(['search_emails', 'return_final_answer'])
    expect(JSON.stringify(room.trace.toolCalls[0]!.result)).toContain('fx-1001@fernwood.example')
    expect(
      store
        .listBelow(0.5)
        .map((row) => row.taskId)
        .sort(),
    ).toEqual(['103', '104'])
  })

  it('names JUnit test cases by row id, with the scores as properties and the last turns in failures', () => {
    const xml = readFileSync(join(scratch.dir, 'junit.xml'), 'utf8')
    for (const id of ['101', '102', '103', '104']) expect(xml).toContain(`name="${id}"`)
    expect(xml).toMatch(
      /<testcase [^>]*name="101"[\s\S]*?<property name="arte" value="EM=1 J=1\.00 answered in 2 turn\(s\), 240 tokens, trace [0-9a-f-]+, agent [^"]+">/,
    )
    expect(xml).toMatch(/<testcase [^>]*name="104"[\s\S]*?<failure message="ART-E task 104: stopped after maxTurns \(2\) without an answer/)
    expect(xml).toContain('search_emails({&quot;keywords&quot;:[&quot;launch&quot;]})')
  })

  it('gives the same metrics from two blob shards merged as from one run', async () => {
    // Vitest shards by file: the rows are spread over two part files, one per shard.
    const blobs = join(scratch.dir, 'blobs')
    const shardEnv = { ...env, ARTE_OUTPUT: join(scratch.dir, 'shard-results.json') }
    const include = ['fixtures/arte-e2e/parts/*.eval.ts']
    const shardTests: string[][] = []
    for (const shard of ['1/2', '2/2']) {
      const run = await runFixtureVitest(shardEnv, {
        include,
        shard,
        reporters: [['blob', { outputFile: join(blobs, `blob-${shard.replace('/', '-of-')}.json`) }]],
      })
      shardTests.push(run.tests.map((test) => test.name).sort())
    }
    expect(shardTests.flat().sort()).toEqual(['101', '102', '103', '104'])
    expect(shardTests.map((names) => names.length)).toEqual([2, 2])
    expect(readdirSync(blobs)).toHaveLength(2)
    expect(existsSync(join(scratch.dir, 'shard-results.json'))).toBe(false)
    const merged = join(scratch.dir, 'merged-results.json')
    const run = await runFixtureVitest(
      { ...env, ARTE_OUTPUT: merged },
      { include, mergeReports: blobs, reporters: [['junit', { outputFile: join(scratch.dir, 'merged.xml') }], new ArteReporter({ silent: true })] },
    )
    expect(run.exitCode).toBe(1) // 104 failed in shard 2
    const mergedResults = readArteResults(merged)
    expect(mergedResults.taskResults.map((task) => task.taskId)).toEqual(['101', '102', '103', '104'])
    expect(deterministic(mergedResults)).toStrictEqual(deterministic(unsharded))
    const xml = readFileSync(join(scratch.dir, 'merged.xml'), 'utf8')
    expect(xml.match(/<testcase /g)).toHaveLength(4)
    expect(xml).toMatch(/<property name="arte" value="EM=0 J=0\.67/)
  })

  it('ARTE_PARTS=3: --shard=i/3 splits the rows over three machines and the merged blobs give the same metrics', () =>
    withCheckoutLock('arte-parts', async () => {
      const blobs = join(scratch.dir, 'part-blobs')
      const partEnv = { ...env, ARTE_PARTS: '3', ARTE_OUTPUT: join(scratch.dir, 'part-shard-results.json') }
      const shardTests: string[][] = []
      for (const shard of ['1/3', '2/3', '3/3']) {
        const run = await runFixtureVitest(partEnv, { shard, reporters: [['blob', { outputFile: join(blobs, `blob-${shard.replace('/', '-of-')}.json`) }]] })
        shardTests.push(run.tests.map((test) => test.name).sort())
      }
      // Rows by position modulo 3: 101 and 104, 102, 103; Vitest gives each shard one part file.
      expect(shardTests.flat().sort()).toEqual(['101', '102', '103', '104'])
      expect(shardTests.map((names) => names.length).sort()).toEqual([1, 1, 2])
      const merged = join(scratch.dir, 'part-merged-results.json')
      await runFixtureVitest({ ...partEnv, ARTE_OUTPUT: merged }, { mergeReports: blobs, reporters: [new ArteReporter({ silent: true })] })
      expect(deterministic(readArteResults(merged))).toStrictEqual(deterministic(unsharded))
    }))

  it('ARTE_PARTS unset: ARTE_TESTS_PER_PART=2 spreads the 4 rows over 2 part files run one after the other, with the same metrics', () =>
    withCheckoutLock('arte-parts', async () => {
      const output = join(scratch.dir, 'auto-part-results.json')
      const run = await runFixtureVitest({ ...env, ARTE_TESTS_PER_PART: '2', ARTE_OUTPUT: output }, { reporters: [new ArteReporter({ silent: true })] })
      const byFile = new Map<string, typeof run.tests>()
      for (const test of run.tests) byFile.set(test.file, [...(byFile.get(test.file) ?? []), test])
      expect([...byFile.keys()].sort()).toEqual(['bench/arte/parts/part-1-of-2.eval.ts', 'bench/arte/parts/part-2-of-2.eval.ts'])
      expect(run.tests.map((test) => test.name).sort()).toEqual(['101', '102', '103', '104'])
      // One at a time: every test of one part ended before the first test of the other started.
      const spans = [...byFile.values()]
        .map((tests) => ({ start: Math.min(...tests.map((test) => test.startTime)), end: Math.max(...tests.map((test) => test.startTime + test.duration)) }))
        .sort((a, b) => a.start - b.start)
      expect(spans[0]!.end).toBeLessThanOrEqual(spans[1]!.start)
      expect(deterministic(readArteResults(output))).toStrictEqual(deterministic(unsharded))
    }))

  it('an interrupted run counts the rows of the part files it never started as not run (and names the files), and says to resume', () =>
    withCheckoutLock('arte-parts', async () => {
      const output = join(scratch.dir, 'not-started-results.json')
      const ended = join(scratch.dir, 'not-started-ended.txt')
      let vitest: Vitest | undefined
      // The first task to ask is answered at once, the others after 40 s: its part file is still running when it ends
      // and the run is cancelled, while the other part file still waits for the one worker.
      const quick = fixtureResponder()
      const slow = fixtureResponder({ delayMs: 40_000 })
      let first: string | undefined
      await using partServer = await startScriptedServer((request, index) => {
        first ??= lastUserText(request)
        return (lastUserText(request) === first ? quick : slow)(request, index)
      })
      const stopWatching = onTestEnded(
        ended,
        () => true,
        () => void vitest?.cancelCurrentRun('keyboard-input'),
      )
      const run = await runPrinted(
        { ...fixtureEnv(partServer.baseURL, scratch.dir), ARTE_PARTS: '2', ARTE_OUTPUT: output, TEST_ENDED_FILE: ended },
        // Part files in their own workers, one worker: the second waits (with one shared worker, Vitest collects it and
        // skips its tests, which the results count as not run).
        { maxWorkers: 1, setupFiles: [TEST_ENDED_SETUP], reporters: [{ onInit: (instance: Vitest) => void (vitest = instance) }, new ArteReporter()] },
      ).finally(stopWatching)
      const results = readArteResults(output)
      expect(results.testRunEndReason).toBe('interrupted')
      expect(run.tests).toBe(2)
      expect(results.notStartedFiles).toHaveLength(1)
      const [notStarted] = results.notStartedFiles ?? []
      expect(['bench/arte/parts/part-1-of-2.eval.ts', 'bench/arte/parts/part-2-of-2.eval.ts']).toContain(notStarted)
      // Rows by position modulo 2: part 1 holds 101 and 103, part 2 holds 102 and 104; the never-started part's rows are not run.
      const neverRan = notStarted === 'bench/arte/parts/part-1-of-2.eval.ts' ? ['101', '103'] : ['102', '104']
      expect(results.totalTasks).toBe(4)
      expect(results.completedTasks + results.failedTasks + results.notRunTasks).toBe(4)
      expect(results.taskResults.map((task) => task.taskId).sort()).toEqual(['101', '102', '103', '104'])
      const notRun = results.taskResults.filter((task) => neverRan.includes(task.taskId))
      expect(notRun.map((task) => task.outcome)).toEqual(
        neverRan.map(() => ({ kind: 'not-run', reason: `its test file ${notStarted} never started (the run was interrupted first)` })),
      )
      expect(notRun.map((task) => [task.question !== '', task.inboxAddress !== '', task.exactMatch])).toEqual([
        [true, true, false],
        [true, true, false],
      ])
      expect(results.notRunTasks).toBeGreaterThanOrEqual(2)
      expect(run.stdout).toContain('1 test file(s) never started: their tasks are counted as not run.')
      expect(run.stdout).not.toContain('in no count')
      expect(run.stdout).toContain('run the same command again with --resume')
    }))

  it('fails the run on an unmet threshold, naming it and the measured value', async () => {
    const reporter = new ArteReporter({ thresholds: 'exactMatchAccuracy>=0.6,avgSemanticScore>=0.4', silent: true })
    const output = join(scratch.dir, 'threshold-results.json')
    const run = await runFixtureVitest({ ...env, ARTE_OUTPUT: output }, { testNamePattern: '^10[123]$', reporters: [reporter] })
    expect(run.tests.filter((test) => test.state === 'failed')).toEqual([])
    expect(run.exitCode).toBe(1)
    const results = readArteResults(output)
    expect(results.totalTasks).toBe(3)
    expect(results.thresholds).toEqual([
      { metric: 'exactMatchAccuracy', op: '>=', value: 0.6, measured: 1 / 3, passed: false },
      { metric: 'avgSemanticScore', op: '>=', value: 0.4, measured: (1 + 2 / 3) / 3, passed: true },
    ])
  })
})

/** Runs the fixture project like `runFixtureVitest`, recording what the reporters print. */
async function runPrinted(env: Record<string, string>, options: CliOptions): Promise<{ exitCode: number; stdout: string; stderr: string; tests: number }> {
  const stdout = outputRecorder()
  const stderr = outputRecorder()
  const savedExitCode = process.exitCode
  process.exitCode = undefined
  try {
    return await withEnv(env, async () => {
      const vitest = await startVitest(
        'test',
        [],
        { config: FIXTURE_CONFIG, root: REPO_ROOT, watch: false, run: true, ...options },
        {},
        { stdout: stdout.stream, stderr: stderr.stream },
      )
      const tests = vitest.state.getTestModules().flatMap((testModule) => [...testModule.children.allTests()]).length
      await vitest.close()
      return { exitCode: Number(process.exitCode ?? 0), stdout: stdout.text(), stderr: stderr.text(), tests }
    })
  } finally {
    process.exitCode = savedExitCode
  }
}

describe('ART-E reporter: a run that finished its tasks keeps what it produced', () => {
  let server: ScriptedServer
  const scratch = scratchDir('arte-reporter-outputs')
  let env: Record<string, string>

  beforeAll(async () => {
    server = await startScriptedServer(fixtureResponder())
    env = fixtureEnv(server.baseURL, scratch.dir, { ARTE_DB: join(scratch.dir, 'mail.db') })
  })

  afterAll(async () => {
    await server?.close()
    scratch.remove()
  })

  it('a results file that cannot be written at the end: metrics printed, history copy kept for the report, the run fails naming the setting', async () => {
    const output = join(scratch.dir, 'late', 'results.json')
    const history = join(scratch.dir, 'late-history')
    // A folder appears where the results go while the run ends (as a disk that fills, or permissions that change).
    const blocker: Reporter = { onTestRunEnd: () => void mkdirSync(output, { recursive: true }) }
    const reporter = new ArteReporter()
    takeRunOutput('arte-results')
    const run = await runPrinted({ ...env, ARTE_OUTPUT: output, BENCH_HISTORY_DIR: history }, { testNamePattern: '^10[12]$', reporters: [blocker, reporter] })
    expect(run.stdout).toMatch(/ART-E {2}2 task\(s\) · model scripted-model/)
    expect(run.stdout).toContain('exactMatchAccuracy   0.500')
    expect(run.stdout).toContain('results              NOT written (see the error below)')
    expect(run.stderr).toContain(`ERROR: ART-E results were not written. Cannot write ${output}: it is a folder.`)
    expect(run.stderr).toContain('Fix: Set another path with ARTE_OUTPUT (agent-bench arte --output). Name a file')
    expect(run.exitCode).toBe(1)
    expect(reporter.outputFile).toBeUndefined()
    const [runFolder, ...more] = readdirSync(history)
    expect(more).toEqual([])
    const kept = join(history, runFolder ?? '', 'arte-results.json')
    expect(run.stderr).toContain("This run's results are kept in")
    expect(readArteResults(kept).taskResults.map((task) => task.taskId)).toEqual(['101', '102'])
    expect(readArteResults(kept)).toEqual(JSON.parse(JSON.stringify(reporter.results)))
    expect(takeRunOutput('arte-results'), 'the HTML report is built from the history copy').toBe(kept)
    expect(readdirSync(join(scratch.dir, 'late')), 'no temp file left beside it').toEqual(['results.json'])
  })

  it('a history folder that cannot be written is a warning naming BENCH_HISTORY_DIR: the metrics and the results file are kept, the run passes', async () => {
    const blocker = join(scratch.dir, 'a-file')
    writeFileSync(blocker, '')
    const output = join(scratch.dir, 'history-warning.json')
    const run = await runPrinted(
      { ...env, ARTE_OUTPUT: output, BENCH_HISTORY_DIR: join(blocker, 'h') },
      { testNamePattern: '^10[12]$', reporters: [new ArteReporter()] },
    )
    expect(run.stdout).toContain('exactMatchAccuracy   0.500')
    expect(run.stderr).toMatch(
      new RegExp(
        `WARNING: This run was not kept in the history folder ${join(blocker, 'h')} \\(BENCH_HISTORY_DIR\\): [^\\n]*${blocker} is not a folder\\.\\n  Fix: Set BENCH_HISTORY_DIR`,
      ),
    )
    expect(run.exitCode).toBe(0)
    expect(readArteResults(output).totalTasks).toBe(2)
  })

  it('a bad BENCH_HISTORY_KEEP, or a results path under a file, stops a plain vitest run before any task runs', async () => {
    const blocker = join(scratch.dir, 'another-file')
    writeFileSync(blocker, '')
    const requests = server.requests.length
    const badKeep = await runPrinted({ ...env, BENCH_HISTORY_KEEP: 'abc' }, { reporters: [new ArteReporter()] })
    expect(badKeep.stderr).toContain('Invalid BENCH_HISTORY_KEEP="abc": expected a whole number >= 0.')
    const badOutput = await runPrinted(env, { reporters: [new ArteReporter()], outputFile: { arte: join(blocker, 'results.json') } })
    expect(badOutput.stderr).toContain(
      `The ART-E results file ${join(blocker, 'results.json')}, set by --outputFile.arte (Vitest's \`outputFile.arte\`), cannot be written: ${blocker} is not a folder.`,
    )
    for (const run of [badKeep, badOutput]) {
      expect(run.exitCode).toBe(1)
      expect(run.tests).toBe(0)
    }
    expect(server.requests.length, 'no task called the model').toBe(requests)
  })
})

describe('ART-E reporter with ARTE_ROWS=openpipe (fixture project, scripted server)', () => {
  const scratch = scratchDir('arte-reporter-rows')
  afterAll(() => scratch.remove())

  /** The fixture rows (101-104 test, 105 train) and three synthetic test rows: 49 (known bad), 201 (two sources), 202 (one). */
  function dataset(): string {
    const synthetic = (id: number, messageIds: string[]) =>
      JSON.stringify({
        id,
        question: `Synthetic question ${id}?`,
        answer: `answer ${id}`,
        message_ids: messageIds,
        inbox_address: 'ann.lee@fernwood.example',
        query_date: '2003-03-10',
        how_realistic: 0.5,
        split: 'test',
      })
    const file = join(scratch.dir, 'rows.jsonl')
    const lines = [
      synthetic(49, ['<fx-1001@fernwood.example>']),
      synthetic(201, ['<fx-1001@fernwood.example>', '<fx-1002@fernwood.example>']),
      synthetic(202, ['<fx-1002@fernwood.example>']),
    ]
    writeFileSync(file, `${readFileSync(FIXTURE_DATASET, 'utf8').trimEnd()}\n${lines.join('\n')}\n`)
    return file
  }

  it("runs the first ARTE_LIMIT rows OpenPipe keeps, records the selection in the run's configuration and prints it", async () => {
    await using server = await startScriptedServer(fixtureResponder())
    const env = fixtureEnv(server.baseURL, scratch.dir, { ARTE_DATASET: dataset(), ARTE_ROWS: 'openpipe', ARTE_LIMIT: '4' })
    const reporter = new ArteReporter()
    const run = await runPrinted(env, { reporters: [reporter] })
    const results = readArteResults(join(scratch.dir, 'results.json'))
    // 101 is one of OpenPipe's known-bad ids, 49 too, 201 cites two messages; 105 is of the train split.
    expect(results.taskResults.map((task) => task.taskId)).toEqual(['102', '103', '104', '202'])
    expect(results.config).toMatchObject({ split: 'test', rows: 'openpipe' })
    expect(run.stdout).toMatch(
      /ART-E {2}4 task\(s\) · model scripted-model · split test · [^\n]*\n {3}rows {17}openpipe \(OpenPipe's evaluation rows: one source message at most, known-bad ids 49, 101, 129, 171, 208, 266, 327 left out\)\n/,
    )

    const all = await runPrinted({ ...env, ARTE_ROWS: 'all', ARTE_OUTPUT: join(scratch.dir, 'all.json') }, { reporters: [new ArteReporter()] })
    const every = readArteResults(join(scratch.dir, 'all.json'))
    expect(every.taskResults.map((task) => task.taskId)).toEqual(['101', '102', '103', '104'])
    expect(every.config.rows).toBe('all')
    expect(all.stdout).not.toMatch(/^ {3}rows /m)
  })

  it("a merge of blob reports records the selection the shards ran with (not the merging process's ARTE_ROWS), mixed when they differ", async () => {
    await using server = await startScriptedServer(fixtureResponder())
    const env = fixtureEnv(server.baseURL, scratch.dir, { ARTE_DATASET: dataset(), ARTE_LIMIT: '2', ARTE_OUTPUT: join(scratch.dir, 'shard.json') })
    const blobs = join(scratch.dir, 'rows-blobs')
    await runFixtureVitest({ ...env, ARTE_ROWS: 'openpipe' }, { reporters: [['blob', { outputFile: join(blobs, 'blob-openpipe.json') }]] })
    // The merging process has no ARTE_ROWS (its default: all).
    const mergeEnv = { ...env, ARTE_OUTPUT: join(scratch.dir, 'merged-rows.json') }
    await runFixtureVitest(mergeEnv, { mergeReports: blobs, reporters: [new ArteReporter({ silent: true })] })
    expect(readArteResults(join(scratch.dir, 'merged-rows.json')).config.rows).toBe('openpipe')

    // Shards of two part files (Vitest shards by file), run with different selections.
    const parts = join(scratch.dir, 'rows-part-blobs')
    const include = ['fixtures/arte-e2e/parts/*.eval.ts']
    await runFixtureVitest({ ...env, ARTE_ROWS: 'openpipe' }, { include, shard: '1/2', reporters: [['blob', { outputFile: join(parts, 'blob-1.json') }]] })
    await runFixtureVitest({ ...env, ARTE_ROWS: 'all' }, { include, shard: '2/2', reporters: [['blob', { outputFile: join(parts, 'blob-2.json') }]] })
    const mixed = await runPrinted(mergeEnv, { include, mergeReports: parts, reporters: [new ArteReporter()] })
    expect(readArteResults(join(scratch.dir, 'merged-rows.json')).config.rows).toBe('mixed')
    expect(mixed.stdout).toMatch(/^ {3}rows {17}mixed \(the merged tests selected their rows differently/m)
  })
})
