/** Wall-clock date arithmetic in an IANA time zone, producing ISO 8601 strings with the zone's offset. */

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

const offsetCache = new Map<string, Map<number, number>>()
const BUCKET_MS = 15 * 60_000

/**
 * Offset of `timeZone` from UTC at the instant `utcMs`, in minutes (east positive). Cached per 15-minute bucket
 * (zone transitions fall on whole quarter hours).
 */
export function offsetMinutes(timeZone: string, utcMs: number): number {
  let zoneCache = offsetCache.get(timeZone)
  if (zoneCache === undefined) {
    zoneCache = new Map()
    offsetCache.set(timeZone, zoneCache)
  }
  const bucket = Math.floor(utcMs / BUCKET_MS)
  let offset = zoneCache.get(bucket)
  if (offset === undefined) {
    offset = computeOffset(timeZone, bucket * BUCKET_MS)
    zoneCache.set(bucket, offset)
  }
  return offset
}

function computeOffset(timeZone: string, utcMs: number): number {
  const parts = formatterFor(timeZone).formatToParts(new Date(utcMs))
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value)
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'))
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000)
}

/** The UTC instant of a wall-clock time (`date` YYYY-MM-DD, `minutes` since midnight) in `timeZone`. */
export function zonedToUtcMs(timeZone: string, date: string, minutes: number): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const wall = Date.UTC(y, m - 1, d) + minutes * 60_000
  let guess = wall - offsetMinutes(timeZone, wall) * 60_000
  guess = wall - offsetMinutes(timeZone, guess) * 60_000
  return guess
}

/** ISO 8601 with the zone's offset, e.g. `2025-11-20T15:00:00+09:00`. */
export function toZonedIso(timeZone: string, utcMs: number): string {
  const offset = offsetMinutes(timeZone, utcMs)
  const local = new Date(utcMs + offset * 60_000)
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${local.toISOString().slice(0, 19)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}

/** `zonedToUtcMs` then `toZonedIso`. */
export function zonedIso(timeZone: string, date: string, minutes: number): string {
  return toZonedIso(timeZone, zonedToUtcMs(timeZone, date, minutes))
}

/** `date` plus `days` (calendar arithmetic, no time zone). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** Day of week, 0 = Monday ... 6 = Sunday. */
export function weekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7
}

/** The Monday of the week holding `date`. */
export function mondayOf(date: string): string {
  return addDays(date, -weekday(date))
}

/** `HH:MM` to minutes since midnight. */
export function parseHhmm(text: string): number {
  const [h, m] = text.split(':').map(Number) as [number, number]
  return h * 60 + m
}

/** Minutes since midnight to `HH:MM`. */
export function formatHhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const

/** `Monday` ... `Sunday`. */
export function weekdayName(date: string): string {
  return WEEKDAY_NAMES[weekday(date)] as string
}
