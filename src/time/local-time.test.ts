import { formatInZone, localDate, offsetMinutes, parseInstant, startOfLocalDay, zonedToInstant } from './zone.ts'
import { describe, expect, it } from 'vitest'

describe('time zones', () => {
  it('puts an event at 23:30 UTC on the next day in Asia/Seoul and the same day in New York', () => {
    const at = Date.parse('2025-03-03T23:30:00Z')
    expect(localDate(at, 'Asia/Seoul')).toBe('2025-03-04')
    expect(localDate(at, 'America/New_York')).toBe('2025-03-03')
    expect(formatInZone(at, 'Asia/Seoul')).toBe('2025-03-04T08:30:00+09:00')
  })

  it('follows daylight saving time in America/New_York (starts 2025-03-09) and Australia/Sydney (ends 2025-04-06)', () => {
    expect(offsetMinutes(Date.parse('2025-03-08T12:00:00Z'), 'America/New_York')).toBe(-300)
    expect(offsetMinutes(Date.parse('2025-03-10T12:00:00Z'), 'America/New_York')).toBe(-240)
    expect(formatInZone(zonedToInstant(2025, 3, 10, 9, 0, 'America/New_York'), 'America/New_York')).toBe('2025-03-10T09:00:00-04:00')
    expect(formatInZone(zonedToInstant(2025, 4, 7, 9, 0, 'Australia/Sydney'), 'Australia/Sydney')).toBe('2025-04-07T09:00:00+10:00')
    // 02:30 does not exist on 2025-03-09 in New York; a nearby valid instant is used.
    expect(formatInZone(zonedToInstant(2025, 3, 9, 2, 30, 'America/New_York'), 'America/New_York')).toMatch(/^2025-03-09T0[13]:30:00-0[45]:00$/)
  })

  it('measures local days in the zone (a DST day in New York is 23 hours)', () => {
    expect(startOfLocalDay('2025-03-10', 'America/New_York') - startOfLocalDay('2025-03-09', 'America/New_York')).toBe(23 * 3_600_000)
    expect(new Date(startOfLocalDay('2025-11-17', 'Asia/Seoul')).toISOString()).toBe('2025-11-16T15:00:00.000Z')
  })

  it('parses offsets, Z, local times in the zone and Slack epochs', () => {
    expect(parseInstant('2025-11-17T10:00:00+09:00', 'UTC')).toBe(Date.parse('2025-11-17T01:00:00Z'))
    expect(parseInstant('2025-11-17T10:00:00Z', 'Asia/Seoul')).toBe(Date.parse('2025-11-17T10:00:00Z'))
    expect(parseInstant('2025-11-17T10:00', 'Asia/Seoul')).toBe(Date.parse('2025-11-17T01:00:00Z'))
    expect(parseInstant('2025-11-17', 'Asia/Seoul')).toBe(Date.parse('2025-11-16T15:00:00Z'))
    expect(parseInstant('1763341380.000100', 'Asia/Seoul')).toBe(1763341380000)
    expect(parseInstant('next tuesday', 'UTC')).toBeUndefined()
    expect(parseInstant('2025-13-01', 'UTC')).toBeUndefined()
  })
})
