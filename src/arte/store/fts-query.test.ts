import { describe, expect, it } from 'vitest'
import { buildFtsQuery, keywordTokens } from './fts-query.ts'

describe('buildFtsQuery', () => {
  it('quotes each keyword as a phrase and joins them with AND', () => {
    expect(buildFtsQuery(['gas', 'Northwind contract'])).toBe('"gas" AND "Northwind contract"')
  })

  it('drops operators, quotes and punctuation, keeping words', () => {
    expect(buildFtsQuery(['"a" OR b*', 'NEAR(x y)', '-c:d^e'])).toBe('"a OR b" AND "NEAR x y" AND "c d e"')
  })

  it('keeps non-ASCII words whole, as the ascii tokenizer does, and drops lone surrogates', () => {
    expect(keywordTokens('café 日本 🙂\uD800x')).toEqual(['café', '日本', '🙂', 'x'])
  })

  it('gives undefined when no keyword has a word', () => {
    expect(buildFtsQuery([])).toBeUndefined()
    expect(buildFtsQuery(['', '   ', '*()"'])).toBeUndefined()
  })
})
