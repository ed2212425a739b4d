import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Reporter, type TestModule, startVitest } from 'vitest/node'
import { runLogFileName, judgeResultFileName } from '../tasks/file-names.ts'
import type { JudgeResultFile } from '../judge/judge-result.ts'
import type { RunLog } from '../run/run-log.ts'
import type { MpcbenchPlannedTask } from '../run/mpcbench-meta.ts'
import { SummarySchema } from '../summary/summary.ts'
import type { Summary } from '../summary/summary.ts'
import MpcbenchReporter from './reporter.ts'
import { outputRecorder } from '../../testing/output-recorder.ts'
import { takeRunOutput } from '../../core/run-outputs.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const root = fileURLToPath(new URL('../../../fixtures/mpcbench-reporter/', import.meta.url))

async function run(options: Record<string, unknown>, stdout = outputRecorder()) {
  const vitest = await startVitest('test', [], { root, watch: false, ...options }, {}, { stdout: stdout.stream, stderr: outputRecorder().stream })
  await vitest.close()
  return stdout.text()
}

const readSummary = (file: string): Summary => SummarySchema.parse(JSON.parse(readFileSync(file, 'utf8')))
const withoutTime = (summary: Summary) => ({ ...summary, generated_at: '' })

describe('MpcbenchReporter end to end (fixtures/mpcbench-reporter)', () => {
  let history = ''
  beforeEach(() => {
    history = mkdtempSync(join(tmpdir(), 'mpc-history-'))
    vi.stubEnv('BENCH_HISTORY_DIR', history)
  })
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('prints the agent x judge table and writes the summary, beside the junit reporter', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-reporter-'))
    const printed = await run({
      reporters: [new MpcbenchReporter({ outputFile: join(out, 'summary.json') }), ['junit', { outputFile: join(out, 'junit.xml') }]],
    })
    const summary = readSummary(join(out, 'summary.json'))
    expect(summary.tests).toBe(4)
    const runs = readdirSync(history)
    expect(runs).toHaveLength(1)
    expect(readSummary(join(history, runs[0] ?? '', 'mpcbench-summary.json'))).toEqual(summary)
    expect(
      summary.rows.map((r) => [r.task_type, r.count, r.scored, r.failures, r.mean_answer_requirements_satisfaction, r.mean_source_grounded_reasoning]),
    ).toEqual([
      ['email_reply', 2, 1, 1, 4, 4],
      ['planning', 2, 2, 0, 3.5, 3.5],
    ])
    expect(printed).toContain('MPCBench: mean scores (0-5) per agent x judge x task type, 4 test(s)')
    expect(printed).toMatch(/baseline \(non-LLM\)\s+rules \(non-LLM\)\s+planning\s+3\.50 \[2\.00, 5\.00\]\s+3\.50 \[3\.00, 4\.00\]\s+2\s+0/)
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8')
    expect(junit).toContain('name="fx_plan_1 [agent=baseline]"')
    expect(junit).toContain('fixture judge error')
  })

  it('gives the same summary from two shards merged with --merge-reports', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-shards-'))
    await run({ reporters: [new MpcbenchReporter({ outputFile: join(out, 'full.json'), print: false })] })
    for (const shard of ['1/2', '2/2']) {
      await run({ shard, reporters: [['blob', { outputFile: join(out, 'blobs', `blob-${shard.replace('/', '-')}.json`) }]] })
    }
    expect(readdirSync(join(out, 'blobs'))).toHaveLength(2)
    expect(existsSync(join(out, 'merged.json'))).toBe(false)
    await run({
      mergeReports: join(out, 'blobs'),
      reporters: [new MpcbenchReporter({ outputFile: join(out, 'merged.json'), print: false }), ['junit', { outputFile: join(out, 'junit.xml') }]],
    })
    expect(withoutTime(readSummary(join(out, 'merged.json')))).toEqual(withoutTime(readSummary(join(out, 'full.json'))))
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('fx_email_1 [agent=baseline]')
  })

  it('writes nothing when no test carries MPCBench meta', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-none-'))
    const printed = await run({
      testNamePattern: 'without MPCBench meta',
      reporters: [new MpcbenchReporter({ outputFile: join(out, 'summary.json') })],
    })
    expect(existsSync(join(out, 'summary.json'))).toBe(false)
    expect(printed).not.toContain('MPCBench:')
  })
})

