import { describe, expect, it } from 'vitest'
import { hasAllWords, matchesPhrase, memoizeByItem, words } from './text-match.ts'

describe('text matching', () => {
  it('splits NFKC-normalized, lower-cased text into letter and digit runs', () => {
    expect(words('Q3 Launch—ＡＰＩ review (v2.1)')).toEqual(['q3', 'launch', 'api', 'review', 'v2', '1'])
  })

  it('matches every wanted word by prefix, in any order', () => {
    const text = words('Weekly sync: launch meeting notes')
    expect(hasAllWords(text, words('meet launch'))).toBe(true)
    expect(hasAllWords(text, words('meet budget'))).toBe(false)
    expect(hasAllWords(text, [])).toBe(true)
  })

  it('matches a phrase on consecutive words, the last by prefix', () => {
    const text = words('the launch meeting moved')
    expect(matchesPhrase(text, words('launch meet'))).toBe(true)
    expect(matchesPhrase(text, words('launch moved'))).toBe(false)
  })

  it('memoizes per item object', () => {
    let calls = 0
    const tokens = memoizeByItem((item: { text: string }) => {
      calls++
      return words(item.text)
    })
    const a = { text: 'alpha beta' }
    expect(tokens(a)).toBe(tokens(a))
    expect(tokens({ text: 'alpha beta' })).toEqual(['alpha', 'beta'])
    expect(calls).toBe(2)
  })
})
