import { describe, expect, it } from 'vitest'
import { I_DONT_KNOW, sourcesCorrect } from './sources-correct.ts'

// The form of the real rows' ids (corbt/enron_emails_sample_questions, row 6152): Message-IDs in angle brackets.
const FIRST = '<13190700.1075856547102.JavaMail.evans@thyme>'
const SECOND = '<26488207.1075856547034.JavaMail.evans@thyme>'

describe('sourcesCorrect (OpenPipe: message_ids[0] in sources)', () => {
  it("is true when the row's first message id is among the sources, in any position", () => {
    expect(sourcesCorrect([FIRST, SECOND], 'an answer', [FIRST])).toBe(true)
    expect(sourcesCorrect([FIRST, SECOND], 'an answer', ['<other@x>', FIRST])).toBe(true)
  })

  it("is false when only another of the row's ids is cited, or none", () => {
    expect(sourcesCorrect([FIRST, SECOND], 'an answer', [SECOND])).toBe(false)
    expect(sourcesCorrect([FIRST, SECOND], 'an answer', [])).toBe(false)
  })

  it('compares ids as the store keys them: angle brackets and spaces around do not matter, case does', () => {
    expect(sourcesCorrect([FIRST], 'an answer', ['13190700.1075856547102.JavaMail.evans@thyme'])).toBe(true)
    expect(sourcesCorrect([FIRST], 'an answer', [` ${FIRST} `])).toBe(true)
    expect(sourcesCorrect([FIRST], 'an answer', [FIRST.toLowerCase()])).toBe(false)
    expect(sourcesCorrect([FIRST], 'an answer', ['13190700.1075856547102'])).toBe(false)
  })

  it('is false for "I don\'t know" (no attempt, as OpenPipe scores it) and for a row without ids', () => {
    expect(sourcesCorrect([FIRST], I_DONT_KNOW, [FIRST])).toBe(false)
    expect(sourcesCorrect([], 'an answer', [FIRST])).toBe(false)
    expect(sourcesCorrect(['<>'], 'an answer', ['<>', ''])).toBe(false)
  })
})
