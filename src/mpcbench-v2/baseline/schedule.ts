import { formatInZone, localParts, parseInstant, wallClockInstant } from '../../time/zone.ts'
import type { PolicyRule } from '../data/schemas.ts'

/** What the baseline schedules: read from the task text and the tools' results. */
export interface ScheduleRequest {
  timeZone: string
  /** The window, as the task writes it (an offset-less time is wall-clock time in `timeZone`). */
  windowStart: string
  windowEnd: string
  durationMin: number
  numOptions: number
  /** Every participant's busy intervals, as the calendar tool returns them. */
  busy: ReadonlyArray<{ start: string; end: string }>
  rules: ReadonlyArray<PolicyRule>
}

const GRID_MS = 15 * 60_000
const MINUTE = 60_000

interface Interval {
  start: number
  end: number
}

function instant(text: string, timeZone: string): number {
  const value = parseInstant(text, timeZone)
  if (value === undefined) throw new Error(`not a date-time: ${JSON.stringify(text)}`)
  return value
}

function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end
}

function clockMinutes(text: string): number {
  const [hours = 0, minutes = 0] = text.split(':').map(Number)
  return hours * 60 + minutes
}

/** A daily `HH:MM`-`HH:MM` interval on the local day of `anchor` (an end at or before the start is the next day's). */
function dailyInterval(anchor: number, start: string, end: string, timeZone: string): Interval {
  const p = localParts(anchor, timeZone)
  const date = `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`
  const from = wallClockInstant(date, clockMinutes(start), timeZone)
  let to = wallClockInstant(date, clockMinutes(end), timeZone)
  if (to <= from) to += 24 * 60 * MINUTE
  return { start: from, end: to }
}

function keeps(rule: PolicyRule, slot: Interval, busy: ReadonlyArray<Interval>, timeZone: string): boolean {
  const weekday = localParts(slot.start, timeZone).weekday
  switch (rule.type) {
    case 'work_hours': {
      if (rule.days_of_week !== undefined && !rule.days_of_week.includes(weekday)) return false
      const hours = dailyInterval(slot.start, rule.start, rule.end, timeZone)
      return slot.start >= hours.start && slot.end <= hours.end
    }
    case 'lunch_block':
      if (rule.days_of_week !== undefined && !rule.days_of_week.includes(weekday)) return true
      return !overlaps(slot, dailyInterval(slot.start, rule.start, rule.end, timeZone))
    case 'buffer_min': {
      const pad = rule.minutes * MINUTE
      return !busy.some((interval) => overlaps(slot, { start: interval.start - pad, end: interval.end + pad }))
    }
    case 'ban_dow_time':
      return weekday !== rule.day_of_week || !overlaps(slot, dailyInterval(slot.start, rule.start, rule.end, timeZone))
  }
}

/**
 * The earliest `numOptions` slots of `durationMin` on the 15-minute grid inside the window, free for every
 * participant and kept by every policy rule (hard constraints, half-open intervals), as start-end pairs with the zone's
 * offset: the rules upstream's oracle applies (`oracle/oracle_core.py`, `constraints.py`), from what the tools return.
 */
export function scheduleSlots(request: ScheduleRequest): Array<{ start: string; end: string }> {
  const { timeZone } = request
  const window = { start: instant(request.windowStart, timeZone), end: instant(request.windowEnd, timeZone) }
  const busy = request.busy.map((event) => ({ start: instant(event.start, timeZone), end: instant(event.end, timeZone) }))
  const duration = request.durationMin * MINUTE
  const slots: Interval[] = []
  const first = Math.ceil(window.start / GRID_MS) * GRID_MS
  for (let start = first; start + duration <= window.end; start += GRID_MS) {
    const slot = { start, end: start + duration }
    if (busy.some((interval) => overlaps(slot, interval))) continue
    if (request.rules.every((rule) => keeps(rule, slot, busy, timeZone))) slots.push(slot)
  }
  return slots.slice(0, request.numOptions).map((slot) => ({ start: formatInZone(slot.start, timeZone), end: formatInZone(slot.end, timeZone) }))
}
