import { afterEach, describe, expect, it } from 'vitest'
import { toIsoDate } from './normalize.ts'

describe('toIsoDate', () => {
  const initialZone = process.env.TZ
  afterEach(() => {
    if (initialZone === undefined) delete process.env.TZ
    else process.env.TZ = initialZone
  })

  it('reads a date without a time zone as UTC, whatever the time zone of the process', () => {
    const bare = [
      'Mon, 14 May 2001 16:39:00',
      'Mon, 14 May 2001 16:39:00 (PDT)',
      '2001-05-14 16:39:00',
      '2001-05-14T16:39:00',
      '05/14/2001 16:39',
      'Monday, May 14, 2001 4:39 PM',
    ]
    for (const zone of ['UTC', 'America/Los_Angeles', 'Asia/Kolkata']) {
      process.env.TZ = zone
      for (const value of bare) expect(toIsoDate(value), `${value} in ${zone}`).toBe('2001-05-14T16:39:00.000Z')
      expect(toIsoDate('14 May 2001'), zone).toBe('2001-05-14T00:00:00.000Z')
      expect(toIsoDate('2001-05-14'), zone).toBe('2001-05-14T00:00:00.000Z')
    }
  })

  it('applies the zone a date gives', () => {
    process.env.TZ = 'Asia/Kolkata'
    expect(toIsoDate('Mon, 14 May 2001 16:39:00 -0700 (PDT)')).toBe('2001-05-14T23:39:00.000Z')
    expect(toIsoDate('Mon, 14 May 2001 16:39:00 PDT')).toBe('2001-05-14T23:39:00.000Z')
    expect(toIsoDate('Mon, 14 May 2001 16:39:00 GMT')).toBe('2001-05-14T16:39:00.000Z')
    expect(toIsoDate('2001-05-14T16:39:00+02:00')).toBe('2001-05-14T14:39:00.000Z')
    expect(toIsoDate('2001-05-14T16:39:00Z')).toBe('2001-05-14T16:39:00.000Z')
    expect(toIsoDate('Mon May 14 2001 16:39:00 GMT-0700 (Pacific Daylight Time)')).toBe('2001-05-14T23:39:00.000Z')
  })

  it('gives undefined for what is not a date, or is outside years 0000-9999', () => {
    expect(toIsoDate('Mon, 32 May 2001 16:39:00 -0700')).toBeUndefined()
    expect(toIsoDate('soon')).toBeUndefined()
    expect(toIsoDate(new Date(Date.UTC(10_000, 0, 1)))).toBeUndefined()
  })
})