/** Runs the fixture project, recording what is printed and the exit code the reporters set (then restored). */
async function runRecorded(options: Record<string, unknown>): Promise<{ stdout: string; stderr: string; exitCode: number; tests: number }> {
  const stdout = outputRecorder()
  const stderr = outputRecorder()
  const saved = process.exitCode
  process.exitCode = undefined
  try {
    const vitest = await startVitest('test', [], { root, watch: false, ...options }, {}, { stdout: stdout.stream, stderr: stderr.stream })
    const tests = vitest.state.getTestModules().flatMap((testModule) => [...testModule.children.allTests()]).length
    await vitest.close()
    return { stdout: stdout.text(), stderr: stderr.text(), exitCode: Number(process.exitCode ?? 0), tests }
  } finally {
    process.exitCode = saved
  }
}

describe('MpcbenchReporter: a run that finished its tasks keeps what it produced', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('a summary that cannot be written at the end: table printed, history copy kept for the report, the run fails naming --outputFile.mpcbench', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-late-'))
    const history = join(out, 'history')
    vi.stubEnv('BENCH_HISTORY_DIR', history)
    const file = join(out, 'summary.json')
    // A folder appears where the summary goes while the run ends (as a disk that fills, or permissions that change).
    const blocker: Reporter = { onTestRunEnd: () => void mkdirSync(file, { recursive: true }) }
    const reporter = new MpcbenchReporter()
    takeRunOutput('mpcbench-summary')
    const run = await runRecorded({ testNamePattern: 'fx_plan', reporters: [blocker, reporter], outputFile: { mpcbench: file } })
    expect(run.stdout).toContain('MPCBench: mean scores (0-5) per agent x judge x task type, 2 test(s)')
    expect(run.stdout).not.toContain('Summary written to')
    expect(run.stderr).toContain(`ERROR: MPCBench summary was not written. Cannot write ${file}: it is a folder.`)
    expect(run.stderr).toContain("Fix: Set another path with --outputFile.mpcbench (Vitest's `outputFile.mpcbench`). Name a file")
    expect(run.exitCode).toBe(1)
    expect(reporter.outputFile).toBeUndefined()
    const [runFolder, ...more] = readdirSync(history)
    expect(more).toEqual([])
    const kept = join(history, runFolder ?? '', 'mpcbench-summary.json')
    expect(readSummary(kept)).toEqual(SummarySchema.parse(JSON.parse(JSON.stringify(reporter.summary))))
    expect(takeRunOutput('mpcbench-summary'), 'the HTML report is built from the history copy').toBe(kept)
    expect(readdirSync(out).sort(), 'no temp file left beside it').toEqual(['history', 'summary.json'])
  })

  it('a history folder that cannot be written is a warning naming BENCH_HISTORY_DIR: the summary is written and the run passes', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-history-warning-'))
    writeFileSync(join(out, 'a-file'), '')
    vi.stubEnv('BENCH_HISTORY_DIR', join(out, 'a-file', 'h'))
    const run = await runRecorded({ testNamePattern: 'fx_plan', reporters: [new MpcbenchReporter({ outputFile: join(out, 'summary.json') })] })
    expect(run.stdout).toContain('MPCBench: mean scores')
    expect(run.stdout).toContain(`Summary written to ${join(out, 'summary.json')}`)
    expect(run.stderr).toMatch(
      /WARNING: This run was not kept in the history folder \S+ \(BENCH_HISTORY_DIR\): [^\n]* is not a folder\.\n {2}Fix: Set BENCH_HISTORY_DIR/,
    )
    expect(run.exitCode).toBe(0)
    expect(readSummary(join(out, 'summary.json')).tests).toBe(2)
  })

  it('a bad BENCH_HISTORY_KEEP, or a summary path under a file, stops the run before any test runs', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mpc-refused-'))
    writeFileSync(join(out, 'a-file'), '')
    vi.stubEnv('BENCH_HISTORY_DIR', join(out, 'history'))
    vi.stubEnv('BENCH_HISTORY_KEEP', 'abc')
    const badKeep = await runRecorded({ reporters: [new MpcbenchReporter({ outputFile: join(out, 'summary.json') })] })
    expect(badKeep.stderr).toContain('Invalid BENCH_HISTORY_KEEP="abc": expected a whole number >= 0.')
    vi.unstubAllEnvs()
    vi.stubEnv('BENCH_HISTORY_DIR', join(out, 'history'))
    const under = join(out, 'a-file', 'summary.json')
    const badFile = await runRecorded({ reporters: [new MpcbenchReporter()], outputFile: { mpcbench: under } })
    expect(badFile.stderr).toContain(
      `The MPCBench summary file ${under}, set by --outputFile.mpcbench (Vitest's \`outputFile.mpcbench\`), cannot be written: ${join(out, 'a-file')} is not a folder.`,
    )
    for (const run of [badKeep, badFile]) {
      expect(run.exitCode).toBe(1)
      expect(run.tests).toBe(0)
    }
    expect(readdirSync(out)).toEqual(['a-file'])
  })
})

