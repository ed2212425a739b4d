import { localParts } from '../../time/zone.ts'
import { workplaceTools } from '../run/run-task.ts'
import type { Check } from '../tasks/task.ts'
import type { FreeSlotsResult } from '../workplace/tool-results.ts'
import type { Workplace } from '../workplace/workplace.ts'

function isoDay(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10)
}

/**
 * Monday to Friday (`YYYY-MM-DD`) of the week after the one holding `now`, read in `timeZone`. Weekdays count from
 * 0 = Monday (`src/time`), so a Sunday `now` gives the next day, a Monday `now` the Monday a week later.
 */
export function nextWorkWeek(now: number, timeZone: string): { from: string; to: string } {
  const local = localParts(now, timeZone)
  const today = Date.UTC(local.year, local.month - 1, local.day)
  const monday = today + (7 - local.weekday) * 86_400_000
  return { from: isoDay(monday), to: isoDay(monday + 4 * 86_400_000) }
}

/** The participants a task's requirement lists (`... participants: Alex Smith, Jordan Johnson, Sam Williams.`). */
export function participantsOf(requirements: ReadonlyArray<string>): string[] {
  const line = requirements.find((r) => /participants:/i.test(r)) ?? ''
  return (line.split(/participants:/i)[1] ?? '')
    .replace(/\.\s*$/, '')
    .split(/,|\band\b/)
    .map((name) => name.trim())
    .filter((name) => name !== '')
}

/**
 * The rules judge's checks for an upstream v1 planning task, from its prose requirements (45 minutes, 09:00-18:00,
 * next week, all listed participants): every participant and `45` mentioned, and each proposed time free for all of
 * them in {@link nextWorkWeek} of the workplace's "now", as the `extended` free-slot tool computes it (weekdays,
 * DST-correct).
 */
export async function upstreamV1PlanningChecks(requirements: ReadonlyArray<string>, workplace: Workplace): Promise<Check[]> {
  const names = participantsOf(requirements)
  const attendees = names.map((name) => {
    const contact = workplace.sources.contacts.contacts.find((c) => c.name.toLowerCase() === name.toLowerCase())
    if (contact === undefined) throw new Error(`No contact named ${name}`)
    return contact.email
  })
  const window = { ...nextWorkWeek(workplace.now, workplace.settings.timezone), workday_start: '09:00', workday_end: '18:00', duration_minutes: 45 }
  const findSlots = workplaceTools(workplace, 'extended').find((tool) => tool.name === 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree')
  if (findSlots === undefined) throw new Error('The extended tools have no GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree')
  const slots = (await findSlots.handler(
    findSlots.parameters.parse({
      email_addresses: attendees,
      date_range_start: window.from,
      date_range_end: window.to,
      workday_start_time: window.workday_start,
      workday_end_time: window.workday_end,
      slot_minimum_minutes: window.duration_minutes,
    }),
    {},
  )) as FreeSlotsResult
  return [{ must_mention: [...names, '45'] }, { time_slot_free: { attendees, ...window, timezone: slots.timezone, free: slots.time_slots } }]
}
