import { describe, expect, it } from 'vitest'
import { mondayOf } from '../time/calendar.ts'
import { dayRangeFrom, durationIn, formatMeeting, isoDaysIn, wallClock } from './date-phrases.ts'

describe('day ranges', () => {
  // 2025-11-19 is a Wednesday.
  it('reads next week as Monday to Friday of the following week', () => {
    expect(dayRangeFrom('Find time next week', '2025-11-19')).toEqual({ start: '2025-11-24', end: '2025-11-28', label: 'next week' })
  })

  it('prefers explicit dates, in either order', () => {
    expect(dayRangeFrom('between 2025-12-05 and 2025-12-01 please', '2025-11-19')).toMatchObject({ start: '2025-12-01', end: '2025-12-05' })
  })

  it('defaults to the next five weekdays', () => {
    expect(dayRangeFrom('Find a slot', '2025-11-21')).toMatchObject({ start: '2025-11-24', end: '2025-11-28' })
  })

  it('finds ISO days in date-times and skips impossible ones', () => {
    expect(isoDaysIn('at 2025-11-17T11:03:00+09:00, not 2025-02-30')).toEqual(['2025-11-17'])
    expect(mondayOf('2025-11-23')).toBe('2025-11-17')
  })
})

describe('durations and slots', () => {
  it.each([
    ['a 45-minute sync', 45],
    ['about 45 mins', 45],
    ['an hour', 60],
    ['1.5 hours', 90],
    ['half an hour', 30],
    ['no length given', undefined],
  ])('%s → %s', (text, minutes) => {
    expect(durationIn(text)).toBe(minutes)
  })

  it('formats a meeting in the slot’s own offset', () => {
    const start = wallClock('2025-11-24T09:30:00+09:00')
    expect(start).toEqual({ day: '2025-11-24', minutes: 570, offset: '+09:00' })
    if (start === undefined) throw new Error('expected a wall clock')
    expect(formatMeeting(start, 45)).toBe('Mon 2025-11-24 09:30-10:15 (UTC+09:00)')
  })
})