describe('MpcbenchReporter: a cancelled test whose last update Vitest dropped keeps what it spent, read from its logs', () => {
  const usage = (calls: number, tokens: number) => ({ promptTokens: tokens, completionTokens: 0, totalTokens: tokens, costUsd: calls / 100, calls })
  const hourAgo = () => new Date(Date.now() - 3_600_000)

  function writeRunLog(dir: string, taskId: string, startedAt: Date, spent: ReturnType<typeof usage>): string {
    const runLog: RunLog = {
      task_id: taskId,
      task_type: 'email_reply',
      user_prompt: 'scripted',
      tool_trace_steps: [],
      raw_tool_calls: [],
      final_answer: 'scripted reply',
      rationale: 'scripted',
      agent_model: 'scripted/agent',
      agent_model_file_name: 'scripted_agent',
      agent_model_kind: 'llm',
      scenario_id: 'scenario',
      task_file: null,
      outcome: { kind: 'answered', via: 'json' },
      usage: spent,
      turns: 1,
      trace_id: 'trace',
      started_at: startedAt.toISOString(),
      duration_ms: 1,
    }
    mkdirSync(dir, { recursive: true })
    const file = join(dir, runLogFileName(taskId, 'scripted/agent'))
    writeFileSync(file, JSON.stringify(runLog))
    return file
  }

  function writeJudgeResult(dir: string, taskId: string, judgeModel: string, judgedAt: Date, spent: ReturnType<typeof usage>): string {
    const result: JudgeResultFile = {
      kind: 'judge-error',
      task_id: taskId,
      agent_model: 'scripted/agent',
      agent_model_file_name: 'scripted_agent',
      judge_model: judgeModel,
      judge_model_file_name: judgeModel,
      judge_kind: 'llm',
      attempts: 1,
      usage: spent,
      judged_at: judgedAt.toISOString(),
      error: { code: 'ERR_JUDGE_REPLY', message: 'scripted', replies: [] },
    }
    const file = join(dir, judgeResultFileName(taskId, 'scripted/agent', judgeModel))
    writeFileSync(file, JSON.stringify(result))
    return file
  }

  /**
   * A test file as Vitest hands it to reporters after a cancel that cut its tests off and ended the run before their
   * last update: each test skipped as aborted, with only its declaration meta (`mpcbenchTask`), no `mpcbench` meta.
   */
  function cancelledModule(logDir: string, tests: ReadonlyArray<{ taskId: string; trial?: number; timedOut?: true }>): TestModule {
    const testCases = tests.map(({ taskId, trial, timedOut }) => {
      const planned: MpcbenchPlannedTask = {
        taskId,
        taskType: 'email_reply',
        scenarioId: 'scenario',
        agentModel: 'scripted/agent',
        agentModelKind: 'llm',
        ...(trial === undefined ? {} : { trial }),
      }
      return {
        name: taskId,
        fullName: taskId,
        meta: () => ({ mpcbenchTask: planned }),
        result: () =>
          timedOut === true
            ? { state: 'failed', errors: [{ message: 'Test timed out in 5000ms.' }] }
            : { state: 'skipped', note: 'The test run was aborted by the user.' },
      }
    })
    return {
      moduleId: 'email_reply.eval.ts',
      project: { config: { env: { MPCBENCH_LOG_DIR: logDir } } },
      state: () => 'skipped',
      errors: () => [],
      children: { size: testCases.length, allTests: () => testCases.values() },
    } as unknown as TestModule
  }

  it("counts the usage in the test's run log and judge results written in this run; a stale, missing or broken log adds nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mpc-logged-usage-'))
    const logs = join(dir, 'logs')
    const reporter = new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), print: false, history: false })
    // Left by an earlier run, before this run started.
    writeRunLog(logs, 'stale_task', hourAgo(), usage(9, 900))
    writeJudgeResult(logs, 'cut_task', 'judge-b', hourAgo(), usage(7, 700))
    // As Vitest starts a run.
    const asVitest: Reporter = reporter
    asVitest.onTestRunStart?.([])
    const cutRunLog = writeRunLog(logs, 'cut_task', new Date(), usage(3, 300))
    const cutJudge = writeJudgeResult(logs, 'cut_task', 'judge-a', new Date(), usage(1, 50))
    const trialRunLog = writeRunLog(join(logs, 'trial-2'), 'cut_task', new Date(), usage(2, 200))
    writeFileSync(join(logs, runLogFileName('broken_task', 'scripted/agent')), '{"task_id": "broken_task", "usa')
    const tests = [{ taskId: 'cut_task' }, { taskId: 'cut_task', trial: 2 }, { taskId: 'stale_task' }, { taskId: 'missing_task' }, { taskId: 'broken_task' }]
    reporter.onTestRunEnd([cancelledModule(logs, tests)], [], 'interrupted')

    const row = (taskId: string, trial?: number) => ({
      task_id: taskId,
      task_type: 'email_reply',
      agent_model: 'scripted/agent',
      ...(trial === undefined ? {} : { trial }),
      outcome: 'not-run',
    })
    const notRun = (taskId: string) => ({ ...row(taskId), message: 'the run was interrupted before this test ran' })
    const summary = reporter.summary
    expect(summary?.unfinished).toEqual([
      notRun('broken_task'),
      {
        ...row('cut_task'),
        message: 'the run was interrupted while this test ran',
        usage: { agents: usage(3, 300), judges: usage(1, 50) },
        usage_files: [relative(process.cwd(), cutRunLog), relative(process.cwd(), cutJudge)],
      },
      {
        ...row('cut_task', 2),
        message: 'the run was interrupted while this test ran',
        usage: { agents: usage(2, 200), judges: usage(0, 0) },
        usage_files: [relative(process.cwd(), trialRunLog)],
      },
      notRun('missing_task'),
      notRun('stale_task'),
    ])
    expect(summary?.usage.agents).toEqual(usage(5, 500))
    expect(summary?.usage.judges).toEqual(usage(1, 50))
    expect(summary?.task_counts).toEqual({ selected: 5, completed: 0, failed: 0, not_run: 5 })
    expect(readSummary(join(dir, 'summary.json')).unfinished?.[1]?.usage_files).toHaveLength(2)
  })

  it('a test that timed out after its agent ran (no meta) keeps what its run log says it spent, and its failure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mpc-logged-usage-timeout-'))
    const logs = join(dir, 'logs')
    const reporter = new MpcbenchReporter({ outputFile: false, print: false })
    const asVitest: Reporter = reporter
    asVitest.onTestRunStart?.([])
    const runLog = writeRunLog(logs, 'slow_task', new Date(), usage(4, 400))
    reporter.onTestRunEnd([cancelledModule(logs, [{ taskId: 'slow_task', timedOut: true }])], [], 'failed')
    expect(reporter.summary?.unfinished).toEqual([
      {
        task_id: 'slow_task',
        task_type: 'email_reply',
        agent_model: 'scripted/agent',
        outcome: 'timed-out',
        message: 'Test timed out in 5000ms.',
        usage: { agents: usage(4, 400), judges: usage(0, 0) },
        usage_files: [relative(process.cwd(), runLog)],
      },
    ])
    expect(reporter.summary?.usage.agents).toEqual(usage(4, 400))
    expect(reporter.summary?.task_counts).toEqual({ selected: 1, completed: 0, failed: 1, not_run: 0 })
  })

  it('reads no log for a test of a run whose start it did not see', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mpc-logged-usage-unstarted-'))
    const logs = join(dir, 'logs')
    writeRunLog(logs, 'cut_task', new Date(), usage(3, 300))
    const reporter = new MpcbenchReporter({ outputFile: false, print: false })
    reporter.onTestRunEnd([cancelledModule(logs, [{ taskId: 'cut_task' }])], [], 'interrupted')
    expect(reporter.summary?.unfinished?.[0]?.usage).toBeUndefined()
    expect(reporter.summary?.usage.agents.calls).toBe(0)
  })
})

