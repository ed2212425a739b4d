import { addDays, isWeekend, parseClock } from '../../time/calendar.ts'
import { formatInZone, localDate, zonedToInstant } from '../../time/zone.ts'
import { readBound } from './date-bounds.ts'
import type { FreeSlotsResult } from './tool-results.ts'
import { WorkplaceToolError } from './tool-error.ts'
import type { Workplace } from './workplace.ts'

const TOOL = 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree'

/** The longest date range searched at once, in days. */
export const MAX_FREE_SLOT_DAYS = 92

/** Arguments of {@link findFreeSlots}, named as upstream's tool arguments. */
export interface FreeSlotsRequest {
  email_addresses: string[]
  /** `YYYY-MM-DD` (whole day) or an ISO date-time, read in the scenario's zone. */
  date_range_start: string
  /** `YYYY-MM-DD` (inclusive, whole day) or an ISO date-time. */
  date_range_end: string
  /** `HH:MM` local time. */
  workday_start_time: string
  workday_end_time: string
  slot_minimum_minutes: number
}

/**
 * The intervals, within workday hours on weekdays (Saturday and Sunday in the scenario's zone are skipped),
 * when none of the given people is busy, each at least `slot_minimum_minutes` long.
 *
 * A person is busy during every event where they are an attendee or the organizer, and during every interval
 * listed for them in the calendar's `free_busy` section. Emails compare case-insensitively; an address with no
 * calendar and no events is reported in `unknown_emails` and does not constrain the result.
 * Slots are maximal (not cut into fixed-length pieces), in the scenario's UTC offset.
 */
export function findFreeSlots(workplace: Workplace, request: FreeSlotsRequest): FreeSlotsResult {
  const tz = workplace.settings.timezone
  const emails = [...new Set(request.email_addresses.map((e) => e.trim().toLowerCase()).filter((e) => e !== ''))]
  if (emails.length === 0) throw new WorkplaceToolError(TOOL, 'email_addresses is empty', { hint: 'Pass the email address of every participant.' })
  const dayStartMin = parseClock(request.workday_start_time)
  const dayEndMin = parseClock(request.workday_end_time)
  if (dayStartMin === undefined || dayEndMin === undefined) {
    throw new WorkplaceToolError(
      TOOL,
      `workday times must be HH:MM, got ${JSON.stringify(request.workday_start_time)} and ${JSON.stringify(request.workday_end_time)}`,
      {
        hint: 'Write workday_start_time and workday_end_time like "09:00" and "18:00".',
      },
    )
  }
  if (dayEndMin <= dayStartMin) {
    throw new WorkplaceToolError(TOOL, `workday_end_time ${request.workday_end_time} is not after workday_start_time ${request.workday_start_time}`, {
      hint: 'Give a workday that ends after it starts, e.g. 09:00 to 18:00.',
    })
  }
  const rangeStart = readBound(request.date_range_start, 'from', tz)
  const rangeEnd = readBound(request.date_range_end, 'to', tz)
  if (rangeStart === undefined || rangeEnd === undefined) {
    throw new WorkplaceToolError(
      TOOL,
      `dates must be YYYY-MM-DD or ISO date-times, got ${JSON.stringify(request.date_range_start)} and ${JSON.stringify(request.date_range_end)}`,
      {
        hint: 'Write date_range_start and date_range_end like "2025-11-17".',
      },
    )
  }
  if (rangeEnd <= rangeStart) {
    throw new WorkplaceToolError(TOOL, `date_range_end ${request.date_range_end} is before date_range_start ${request.date_range_start}`, {
      hint: 'Give an end date on or after the start date.',
    })
  }
  const firstDay = localDate(rangeStart, tz)
  const lastDay = localDate(rangeEnd - 1, tz)
  if (Date.parse(lastDay) - Date.parse(firstDay) > MAX_FREE_SLOT_DAYS * 86_400_000) {
    throw new WorkplaceToolError(TOOL, `the date range ${firstDay}..${lastDay} is longer than ${MAX_FREE_SLOT_DAYS} days`, {
      hint: 'Search a shorter range, e.g. one or two weeks.',
    })
  }

  const busy: Array<{ start: number; end: number }> = []
  const unknown: string[] = []
  for (const email of emails) {
    const intervals = workplace.busyByEmail.get(email)
    if (intervals === undefined && !workplace.calendarEmails.has(email)) unknown.push(email)
    for (const interval of intervals ?? []) {
      if (interval.end > rangeStart && interval.start < rangeEnd) busy.push(interval)
    }
  }
  busy.sort((a, b) => a.start - b.start)

  const minMs = request.slot_minimum_minutes * 60_000
  const slots: FreeSlotsResult['time_slots'] = []
  let cursor = 0
  for (let day = firstDay; day <= lastDay; day = addDays(day, 1)) {
    if (isWeekend(day)) continue
    const [y, m, d] = day.split('-').map(Number) as [number, number, number]
    const windowStart = Math.max(rangeStart, zonedToInstant(y, m, d, Math.floor(dayStartMin / 60), dayStartMin % 60, tz))
    const windowEnd = Math.min(rangeEnd, zonedToInstant(y, m, d, Math.floor(dayEndMin / 60), dayEndMin % 60, tz))
    if (windowEnd <= windowStart) continue
    while (cursor < busy.length && (busy[cursor] as { end: number }).end <= windowStart) cursor++
    let free = windowStart
    for (let i = cursor; i < busy.length; i++) {
      const interval = busy[i] as { start: number; end: number }
      if (interval.start >= windowEnd) break
      if (interval.end <= free) continue
      if (interval.start - free >= minMs) slots.push({ start: formatInZone(free, tz), end: formatInZone(interval.start, tz) })
      free = Math.max(free, interval.end)
    }
    if (windowEnd - free >= minMs) slots.push({ start: formatInZone(free, tz), end: formatInZone(windowEnd, tz) })
  }
  return { time_slots: slots, timezone: tz, unknown_emails: unknown }
}
