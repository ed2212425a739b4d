import type { CalendarSource } from '../source-types.ts'
import {
  combine,
  compareDateTimes,
  dateOf,
  daysFromCivil,
  fromIsoFormat,
  isoformat,
  isValidDate,
  localNow,
  maxDateTime,
  minDateTime,
  minutesBetween,
  type PyDateTime,
  PythonError,
  pyGet,
  pyInt,
  pyLen,
  pyTruthy,
} from './python.ts'

/** The arguments of upstream's FindTimeSlots after `prepareArguments` (see `tools.ts`). */
export interface UpstreamFreeSlotsArgs {
  email_addresses: string[]
  /** `start_date`, else the legacy `date_range_start`; `''` for none. */
  start_date: string
  end_date: string
  /** `''` means "from the world state's `global_settings`". */
  workday_start_time: string
  workday_end_time: string
  slot_minimum_minutes: number
}

/** A free interval as upstream writes it (Python `isoformat()`). */
export interface UpstreamTimeSlot {
  start: string
  end: string
}

/** `datetime.fromisoformat(text.replace('Z', '+00:00'))`, `undefined` where upstream catches `ValueError` / `AttributeError`. */
function parseEventTime(value: unknown): PyDateTime | undefined {
  if (typeof value !== 'string') return undefined
  return fromIsoFormat(value.replaceAll('Z', '+00:00'))
}

/** `map(int, text.split(":"))` into hour and minute, as `.replace(hour=, minute=)` accepts them. */
function parseWorkdayTime(text: string, argument: string): { hour: number; minute: number } {
  const parts = text.split(':')
  const numbers = parts.map(pyInt)
  if (parts.length !== 2 || numbers.some((n) => n === undefined)) {
    throw new PythonError('ValueError', `${argument} ${JSON.stringify(text)} is not HH:MM`)
  }
  const [hour, minute] = numbers as [number, number]
  if (hour < 0 || hour > 23) throw new PythonError('ValueError', `hour must be in 0..23 (${argument} ${JSON.stringify(text)})`)
  if (minute < 0 || minute > 59) throw new PythonError('ValueError', `minute must be in 0..59 (${argument} ${JSON.stringify(text)})`)
  return { hour, minute }
}

/** `datetime.strptime(text, "%Y-%m-%d")` after upstream's length-10 and two-dash check; `undefined` when upstream returns no slots. */
function parseRangeDay(text: string): number | undefined {
  if (pyLen(text) !== 10 || text.split('-').length !== 3) return undefined
  const match = /^(\d{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])$/.exec(text)
  if (match === null) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number((match[3] as string).trim())]
  if (!isValidDate(year, month, day)) return undefined
  return daysFromCivil(year, month, day)
}

/**
 * Upstream's `call_calendar_find_time_slots`: per day from start to end (weekends included), the gaps of at least
 * `slot_minimum_minutes` between the participants' events (attendee lists only, exact email match) inside the workday,
 * every day in the UTC offset of the calendar's first event. Busy times are the events starting or ending on that day
 * (in their own offset); `free_busy` is not read. With no range, the days of the first and last event start.
 */
