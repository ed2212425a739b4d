import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FIXTURE_CONFIG, REPO_ROOT, fixtureEnv, fixtureResponder, scratchDir, withEnv } from '../../../fixtures/arte-e2e/harness.ts'
import { command } from './arte.ts'
import { type ArteResults, readArteResults } from '../results/results.ts'
import { TraceStore } from '../results/trace-store.ts'
import { type ReceivedRequest, startScriptedServer } from '../../testing/scripted-server.ts'
import { scaledMs } from '../../testing/time-scale.ts'

/** The resume test's run, as in the issue: 200 tasks, interrupted at about half. */
const TASKS = 200
/** The plain `vitest run` test needs fewer. */
const PLAIN_TASKS = 40
/** The in-process run of the command. */
const IN_PROCESS_TASKS = 32

function rows(count: number): string {
  return `${Array.from({ length: count }, (_, i) =>
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

/** Runs `agent-bench arte` in a child process (the real CLI and its Vitest workers); `onRequest` may signal it. */
function runCli(args: string[], env: Record<string, string>): { child: ChildProcess; exited: Promise<number | null>; output: () => string } {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/agent-bench.js'), 'arte', '--config', FIXTURE_CONFIG, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a signal can go to the CLI and its Vitest workers at once, as Ctrl+C in a terminal does.
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, exited, output: () => output }
}

/**
 * Runs `agent-bench arte` in this process (`command.run`, as bin/agent-bench.js does) with `env`, and returns its exit
 * code and what it wrote to standard output and error (not passed on).
 */
async function runInProcess(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  let output = ''
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write }
  const capture = (chunk: string | Uint8Array): boolean => {
    output += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
    return true
  }
  process.stdout.write = capture as typeof process.stdout.write
  process.stderr.write = capture as typeof process.stderr.write
  try {
    const code = await withEnv(env, () => command.run(['--config', FIXTURE_CONFIG, ...args]))
    return { code, output }
  } finally {
    process.stdout.write = writes.stdout
    process.stderr.write = writes.stderr
  }
}

/** The ART-E summaries printed in `output` (one block each, opened by its run line). */
const summaries = (output: string) => output.match(/^ ART-E {2}\d+ task\(s\)/gm) ?? []

const scores = (results: ArteResults) => results.taskResults.map((task) => [task.taskId, task.agentAnswer, task.exactMatch, task.outcome.kind])

describe('agent-bench arte: interrupt and resume (scripted server)', () => {
  const scratch = scratchDir('arte-interrupt')
  afterAll(() => scratch.remove())

  it(
    'SIGINT at about half writes what finished and stops the workers; --resume runs only the rest',
    async () => {
      const dataset = join(scratch.dir, 'rows.jsonl')
      writeFileSync(dataset, rows(TASKS))
      const responder = fixtureResponder({ delayMs: 100 })
      let onRequest: (request: ReceivedRequest) => void = () => {}
      await using server = await startScriptedServer((request, index) => {
        onRequest(request)
        return responder(request, index)
      })
      const history = join(scratch.dir, 'history-resume')
      const env = fixtureEnv(server.baseURL, scratch.dir, { ARTE_DATASET: dataset, BENCH_CONCURRENCY: '8', BENCH_HISTORY_DIR: history })

      // Run 1: interrupted once half the tasks have asked the model.
      const first = runCli([], env)
      onRequest = () => {
        // Ctrl+C in a terminal: SIGINT to the whole process group (the CLI and its Vitest workers).
        if (server.requests.length === TASKS / 2 && first.child.pid !== undefined) process.kill(-first.child.pid, 'SIGINT')
      }
      const firstCode = await first.exited
      const afterExit = server.requests.length
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(server.requests.length, 'no model request after the CLI exited').toBe(afterExit)
      expect(firstCode, first.output()).toBe(130)
      expect(first.output()).toContain('run the same command again with --resume added')
      expect(readdirSync(history), 'one history entry for the interrupted run').toHaveLength(1)
      expect(summaries(first.output()), first.output()).toHaveLength(1)
      const interrupted = readArteResults(join(scratch.dir, 'results.json'))
      expect(interrupted.testRunEndReason).toBe('interrupted')
      expect(interrupted.totalTasks).toBe(TASKS)
      expect(interrupted.completedTasks + interrupted.failedTasks + interrupted.notRunTasks).toBe(TASKS)
      expect(interrupted.notRunTasks).toBeGreaterThan(0)
      const finished = interrupted.completedTasks
      expect(finished).toBeGreaterThan(0)

      // A task can finish in its worker (trace stored) after the reporter counted it: the traces database decides.
      using traces = TraceStore.open(join(scratch.dir, 'traces.db'))
      const stored = new Set(
        traces
          .listBelow(2, { limit: 1000 })
          .filter((trace) => trace.outcome === 'answered')
          .map((trace) => trace.taskId),
      )
      expect(stored.size).toBeGreaterThanOrEqual(finished)
      expect(stored.size).toBeLessThan(TASKS)

      // Run 2: --resume asks the model only for the tasks that did not finish (one request each here).
      onRequest = () => {}
      const before = server.requests.length
      const second = runCli(['--resume'], env)
      expect(await second.exited, second.output()).toBe(0)
      expect(server.requests.length - before).toBe(TASKS - stored.size)
      const resumed = readArteResults(join(scratch.dir, 'results.json'))
      expect(resumed).toMatchObject({
        testRunEndReason: 'passed',
        totalTasks: TASKS,
        completedTasks: TASKS,
        failedTasks: 0,
        notRunTasks: 0,
        exactMatchAccuracy: 1,
      })
      expect(second.output()).toContain(`resumed              ${stored.size} task(s) reused from earlier runs, ${TASKS - stored.size} run now`)
      // The results say which results were reused, and the usage of the reused ones (one call each) is named as spent before.
      expect(
        resumed.taskResults
          .filter((task) => task.resumedFrom !== undefined)
          .map((task) => task.taskId)
          .sort(),
      ).toEqual([...stored].sort())
      expect(second.output()).toContain(`the reused tasks' ${stored.size} call(s)`)
      expect(readdirSync(history)).toHaveLength(2)

      // The same results as an uninterrupted run.
      const third = runCli([], { ...env, ARTE_OUTPUT: join(scratch.dir, 'uninterrupted.json') })
      expect(await third.exited).toBe(0)
      expect(scores(resumed)).toEqual(scores(readArteResults(join(scratch.dir, 'uninterrupted.json'))))
    },
    scaledMs(120_000),
  )

  // The reporter writes what finished when the signal comes (in case the process dies), then the cancelled run ends
  // and it writes again: both writes are one run, so one history entry (a bare `agent-bench compare` compared it with itself).
  it(
    'in process: SIGINT keeps one history entry and prints one summary; --resume says how many finished results it reused',
    async () => {
      const dataset = join(scratch.dir, 'rows-in-process.jsonl')
      writeFileSync(dataset, rows(IN_PROCESS_TASKS))
      const responder = fixtureResponder({ delayMs: 100 })
      let onRequest: (count: number) => void = () => {}
      await using server = await startScriptedServer((request, index) => {
        onRequest(server.requests.length)
        return responder(request, index)
      })
      const history = join(scratch.dir, 'history-in-process')
      const tracesDb = join(scratch.dir, 'in-process-traces.db')
      const output = join(scratch.dir, 'in-process-results.json')
      const env = fixtureEnv(server.baseURL, scratch.dir, {
        ARTE_DATASET: dataset,
        BENCH_CONCURRENCY: '4',
        ARTE_OUTPUT: output,
        ARTE_TRACES_DB: tracesDb,
        BENCH_HISTORY_DIR: history,
        BENCH_REPORT: join(scratch.dir, 'in-process-report.html'),
        // Set by the command; listed so the run's environment is restored after it.
        BENCH_ONLY: 'arte',
      })

      onRequest = (count) => {
        if (count === IN_PROCESS_TASKS / 2) process.emit('SIGINT', 'SIGINT')
      }
      const first = await runInProcess([], env)
      onRequest = () => {}
      expect(first.code, first.output).toBe(130)
      const interrupted = readArteResults(output)
      expect(interrupted.testRunEndReason).toBe('interrupted')
      expect(interrupted.notRunTasks).toBeGreaterThan(0)
      expect(readdirSync(history), 'one history entry for the interrupted run').toHaveLength(1)
      expect(summaries(first.output), first.output).toHaveLength(1)
      expect(first.output).toContain(`notRunTasks          ${interrupted.notRunTasks}`)

      using traces = TraceStore.open(tracesDb)
      const stored = traces.listBelow(2, { limit: 1000 }).filter((trace) => trace.outcome === 'answered').length
      expect(stored).toBeGreaterThan(0)
      const second = await runInProcess([], { ...env, BENCH_RESUME: '1' })
      expect(second.code, second.output).toBe(0)
      expect(second.output).toContain(`resumed              ${stored} task(s) reused from earlier runs, ${IN_PROCESS_TASKS - stored} run now`)
      expect(readArteResults(output)).toMatchObject({ testRunEndReason: 'passed', completedTasks: IN_PROCESS_TASKS, notRunTasks: 0 })
      expect(readdirSync(history)).toHaveLength(2)
    },
    scaledMs(120_000),
  )

  it(
    'plain `vitest run` with the ART-E reporter: SIGTERM at about half still writes the results of what finished',
    async () => {
      const dataset = join(scratch.dir, 'rows-plain.jsonl')
      writeFileSync(dataset, rows(PLAIN_TASKS))
      const responder = fixtureResponder({ delayMs: 150 })
      let onRequest: () => void = () => {}
      await using server = await startScriptedServer((request, index) => {
        onRequest()
        return responder(request, index)
      })
      const output = join(scratch.dir, 'plain-results.json')
      const history = join(scratch.dir, 'history-plain')
      const env = fixtureEnv(server.baseURL, scratch.dir, {
        ARTE_DATASET: dataset,
        BENCH_CONCURRENCY: '2',
        ARTE_OUTPUT: output,
        ARTE_TRACES_DB: join(scratch.dir, 'plain-traces.db'),
        BENCH_HISTORY_DIR: history,
      })
      const child = spawn(
        process.execPath,
        [join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', FIXTURE_CONFIG, '--reporter=default', '--reporter=./reporters/arte.ts'],
        {
          cwd: REPO_ROOT,
          env: { ...process.env, ...env, FORCE_COLOR: '0' },
          stdio: 'ignore',
          // Its own process group: SIGTERM goes to Vitest and its workers, as a CI cancel does.
          detached: true,
        },
      )
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
      onRequest = () => {
        if (server.requests.length === PLAIN_TASKS / 2 && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
      }
      await exited
      const results = readArteResults(output)
      expect(results.testRunEndReason).toBe('interrupted')
      expect(results.totalTasks).toBe(PLAIN_TASKS)
      expect(results.completedTasks + results.failedTasks + results.notRunTasks).toBe(PLAIN_TASKS)
      expect(results.completedTasks).toBeGreaterThan(0)
      expect(results.notRunTasks).toBeGreaterThan(0)
      expect(readdirSync(history)).toHaveLength(1)
    },
    scaledMs(120_000),
  )
})
