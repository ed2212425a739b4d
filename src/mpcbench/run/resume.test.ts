import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { type Summary, SummarySchema } from '../summary/summary.ts'
import { scriptedText, startScriptedServer } from '../../testing/scripted-server.ts'
import MpcbenchReporter from '../vitest/reporter.ts'
import { mpcbenchSettingsFromEnv } from '../settings.ts'
import { stubMpcbenchScriptedEnv } from '../../testing/mpcbench-scripted-env.ts'
import { createModel } from '../../llm/create-model.ts'
import { createJudge } from '../judge/create-judge.ts'
import { evaluationFiles } from '../tasks/file-names.ts'
import { finishedEvaluation } from './resume.ts'
import { harnessOf, judgeRunLog, runAndJudge, runTask, workplaceTools, writeJudgeInput } from './run-task.ts'
import type { Task } from '../tasks/task.ts'
import { FIXTURE_SOURCES } from '../workplace/fixture-sources.ts'
import { Workplace } from '../workplace/workplace.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('MPCBench BENCH_RESUME=1', () => {
  it('parses the flag', () => {
    expect(mpcbenchSettingsFromEnv({})).toMatchObject({ resume: false })
    expect(mpcbenchSettingsFromEnv({ BENCH_RESUME: '1' })).toMatchObject({ resume: true })
    expect(() => mpcbenchSettingsFromEnv({ BENCH_RESUME: 'maybe' })).toThrow(/BENCH_RESUME/)
  })

  it(
    'reruns only the task that did not finish; the others are read back from their logs',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-resume-'))
      let failQuillstone = true
      // Every reply is scripted; in the first run the Quillstone task's model answers HTTP 500.
      await using server = await startScriptedServer((request) => {
        if (failQuillstone && JSON.stringify(request.body.messages ?? []).includes('Quillstone')) return { kind: 'error', status: 500 }
        return scriptedText(JSON.stringify({ final_answer: 'scripted reply', rationale: 'scripted' }))
      })
      stubMpcbenchScriptedEnv({ dir, baseURL: server.baseURL })
      const run = async (name: string): Promise<Summary> => {
        const vitest = await startVitest(
          'test',
          ['bench/email_reply/email_reply.eval.ts'],
          {
            config: join(repo, 'fixtures/mpcbench-e2e/vitest.config.ts'),
            watch: false,
            reporters: [new MpcbenchReporter({ outputFile: join(dir, `${name}.json`), print: false })],
          },
          {},
          { stdout: quiet(), stderr: quiet() },
        )
        await vitest.close()
        return SummarySchema.parse(JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')))
      }
      const first = await run('first')
      expect(first.task_counts).toEqual({ selected: 5, completed: 4, failed: 1, not_run: 0 })
      const firstRequests = server.requests.length

      failQuillstone = false
      vi.stubEnv('BENCH_RESUME', '1')
      const second = await run('second')
      expect(second.task_counts).toEqual({ selected: 5, completed: 5, failed: 0, not_run: 0 })
      const rerun = server.requests.slice(firstRequests)
      expect(rerun.length).toBeGreaterThan(0)
      expect(rerun.every((request) => JSON.stringify(request.body.messages ?? []).includes('Quillstone'))).toBe(true)
      // The resumed tasks keep their scores.
      const scores = (summary: Summary) => (summary.scores['agent=scripted/agent__judge=rules'] ?? []).filter((score) => !score.task_id.includes('quillstone'))
      expect(scores(second)).toEqual(scores(first))

      // Another turn cap or tool profile is another run: no log of the earlier runs stands for it.
      for (const [name, value] of [
        ['MPCBENCH_MAX_TURNS', '7'],
        ['MPCBENCH_TOOLS', 'extended'],
      ] as const) {
        const before = server.requests.length
        vi.stubEnv(name, value)
        const third = await run(`third-${name}`)
        expect(third.task_counts).toEqual({ selected: 5, completed: 5, failed: 0, not_run: 0 })
        const sent = server.requests.slice(before).map((request) => JSON.stringify(request.body.messages?.find((message) => message.role === 'user') ?? ''))
        expect(new Set(sent).size).toBe(5)
      }
    },
    scaledMs(120_000),
  )
})