export function upstreamFreeSlots(calendar: CalendarSource, args: UpstreamFreeSlotsArgs, workday: { start: string; end: string }): { time_slots: UpstreamTimeSlot[] } {
  const emails = args.email_addresses
  if (emails.length === 0) return { time_slots: [] }
  const workdayStart = parseWorkdayTime(args.workday_start_time === '' ? workday.start : args.workday_start_time, 'workday_start_time')
  const workdayEnd = parseWorkdayTime(args.workday_end_time === '' ? workday.end : args.workday_end_time, 'workday_end_time')
  const events = pyGet(calendar, 'events', []) as unknown[]

  const busyByEmail = new Map<string, Array<{ start: PyDateTime; end: PyDateTime }>>(emails.map((email) => [email, []]))
  for (const event of events) {
    const startText = pyGet(event, 'start', '')
    const endText = pyGet(event, 'end', '')
    if (!pyTruthy(startText) || !pyTruthy(endText)) continue
    const start = parseEventTime(startText)
    const end = parseEventTime(endText)
    if (start === undefined || end === undefined) continue
    const attendees = new Set<unknown>()
    for (const attendee of pyGet(event, 'attendees', []) as unknown[]) {
      const email = pyGet(attendee, 'email', undefined)
      if (pyTruthy(email)) attendees.add(email)
    }
    for (const email of emails) {
      if (attendees.has(email)) busyByEmail.get(email)?.push({ start, end })
    }
  }
  for (const busy of busyByEmail.values()) busy.sort((a, b) => compareDateTimes(a.start, b.start))

  let offset: number | null = null
  const firstStart = events.length === 0 ? '' : pyGet(events[0], 'start', '')
  if (pyTruthy(firstStart)) offset = parseEventTime(firstStart)?.offset ?? null

  let rangeStart: number | undefined
  let rangeEnd: number | undefined
  if (args.start_date !== '') {
    rangeStart = parseRangeDay(args.start_date)
    if (rangeStart === undefined) return { time_slots: [] }
  }
  if (args.end_date !== '') {
    rangeEnd = parseRangeDay(args.end_date)
    if (rangeEnd === undefined) return { time_slots: [] }
  }
  if (rangeStart === undefined || rangeEnd === undefined) {
    const days: number[] = []
    for (const event of events) {
      const startText = pyGet(event, 'start', '')
      if (!pyTruthy(startText)) continue
      const start = parseEventTime(startText)
      if (start !== undefined) days.push(dateOf(start))
    }
    if (days.length > 0) {
      rangeStart ??= Math.min(...days)
      rangeEnd ??= Math.max(...days)
    } else {
      // Upstream: datetime.now() as the start and start + 7 days as the end when the calendar has no event.
      rangeStart ??= dateOf(localNow())
      rangeEnd ??= rangeStart + 7
    }
  }

  // Busy intervals by the days they start or end on, in participant order then start order (as upstream visits them).
  const busyByDay = new Map<number, Array<{ start: PyDateTime; end: PyDateTime }>>()
  for (const email of emails) {
    for (const busy of busyByEmail.get(email) ?? []) {
      const startDay = dateOf(busy.start)
      const endDay = dateOf(busy.end)
      for (const day of startDay === endDay ? [startDay] : [startDay, endDay]) {
        const list = busyByDay.get(day) ?? []
        list.push(busy)
        busyByDay.set(day, list)
      }
    }
  }

  const slots: UpstreamTimeSlot[] = []
  for (let day = rangeStart; day <= rangeEnd; day++) {
    const dayStart = combine(day, workdayStart.hour, workdayStart.minute, offset)
    const dayEnd = combine(day, workdayEnd.hour, workdayEnd.minute, offset)
    const ranges: Array<{ start: PyDateTime; end: PyDateTime }> = []
    for (const busy of busyByDay.get(day) ?? []) {
      const start = maxDateTime(busy.start, dayStart)
      const end = minDateTime(busy.end, dayEnd)
      if (compareDateTimes(start, end) < 0) ranges.push({ start, end })
    }
    ranges.sort((a, b) => compareDateTimes(a.start, b.start))
    const merged: Array<{ start: PyDateTime; end: PyDateTime }> = []
    for (const range of ranges) {
      const last = merged.at(-1)
      if (last !== undefined && compareDateTimes(range.start, last.end) <= 0) merged[merged.length - 1] = { start: last.start, end: maxDateTime(last.end, range.end) }
      else merged.push(range)
    }
    let current = dayStart
    for (const busy of merged) {
      if (compareDateTimes(current, busy.start) < 0 && minutesBetween(current, busy.start) >= args.slot_minimum_minutes) {
        slots.push({ start: isoformat(current), end: isoformat(busy.start) })
      }
      current = maxDateTime(current, busy.end)
    }
    if (compareDateTimes(current, dayEnd) < 0 && minutesBetween(current, dayEnd) >= args.slot_minimum_minutes) {
      slots.push({ start: isoformat(current), end: isoformat(dayEnd) })
    }
  }
  return { time_slots: slots }
}
