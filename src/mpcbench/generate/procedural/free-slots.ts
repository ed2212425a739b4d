import type { CalendarEvent } from '../../tasks/world-state.ts'
import type { Interval } from './world-builder.ts'
import type { WorldBuilder } from './world-builder.ts'

/**
 * Common free intervals (a person is busy in every event they attend or organise) of `emails` on `days` within working hours, at least `minMinutes` long,
 * computed over `events` (the generator's own ground truth for planning facts).
 */
export function commonFreeSlots(
  builder: WorldBuilder,
  events: readonly CalendarEvent[],
  emails: readonly string[],
  days: readonly string[],
  minMinutes: number,
): Interval[] {
  const wanted = new Set(emails)
  const busy = events
    .filter((e) => wanted.has(e.organizer) || e.attendees.some((a) => wanted.has(a)))
    .map((e) => ({ start: Date.parse(e.start), end: Date.parse(e.end) }))
    .sort((a, b) => a.start - b.start)
  const slots: Interval[] = []
  for (const day of days) {
    const window = builder.interval(day, builder.workStart, builder.workEnd)
    let cursor = window.start
    for (const b of busy) {
      if (b.end <= cursor || b.start >= window.end) continue
      if (b.start > cursor) slots.push({ start: cursor, end: Math.min(b.start, window.end) })
      cursor = Math.max(cursor, b.end)
      if (cursor >= window.end) break
    }
    if (cursor < window.end) slots.push({ start: cursor, end: window.end })
  }
  return slots.filter((s) => s.end - s.start >= minMinutes * 60_000)
}
