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

describe('a stale fact the answer corrects', () => {
  const stale = '2026-04-17'

  it('denies a date the answer says was moved away from, and states one it moved to or did not move from', () => {
    for (const text of [
      'The target moved from 2026-04-17 to 2026-04-24.',
      'It was pushed back from 2026-04-17 to 2026-04-24.',
      'The date slipped from the original 2026-04-17 target date to 2026-04-24.',
      'We changed the target date from 2026-04-17 to 2026-04-24.',
      'A two-week delay from 2026-04-17 puts us at 2026-04-24.',
    ]) {
      expect(mentionState(text, stale), text).toBe('negated')
      expect(mentionState(text, '2026-04-24'), text).toBe(text.includes('2026-04-24') ? 'asserted' : 'missing')
    }
    for (const text of [
      'The target moved to 2026-04-17 from 2026-04-24.',
      'The date moved from 2026-04-24 to 2026-04-17.',
      'The date has not moved from 2026-04-17.',
      "The date hasn't changed from 2026-04-17.",
      "It hasn't been pushed back from 2026-04-17.",
      'There is no change from 2026-04-17.',
      'Nothing has changed from 2026-04-17.',
      'We are not moving away from 2026-04-17.',
      'It is available from 2026-04-17.',
    ]) {
      expect(mentionState(text, stale), text).toBe('asserted')
    }
  })

  it('denies a date whose noun, source or which-clause says it no longer holds', () => {
    for (const text of [
      'The old date of 2026-04-17 no longer holds; the new ETA is 2026-04-24.',
      '2026-04-17 is no longer the date.',
      'The earlier 2026-04-17 estimate is outdated.',
      'The 2026-04-17 due date in Jira is stale.',
      'Jira still shows 2026-04-17, which is out of date.',
      'Jira still shows 2026-04-17, which no longer holds.',
      'Our previous estimate of 2026-04-17 has moved to 2026-04-24.',
      '2026-04-17 was replaced by 2026-04-24.',
      'We now target 2026-04-24 instead of 2026-04-17.',
    ]) {
      expect(mentionState(text, stale), text).toBe('negated')
    }
    expect(mentionState('The 2026-04-17 date on Slack is not the Jira date.', stale)).toBe('asserted')
    expect(mentionState('The 2026-04-17 target in Jira is not final.', stale)).toBe('asserted')
  })

  it('states a date the answer keeps, even after a negation of falling short, or with a hedge', () => {
    for (const text of [
      'The ETA is 2026-04-17.',
      'The ETA remains 2026-04-17.',
      'We are still on track for 2026-04-17.',
      'Not 2026-05-02 but 2026-04-17.',
      'We will not miss 2026-04-17.',
      "We won't slip past 2026-04-17.",
      'The ETA is 2026-04-17, which is not final.',
      '2026-04-17 has not moved.',
      '2026-04-17 is not outdated.',
      'The ETA is not later than 2026-04-17.',
    ]) {
      expect(mentionState(text, stale), text).toBe('asserted')
    }
  })

  it('reads a move after a date only: an issue key or a name that moves is still stated', () => {
    expect(mentionState('FLT-212 was moved to the next sprint.', 'FLT-212')).toBe('asserted')
    expect(mentionState('Mistral Grid at $19,000 is delayed by two weeks.', '$19,000')).toBe('asserted')
    expect(mentionState('2026-03-20 was pushed back a week.', '2026-03-20')).toBe('negated')
  })
})

describe('a person named with their role in a relative clause', () => {
  it('is stated when the negation before them governs a verb and the clause names their role', () => {
    for (const [text, needle] of [
      ["I haven't heard from Priya Natarajan, who owns it.", 'Priya Natarajan'],
      ["I haven't heard from Priya Natarajan who owns it.", 'Priya Natarajan'],
      ["I haven't heard from Priya Natarajan, who owns it.", 'Priya'],
      ['I have not heard back from Priya Natarajan, whose team owns the rollout.', 'Priya'],
      ['We have not heard back from Luca Ferri, who confirms the order by 2026-03-17.', 'Luca'],
      ['I could not reach Luca Ferri, who is in charge of the order.', 'Luca Ferri'],
    ] as const) {
      expect(mentionState(text, needle), text).toBe('asserted')
    }
  })

  it('stays negated when the clause is negated or names no role, or the negation governs the person', () => {
    for (const text of [
      "I haven't heard from Luca Ferri, who does not own it.",
      "I haven't heard from Luca Ferri, who is not the owner.",
      'I have not heard from Luca Ferri, who was on leave.',
      'The order was not confirmed by Luca Ferri, who was on leave.',
      'The owner is not Luca Ferri, who leads procurement.',
      'The order is confirmed by 2026-03-17, not by Luca Ferri, who owns the budget.',
      'Jonas confirms it rather than Luca Ferri, who owns the budget.',
    ]) {
      expect(mentionState(text, 'Luca Ferri'), text).toBe('negated')
    }
  })
})
