import { describe, expect, it } from 'vitest'
import { resolveModelMatrix } from './run-task-models.ts'

const config = { agent_models: ['gpt-4o-mini', 'openai/gpt-4.1'], judge_models: ['gpt-5.1'] }

describe('resolveModelMatrix', () => {
  it('offline (no key): the baseline agent and the rules judge', () => {
    expect(resolveModelMatrix(config, {})).toEqual({ agents: ['baseline'], agentsFrom: 'offline-default', judges: ['rules'], judgesFrom: 'offline-default' })
  })

  it('with a key: model_config agent_models x judge_models', () => {
    expect(resolveModelMatrix(config, { OPENAI_API_KEY: 'k' })).toEqual({
      agents: ['gpt-4o-mini', 'openai/gpt-4.1'],
      agentsFrom: 'model_config',
      judges: ['gpt-5.1'],
      judgesFrom: 'model_config',
    })
  })

  it('BENCH_AGENT_MODEL / BENCH_JUDGE_MODEL (comma-separated) override model_config; flags override both', () => {
    const env = { OPENAI_API_KEY: 'k', BENCH_AGENT_MODEL: 'a, b,a', BENCH_JUDGE_MODEL: 'rules' }
    expect(resolveModelMatrix(config, env)).toMatchObject({ agents: ['a', 'b'], agentsFrom: 'env', judges: ['rules'], judgesFrom: 'env' })
    expect(resolveModelMatrix(config, env, { agents: ['x'] })).toMatchObject({ agents: ['x'], judges: ['rules'] })
  })
})
