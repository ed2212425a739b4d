import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../core/errors.ts'
import { createJudge } from './create-judge.ts'

describe('createJudge', () => {
  it('gives the offline rules judge for `rules`, labelled as not an LLM', () => {
    expect(createJudge('rules', { systemPrompt: '' })).toMatchObject({ id: 'rules', kind: 'rules' })
  })

  it('refuses the non-LLM baseline agent as a judge, pointing at rules', () => {
    expect(() => createJudge('baseline', { systemPrompt: 'p' })).toThrow(ConfigError)
    expect(() => createJudge('baseline', { systemPrompt: 'p' })).toThrow(/cannot judge[\s\S]*Fix: Use the offline judge `rules`/)
  })
})
