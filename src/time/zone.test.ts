import { describe, expect, it } from 'vitest'
import { formatInZone, isValidTimeZone, localParts, offsetMinutes, zonedToInstant } from './zone.ts'

describe('time-zone primitives', () => {
  it('reads the wall clock and the offset of an instant in a zone', () => {
    const at = Date.parse('2025-03-03T23:30:00Z')
    expect(localParts(at, 'Asia/Seoul')).toEqual({ year: 2025, month: 3, day: 4, hour: 8, minute: 30, second: 0, weekday: 1 })
    expect(offsetMinutes(at, 'Asia/Seoul')).toBe(540)
    expect(offsetMinutes(Date.parse('2025-07-01T12:00:00Z'), 'America/New_York')).toBe(-240)
    expect(offsetMinutes(at, 'Asia/Kolkata')).toBe(330)
    expect(isValidTimeZone('Europe/Berlin')).toBe(true)
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false)
  })

  it('changes offset at the exact instant of a DST transition', () => {
    const start = Date.parse('2025-03-09T07:00:00Z')
    expect(offsetMinutes(start - 1000, 'America/New_York')).toBe(-300)
    expect(offsetMinutes(start, 'America/New_York')).toBe(-240)
    expect(formatInZone(start - 1000, 'America/New_York')).toBe('2025-03-09T01:59:59-05:00')
    expect(formatInZone(start, 'America/New_York')).toBe('2025-03-09T03:00:00-04:00')
  })

  it('is exact inside a 15-minute bucket holding a transition off the quarter hour (Monrovia, 1972)', () => {
    const change = Date.parse('1972-01-07T00:44:30Z')
    expect(formatInZone(change - 1000, 'Africa/Monrovia')).toBe('1972-01-06T23:59:59-00:44')
    expect(formatInZone(change, 'Africa/Monrovia')).toBe('1972-01-07T00:44:30+00:00')
    expect(offsetMinutes(change + 30_000, 'Africa/Monrovia')).toBe(0)
  })

  it('maps wall-clock times to instants, moving a time in a DST gap forward', () => {
    expect(formatInZone(zonedToInstant(2025, 11, 20, 15, 0, 'Asia/Seoul'), 'Asia/Seoul')).toBe('2025-11-20T15:00:00+09:00')
    expect(zonedToInstant(2025, 11, 3, 0, 9 * 60 + 30, 'America/New_York')).toBe(Date.parse('2025-11-03T14:30:00Z'))
    expect(formatInZone(zonedToInstant(2025, 3, 9, 2, 30, 'America/New_York'), 'America/New_York')).toBe('2025-03-09T03:30:00-04:00')
    expect(formatInZone(zonedToInstant(2025, 3, 30, 2, 30, 'Europe/Berlin'), 'Europe/Berlin')).toBe('2025-03-30T03:30:00+02:00')
    expect(formatInZone(zonedToInstant(2025, 11, 2, 1, 30, 'America/New_York'), 'America/New_York')).toBe('2025-11-02T01:30:00-04:00')
  })
})
