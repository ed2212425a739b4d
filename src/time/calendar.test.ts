import { addDays, formatClock, isIsoDate, isRealDate, isWeekend, mondayOf, parseClock, weekday, weekdayName } from './calendar.ts'
import { formatInZone, wallClockInstant } from './zone.ts'
import { describe, expect, it } from 'vitest'

describe('calendar days and wall-clock times', () => {
  it('writes wall-clock times with the zone offset, across DST changes', () => {
    expect(formatInZone(wallClockInstant('2026-03-06', 9 * 60, 'America/Los_Angeles'), 'America/Los_Angeles')).toBe('2026-03-06T09:00:00-08:00')
    expect(formatInZone(wallClockInstant('2026-03-09', 9 * 60, 'America/Los_Angeles'), 'America/Los_Angeles')).toBe('2026-03-09T09:00:00-07:00')
    expect(formatInZone(wallClockInstant('2026-03-27', 17 * 60 + 30, 'Europe/Berlin'), 'Europe/Berlin')).toBe('2026-03-27T17:30:00+01:00')
    expect(formatInZone(wallClockInstant('2026-03-30', 17 * 60 + 30, 'Europe/Berlin'), 'Europe/Berlin')).toBe('2026-03-30T17:30:00+02:00')
    expect(formatInZone(wallClockInstant('2025-11-20', 15 * 60, 'Asia/Seoul'), 'Asia/Seoul')).toBe('2025-11-20T15:00:00+09:00')
    expect(formatInZone(wallClockInstant('2025-11-20', 9 * 60, 'Asia/Kolkata'), 'Asia/Kolkata')).toBe('2025-11-20T09:00:00+05:30')
  })

  it('maps a wall-clock time to the right instant', () => {
    expect(new Date(wallClockInstant('2025-11-20', 15 * 60, 'Asia/Seoul')).toISOString()).toBe('2025-11-20T06:00:00.000Z')
    expect(new Date(wallClockInstant('2025-11-03', 0, 'America/New_York')).toISOString()).toBe('2025-11-03T05:00:00.000Z')
  })

  it('does calendar arithmetic', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01')
    expect(mondayOf('2026-04-09')).toBe('2026-04-06')
    expect(mondayOf('2026-04-12')).toBe('2026-04-06')
    expect(weekdayName('2026-04-09')).toBe('Thursday')
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31')
  })

  it('counts weekdays from 0 = Monday to 6 = Sunday', () => {
    expect(weekday('2025-11-17')).toBe(0)
    expect(weekday('2025-11-22')).toBe(5)
    expect(weekday('2025-11-23')).toBe(6)
    expect(isWeekend('2025-11-22')).toBe(true)
    expect(isWeekend('2025-11-21')).toBe(false)
    expect(mondayOf('2025-11-23')).toBe('2025-11-17')
  })

  it('reads and writes clock times and tells real dates from date-shaped strings', () => {
    expect(parseClock('09:30')).toBe(570)
    expect(parseClock('9:30')).toBe(570)
    expect(parseClock('24:00')).toBe(1440)
    expect(parseClock('24:01')).toBeUndefined()
    expect(parseClock('9:5')).toBeUndefined()
    expect(formatClock(570)).toBe('09:30')
    expect(isIsoDate(' 2025-02-30 ')).toBe(true)
    expect(isRealDate('2025-02-30')).toBe(false)
    expect(isRealDate('2024-02-29')).toBe(true)
    expect(() => addDays('next week', 1)).toThrow(/YYYY-MM-DD/)
  })
})
