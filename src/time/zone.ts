import type { IsoDate } from './calendar.ts'

/**
 * IANA time-zone primitives built on `Intl.DateTimeFormat` only: instants are epoch milliseconds,
 * wall-clock values are read and written in a zone such as `Asia/Seoul`.
 */

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    })
    formatters.set(timeZone, format)
  }
  return format
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone)
    return true
  } catch {
    return false
  }
}

/** Wall-clock fields of an instant in a zone. `weekday` is 0 (Monday) to 6 (Sunday), as in `calendar.ts`. */
export interface LocalParts {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  weekday: number
}

const WEEKDAYS: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 }

/** The wall-clock reading of `instant` in `timeZone`. */
export function localParts(instant: number, timeZone: string): LocalParts {
  const parts: Record<string, string> = {}
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) parts[part.type] = part.value
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0,
  }
}

function readOffsetSeconds(instant: number, timeZone: string): number {
  const p = localParts(instant, timeZone)
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  return (asUtc - Math.floor(instant / 1000) * 1000) / 1000
}

const BUCKET_MS = 15 * 60_000
/** Per zone: 15-minute bucket -> the offset in seconds over the whole bucket, or `NaN` when it changes inside it. */
const offsetCache = new Map<string, Map<number, number>>()

/**
 * Offset of `timeZone` from UTC at `instant`, in seconds (historical local mean times are not whole minutes).
 * Cached per 15-minute bucket: modern zone transitions fall on whole quarter hours, so a bucket almost always
 * has one offset; a bucket holding a transition is read exactly every time.
 */
function offsetSeconds(instant: number, timeZone: string): number {
  let zoneCache = offsetCache.get(timeZone)
  if (zoneCache === undefined) {
    zoneCache = new Map()
    offsetCache.set(timeZone, zoneCache)
  }
  const bucket = Math.floor(instant / BUCKET_MS)
  let offset = zoneCache.get(bucket)
  if (offset === undefined) {
    const start = readOffsetSeconds(bucket * BUCKET_MS, timeZone)
    offset = start === readOffsetSeconds((bucket + 1) * BUCKET_MS - 1000, timeZone) ? start : Number.NaN
    zoneCache.set(bucket, offset)
  }
  return Number.isNaN(offset) ? readOffsetSeconds(instant, timeZone) : offset
}

/** Offset of `timeZone` from UTC at `instant`, in minutes, east positive (Seoul: 540). */
export function offsetMinutes(instant: number, timeZone: string): number {
  return Math.round(offsetSeconds(instant, timeZone) / 60)
}

/**
 * The instant at which the wall clock in `timeZone` reads the given local time
 * (in a DST gap, a nearby valid instant). Time fields may run past their range (`minute` 600 is 10:00).
 */
export function zonedToInstant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string, second = 0): number {
  const guess = Date.UTC(year, month - 1, day) + ((hour * 60 + minute) * 60 + second) * 1000
  const firstOffset = offsetMinutes(guess, timeZone)
  const first = guess - firstOffset * 60_000
  const secondOffset = offsetMinutes(first, timeZone)
  if (secondOffset === firstOffset) return first
  const next = guess - secondOffset * 60_000
  return offsetMinutes(next, timeZone) === secondOffset ? next : Math.max(first, next)
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/** `instant` as ISO 8601 with the zone's offset at that instant: `2025-11-17T09:00:00+09:00`. */
export function formatInZone(instant: number, timeZone: string): string {
  const seconds = offsetSeconds(instant, timeZone)
  const local = new Date(Math.floor(instant / 1000) * 1000 + seconds * 1000)
  const offset = Math.round(seconds / 60)
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  return `${local.toISOString().slice(0, 19)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}

/** `YYYY-MM-DD` of `instant` in `timeZone`. */
export function localDate(instant: number, timeZone: string): IsoDate {
  const p = localParts(instant, timeZone)
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`
}

/** The instant of the wall-clock time `minutes` after midnight of `date` in `timeZone`. */
export function wallClockInstant(date: IsoDate, minutes: number, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return zonedToInstant(y, m, d, 0, minutes, timeZone)
}

/** Start of the local day `date` in `timeZone` (a DST day in New York is 23 hours long). */
export function startOfLocalDay(date: IsoDate, timeZone: string): number {
  return wallClockInstant(date, 0, timeZone)
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i
const SLACK_EPOCH = /^(\d{9,11})(?:\.(\d{1,6}))?$/

/**
 * Reads a timestamp as an instant, or returns `undefined` when it is not one:
 * ISO 8601 with `Z` or an offset; ISO without offset or a bare date (read as wall-clock time in `timeZone`);
 * a Slack epoch (`1763341380.000100`).
 */
export function parseInstant(text: string, timeZone: string): number | undefined {
  const trimmed = text.trim()
  const epoch = SLACK_EPOCH.exec(trimmed)
  if (epoch !== null) return Number(epoch[1]) * 1000 + Math.floor(Number(`0.${epoch[2] ?? '0'}`) * 1000)
  const m = ISO_DATE_TIME.exec(trimmed)
  if (m === null) return undefined
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [number, number, number, number, number, number]
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return undefined
  const zone = m[7]
  if (zone === undefined) return zonedToInstant(y, mo, d, h, mi, timeZone, s)
  const utc = Date.UTC(y, mo - 1, d, h, mi, s)
  if (zone.toUpperCase() === 'Z') return utc
  const digits = zone.replace(':', '')
  const sign = digits.startsWith('-') ? -1 : 1
  const offset = sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)))
  return utc - offset * 60_000
}
