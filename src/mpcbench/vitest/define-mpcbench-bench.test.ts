import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import fg from 'fast-glob'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import MpcbenchReporter from './reporter.ts'
import { JudgeResultFileSchema } from '../judge/judge-result.ts'
import { evaluationFiles } from '../tasks/file-names.ts'
import { JudgeInputSchema } from '../judge/judge-input.ts'
import { RunLogSchema } from '../run/run-log.ts'
import { SummarySchema } from '../summary/summary.ts'
import { loadTask } from '../tasks/task.ts'
import { scriptedText, scriptedToolCalls, startScriptedServer } from '../../testing/scripted-server.ts'
import type { ReceivedRequest, ScriptedResponse } from '../../testing/scripted-server.ts'
import { mpcbenchTestName } from './define-mpcbench-bench.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const config = join(repo, 'fixtures/mpcbench-e2e/vitest.config.ts')
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

/** Clears every variable that would select an LLM, so the run is offline unless a test sets them. */
function offlineEnv(dir: string): void {
  for (const name of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GEMINI_API_KEY',
    'OPENAI_BASE_URL',
    'BENCH_AGENT_MODEL',
    'BENCH_JUDGE_MODEL',
    'MPCBENCH_SCENARIOS',
  ]) {
    vi.stubEnv(name, '')
  }
  vi.stubEnv('MPCBENCH_DATA_DIR', join(dir, 'data'))
  vi.stubEnv('MPCBENCH_LOG_DIR', join(dir, 'logs'))
  vi.stubEnv('BENCH_HISTORY_DIR', join(dir, 'history'))
  vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
  vi.stubEnv('BENCH_CACHE', 'off')
}

