import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jaccardSimilarity, jaccardWords } from './jaccard.ts'

describe('Jaccard word overlap (ART-E doc)', () => {
  it('gives 0.5 on the doc example', () => {
    const groundTruth = 'The meeting is at 3 PM on Monday'
    const agentAnswer = 'Meeting scheduled for Monday at 3 PM'
    expect(new Set(jaccardWords(groundTruth))).toEqual(new Set(['the', 'meeting', 'is', 'at', '3', 'pm', 'on', 'monday']))
    expect(new Set(jaccardWords(agentAnswer))).toEqual(new Set(['meeting', 'scheduled', 'for', 'monday', 'at', '3', 'pm']))
    expect(jaccardSimilarity(groundTruth, agentAnswer)).toBe(0.5)
  })

  it('replaces punctuation with spaces, so "3:00" is two words and "o\'brien" two', () => {
    expect(jaccardWords("Meet O'Brien at 3:00, room B-12.")).toEqual(['meet', 'o', 'brien', 'at', '3', '00', 'room', 'b', '12'])
  })

  it('keeps underscores and digits as word characters', () => {
    expect(jaccardWords('deal_id 42')).toEqual(['deal_id', '42'])
  })

  it('is 0 when both sides have no words', () => {
    expect(jaccardSimilarity('', '')).toBe(0)
    expect(jaccardSimilarity('...', ' !? ')).toBe(0)
  })

  it('is 0 when one side has no words', () => {
    expect(jaccardSimilarity('Houston', '')).toBe(0)
  })

  it('counts repeated words once', () => {
    expect(jaccardSimilarity('yes yes yes', 'yes')).toBe(1)
  })

  it('is symmetric, in [0, 1], and 1 for a string with words against itself', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const ab = jaccardSimilarity(a, b)
        expect(ab).toBe(jaccardSimilarity(b, a))
        expect(ab).toBeGreaterThanOrEqual(0)
        expect(ab).toBeLessThanOrEqual(1)
        expect(jaccardSimilarity(a, a)).toBe(jaccardWords(a).length > 0 ? 1 : 0)
      }),
      { numRuns: 500 },
    )
  })
})
