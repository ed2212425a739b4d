import { describe, expect, it } from 'vitest'
import { extractKeywords, splitSentences, stem, truncate } from './text.ts'

describe('extractKeywords', () => {
  it('drops stopwords and question words and ranks names and numbers first', () => {
    const keywords = extractKeywords('When is the quarterly budget review with Maria Lopez for project 7?').map((k) => k.text)
    expect(keywords.slice(0, 3)).toEqual(['Maria', 'Lopez', '7'])
    expect(keywords).toContain('quarterly')
    expect(keywords).not.toContain('When')
    expect(keywords).not.toContain('the')
  })

  it('does not treat the sentence-initial capital as a name', () => {
    const keywords = extractKeywords('Budget approval for the Denver office?')
    expect(keywords[0]?.text).toBe('Denver')
  })

  it('keeps one keyword per stem and honours extra stopwords', () => {
    const keywords = extractKeywords('meeting meetings about the merger', new Set(['merger'])).map((k) => k.text)
    expect(keywords).toEqual(['meeting'])
  })
})

describe('splitSentences', () => {
  it('splits on sentence ends, blank lines and list items, and unwraps quoted lines', () => {
    const body = 'Hi all.\n\nThe review moved to Friday. Bring\nthe slides!\n> quoted line\n- item one\n- item two'
    expect(splitSentences(body)).toEqual(['Hi all.', 'The review moved to Friday.', 'Bring the slides!', 'quoted line', '- item one', '- item two'])
  })
})

describe('stem and truncate', () => {
  it('maps inflections to one stem', () => {
    expect(stem('scheduled')).toBe(stem('schedule'))
    expect(stem('meetings')).toBe(stem('meeting'))
    expect(stem('policies')).toBe(stem('policy'))
  })

  it('cuts on a word boundary', () => {
    expect(truncate('alpha beta gamma delta', 12)).toBe('alpha beta…')
    expect(truncate('short', 12)).toBe('short')
  })
})
