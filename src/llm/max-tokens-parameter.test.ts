import { describe, expect, it } from 'vitest'
import { toRequestBody } from './openai-chat-model.ts'

describe('toRequestBody maxTokensParameter', () => {
  const request = { messages: [], maxTokens: 100 }

  it('sends max_completion_tokens to openai/ models and max_tokens elsewhere by default', () => {
    expect(toRequestBody({ provider: 'openai', wireModel: 'm' }, request)).toMatchObject({ max_completion_tokens: 100 })
    expect(toRequestBody({ provider: 'custom', wireModel: 'm' }, request)).toMatchObject({ max_tokens: 100 })
  })

  it('sends the field the request names', () => {
    const openai = toRequestBody({ provider: 'openai', wireModel: 'm' }, { ...request, maxTokensParameter: 'max_tokens' })
    expect(openai).toMatchObject({ max_tokens: 100 })
    expect(openai).not.toHaveProperty('max_completion_tokens')
    const custom = toRequestBody({ provider: 'custom', wireModel: 'm' }, { ...request, maxTokensParameter: 'max_completion_tokens' })
    expect(custom).toMatchObject({ max_completion_tokens: 100 })
    expect(custom).not.toHaveProperty('max_tokens')
  })
})
