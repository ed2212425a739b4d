import { addDays, isIsoDate } from '../../time/calendar.ts'
import { localDate, parseInstant, startOfLocalDay } from '../../time/zone.ts'

/** A half-open interval of instants `[from, to)`; either side may be unbounded. */
export interface InstantRange {
  from: number
  to: number
}

/**
 * Reads a range bound given as a date or a date-time. A bare date is a whole day in `timeZone`:
 * as a lower bound it means the start of that day, as an upper bound the end of it (inclusive).
 * Returns `undefined` when `text` is neither.
 */
export function readBound(text: string, side: 'from' | 'to', timeZone: string): number | undefined {
  const trimmed = text.trim()
  if (isIsoDate(trimmed)) return startOfLocalDay(side === 'from' ? trimmed : addDays(trimmed, 1), timeZone)
  const at = parseInstant(trimmed, timeZone)
  if (at === undefined) return undefined
  return side === 'from' ? at : at + 1
}

const DAY_MS = 86_400_000

/**
 * Reads a Gmail-style `date_range`: `last_7_days`, `last_2_weeks`, `last_3_months` (30 days each), `today`,
 * `yesterday`, a date `2025-11-17`, or two dates or date-times joined by `..`, ` to `, `/` or `,`.
 * Relative ranges end at the end of `now`'s day in `timeZone`. Returns `undefined` when unreadable.
 */
export function readDateRange(text: string, now: number, timeZone: string): InstantRange | undefined {
  const trimmed = text.trim().toLowerCase().replaceAll(' ', '_')
  const today = localDate(now, timeZone)
  const endOfToday = startOfLocalDay(addDays(today, 1), timeZone)
  const relative = /^(?:last|past)_(\d+)_(day|week|month)s?$/.exec(trimmed)
  if (relative !== null) {
    const days = Number(relative[1]) * { day: 1, week: 7, month: 30 }[relative[2] as 'day' | 'week' | 'month']
    return { from: now - days * DAY_MS, to: endOfToday }
  }
  if (trimmed === 'today') return { from: startOfLocalDay(today, timeZone), to: endOfToday }
  if (trimmed === 'yesterday') return { from: startOfLocalDay(addDays(today, -1), timeZone), to: startOfLocalDay(today, timeZone) }
  const single = readBound(text, 'from', timeZone)
  if (single !== undefined && isIsoDate(text.trim())) return { from: single, to: readBound(text, 'to', timeZone) as number }
  const parts = text.trim().split(/\s*(?:\.\.|\s+to\s+|\/|,)\s*/)
  if (parts.length === 2) {
    const from = readBound(parts[0] as string, 'from', timeZone)
    const to = readBound(parts[1] as string, 'to', timeZone)
    if (from !== undefined && to !== undefined) return { from, to }
  }
  return undefined
}
