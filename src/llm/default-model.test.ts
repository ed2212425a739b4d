import { describe, expect, it } from 'vitest'
import { ConfigError } from '../core/errors.ts'
import { defaultAgentModel, modelSettingsFromEnv } from './default-model.ts'

describe('defaultAgentModel', () => {
  it('is baseline when no key or base URL is set', () => {
    expect(defaultAgentModel({})).toBe('baseline')
    expect(defaultAgentModel({ OPENAI_API_KEY: '  ' })).toBe('baseline')
  })

  it('prefers BENCH_AGENT_MODEL, then the first key set', () => {
    expect(defaultAgentModel({ BENCH_AGENT_MODEL: 'google/gemini-2.5-pro', OPENAI_API_KEY: 'k' })).toBe('google/gemini-2.5-pro')
    expect(defaultAgentModel({ ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'k' })).toBe('anthropic/claude-sonnet-4-5')
    expect(defaultAgentModel({ OPENAI_API_KEY: 'k' })).toBe('openai/gpt-4.1-mini')
  })

  it('asks for BENCH_AGENT_MODEL when only OPENAI_BASE_URL is set', () => {
    expect(() => defaultAgentModel({ OPENAI_BASE_URL: 'http://localhost:11434/v1' })).toThrow(ConfigError)
    expect(defaultAgentModel({ OPENAI_BASE_URL: 'http://localhost:11434/v1', BENCH_AGENT_MODEL: 'llama3.1:8b' })).toBe('llama3.1:8b')
  })
})

describe('modelSettingsFromEnv', () => {
  it('has defaults and reads overrides', () => {
    expect(modelSettingsFromEnv({})).toEqual({
      cache: { mode: 'off', dir: 'fixtures/cassettes' },
      callLogDir: 'evaluation/logs/llm',
      callLogKeep: 200,
      timeoutMs: 120_000,
      maxRetries: 4,
      prices: undefined,
    })
    const settings = modelSettingsFromEnv({
      BENCH_CACHE: 'replay',
      BENCH_CACHE_DIR: 'c',
      BENCH_LLM_LOG_DIR: 'off',
      BENCH_LLM_TIMEOUT_MS: '5000',
      BENCH_LLM_MAX_RETRIES: '0',
    })
    expect(settings).toMatchObject({ cache: { mode: 'replay', dir: 'c' }, callLogDir: false, timeoutMs: 5000, maxRetries: 0 })
    expect(modelSettingsFromEnv({ BENCH_LLM_LOG_KEEP: '0' }).callLogKeep).toBe(0)
    expect(() => modelSettingsFromEnv({ BENCH_LLM_LOG_KEEP: 'some' })).toThrow(/BENCH_LLM_LOG_KEEP/)
  })

  it('rejects a bad cache mode, naming the variable', () => {
    expect(() => modelSettingsFromEnv({ BENCH_CACHE: 'sometimes' })).toThrow(ConfigError)
    expect(() => modelSettingsFromEnv({ BENCH_CACHE: 'sometimes' })).toThrow(/BENCH_CACHE/)
  })
})
