/**
 * Calendar days and clock times as labels, with no time zone: a day is `YYYY-MM-DD`, a clock time is minutes after
 * midnight. Weekdays follow ISO 8601 order, counted from zero: 0 = Monday ... 6 = Sunday.
 */

/** A calendar date, as `YYYY-MM-DD`. */
export type IsoDate = string

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

function splitDate(date: IsoDate): [number, number, number] {
  const match = ISO_DATE.exec(date)
  if (match === null) throw new RangeError(`Expected a date as YYYY-MM-DD, got ${JSON.stringify(date)}`)
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/** Whether `text` is a bare `YYYY-MM-DD` date (surrounding spaces allowed). */
export function isIsoDate(text: string): boolean {
  return ISO_DATE.test(text.trim())
}

/** Whether `date` is `YYYY-MM-DD` and names a day that exists (`2025-02-30` does not). */
export function isRealDate(date: string): boolean {
  if (!ISO_DATE.test(date)) return false
  const [y, m, d] = splitDate(date)
  const utc = new Date(Date.UTC(y, m - 1, d))
  return utc.getUTCFullYear() === y && utc.getUTCMonth() === m - 1 && utc.getUTCDate() === d
}

/** `date` plus `days` calendar days (negative goes back). */
export function addDays(date: IsoDate, days: number): IsoDate {
  const [y, m, d] = splitDate(date)
  const next = new Date(Date.UTC(y, m - 1, d + days))
  return `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`
}

/** Day of week of `date`: 0 = Monday ... 6 = Sunday. */
export function weekday(date: IsoDate): number {
  const [y, m, d] = splitDate(date)
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7
}

/** Whether `date` is a Saturday or a Sunday. */
export function isWeekend(date: IsoDate): boolean {
  return weekday(date) >= 5
}

/** The Monday of the week holding `date`. */
export function mondayOf(date: IsoDate): IsoDate {
  return addDays(date, -weekday(date))
}

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const

/** `Monday` ... `Sunday`. */
export function weekdayName(date: IsoDate): string {
  return WEEKDAY_NAMES[weekday(date)] as string
}

/** Reads `HH:MM` (or `H:MM`, up to `24:00`) as minutes after midnight, or `undefined`. */
export function parseClock(text: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim())
  if (m === null) return undefined
  const hours = Number(m[1])
  const minutes = Number(m[2])
  if (hours > 24 || minutes > 59 || (hours === 24 && minutes > 0)) return undefined
  return hours * 60 + minutes
}

/** Minutes after midnight as `HH:MM`. */
export function formatClock(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`
}
