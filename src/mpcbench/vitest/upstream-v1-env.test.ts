import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it, vi } from 'vitest'
import { startVitest } from 'vitest/node'
import { SummarySchema } from '../summary/summary.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { stubMpcbenchScriptedEnv } from '../../testing/mpcbench-scripted-env.ts'
import { scriptedText, scriptedToolCalls, startScriptedServer } from '../../testing/scripted-server.ts'
import { upstreamV1RunSetup } from './define-upstream-v1-bench.ts'
import MpcbenchReporter from './reporter.ts'
import { upstreamV1Judges } from './upstream-v1-env.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

afterEach(() => {
  vi.unstubAllEnvs()
})

describeWithSharedData("the upstream v1 benches are judged by upstream's judge", () => {
  const upstream = sharedDataPath('mpcbench', 'v1_eb0b7ca')

  it("upstream's judge_models (gpt-5.1 at eb0b7ca) when an LLM is configured; BENCH_JUDGE_MODEL wins; offline the rules judge", () => {
    expect(upstreamV1Judges(upstream, { OPENAI_API_KEY: 'k' })).toEqual({ judges: ['gpt-5.1'], judgesFrom: 'model_config' })
    expect(upstreamV1Judges(upstream, { OPENAI_BASE_URL: 'http://localhost:1/v1' })).toEqual({ judges: ['gpt-5.1'], judgesFrom: 'model_config' })
    expect(upstreamV1Judges(upstream, { OPENAI_API_KEY: 'k', BENCH_JUDGE_MODEL: 'openai/gpt-4.1, rules' })).toEqual({
      judges: ['openai/gpt-4.1', 'rules'],
      judgesFrom: 'env',
    })
    expect(upstreamV1Judges(upstream, {})).toEqual({ judges: ['rules'], judgesFrom: 'offline-default' })
    expect(upstreamV1Judges(upstream, { OPENAI_API_KEY: 'k', BENCH_JUDGE_MODEL: ' ' })).toEqual({ judges: ['gpt-5.1'], judgesFrom: 'model_config' })
  })

  it('MPCBENCH_MODEL_CONFIG, or a folder without a model config, leaves the judges to the model config', () => {
    expect(upstreamV1Judges(upstream, { OPENAI_API_KEY: 'k', MPCBENCH_MODEL_CONFIG: join(repo, 'model_config.json') })).toBeUndefined()
    expect(upstreamV1Judges(mkdtempSync(join(tmpdir(), 'no-upstream-')), { OPENAI_API_KEY: 'k' })).toBeUndefined()
    const named = upstreamV1RunSetup(upstream, repo, { OPENAI_API_KEY: 'k', MPCBENCH_MODEL_CONFIG: join(repo, 'model_config.json') })
    expect(named.matrix.judges).toEqual(['openai/gpt-4.1'])
  })

  it("the run setup keeps the user's agents and takes upstream's judges and prompts", () => {
    const setup = upstreamV1RunSetup(upstream, repo, { OPENAI_API_KEY: 'k' })
    expect(setup.matrix).toEqual({
      agents: ['baseline', 'openai/gpt-4.1-mini', 'openai/gpt-4.1'],
      agentsFrom: 'model_config',
      judges: ['gpt-5.1'],
      judgesFrom: 'model_config',
    })
    expect(setup.judgeSystemPrompt).toBe(
      (JSON.parse(readFileSync(join(upstream, 'prompt_config.json'), 'utf8')) as { evaluation: { judge: { system_prompt: string } } }).evaluation.judge
        .system_prompt,
    )
    expect(upstreamV1RunSetup(upstream, repo, {}).matrix).toMatchObject({ agents: ['baseline'], judges: ['rules'] })
  })

  it(
    "bench/email_reply/upstream-v1.eval.ts sends its judge calls to gpt-5.1 and records that judge, and its agent requests have upstream's shape",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mpc-upstream-judge-'))
      const scores = {
        answer_requirements_satisfaction: { score: 3, justification: 'scripted' },
        source_grounded_reasoning: { score: 2, justification: 'scripted' },
      }
      await using server = await startScriptedServer((request) => {
        if (request.body.tools === undefined) return scriptedText(JSON.stringify(scores))
        const toolMessages = (request.body.messages ?? []).filter((message) => message.role === 'tool').length
        if (toolMessages === 0) return scriptedToolCalls([{ id: 'call_1', name: 'Gmail_SearchThreads', arguments: { subject: 'quote' } }])
        return scriptedText(JSON.stringify({ final_answer: 'scripted reply', rationale: 'scripted' }))
      })
      stubMpcbenchScriptedEnv({ dir, baseURL: server.baseURL })
      // No judge named: the bench takes upstream's.
      vi.stubEnv('BENCH_JUDGE_MODEL', '')
      vi.stubEnv('MPCBENCH_MODEL_CONFIG', '')
      vi.stubEnv('MPCBENCH_PROMPT_CONFIG', '')
      vi.stubEnv('BENCH_TRIALS', '')
      const vitest = await startVitest(
        'test',
        ['bench/email_reply/upstream-v1.eval.ts'],
        {
          config: join(repo, 'fixtures/mpcbench-e2e/vitest.config.ts'),
          watch: false,
          reporters: [new MpcbenchReporter({ outputFile: join(dir, 'summary.json'), print: false, history: false })],
        },
        {},
        { stdout: quiet(), stderr: quiet() },
      )
      await vitest.close()
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')))
      expect(summary.rows.map((row) => [row.agent_model, row.judge_model, row.judge_kind, row.scored])).toEqual([['scripted/agent', 'gpt-5.1', 'llm', 1]])
      const judgeCalls = server.requests.filter((request) => request.body.tools === undefined)
      expect(judgeCalls.map((request) => request.body.model)).toEqual(['gpt-5.1'])
      const agentCalls = server.requests.filter((request) => request.body.tools !== undefined)
      expect(agentCalls.map((request) => request.body.tool_choice)).toEqual(['auto', 'auto'])
      expect(agentCalls[1]?.body.messages?.slice(3)).toStrictEqual([
        { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'Gmail_SearchThreads', arguments: '{"subject":"quote"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', name: 'Gmail_SearchThreads', content: expect.any(String) },
      ])
    },
    scaledMs(120_000),
  )
})