describeWithSharedData('MpcbenchReporter counts an upstream v1 test that hit the test timeout', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it(
    'as timed out and failed in task_counts, unfinished and the printed tally: never left out',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-upstream-timeout-'))
      const bench = fileURLToPath(new URL('./define-upstream-v1-bench.ts', import.meta.url))
      // Upstream's email_reply task, whose test never gets past its checks: it ends at the test timeout, with no result.
      writeFileSync(
        join(dir, 'upstream.eval.ts'),
        [
          `import { defineUpstreamV1Bench } from ${JSON.stringify(bench)}`,
          `const options = ${JSON.stringify({ taskType: 'email_reply', upstreamDir: sharedDataPath('mpcbench', 'v1_eb0b7ca'), defaultScenarioId: 'scenario_A', dataDir: join(dir, 'data') })}`,
          'defineUpstreamV1Bench({ ...options, checks: () => new Promise(() => {}) })',
        ].join('\n'),
      )
      for (const name of [
        'OPENAI_API_KEY',
        'ANTHROPIC_API_KEY',
        'GEMINI_API_KEY',
        'OPENAI_BASE_URL',
        'BENCH_TRIALS',
        'MPCBENCH_MODEL_CONFIG',
        'MPCBENCH_PROMPT_CONFIG',
      ])
        vi.stubEnv(name, '')
      vi.stubEnv('BENCH_AGENT_MODEL', 'baseline')
      vi.stubEnv('BENCH_JUDGE_MODEL', 'rules')
      vi.stubEnv('MPCBENCH_LOG_DIR', join(dir, 'logs'))
      vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
      const stdout = outputRecorder()
      // The test hangs whatever the load; the timeout scales so the upstream task's loading before it fits on a busy machine.
      const testTimeout = scaledMs(1_000)
      const vitest = await startVitest(
        'test',
        [],
        {
          root: dir,
          config: false,
          include: ['*.eval.ts'],
          watch: false,
          testTimeout,
          reporters: [new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), history: false })],
        },
        {},
        { stdout: stdout.stream, stderr: outputRecorder().stream },
      )
      await vitest.close()
      const summary = readSummary(join(dir, 'summary.json'))
      expect(summary.task_counts).toEqual({ selected: 1, completed: 0, failed: 1, not_run: 0 })
      expect(summary.unfinished).toEqual([
        {
          task_id: 'companyA_email_reply_v1',
          task_type: 'email_reply',
          agent_model: 'baseline',
          outcome: 'timed-out',
          message: expect.stringContaining(`timed out in ${testTimeout}ms`),
        },
      ])
      expect(stdout.text()).toContain('1 selected: 0 completed, 1 failed, 0 not run (companyA_email_reply_v1 timed-out)')
    },
    scaledMs(60_000),
  )
})
