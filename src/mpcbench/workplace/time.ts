/**
 * Time for the workplace ToolBackend: local dates, calendar days and timestamp parsing in an IANA zone,
 * on top of the zone primitives of `src/time/zone.ts` (re-exported here).
 */

import { localParts, zonedToInstant } from '../../time/zone.ts'

export { formatInZone, isValidTimeZone, offsetMinutes, zonedToInstant } from '../../time/zone.ts'

/** A calendar date, as `YYYY-MM-DD`. */
export type IsoDate = string

/** `YYYY-MM-DD` of `instant` in `timeZone`. */
export function localDate(instant: number, timeZone: string): IsoDate {
  const p = localParts(instant, timeZone)
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`
}

/** Start of the local day `date` (`YYYY-MM-DD`) in `timeZone`. */
export function startOfLocalDay(date: IsoDate, timeZone: string): number {
  const [y, m, d] = splitDate(date)
  return zonedToInstant(y, m, d, 0, 0, timeZone)
}

/** `date` plus `days` calendar days. */
export function addDays(date: IsoDate, days: number): IsoDate {
  const [y, m, d] = splitDate(date)
  const next = new Date(Date.UTC(y, m - 1, d + days))
  return `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`
}

/** Day of week of a calendar date, 0 (Sunday) to 6 (Saturday). */
export function weekdayOf(date: IsoDate): number {
  const [y, m, d] = splitDate(date)
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay()
}

function splitDate(date: IsoDate): [number, number, number] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (match === null) throw new RangeError(`Expected a date as YYYY-MM-DD, got ${JSON.stringify(date)}`)
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0')
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

/** Reads `HH:MM` as minutes after midnight, or `undefined`. */
export function parseClock(text: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim())
  if (m === null) return undefined
  const hours = Number(m[1])
  const minutes = Number(m[2])
  if (hours > 24 || minutes > 59 || (hours === 24 && minutes > 0)) return undefined
  return hours * 60 + minutes
}

/** Whether `text` is a bare `YYYY-MM-DD` date. */
export function isIsoDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text.trim())
}

/** Whether `text` is a `YYYY-MM-DD` date that exists in the calendar (no month 13, no February 31). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim())
  if (m === null) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month < 1 || month > 12 || day < 1) return false
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
}
