import { describe, expect, it } from 'vitest'
import { addDays, mondayOf, weekdayName, zonedIso, zonedToUtcMs } from './zoned-time.ts'

describe('zoned time', () => {
  it('writes wall-clock times with the zone offset, across DST changes', () => {
    expect(zonedIso('America/Los_Angeles', '2026-03-06', 9 * 60)).toBe('2026-03-06T09:00:00-08:00')
    expect(zonedIso('America/Los_Angeles', '2026-03-09', 9 * 60)).toBe('2026-03-09T09:00:00-07:00')
    expect(zonedIso('Europe/Berlin', '2026-03-27', 17 * 60 + 30)).toBe('2026-03-27T17:30:00+01:00')
    expect(zonedIso('Europe/Berlin', '2026-03-30', 17 * 60 + 30)).toBe('2026-03-30T17:30:00+02:00')
    expect(zonedIso('Asia/Seoul', '2025-11-20', 15 * 60)).toBe('2025-11-20T15:00:00+09:00')
    expect(zonedIso('Asia/Kolkata', '2025-11-20', 9 * 60)).toBe('2025-11-20T09:00:00+05:30')
  })

  it('maps a wall-clock time to the right instant', () => {
    expect(new Date(zonedToUtcMs('Asia/Seoul', '2025-11-20', 15 * 60)).toISOString()).toBe('2025-11-20T06:00:00.000Z')
    expect(new Date(zonedToUtcMs('America/New_York', '2025-11-03', 0)).toISOString()).toBe('2025-11-03T05:00:00.000Z')
  })

  it('does calendar arithmetic', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01')
    expect(mondayOf('2026-04-09')).toBe('2026-04-06')
    expect(mondayOf('2026-04-12')).toBe('2026-04-06')
    expect(weekdayName('2026-04-09')).toBe('Thursday')
  })
})