async function runBench(dir: string, filters: string[], options: Record<string, unknown> = {}) {
  const vitest = await startVitest(
    'test',
    filters,
    {
      config,
      watch: false,
      reporters: [new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), print: false }), ['junit', { outputFile: join(dir, 'junit.xml') }]],
      ...options,
    },
    {},
    { stdout: quiet(), stderr: quiet() },
  )
  await vitest.close()
  return vitest
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('MPCBench bench files end to end (fixtures/mpcbench-e2e over the shipped tasks)', () => {
  it(
    'offline: runs every shipped task with the baseline agent and the rules judge, writing every documented file',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-bench-e2e-'))
      offlineEnv(dir)
      const vitest = await runBench(dir, [])
      const tests = vitest.state
        .getFiles()
        .flatMap((file) => file.tasks)
        .filter((task) => task.type === 'test')
      const taskFiles = fg.sync('tasks/*/*.json', { cwd: repo }).sort()
      expect(taskFiles.length).toBeGreaterThanOrEqual(15)
      const junit = readFileSync(join(dir, 'junit.xml'), 'utf8')
      for (const file of taskFiles) {
        const task = loadTask(join(repo, file))
        const files = evaluationFiles(join(dir, 'logs'), task.task_id, 'baseline', 'rules')
        const runLog = RunLogSchema.parse(JSON.parse(readFileSync(files.runLog, 'utf8')))
        expect(runLog).toMatchObject({
          task_id: task.task_id,
          agent_model: 'baseline',
          agent_model_kind: 'baseline',
          task_file: file,
          tool_profile: 'upstream-v1',
        })
        expect(runLog.harness).toEqual({ temperature: 0, max_turns: 50, developer_message: null, wire: 'upstream-eb0b7ca' })
        expect(runLog.raw_tool_calls.every((call) => call.status === 'ok')).toBe(true)
        expect(runLog.agent_label).toContain('not an LLM')
        expect(JudgeInputSchema.parse(JSON.parse(readFileSync(files.judgeInput, 'utf8'))).answer_requirements).toEqual(task.answer_requirements)
        const result = JudgeResultFileSchema.parse(JSON.parse(readFileSync(files.judgeResult, 'utf8')))
        expect(result).toMatchObject({ judge_model: 'rules', judge_kind: 'rules' })
        expect(result.judge_label).toContain('not an LLM')
        const annotations = tests.find((t) => t.name === mpcbenchTestName(task.task_id, 'baseline'))?.annotations.map((a) => a.message) ?? []
        expect(annotations[0]).toMatch(/^agent baseline \(not an LLM\): answered, \d+ tool call\(s\), tools upstream-v1$/)
        expect(annotations[1]).toMatch(/^judge rules \(not an LLM\): answer_requirements_satisfaction \d\/5/)
        expect(junit).toContain(`name="${mpcbenchTestName(task.task_id, 'baseline')}"`)
      }
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
      expect(summary.rows.map((row) => [row.agent_model, row.judge_model, row.task_type])).toEqual([
        ['baseline', 'rules', 'document_generation'],
        ['baseline', 'rules', 'email_reply'],
        ['baseline', 'rules', 'planning'],
      ])
      for (const row of summary.rows) {
        expect(row.agent_label).toContain('not an LLM')
        expect(row.judge_label).toContain('not an LLM')
      }
      expect(existsSync(join(dir, 'data', 'lumen_robotics_calendar.json'))).toBe(true)
    },
    scaledMs(120_000),
  )

  it(
    'with BENCH_ONLY=arte, fails every MPCBench test saying why, and generates no data',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-bench-only-arte-'))
      offlineEnv(dir)
      vi.stubEnv('BENCH_ONLY', 'arte')
      const vitest = await runBench(dir, ['bench/planning/planning.eval.ts'])
      const tests = vitest.state
        .getFiles()
        .flatMap((file) => file.tasks)
        .filter((task) => task.type === 'test')
      expect(tests.length).toBeGreaterThan(0)
      for (const test of tests) {
        expect(test.result?.state).toBe('fail')
        expect(test.result?.errors?.[0]?.message).toContain('BENCH_ONLY=arte leaves mpcbench out of this run')
      }
      expect(existsSync(join(dir, 'data'))).toBe(false)
      expect(existsSync(join(dir, 'logs'))).toBe(false)
    },
    scaledMs(120_000),
  )

  it(
    'runs the agent x judge matrix from BENCH_AGENT_MODEL / BENCH_JUDGE_MODEL through a scripted server',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-bench-matrix-'))
      offlineEnv(dir)
      const taskId = 'lumen_quillstone_quote_email_reply'
      const responder = (request: ReceivedRequest): ScriptedResponse => {
        const messages = request.body.messages ?? []
        if (request.body.tools === undefined) {
          // The judge (it gets no tools): scripted scores for agent a's answer, an unusable reply (twice) for agent b's.
          // The shipped prompt_config.json shows the judge the answer as delimited data, not as JSON.
          if (String(messages[1]?.content).includes('scripted for scripted/agent-b')) return scriptedText('scripted: not JSON')
          return scriptedText(
            JSON.stringify({
              answer_requirements_satisfaction: { score: 4, justification: 'scripted' },
              source_grounded_reasoning: { score: 2, justification: 'scripted' },
            }),
          )
        }
        return scriptedText(
          JSON.stringify({
            final_answer: `Hi Mateo, finance is still reviewing the quote (valid for 30 days). Greta (scripted for ${request.body.model})`,
            rationale: 'scripted',
          }),
        )
      }
      await using server = await startScriptedServer(responder)
      vi.stubEnv('OPENAI_BASE_URL', server.baseURL)
      vi.stubEnv('OPENAI_API_KEY', 'test-key')
      vi.stubEnv('BENCH_LLM_MAX_RETRIES', '0')
      vi.stubEnv('BENCH_AGENT_MODEL', 'scripted/agent-a,scripted/agent-b')
      vi.stubEnv('BENCH_JUDGE_MODEL', 'rules,scripted/judge:1')
      vi.stubEnv('MPCBENCH_SCENARIOS', 'lumen_robotics')
      const vitest = await runBench(dir, ['bench/email_reply'], { testNamePattern: taskId })

      const tests = vitest.state
        .getFiles()
        .flatMap((file) => file.tasks)
        .filter((task) => task.name.startsWith(taskId))
      expect(tests.map((t) => [t.name, t.result?.state]).sort()).toEqual([
        [`${taskId} [agent=scripted/agent-a]`, 'pass'],
        [`${taskId} [agent=scripted/agent-b]`, 'fail'],
      ])
      const logs = fg.sync('*.json', { cwd: join(dir, 'logs') }).sort()
      expect(logs).toEqual([
        `${taskId}__agent-scripted_agent-a__judge-rules_judge_input.json`,
        `${taskId}__agent-scripted_agent-a__judge-rules_judge_result.json`,
        `${taskId}__agent-scripted_agent-a__judge-scripted_judge_1_judge_input.json`,
        `${taskId}__agent-scripted_agent-a__judge-scripted_judge_1_judge_result.json`,
        `${taskId}__agent-scripted_agent-a_run.json`,
        `${taskId}__agent-scripted_agent-b__judge-rules_judge_input.json`,
        `${taskId}__agent-scripted_agent-b__judge-rules_judge_result.json`,
        `${taskId}__agent-scripted_agent-b__judge-scripted_judge_1_judge_input.json`,
        `${taskId}__agent-scripted_agent-b__judge-scripted_judge_1_judge_result.json`,
        `${taskId}__agent-scripted_agent-b_run.json`,
      ])
      const failed = JudgeResultFileSchema.parse(JSON.parse(readFileSync(join(dir, 'logs', logs[8] ?? ''), 'utf8')))
      expect(failed).toMatchObject({
        kind: 'judge-error',
        judge_model: 'scripted/judge:1',
        attempts: 2,
        error: { replies: ['scripted: not JSON', 'scripted: not JSON'] },
      })
      expect(failed).not.toHaveProperty('answer_requirements_satisfaction')
      const scored = JudgeResultFileSchema.parse(JSON.parse(readFileSync(join(dir, 'logs', logs[3] ?? ''), 'utf8')))
      expect(scored).toMatchObject({ kind: 'scored', answer_requirements_satisfaction: { score: 4 }, source_grounded_reasoning: { score: 2 } })

      const meta = tests.map((t) => t.meta.mpcbench).find((m) => m?.agentModel === 'scripted/agent-b')
      expect(meta?.judges.map((j) => [j.judgeModel, j.kind])).toEqual([
        ['rules', 'scored'],
        ['scripted/judge:1', 'judge-error'],
      ])
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
      expect(Object.keys(summary.scores)).toEqual([
        'agent=scripted/agent-a__judge=rules',
        'agent=scripted/agent-a__judge=scripted/judge:1',
        'agent=scripted/agent-b__judge=rules',
        'agent=scripted/agent-b__judge=scripted/judge:1',
      ])
    },
    scaledMs(120_000),
  )

  it(
    'with the response cache, a rerun after a judge prompt edit sends only the judge calls to the model',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-bench-cache-'))
      offlineEnv(dir)
      const taskId = 'lumen_quillstone_quote_email_reply'
      const promptFile = join(dir, 'prompt_config.json')
      copyFileSync(join(repo, 'prompt_config.json'), promptFile)
      const responder = (request: ReceivedRequest): ScriptedResponse => {
        const messages = request.body.messages ?? []
        if (request.body.tools === undefined) {
          return scriptedText(
            JSON.stringify({
              answer_requirements_satisfaction: { score: 3, justification: 'scripted' },
              source_grounded_reasoning: { score: 3, justification: 'scripted' },
            }),
          )
        }
        if (!messages.some((m) => m.role === 'tool')) {
          return scriptedToolCalls([{ name: 'Gmail__SearchThreads', arguments: { subject: 'Quillstone' } }])
        }
        return scriptedText(JSON.stringify({ final_answer: 'Hi Mateo, finance is still reviewing it; valid for 30 days. Greta', rationale: 'scripted' }))
      }
      await using server = await startScriptedServer(responder)
      vi.stubEnv('OPENAI_BASE_URL', server.baseURL)
      vi.stubEnv('OPENAI_API_KEY', 'test-key')
      vi.stubEnv('BENCH_AGENT_MODEL', 'scripted/agent')
      vi.stubEnv('BENCH_JUDGE_MODEL', 'scripted/judge')
      vi.stubEnv('BENCH_CACHE', 'read-write')
      vi.stubEnv('BENCH_CACHE_DIR', join(dir, 'cache'))
      vi.stubEnv('MPCBENCH_PROMPT_CONFIG', promptFile)
      vi.stubEnv('MPCBENCH_SCENARIOS', 'lumen_robotics')
      const run = () => runBench(dir, ['bench/email_reply'], { testNamePattern: taskId })
      const kinds = (from: number) => server.requests.slice(from).map((r) => (r.body.tools === undefined ? 'judge' : 'agent'))

      await run()
      expect(kinds(0)).toEqual(['agent', 'agent', 'judge'])
      await run()
      expect(kinds(3)).toEqual([])

      const prompts = JSON.parse(readFileSync(promptFile, 'utf8'))
      prompts.evaluation.judge.system_prompt += '\nBe strict about dates.'
      writeFileSync(promptFile, JSON.stringify(prompts))
      await run()
      expect(kinds(3)).toEqual(['judge'])
      expect(String(server.requests[3]?.body.messages?.[0]?.content)).toContain('Be strict about dates.')
    },
    scaledMs(120_000),
  )
})

