import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Vitest, startVitest } from 'vitest/node'
import { RunLogSchema } from '../run/run-log.ts'
import { type Summary, SummarySchema } from '../summary/summary.ts'
import { type ReceivedRequest, scriptedText, startScriptedServer } from '../../testing/scripted-server.ts'
import MpcbenchReporter from './reporter.ts'
import { stubMpcbenchScriptedEnv } from '../../testing/mpcbench-scripted-env.ts'
import { TEST_ENDED_SETUP, onTestEnded } from '../../../fixtures/test-ended/watch.ts'
import { scaledMs } from '../../testing/time-scale.ts'
import { outputRecorder } from '../../testing/output-recorder.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })
/** Scripted judge scores, not a judgement. */
const SCORES = {
  answer_requirements_satisfaction: { score: 4, justification: 'scripted' },
  source_grounded_reasoning: { score: 4, justification: 'scripted' },
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('every selected MPCBench test appears in the summary once', () => {
  it(
    'counts a test whose agent model hangs as failed: its call ends by the deadline derived from the test timeout',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-accounting-'))
      // Long enough for the four quick tests on a loaded machine (2 s failed them now and then; BENCH_TEST_TIME_SCALE
      // stretches it, see docs/contributing.md), short for the hang.
      const testTimeout = scaledMs(6_000)
      // Every reply is scripted; the Quillstone task's model hangs far past the test timeout.
      await using server = await startScriptedServer((request) => {
        const user = JSON.stringify(request.body.messages ?? [])
        if (user.includes('Quillstone')) return { kind: 'reply', content: 'late', delayMs: 100 * testTimeout }
        return scriptedText(JSON.stringify({ final_answer: 'scripted reply', rationale: 'scripted' }))
      })
      stubMpcbenchScriptedEnv({ dir, baseURL: server.baseURL })
      const vitest = await startVitest(
        'test',
        ['bench/email_reply/email_reply.eval.ts'],
        {
          config: join(repo, 'fixtures/mpcbench-e2e/vitest.config.ts'),
          watch: false,
          testTimeout,
          reporters: [new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), print: false })],
        },
        {},
        { stdout: quiet(), stderr: quiet() },
      )
      await vitest.close()
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
      expect(summary.task_counts).toEqual({ selected: 5, completed: 4, failed: 1, not_run: 0 })
      // The agent's call gives up before the test timeout (ERR_MODEL_TIMEOUT): the task is one failure, with a run log.
      const quillstone = summary.scores['agent=scripted/agent__judge=rules']?.find((score) => score.task_id === 'lumen_quillstone_quote_email_reply')
      const unfinished = summary.unfinished?.find((test) => test.task_id === 'lumen_quillstone_quote_email_reply')
      expect(quillstone?.error).toBe('agent error')
      expect(unfinished).toBeUndefined()
    },
    scaledMs(120_000),
  )

  /** The task whose test the cancel cuts off: the last of `bench/email_reply`, so the four before it have finished. */
  const cutOff = 'tidewater_lab_sync_eta_email_reply'

  /**
   * Runs `bench/email_reply` one test at a time against a scripted server whose agent answers at once and whose judge
   * (`scripted/judge`) scores 4/4; the first request of the last task that `isCutOff` matches cancels the run, as
   * Ctrl-C does, and gets no reply in time. Returns the summary and the log folder.
   */
  async function cancelledRun(judgeModel: string, isCutOff: (request: ReceivedRequest) => boolean): Promise<{ summary: Summary; logs: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'mpc-cancel-'))
    const logs = join(dir, 'logs')
    let vitest: Vitest | undefined
    let cancelled = false
    await using server = await startScriptedServer((request) => {
      if (JSON.stringify(request.body.messages ?? []).includes('lab results sync') && isCutOff(request)) {
        cancelled = vitest !== undefined
        void vitest?.cancelCurrentRun('keyboard-input')
        return { kind: 'reply', content: 'late', delayMs: 60_000 }
      }
      if (request.body.tools === undefined) return scriptedText(JSON.stringify(SCORES))
      return scriptedText(JSON.stringify({ final_answer: 'scripted reply', rationale: 'scripted' }))
    })
    stubMpcbenchScriptedEnv({ dir, baseURL: server.baseURL, judgeModel, logDir: logs })
    const run = await startVitest(
      'test',
      ['bench/email_reply/email_reply.eval.ts'],
      {
        config: join(repo, 'fixtures/mpcbench-e2e/vitest.config.ts'),
        watch: false,
        testTimeout: 50_000,
        // One test at a time, so the cancel cuts off exactly the last test (the concurrent case is the next test's).
        maxConcurrency: 1,
        reporters: [
          { onInit: (instance: Vitest) => void (vitest = instance) },
          new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), print: false, history: false }),
        ],
      },
      {},
      { stdout: quiet(), stderr: quiet() },
    )
    await run.close()
    expect(cancelled, 'the run was cancelled').toBe(true)
    return { summary: SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))), logs }
  }

  /**
   * The cut-off test is not run, and left out of the scores and the rows (whose four tests all answered). Its usage
   * comes from its meta, or, when Vitest ended the run before the meta arrived, from `usageFiles` (its logs).
   */
  function expectNotRun(summary: Summary, judgeModel: string, usageFiles: string[]): void {
    expect(summary.task_counts).toEqual({ selected: 5, completed: 4, failed: 0, not_run: 1 })
    const fromLogs = summary.unfinished?.[0]?.usage_files === undefined ? {} : { usage_files: usageFiles }
    expect(summary.unfinished).toEqual([
      {
        task_id: cutOff,
        task_type: 'email_reply',
        agent_model: 'scripted/agent',
        outcome: 'not-run',
        message: 'the run was interrupted while this test ran',
        usage: expect.any(Object),
        ...fromLogs,
      },
    ])
    expect(summary.scores[`agent=scripted/agent__judge=${judgeModel}`]?.map((score) => score.task_id)).not.toContain(cutOff)
    expect(summary.rows.map((row) => [row.count, row.failures])).toEqual([[4, 0]])
  }

  it(
    'a test whose agent run a cancelled run (Ctrl-C) cut off is not run: no judge is called, its run log is kept',
    async () => {
      const { summary, logs } = await cancelledRun('rules', () => true)
      expectNotRun(summary, 'rules', [relative(repo, join(logs, `${cutOff}__agent-scripted_agent_run.json`))])
      const runLog = RunLogSchema.parse(JSON.parse(readFileSync(join(logs, `${cutOff}__agent-scripted_agent_run.json`), 'utf8')))
      expect(runLog.outcome.kind).toBe('aborted')
      expect(readdirSync(logs).filter((name) => name.startsWith(cutOff))).toEqual([`${cutOff}__agent-scripted_agent_run.json`])
    },
    scaledMs(120_000),
  )

  it(
    'a test whose LLM judge a cancelled run cut off is not run either, not a judge failure',
    async () => {
      const { summary, logs } = await cancelledRun('scripted/judge', (request) => request.body.tools === undefined)
      const files = [`${cutOff}__agent-scripted_agent_run.json`, `${cutOff}__agent-scripted_agent__judge-scripted_judge_judge_result.json`]
      expectNotRun(
        summary,
        'scripted/judge',
        files.map((name) => relative(repo, join(logs, name))),
      )
      expect(summary.rows[0]?.mean_answer_requirements_satisfaction).toBe(4)
      // Its agent had answered: what that cost is still in what the run spent.
      const spent = summary.unfinished?.[0]?.usage?.agents.calls ?? 0
      expect(spent).toBeGreaterThan(0)
      expect(summary.usage.agents.calls).toBeGreaterThanOrEqual(spent + 4)
    },
    scaledMs(120_000),
  )

  it(
    'a cancelled run stops every concurrent test still waiting on its agent: they are not run, and the run does not wait for them',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-cancel-concurrent-'))
      const slowMs = scaledMs(40_000)
      let vitest: Vitest | undefined
      // Only the Quillstone task's agent answers at once; the four others wait on the model when the run is cancelled.
      await using server = await startScriptedServer((request) => {
        if (request.body.tools === undefined) return scriptedText(JSON.stringify(SCORES))
        const quick = JSON.stringify(request.body.messages ?? []).includes('Quillstone')
        return scriptedText(JSON.stringify({ final_answer: 'scripted reply', rationale: 'scripted' }), quick ? {} : { delayMs: slowMs })
      })
      stubMpcbenchScriptedEnv({ dir, baseURL: server.baseURL, judgeModel: 'rules' })
      // Cancels once the Quillstone test has ended, heard through a file (its result can reach the main process only
      // once the slow tests end). Vitest 4.1 drops the tests started after the one that ended from its list of running
      // tests, so its own cancel aborts none of the four (`withRunCancel` does).
      vi.stubEnv('TEST_ENDED_FILE', join(dir, 'ended.txt'))
      const stopWatching = onTestEnded(
        join(dir, 'ended.txt'),
        (name) => name.startsWith('lumen_quillstone_quote_email_reply'),
        () => {
          void vitest?.cancelCurrentRun('keyboard-input')
        },
      )
      const started = Date.now()
      const run = await startVitest(
        'test',
        ['bench/email_reply/email_reply.eval.ts'],
        {
          config: join(repo, 'fixtures/mpcbench-e2e/vitest.config.ts'),
          watch: false,
          testTimeout: 2 * slowMs,
          maxConcurrency: 5,
          setupFiles: [TEST_ENDED_SETUP],
          reporters: [
            { onInit: (instance: Vitest) => void (vitest = instance) },
            new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), print: false, history: false }),
          ],
        },
        {},
        { stdout: quiet(), stderr: quiet() },
      ).finally(stopWatching)
      await run.close()
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
      expect(summary.task_counts).toEqual({ selected: 5, completed: 1, failed: 0, not_run: 4 })
      expect(summary.unfinished?.map((test) => test.outcome)).toEqual(['not-run', 'not-run', 'not-run', 'not-run'])
      expect(Date.now() - started, 'the run ended without waiting for the slow replies').toBeLessThan(slowMs)
    },
    scaledMs(120_000),
  )

  it(
    'an interrupted run names the bench files it never started, and counts their tests as not run',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-not-started-'))
      let vitest: Vitest | undefined
      // The first agent request is answered at once, the others only after 40 s: the first file is still running when
      // its first test ends and the run is cancelled, so the second file never starts.
      let requests = 0
      await using server = await startScriptedServer(() =>
        scriptedText(JSON.stringify({ final_answer: 'scripted reply', rationale: 'scripted' }), requests++ === 0 ? {} : { delayMs: 40_000 }),
      )
      stubMpcbenchScriptedEnv({ dir, baseURL: server.baseURL })
      vi.stubEnv('TEST_ENDED_FILE', join(dir, 'ended.txt'))
      // Cancels once the first test has ended: its file is running, the other one still waits for the one worker.
      const stopWatching = onTestEnded(
        join(dir, 'ended.txt'),
        () => true,
        () => void vitest?.cancelCurrentRun('keyboard-input'),
      )
      const files = ['bench/email_reply/email_reply.eval.ts', 'bench/planning/planning.eval.ts']
      // Vitest pipes the worker's output into this stream and the pipe ends it when the cancelled worker exits, often
      // before the reporter prints at the run's end: the recorder ignores that end, as process.stdout does.
      const printed = outputRecorder()
      const run = await startVitest(
        'test',
        files,
        {
          config: join(repo, 'fixtures/mpcbench-e2e/vitest.config.ts'),
          watch: false,
          maxWorkers: 1,
          setupFiles: [TEST_ENDED_SETUP],
          reporters: [
            { onInit: (instance: Vitest) => void (vitest = instance) },
            new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), history: false }),
          ],
        },
        {},
        { stdout: printed.stream, stderr: quiet() },
      ).finally(stopWatching)
      await run.close()
      const started = run.state
        .getTestModules()
        .filter((testModule) => testModule.children.size > 0)
        .map((testModule) => relative(repo, testModule.moduleId))
      expect(started).toHaveLength(1)
      const notStarted = files.filter((file) => !started.includes(file))
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
      expect(summary.not_started_files).toEqual(notStarted)
      const neverType = notStarted[0]?.includes('planning') ? 'planning' : 'email_reply'
      const neverTasks = readdirSync(join(repo, 'tasks', neverType)).filter((name) => name.endsWith('.json')).length
      expect(neverTasks).toBeGreaterThan(0)
      expect(summary.task_counts?.selected).toBe(5 + neverTasks)
      const never = summary.unfinished?.filter((test) => test.task_type === neverType) ?? []
      expect(never).toHaveLength(neverTasks)
      expect(
        never.every((test) => test.outcome === 'not-run' && test.agent_model === 'scripted/agent' && test.message.includes(`${notStarted[0]} never started`)),
      ).toBe(true)
      expect(summary.task_counts?.not_run).toBeGreaterThanOrEqual(neverTasks)
      expect(summary.rows.map((row) => row.task_type)).toEqual([started[0]?.includes('planning') ? 'planning' : 'email_reply'])
      expect(printed.text()).toContain(`1 test file(s) never started: their ${neverTasks} test(s) are counted as not run.`)
    },
    scaledMs(120_000),
  )

  it('a test that times out or fails before setting its meta is an unfinished, failed test (with its trial); a skipped one is not selected', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mpc-accounting-fixture-'))
    const vitest = await startVitest(
      'test',
      ['mpcbench.eval.ts'],
      {
        config: join(repo, 'fixtures/accounting/vitest.config.ts'),
        watch: false,
        reporters: [new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), print: false })],
      },
      {},
      { stdout: quiet(), stderr: quiet() },
    )
    await vitest.close()
    const summary = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
    expect(summary.task_counts).toEqual({ selected: 3, completed: 1, failed: 2, not_run: 0 })
    expect(summary.unfinished).toEqual([
      { task_id: 'mpc_hang', task_type: 'planning', agent_model: 'baseline', outcome: 'timed-out', message: expect.stringMatching(/timed out in 1000ms/) },
      { task_id: 'mpc_trial', task_type: 'planning', agent_model: 'baseline', trial: 2, outcome: 'failed', message: 'scenario data unavailable' },
    ])
  })
})
