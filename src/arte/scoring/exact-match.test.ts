import { describe, expect, it } from 'vitest'
import { exactMatch, normalizeForExactMatch } from './exact-match.ts'

describe('exact match (ART-E doc)', () => {
  it('matches "John Smith" and "john smith", the doc example', () => {
    expect(exactMatch('john smith', 'John Smith')).toBe(true)
  })

  it('trims and collapses inner whitespace, tabs and newlines included', () => {
    expect(normalizeForExactMatch('  The   Hague\t\n Office ')).toBe('the hague office')
    expect(exactMatch('  The   Hague\t\n Office ', 'the hague office')).toBe(true)
  })

  it('keeps punctuation significant', () => {
    expect(exactMatch('$4,200', '4200')).toBe(false)
    expect(exactMatch('Smith.', 'Smith')).toBe(false)
  })

  it('does not match different words', () => {
    expect(exactMatch('John Smith', 'Jon Smith')).toBe(false)
  })
})