describe('MPCBench trials (BENCH_TRIALS) with the scripted server', () => {
  const taskId = 'lumen_quillstone_quote_email_reply'

  /**
   * A log folder and a scripted server for BENCH_TRIALS=3 on one task, with the environment set: the second agent call
   * (trial 2; tests run one at a time) gives the reference's wrong answer, the others a right one that states nothing
   * beyond the prompt (the scripted agent calls no tool, so a date it gave would be made up to the rules judge).
   * Scripted, not model output.
   */
  async function trialsSetup(prefix: string) {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    offlineEnv(dir)
    const reference = JSON.parse(readFileSync(join(repo, 'fixtures/mpcbench-judge/reference-answers.json'), 'utf8')) as {
      answers: Record<string, { correct: string; wrong: string }>
    }
    const answers = reference.answers[taskId]
    let agentCalls = 0
    const server = await startScriptedServer((): ScriptedResponse => {
      agentCalls++
      const right =
        'Hi Mateo,\n\nThanks for the renewal quote. Finance is still reviewing it; as I understand it, the quote is valid for 30 days.\n\nBest regards,\nGreta'
      return scriptedText(JSON.stringify({ final_answer: agentCalls === 2 ? answers?.wrong : right, rationale: 'scripted' }))
    })
    vi.stubEnv('OPENAI_BASE_URL', server.baseURL)
    vi.stubEnv('OPENAI_API_KEY', 'test-key')
    vi.stubEnv('BENCH_LLM_MAX_RETRIES', '0')
    vi.stubEnv('BENCH_AGENT_MODEL', 'scripted/agent')
    vi.stubEnv('BENCH_JUDGE_MODEL', 'rules')
    vi.stubEnv('BENCH_TRIALS', '3')
    vi.stubEnv('MPCBENCH_SCENARIOS', 'lumen_robotics')
    return { dir, server }
  }

  it(
    'runs every task x agent k times as `[trial=j]` tests, logs later trials apart, and writes pass^k',
    async () => {
      const { dir, server: started } = await trialsSetup('mpc-bench-trials-')
      await using server = started
      const vitest = await runBench(dir, ['bench/email_reply'], { testNamePattern: taskId, maxConcurrency: 1 })

      const tests = vitest.state
        .getFiles()
        .flatMap((file) => file.tasks)
        .filter((task) => task.name.startsWith(taskId))
      expect(tests.map((t) => t.name)).toEqual([1, 2, 3].map((j) => `${taskId} [agent=scripted/agent] [trial=${j}]`))
      expect(existsSync(join(dir, 'logs', `${taskId}__agent-scripted_agent_run.json`))).toBe(true)
      expect(existsSync(join(dir, 'logs', 'trial-2', `${taskId}__agent-scripted_agent_run.json`))).toBe(true)
      expect(existsSync(join(dir, 'logs', 'trial-3', `${taskId}__agent-scripted_agent_run.json`))).toBe(true)
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
      expect(summary.tests).toBe(3)
      expect(summary.rows).toHaveLength(1)
      // Trials [pass, fail, pass]: tau-bench's pass^j, C(2, j) / C(3, j).
      expect(summary.rows[0]).toMatchObject({ count: 1, trials: 3, pass_hat_k: { '1': 2 / 3, '2': 1 / 3, '3': 0 } })
      // One task: its bootstrap interval has nothing to resample, [x, x] (its method says over 1 task); pass^3's value is
      // 0/1, so it has the Wilson interval of 0 of 1.
      const method = 'percentile bootstrap over 1 task(s), 2000 resamples, seed 20260311'
      expect(summary.rows[0]?.pass_hat_k_ci).toEqual({
        '1': { low: 0.666667, high: 0.666667, level: 0.95, method },
        '2': { low: 0.333333, high: 0.333333, level: 0.95, method },
        '3': { low: 0, high: 0.793451, level: 0.95, method: 'Wilson score interval over 1 task(s)' },
      })
      const passes = (of: typeof summary) =>
        of.scores['agent=scripted/agent__judge=rules']?.map((s) => [s.trial ?? 1, (s.answer_requirements_satisfaction ?? 0) >= 4])
      expect(passes(summary)).toEqual([
        [1, true],
        [2, false],
        [3, true],
      ])

      // BENCH_RESUME=1: every trial finished, so each is read back from its own logs (trial 2 stays the failed one).
      const requests = server.requests.length
      vi.stubEnv('BENCH_RESUME', '1')
      await runBench(dir, ['bench/email_reply'], { testNamePattern: taskId, maxConcurrency: 1 })
      expect(server.requests.length).toBe(requests)
      const resumed = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
      expect(passes(resumed)).toEqual(passes(summary))
      expect(resumed.rows[0]).toMatchObject({ count: 1, trials: 3, pass_hat_k: { '1': 2 / 3, '2': 1 / 3, '3': 0 } })
      expect(resumed.rows[0]?.pass_hat_k_ci).toEqual(summary.rows[0]?.pass_hat_k_ci)
    },
    scaledMs(120_000),
  )

  it(
    'with the response cache, records each trial apart (no trial replays another) and replays each its own',
    async () => {
      const { dir, server: started } = await trialsSetup('mpc-bench-trials-cache-')
      await using server = started
      vi.stubEnv('BENCH_CACHE_DIR', join(dir, 'cassettes'))
      const run = async (mode: string) => {
        vi.stubEnv('BENCH_CACHE', mode)
        await runBench(dir, ['bench/email_reply'], { testNamePattern: taskId, maxConcurrency: 1 })
        const summary = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
        return summary.scores['agent=scripted/agent__judge=rules']?.map((s) => [s.trial ?? 1, (s.answer_requirements_satisfaction ?? 0) >= 4])
      }
      expect(await run('read-write')).toEqual([
        [1, true],
        [2, false],
        [3, true],
      ])
      const recorded = server.requests.length
      expect(recorded).toBe(3)
      expect(await run('replay')).toEqual([
        [1, true],
        [2, false],
        [3, true],
      ])
      expect(server.requests.length).toBe(recorded)
    },
    scaledMs(120_000),
  )
})
