import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { addNormalizedAddresses, canonicalMessageId, normalizeAddress, normalizeAddressText, toIsoDate } from './normalize.ts'

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

describe('normalization shortcuts', () => {
  it('normalizes a plain address to itself and any other text as the full rule does', () => {
    const piece = fc.constantFrom('ann', 'Ann', 'a.b', '+x', '-', '_', '@', 'corp.test', ' ', '\t', '<', '>', '"', "'", 'É', 'é', '(', ',')
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
          fc.string(),
        ),
        (value) => {
          expect(normalizeAddress(value)).toBe(normalizeAddressText(value))
        },
      ),
      { numRuns: 3000 },
    )
    expect(normalizeAddress('ann@corp.test')).toBe('ann@corp.test')
    expect(normalizeAddress('Ann Lee <Ann@Corp.test>')).toBe('ann@corp.test')
  })

  it('keeps a Message-ID already in canonical form and canonicalizes any other', () => {
    const reference = (value: string): string => {
      const inner = value.trim().replace(/^<+/, '').replace(/>+$/, '').trim()
      return inner === '' ? '' : `<${inner}>`
    }
    const piece = fc.constantFrom('<', '>', ' ', '\n', 'a', '1.2@x', '<<', '>>', '\u00a0', '')
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(piece, { maxLength: 7 }).map((parts) => parts.join('')),
          fc.string(),
        ),
        (value) => {
          expect(canonicalMessageId(value)).toBe(reference(value))
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('keeps a date in stored form when it is the instant it names, and reads any other as before', () => {
    expect(toIsoDate('2001-05-14T23:39:00.000Z')).toBe('2001-05-14T23:39:00.000Z')
    expect(toIsoDate('2001-02-30T00:00:00.000Z')).toBe(toIsoDate(new Date('2001-02-30T00:00:00.000Z')))
    expect(toIsoDate('2001-13-01T00:00:00.000Z')).toBeUndefined()
    fc.assert(
      fc.property(fc.date({ min: new Date(Date.UTC(0, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }), (date) => {
        const iso = date.toISOString()
        expect(toIsoDate(iso)).toBe(iso)
      }),
    )
  })
})

describe('addNormalizedAddresses', () => {
  it('adds the normalized addresses in first-seen order, without empty ones or duplicates, to the set it is given', () => {
    const into = new Set(['kept@corp.test'])
    expect([...addNormalizedAddresses(['"Ann Lee" <Ann.Lee@Corp.test>', '', ' <> ', 'bob@corp.test', 'ann.lee@corp.test', 'KEPT@corp.test'], into)]).toEqual([
      'kept@corp.test',
      'ann.lee@corp.test',
      'bob@corp.test',
    ])
  })
})
