import type { CalendarSource } from '../source-types.ts'
import {
  combine,
  compareDateTimes,
  dateOf,
  daysFromCivil,
  fromIsoFormat,
  isoformat,
  isPyDay,
  isValidDate,
  localNow,
  maxDateTime,
  minDateTime,
  minutesBetween,
  type PyDateTime,
  PythonError,
  pyDecimal,
  pyEquals,
  pyGet,
  pyInt,
  pyIterate,
  pyLen,
  pyOrder,
  pyTruthy,
  pyTypeName,
} from './python.ts'

/**
 * The arguments of upstream's FindTimeSlots after `prepareArguments` (see `tools.ts`), as the model sent them: upstream
 * applies Python operations to whatever JSON value arrives, and so does {@link upstreamFreeSlots}.
 */
export interface UpstreamFreeSlotsArgs {
  /** Iterated: a list's items, a string's characters, a dict's keys; falsy gives no slots. */
  email_addresses: unknown
  /** `start_date`, else the legacy `date_range_start`; falsy for none. */
  start_date: unknown
  end_date: unknown
  /** Falsy means "from the world state's `global_settings`". */
  workday_start_time: unknown
  workday_end_time: unknown
  /** Compared with each gap's length in minutes (`>=`): a number or a bool, else `TypeError` at the first gap. */
  slot_minimum_minutes: unknown
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

/**
 * `map(int, value.split(":"))` into hour and minute (`int()` takes `' 9'`, `'+9'` and `'０９'`). The range is
 * checked later, by {@link workdayTime}, where upstream's `.replace(hour=, minute=)` checks it.
 */
function parseWorkdayTime(value: unknown, argument: string): { hour: number; minute: number } {
  if (typeof value !== 'string') throw new PythonError('AttributeError', `'${pyTypeName(value)}' object has no attribute 'split' (${argument})`)
  const parts = value.split(':')
  const numbers = parts.map(pyInt)
  if (parts.length !== 2 || numbers.some((n) => n === undefined)) {
    throw new PythonError('ValueError', `${argument} ${JSON.stringify(value)} is not HH:MM`)
  }
  const [hour, minute] = numbers as [number, number]
  return { hour, minute }
}

/** `datetime.combine(day, time.min).replace(hour=, minute=, tzinfo=)`: `ValueError` for an hour or minute out of range. */
function workdayTime(day: number, clock: { hour: number; minute: number }, offset: number | null, argument: string): PyDateTime {
  if (clock.hour < 0 || clock.hour > 23) throw new PythonError('ValueError', `hour must be in 0..23 (${argument} hour ${clock.hour})`)
  if (clock.minute < 0 || clock.minute > 59) throw new PythonError('ValueError', `minute must be in 0..59 (${argument} minute ${clock.minute})`)
  return combine(day, clock.hour, clock.minute, offset)
}

// `%Y-%m-%d` as Python's `_strptime` matches it: `\d` is any Unicode decimal digit, the literal digits are ASCII.
const STRPTIME_DATE = /^(\p{Nd}{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]\p{Nd}|0[1-9]|[1-9]| [1-9])$/u

/**
 * Upstream's date check (`len(value) != 10 or value.count('-') != 2`) and `datetime.strptime(value, "%Y-%m-%d")`,
 * inside its `except (ValueError, AttributeError)`: `undefined` where upstream returns no slots. A number or `true`
 * has no `len()` and a list of ten items with two `"-"` is no string for `strptime`: both raise `TypeError`.
 */
function parseRangeDay(value: unknown): number | undefined {
  if (pyLen(value) !== 10) return undefined
  if (Array.isArray(value)) {
    if (value.filter((item) => pyEquals(item, '-')).length !== 2) return undefined
    throw new PythonError('TypeError', 'strptime() argument 1 must be str, not list')
  }
  // A dict has no `count`: AttributeError, caught.
  if (typeof value !== 'string' || value.split('-').length !== 3) return undefined
  const match = STRPTIME_DATE.exec(value)
  if (match === null) return undefined
  const [year, month, day] = [pyDecimal(match[1] as string), Number(match[2]), pyDecimal((match[3] as string).trimStart())]
  if (!isValidDate(year, month, day)) return undefined
  return daysFromCivil(year, month, day)
}

/**
 * Upstream's `call_calendar_find_time_slots`: per day from start to end (weekends included), the gaps of at least
 * `slot_minimum_minutes` between the participants' events (attendee lists only, exact email match) inside the workday,
 * every day in the UTC offset of the calendar's first event. Busy times are the events starting or ending on that day
 * (in their own offset); `free_busy` is not read. With no range, the days of the first and last event start.
 */
export function upstreamFreeSlots(
  calendar: CalendarSource,
  args: UpstreamFreeSlotsArgs,
  workday: { start: string; end: string },
): { time_slots: UpstreamTimeSlot[] } {
  if (!pyTruthy(args.email_addresses)) return { time_slots: [] }
  const workdayStart = parseWorkdayTime(pyTruthy(args.workday_start_time) ? args.workday_start_time : workday.start, 'workday_start_time')
  const workdayEnd = parseWorkdayTime(pyTruthy(args.workday_end_time) ? args.workday_end_time : workday.end, 'workday_end_time')
  const events = pyGet(calendar, 'events', []) as unknown[]

  // `{email: [] for email in email_addresses}`: a number is not iterable, a list or dict item is no dict key.
  const emails = pyIterate(args.email_addresses)
  for (const email of emails) {
    if (email !== null && typeof email === 'object') throw new PythonError('TypeError', `unhashable type: '${pyTypeName(email)}'`)
  }
  const busyByEmail = new Map<unknown, Array<{ start: PyDateTime; end: PyDateTime }>>(emails.map((email) => [email, []]))
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
  if (pyTruthy(args.start_date)) {
    rangeStart = parseRangeDay(args.start_date)
    if (rangeStart === undefined) return { time_slots: [] }
  }
  if (pyTruthy(args.end_date)) {
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

  const longEnough = (minutes: number) => pyOrder(minutes, args.slot_minimum_minutes, '>=') >= 0
  const slots: UpstreamTimeSlot[] = []
  for (let day = rangeStart; day <= rangeEnd; day++) {
    const dayStart = workdayTime(day, workdayStart, offset, 'workday_start_time')
    const dayEnd = workdayTime(day, workdayEnd, offset, 'workday_end_time')
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
      if (last !== undefined && compareDateTimes(range.start, last.end) <= 0)
        merged[merged.length - 1] = { start: last.start, end: maxDateTime(last.end, range.end) }
      else merged.push(range)
    }
    let current = dayStart
    for (const busy of merged) {
      if (compareDateTimes(current, busy.start) < 0 && longEnough(minutesBetween(current, busy.start))) {
        slots.push({ start: isoformat(current), end: isoformat(busy.start) })
      }
      current = maxDateTime(current, busy.end)
    }
    if (compareDateTimes(current, dayEnd) < 0 && longEnough(minutesBetween(current, dayEnd))) {
      slots.push({ start: isoformat(current), end: isoformat(dayEnd) })
    }
    // `current_date += timedelta(days=1)` past 9999-12-31.
    if (!isPyDay(day + 1)) throw new PythonError('OverflowError', 'date value out of range')
  }
  return { time_slots: slots }
}
