import { describe, expect, it } from 'vitest'
import { DEFAULT_ARTE_READ_MAX_CHARS } from '../settings.ts'
import { arteConfigKey } from './run-config.ts'

describe('arteConfigKey', () => {
  const config = { model: 'openai/gpt-x', dataset: '/d/rows.jsonl', split: 'test', maxTurns: 10, db: '/d/mail.db' }

  it('keeps the key traces were stored with before the read cap was part of it, for the default cap', () => {
    expect(arteConfigKey(config)).toBe('03cbc894a601b9fd')
    expect(arteConfigKey({ ...config, readMaxChars: DEFAULT_ARTE_READ_MAX_CHARS })).toBe('03cbc894a601b9fd')
  })

  it('tells apart runs whose agent sees other text or settings', () => {
    const keys = [
      config,
      { ...config, readMaxChars: 2_000 },
      { ...config, readMaxChars: 4_000 },
      { ...config, maxTurns: 5 },
      { ...config, model: 'openai/gpt-y' },
      { ...config, split: 'train' },
    ].map(arteConfigKey)
    expect(new Set(keys).size).toBe(keys.length)
  })
})

describe('arteConfigKey with an LLM judge', () => {
  const config = { model: 'openai/gpt-x', dataset: '/d/rows.jsonl', split: 'test', maxTurns: 10, db: '/d/mail.db' }

  it('keeps the key of a run without a judge, and gives each judge model its own', () => {
    expect(arteConfigKey({ ...config, judgeModel: undefined })).toBe('03cbc894a601b9fd')
    const keys = [config, { ...config, judgeModel: 'openai/gpt-4.1-mini' }, { ...config, judgeModel: 'google/gemini-2.0-flash' }].map(arteConfigKey)
    expect(new Set(keys).size).toBe(3)
    expect(arteConfigKey({ ...config, judgeModel: 'openai/gpt-4.1-mini' })).toBe(keys[1])
  })
})
