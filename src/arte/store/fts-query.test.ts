import { describe, expect, it } from 'vitest'
import { buildFtsQuery, foldedTokens, keywordTokens, MAX_KEYWORD_CHARS, MAX_SEARCH_KEYWORDS } from './fts-query.ts'

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

  it('also matches a keyword holding non-ASCII punctuation, spaces or compatibility forms by its folded form', () => {
    expect(buildFtsQuery(['\u201cgas contract\u201d'])).toBe('("\u201cgas contract\u201d" OR "gas contract")')
    expect(buildFtsQuery(['gas\u00a0contract', 'power \u2013 deal', 'Vince\u2019s'])).toBe(
      '("gas\u00a0contract" OR "gas contract") AND ("power \u2013 deal" OR "power deal") AND ("Vince\u2019s" OR "Vince s")',
    )
    expect(buildFtsQuery(['caf\u00e9', '\uff47\uff41\uff53'])).toBe('("caf\u00e9" OR "cafe") AND ("\uff47\uff41\uff53" OR "gas")')
    expect(foldedTokens('\u201cgas\u200bcontract\u201d \u{1F642} 10%')).toEqual(['gas', 'contract', '10'])
  })

  it('gives undefined when no keyword has a word (punctuation, symbols and emoji only)', () => {
    expect(buildFtsQuery([])).toBeUndefined()
    expect(buildFtsQuery(['', '   ', '*()"'])).toBeUndefined()
    expect(buildFtsQuery(['\u{1F642}', '\u2014', '\u201c\u201d'])).toBeUndefined()
  })
})

describe('buildFtsQuery bounds', () => {
  it('counts a repeated keyword once (same tokens, ASCII case ignored)', () => {
    expect(buildFtsQuery(Array.from({ length: 1000 }, () => 'the'))).toBe('"the"')
    expect(buildFtsQuery(['Gas  contract', 'gas, CONTRACT', 'gas'])).toBe('"Gas contract" AND "gas"')
    expect(buildFtsQuery(['café', 'CAFÉ'])).toBe('("café" OR "cafe") AND ("CAFÉ" OR "CAFE")')
  })

  it(`uses the first ${MAX_SEARCH_KEYWORDS} distinct keywords and reads ${MAX_KEYWORD_CHARS} characters of each`, () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`)
    expect(buildFtsQuery(words)).toBe(
      words
        .slice(0, MAX_SEARCH_KEYWORDS)
        .map((word) => `"${word}"`)
        .join(' AND '),
    )
    expect(buildFtsQuery(['', '***', ...words])?.split(' AND ')).toHaveLength(MAX_SEARCH_KEYWORDS)
    const long = buildFtsQuery([`${'a'.repeat(MAX_KEYWORD_CHARS - 2)} bbbb`])
    expect(long).toBe(`"${'a'.repeat(MAX_KEYWORD_CHARS - 2)} b"`)
  })
})
