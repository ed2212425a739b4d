/** Dates and meeting lengths as people write them in requests and answers, read for the baseline. */

import { addDays, formatClock, isRealDate, isWeekend, mondayOf, weekday } from '../time/calendar.ts'

const ISO_DAY = /\b(\d{4}-\d{2}-\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g

/** Every `YYYY-MM-DD` day written in `text` (dates and date-times), in order. */
export function isoDaysIn(text: string): string[] {
  return [...text.matchAll(ISO_DAY)].map((m) => m[1] as string).filter(isRealDate)
}

/** An inclusive range of days. */
export interface DayRange {
  start: string
  end: string
  /** How it was read, e.g. `next week`. */
  label: string
}

/**
 * The days a request talks about, relative to `today`: explicit ISO dates win; then
 * `next week` (Monday to Friday after today's week), `this week`, `tomorrow`, `today`;
 * otherwise the next five weekdays after today.
 */
export function dayRangeFrom(prompt: string, today: string): DayRange {
  const explicit = isoDaysIn(prompt)
  const first = explicit[0]
  if (first !== undefined) {
    const last = explicit.at(-1) ?? first
    return first <= last ? { start: first, end: last, label: 'the dates given' } : { start: last, end: first, label: 'the dates given' }
  }
  const p = prompt.toLowerCase()
  if (/\bnext week\b/.test(p)) {
    const monday = addDays(mondayOf(today), 7)
    return { start: monday, end: addDays(monday, 4), label: 'next week' }
  }
  if (/\bthis week\b|\bthis week's\b/.test(p)) {
    const monday = mondayOf(today)
    return { start: monday, end: addDays(monday, 6), label: 'this week' }
  }
  if (/\btomorrow\b/.test(p)) return { start: addDays(today, 1), end: addDays(today, 1), label: 'tomorrow' }
  if (/\btoday\b/.test(p)) return { start: today, end: today, label: 'today' }
  const days: string[] = []
  for (let d = addDays(today, 1); days.length < 5; d = addDays(d, 1)) if (!isWeekend(d)) days.push(d)
  return { start: days[0] as string, end: days[4] as string, label: 'the next five weekdays' }
}

const WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

/** A local date-time read from an ISO string without converting zones. */
export interface WallClock {
  day: string
  minutes: number
  /** The offset as written (`+09:00`, `Z`), or `''`. */
  offset: string
}

/** Reads `2025-11-17T09:00:00+09:00` as its own wall clock. `undefined` when not an ISO date-time. */
export function wallClock(iso: string): WallClock | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(iso.trim())
  if (m === null) return undefined
  return { day: m[1] as string, minutes: Number(m[2]) * 60 + Number(m[3]), offset: m[4] ?? '' }
}

/** `Mon 2025-11-24 09:00-09:45 (+09:00)`: a meeting of `duration` minutes starting at `start`. */
export function formatMeeting(start: WallClock, duration: number): string {
  const end = start.minutes + duration
  const offset = start.offset === '' ? '' : ` (${start.offset === 'Z' ? 'UTC' : `UTC${start.offset}`})`
  return `${WEEKDAY_NAMES[weekday(start.day)]} ${start.day} ${formatClock(start.minutes)}-${formatClock(Math.min(end, 24 * 60 - 1))}${offset}`
}

/** Minutes of a meeting length written in `text` (`45 minutes`, `45-min`, `an hour`, `1.5 hours`), or `undefined`. */
export function durationIn(text: string): number | undefined {
  const minutes = /\b(\d{1,3})\s*-?\s*(?:min|mins|minutes?)\b/i.exec(text)
  if (minutes !== null) return Number(minutes[1])
  const hours = /\b(\d+(?:\.\d+)?|an|one|two|half an)\s*-?\s*(?:hours?|hr)\b/i.exec(text)
  if (hours !== null) {
    const n = hours[1]?.toLowerCase()
    const value = n === 'an' || n === 'one' ? 1 : n === 'two' ? 2 : n === 'half an' ? 0.5 : Number(n)
    if (value > 0 && value <= 8) return Math.round(value * 60)
  }
  return undefined
}