describe('finishedEvaluation reuses only the judge results of the run log beside them', () => {
  const task: Task = {
    task_id: 'resume_tie',
    task_type: 'planning',
    user_prompt: 'When is the launch review?',
    data_dependencies: { scenario_id: 'fixture' },
    answer_requirements: ['Names Thursday.'],
    checks: [{ must_mention: ['Thursday'] }],
  }
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

  it("a newer run log (run alone, or with its judge input rebuilt) does not inherit the earlier run's judge result", async () => {
    await using server = await startScriptedServer(() => scriptedText(JSON.stringify({ final_answer: 'Thursday', rationale: 'Slack' })))
    const agent = createModel('scripted/agent', {
      env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' },
      callLogDir: false,
      cache: { mode: 'off' },
      maxRetries: 0,
    })
    const rules = createJudge('rules', { systemPrompt: 'unused' })
    const judges = [rules]
    const logDir = mkdtempSync(join(tmpdir(), 'mpc-resume-tie-'))
    const options = { task, scenarioId: 'fixture', tools: workplaceTools(Workplace.fromSources(FIXTURE_SOURCES)), agent, systemMessage: 'SYSTEM', logDir }
    const files = evaluationFiles(logDir, task.task_id, 'scripted/agent', 'rules')

    const first = await runAndJudge({ ...options, judges })
    expect(finishedEvaluation(logDir, task, 'scripted/agent', judges)?.runLog.trace_id).toBe(first.runLog.trace_id)

    // A new run log alone (as `agent-bench run-task` writes it): the judge files beside it are the first run's.
    await tick()
    const second = await runTask(options)
    expect(finishedEvaluation(logDir, task, 'scripted/agent', judges)).toBeUndefined()

    // Its judge input rebuilt, the old result kept (a judge that crashed): the result was judged before this run began.
    writeJudgeInput(second.runLog, task, 'rules', files.judgeInput)
    expect(finishedEvaluation(logDir, task, 'scripted/agent', judges)).toBeUndefined()

    // Judged: reused, and it is the second run's.
    await tick()
    await judgeRunLog(second.runLog, task, rules, logDir)
    const resumed = finishedEvaluation(logDir, task, 'scripted/agent', judges)
    expect(resumed?.runLog.trace_id).toBe(second.runLog.trace_id)
    expect(resumed?.judged[0]?.result.kind).toBe('scored')
  })

  it("a run log recorded before the requests had upstream's wire shape (no harness.wire) is not reused", async () => {
    await using server = await startScriptedServer(() => scriptedText(JSON.stringify({ final_answer: 'Thursday', rationale: 'Slack' })))
    const agent = createModel('scripted/agent', {
      env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' },
      callLogDir: false,
      cache: { mode: 'off' },
      maxRetries: 0,
    })
    const judges = [createJudge('rules', { systemPrompt: 'unused' })]
    const logDir = mkdtempSync(join(tmpdir(), 'mpc-resume-wire-'))
    const { runLog, runLogFile } = await runAndJudge({
      task,
      scenarioId: 'fixture',
      tools: workplaceTools(Workplace.fromSources(FIXTURE_SOURCES)),
      agent,
      systemMessage: 'SYSTEM',
      logDir,
      judges,
      toolProfile: 'upstream-v1',
    })
    const settings = { toolProfile: 'upstream-v1', harness: harnessOf({}) } as const
    expect(runLog.harness?.wire).toBe('upstream-eb0b7ca')
    expect(finishedEvaluation(logDir, task, 'scripted/agent', judges, settings)?.runLog.trace_id).toBe(runLog.trace_id)
    const { wire: _wire, ...before } = runLog.harness ?? harnessOf({})
    writeFileSync(runLogFile, JSON.stringify({ ...runLog, harness: before }))
    expect(finishedEvaluation(logDir, task, 'scripted/agent', judges, settings)).toBeUndefined()
  })

  it('a score judged against requirements or checks edited since is not reused (the task runs again)', async () => {
    await using server = await startScriptedServer(() => scriptedText(JSON.stringify({ final_answer: 'Thursday', rationale: 'Slack' })))
    const agent = createModel('scripted/agent', {
      env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' },
      callLogDir: false,
      cache: { mode: 'off' },
      maxRetries: 0,
    })
    const judges = [createJudge('rules', { systemPrompt: 'unused' })]
    const logDir = mkdtempSync(join(tmpdir(), 'mpc-resume-edited-'))
    const { runLog } = await runAndJudge({
      task,
      scenarioId: 'fixture',
      tools: workplaceTools(Workplace.fromSources(FIXTURE_SOURCES)),
      agent,
      systemMessage: 'SYSTEM',
      logDir,
      judges,
    })
    expect(finishedEvaluation(logDir, task, 'scripted/agent', judges)?.runLog.trace_id).toBe(runLog.trace_id)
    expect(finishedEvaluation(logDir, { ...task, checks: [{ must_mention: ['Friday'] }] }, 'scripted/agent', judges)).toBeUndefined()
    expect(finishedEvaluation(logDir, { ...task, checks: undefined }, 'scripted/agent', judges)).toBeUndefined()
    expect(finishedEvaluation(logDir, { ...task, answer_requirements: ['Names Thursday and the room.'] }, 'scripted/agent', judges)).toBeUndefined()
  })
})
