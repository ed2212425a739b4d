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

  it('leaves the judge out: a run judged by any model (or none) resumes the same agent traces', () => {
    // As a caller holding a wider settings object would pass it: the judge model is no part of the key.
    const judged = [
      { ...config, judgeModel: 'openai/gpt-4.1-mini' },
      { ...config, judgeModel: 'google/gemini-2.0-flash' },
    ]
    for (const withJudge of judged) expect(arteConfigKey(withJudge)).toBe('03cbc894a601b9fd')
  })
})
