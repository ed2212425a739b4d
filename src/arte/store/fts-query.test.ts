import { describe, expect, it } from 'vitest'
import { buildFtsQuery, keywordTokens, MAX_KEYWORD_CHARS, MAX_SEARCH_KEYWORDS } from './fts-query.ts'

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

describe('buildFtsQuery bounds', () => {
  it('counts a repeated keyword once (same tokens, ASCII case ignored)', () => {
    expect(buildFtsQuery(Array.from({ length: 1000 }, () => 'the'))).toBe('"the"')
    expect(buildFtsQuery(['Gas  contract', 'gas, CONTRACT', 'gas'])).toBe('"Gas contract" AND "gas"')
    expect(buildFtsQuery(['café', 'CAFÉ'])).toBe('"café" AND "CAFÉ"')
  })

  it(`uses the first ${MAX_SEARCH_KEYWORDS} distinct keywords and reads ${MAX_KEYWORD_CHARS} characters of each`, () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`)
    expect(buildFtsQuery(words)).toBe(words.slice(0, MAX_SEARCH_KEYWORDS).map((word) => `"${word}"`).join(' AND '))
    expect(buildFtsQuery(['', '***', ...words])?.split(' AND ')).toHaveLength(MAX_SEARCH_KEYWORDS)
    const long = buildFtsQuery([`${'a'.repeat(MAX_KEYWORD_CHARS - 2)} bbbb`])
    expect(long).toBe(`"${'a'.repeat(MAX_KEYWORD_CHARS - 2)} b"`)
  })
})
