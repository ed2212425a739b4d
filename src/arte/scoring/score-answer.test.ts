import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jaccardWords } from './jaccard.ts'
import { scoreAnswer } from './score-answer.ts'

describe('scoreAnswer', () => {
  it('gives both scores', () => {
    expect(scoreAnswer('john smith', 'John Smith')).toEqual({ exactMatch: true, semanticScore: 1 })
    expect(scoreAnswer('Meeting scheduled for Monday at 3 PM', 'The meeting is at 3 PM on Monday')).toEqual({
      exactMatch: false,
      semanticScore: 0.5,
    })
  })

  it('an exact match always has semantic score 1 when the answer has words', () => {
    fc.assert(
      fc.property(fc.string(), (a) => {
        const variant = `  ${a.toUpperCase()} `
        const score = scoreAnswer(variant, a)
        if (score.exactMatch && jaccardWords(a).length > 0) expect(score.semanticScore).toBe(1)
      }),
      { numRuns: 300 },
    )
  })
})
