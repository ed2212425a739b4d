import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { SummarySchema } from '../summary.ts'
import { scriptedText, startScriptedServer } from '../../testing/scripted-server.ts'
import MpcbenchReporter from './reporter.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('every selected MPCBench test appears in the summary once', () => {
  it('counts a test whose agent model hangs as failed: its call ends by the deadline derived from the test timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mpc-accounting-'))
    // Every reply is scripted; the Quillstone task's model hangs far past the test timeout.
    await using server = await startScriptedServer((request) => {
      const user = JSON.stringify(request.body.messages ?? [])
      if (user.includes('Quillstone')) return { kind: 'reply', content: 'late', delayMs: 60_000 }
      return scriptedText(JSON.stringify({ final_answer: 'scripted reply', rationale: 'scripted' }))
    })
    for (const name of ['ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'MPCBENCH_SCENARIOS']) vi.stubEnv(name, '')
    vi.stubEnv('MPCBENCH_DATA_DIR', join(dir, 'data'))
    vi.stubEnv('MPCBENCH_LOG_DIR', join(dir, 'logs'))
    vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
    vi.stubEnv('BENCH_CACHE', 'off')
    vi.stubEnv('OPENAI_BASE_URL', server.baseURL)
    vi.stubEnv('OPENAI_API_KEY', 'test-key')
    vi.stubEnv('BENCH_LLM_MAX_RETRIES', '0')
    vi.stubEnv('BENCH_AGENT_MODEL', 'scripted/agent')
    vi.stubEnv('BENCH_JUDGE_MODEL', 'rules')
    const vitest = await startVitest(
      'test',
      ['bench/email_reply/email_reply.eval.ts'],
      {
        config: join(repo, 'fixtures/mpcbench-e2e/vitest.config.ts'),
        watch: false,
        testTimeout: 2000,
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
  }, 120_000)

  it('a test that times out or fails before setting its meta is an unfinished, failed test (with its trial); a skipped one is not selected', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mpc-accounting-fixture-'))
    const vitest = await startVitest(
      'test',
      ['mpcbench.eval.ts'],
      { config: join(repo, 'fixtures/accounting/vitest.config.ts'), watch: false, reporters: [new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), print: false })] },
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
