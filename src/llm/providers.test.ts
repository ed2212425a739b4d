import { describe, expect, it } from 'vitest'
import { ConfigError } from '../core/errors.ts'
import { PLACEHOLDER_API_KEY, resolveModel } from './providers.ts'

describe('resolveModel', () => {
  it('maps provider prefixes to their URL and key variable', () => {
    const env = { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a', GEMINI_API_KEY: 'g-k' }
    expect(resolveModel('openai/gpt-4.1', env)).toMatchObject({
      provider: 'openai',
      wireModel: 'gpt-4.1',
      baseURL: 'https://api.openai.com/v1',
      apiKey: 'sk-o',
    })
    expect(resolveModel('anthropic/claude-sonnet-4-5', env)).toMatchObject({
      wireModel: 'claude-sonnet-4-5',
      baseURL: 'https://api.anthropic.com/v1/',
      apiKey: 'sk-a',
    })
    expect(resolveModel('google/gemini-2.5-pro', env)).toMatchObject({
      wireModel: 'gemini-2.5-pro',
      baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
      apiKey: 'g-k',
    })
  })

  it('names the missing key variable', () => {
    expect(() => resolveModel('anthropic/claude-sonnet-4-5', {})).toThrow(ConfigError)
    expect(() => resolveModel('anthropic/claude-sonnet-4-5', {})).toThrow(/ANTHROPIC_API_KEY is not set/)
    expect(() => resolveModel('google/gemini-2.5-pro', { OPENAI_API_KEY: 'x' })).toThrow(/GEMINI_API_KEY/)
    expect(() => resolveModel('gpt-4.1', {})).toThrow(/OPENAI_API_KEY is not set[\s\S]*OPENAI_BASE_URL/)
  })

  it('sends bare ids (and unknown prefixes) whole to OPENAI_BASE_URL, with a placeholder key when none is set', () => {
    const local = resolveModel('meta-llama/Llama-3.1-8B', { OPENAI_BASE_URL: 'http://localhost:8000/v1' })
    expect(local).toMatchObject({ provider: 'custom', wireModel: 'meta-llama/Llama-3.1-8B', baseURL: 'http://localhost:8000/v1', apiKey: PLACEHOLDER_API_KEY })
    expect(resolveModel('gpt-4.1', { OPENAI_API_KEY: 'sk-o' }).baseURL).toBe('https://api.openai.com/v1')
  })

  it('lets OPENAI_BASE_URL override the openai provider URL only', () => {
    const env = { OPENAI_BASE_URL: 'http://proxy.test/v1', OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' }
    expect(resolveModel('openai/gpt-4.1', env).baseURL).toBe('http://proxy.test/v1')
    expect(resolveModel('anthropic/claude-sonnet-4-5', env).baseURL).toBe('https://api.anthropic.com/v1/')
    expect(() => resolveModel('openai/', env)).toThrow(/no model name/)
  })
})

describe('resolveModel with a bad OPENAI_BASE_URL', () => {
  it('refuses a URL with a user name or password, saying why and without showing the password', () => {
    const env = { OPENAI_BASE_URL: 'http://bob:pw-secret-77@localhost:8000/v1', OPENAI_API_KEY: 'sk-o' }
    for (const id of ['llama3', 'openai/gpt-4.1']) {
      let caught: unknown
      try {
        resolveModel(id, env)
      } catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(ConfigError)
      const message = (caught as Error).message
      expect(message).toMatch(/OPENAI_BASE_URL=.*holds a user name or password/)
      expect(message).toContain('OPENAI_API_KEY')
      expect(message).not.toContain('pw-secret-77')
      expect(message).not.toContain('bob')
    }
    expect(() => resolveModel('llama3', { OPENAI_BASE_URL: '/v1 on my server' })).toThrow(/is not a URL/)
    // Anthropic's and Google's URLs are fixed: OPENAI_BASE_URL does not matter to them.
    expect(resolveModel('anthropic/claude-sonnet-4-5', { ...env, ANTHROPIC_API_KEY: 'sk-a' }).baseURL).toBe('https://api.anthropic.com/v1/')
  })
})

describe('resolveModel without a required key', () => {
  it('uses the placeholder key (cache replay)', () => {
    expect(resolveModel('anthropic/claude-sonnet-4-5', {}, { requireKey: false }).apiKey).toBe(PLACEHOLDER_API_KEY)
  })
})
