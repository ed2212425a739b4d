/** Wall-clock and calendar arithmetic for the procedural generator: dates as `YYYY-MM-DD`, times as minutes since midnight. */

import { formatInZone, zonedToInstant } from '../../time/zone.ts'
import { addDays } from '../workplace/time.ts'

/** `date` plus `days`, the workplace backend's calendar arithmetic. */
export { addDays }

/** The UTC instant of a wall-clock time (`date` YYYY-MM-DD, `minutes` since midnight) in `timeZone`. */
export function zonedToUtcMs(timeZone: string, date: string, minutes: number): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return zonedToInstant(y, m, d, 0, minutes, timeZone)
}

/** The wall-clock time as ISO 8601 with the zone's offset, e.g. `2025-11-20T15:00:00+09:00`. */
export function zonedIso(timeZone: string, date: string, minutes: number): string {
  return formatInZone(zonedToUtcMs(timeZone, date, minutes), timeZone)
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

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const

/** `Monday` ... `Sunday`. */
export function weekdayName(date: string): string {
  return WEEKDAY_NAMES[weekday(date)] as string
}
