import { describe, expect, it } from 'vitest'
import { clauseBefore, mentionState, negatesMention, negatesSlot } from './negation.ts'

function at(text: string, needle: string): [number, number] {
  const start = text.indexOf(needle)
  if (start < 0) throw new Error(`no ${needle} in ${text}`)
  return [start, start + needle.length]
}

describe('clauseBefore', () => {
  it('starts after the last punctuation mark, line break or joining word', () => {
    const text = 'I have not heard back; Priya owns it'
    expect(clauseBefore(text, text.indexOf('Priya'))).toBe(' ')
    const joined = 'We are not sure but Priya owns it'
    expect(clauseBefore(joined, joined.indexOf('Priya'))).toBe(' ')
    expect(clauseBefore(joined, joined.indexOf('sure'))).toBe('We are not ')
    expect(clauseBefore('Busy all day — Marta', 15)).toBe(' ')
    expect(clauseBefore('(not Monday) Marta', 13)).toBe(' ')
  })

  it('does not start before `from`', () => {
    expect(clauseBefore('not 2026-03-17 09:00 then 2026-03-18 10:00', 26, 20)).toBe(' then ')
  })
})

describe('negatesSlot', () => {
  const slot = (text: string, from = 0) => negatesSlot(text, ...at(text, '2026-03-17 12:00'), from)

  it('reads a negation, `busy` or `unavailable` before the time, or a ruling-out predicate after it', () => {
    expect(slot('Not 2026-03-17 12:00.')).toBe(true)
    expect(slot('Marta is busy at 2026-03-17 12:00.')).toBe(true)
    expect(slot('Marta and Luca cannot meet at 2026-03-17 12:00.')).toBe(true)
    expect(slot('2026-03-17 12:00 does not work for Marta.')).toBe(true)
    expect(slot('2026-03-17 12:00 is taken.')).toBe(true)
  })

  it('does not carry a negation past a clause break', () => {
    expect(slot("I can't do mornings but 2026-03-17 12:00 works.")).toBe(false)
    expect(slot('Marta is busy on Monday; 2026-03-17 12:00 works.')).toBe(false)
    expect(slot('How about 2026-03-17 12:00?')).toBe(false)
  })
})

describe('negatesMention', () => {
  const negated = (text: string, needle: string) => negatesMention(text, ...at(text, needle))

  it('reads a negation word earlier in the clause, or `no` right before', () => {
    for (const text of [
      'The release will not be ready by 2026-03-20.',
      "It won't ship on 2026-03-20.",
      'The owner is not Priya Natarajan.',
      'Never 2026-03-20.',
      'No 2026-03-20 this time.',
      'We ship on 2026-03-27 instead of 2026-03-20.',
      'Any day rather than 2026-03-20.',
      'Every day except 2026-03-20.',
      'Neither 2026-03-20 nor 2026-03-27.',
      'The target is no longer 2026-03-20.',
    ]) {
      expect(negated(text, text.includes('Priya') ? 'Priya Natarajan' : '2026-03-20'), text).toBe(true)
    }
  })

  it('reads a denying predicate right after the mention', () => {
    for (const text of [
      'Priya Natarajan is not the owner.',
      "Priya Natarajan isn't in charge.",
      'Priya Natarajan does not own it.',
      '2026-03-20 is not realistic.',
      "2026-03-20 won't work.",
      '2026-03-20 will not be met.',
      '2026-03-20 no longer holds.',
      '2026-03-20 (the old plan) is outdated.',
    ]) {
      expect(negated(text, text.includes('Priya') ? 'Priya Natarajan' : '2026-03-20'), text).toBe(true)
    }
  })

  it('reads the predicate after the rest of a name: `Priya` of `Priya Natarajan is not the owner`', () => {
    expect(negated('Priya Natarajan is not the owner.', 'Priya')).toBe(true)
    expect(negated('Priya Natarajan owns it.', 'Priya')).toBe(false)
    expect(negated('Due 2026-03-20 Priya is not the owner.', '2026-03-20')).toBe(false)
  })

  it('keeps a mention whose negation is in another clause, bounds the time, or hedges', () => {
    for (const [text, needle] of [
      ['I have not heard back; Priya Natarajan owns it.', 'Priya Natarajan'],
      ['I have not heard back, but Priya Natarajan owns it.', 'Priya Natarajan'],
      ['I have not heard back and Priya Natarajan owns it.', 'Priya Natarajan'],
      ['Not 2026-03-18, but 2026-03-20.', '2026-03-20'],
      ['The date is not final and may change.', 'may change'],
      ['It will not be ready until 2026-03-20.', '2026-03-20'],
      ['Luca confirms the order not later than 2026-03-17.', '2026-03-17'],
      ['Luca confirms the order no later than 2026-03-17.', '2026-03-17'],
      ['Not only 2026-03-20 but the whole week.', '2026-03-20'],
      ['2026-03-20 is not final.', '2026-03-20'],
      ['2026-03-20 is not a firm date.', '2026-03-20'],
      ['FLT-229 is not done yet.', 'FLT-229'],
      ['Luca is not free at 12:00.', 'Luca'],
      ['Hi Mateo\nDo not worry.', 'Mateo'],
      ["Please don't hesitate to contact Priya Natarajan.", 'Priya Natarajan'],
      ['Do not hesitate to reach out to Priya Natarajan.', 'Priya Natarajan'],
      ["Don't forget to loop in Priya Natarajan.", 'Priya Natarajan'],
    ] as const) {
      expect(negated(text, needle), text).toBe(false)
    }
  })
})

describe('mentionState', () => {
  it('is asserted when one occurrence is not negated, negated when every one is, missing when there is none', () => {
    expect(mentionState('It will not be ready by 2026-03-20.', '2026-03-20')).toBe('negated')
    expect(mentionState('It will not be ready by 2026-03-20. Our new target is 2026-03-20 at noon.', '2026-03-20')).toBe('asserted')
    expect(mentionState('Not 2026-03-18: the target is 2026-03-20.', '2026-03-18')).toBe('negated')
    expect(mentionState('The target is 2026-03-20.', '2026-03-18')).toBe('missing')
  })

  it('matches case-insensitively', () => {
    expect(mentionState('PRIYA owns it', 'priya')).toBe('asserted')
    expect(mentionState('NOT PRIYA', 'priya')).toBe('negated')
  })
})
