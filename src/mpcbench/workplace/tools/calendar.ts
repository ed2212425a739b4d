import { z } from 'zod'
import { defineTool } from '../../../tools/define-tool.ts'
import { readBound } from '../date-bounds.ts'
import { findFreeSlots } from '../free-slots.ts'
import type { FreeSlotsResult, ListEventsResult } from '../tool-results.ts'
import { WorkplaceToolError } from '../tool-error.ts'
import type { Workplace } from '../workplace.ts'

/** `GoogleCalendar.ListEvents {min_date, max_date}`: events overlapping the range, by start. */
export function listEventsTool(workplace: Workplace) {
  const tz = workplace.settings.timezone
  return defineTool({
    name: 'GoogleCalendar.ListEvents',
    description: `List calendar events (everyone's) that overlap a date range, earliest first, with attendees. Dates are YYYY-MM-DD (whole days, inclusive) or ISO date-times; dates without offset are in ${tz}.`,
    parameters: z.object({
      min_date: z.string().optional().describe('First day (YYYY-MM-DD) or earliest time; omit for no lower bound'),
      max_date: z.string().optional().describe('Last day (YYYY-MM-DD, inclusive) or latest time; omit for no upper bound'),
      max_results: z.number().int().positive().optional().describe('Maximum events to return (default: all)'),
    }),
    handler: ({ min_date, max_date, max_results }): ListEventsResult => {
      const read = (text: string | undefined, side: 'from' | 'to', arg: string) => {
        if (text === undefined || text.trim() === '') return side === 'from' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
        const at = readBound(text, side, tz)
        if (at === undefined) {
          throw new WorkplaceToolError('GoogleCalendar.ListEvents', `${arg} ${JSON.stringify(text)} is not a date`, {
            hint: 'Write dates as YYYY-MM-DD or ISO date-times such as 2025-11-17T09:00:00+09:00.',
          })
        }
        return at
      }
      const from = read(min_date, 'from', 'min_date')
      const to = read(max_date, 'to', 'max_date')
      const events = workplace.eventsBetween(from, to)
      return {
        events: events.slice(0, max_results ?? events.length).map(({ event }) => ({
          id: event.id,
          title: event.title,
          start: event.start,
          end: event.end,
          attendees: event.attendees.map((a) => ({ ...a })),
          ...(event.organizer === undefined ? {} : { organizer: { ...event.organizer } }),
          ...(event.description === undefined ? {} : { description: event.description }),
          ...(event.location === undefined ? {} : { location: event.location }),
        })),
        timezone: tz,
      }
    },
  })
}

/** `GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree`: see {@link findFreeSlots}. */
export function findFreeSlotsTool(workplace: Workplace) {
  const { timezone, workdayStart, workdayEnd } = workplace.settings
  return defineTool({
    name: 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
    description: `Find time slots when all given people are free, within workday hours on weekdays (Saturday and Sunday skipped), in ${timezone}. Returns maximal free intervals at least slot_minimum_minutes long.`,
    parameters: z.object({
      email_addresses: z.array(z.string()).describe('Email address of every participant'),
      date_range_start: z.string().describe('First day to search, YYYY-MM-DD'),
      date_range_end: z.string().describe('Last day to search (inclusive), YYYY-MM-DD'),
      workday_start_time: z.string().describe(`Start of the workday, HH:MM (this company: ${workdayStart})`),
      workday_end_time: z.string().describe(`End of the workday, HH:MM (this company: ${workdayEnd})`),
      slot_minimum_minutes: z.number().int().positive().describe('Shortest useful slot, in minutes (e.g. the meeting length)'),
    }),
    handler: (args): FreeSlotsResult => findFreeSlots(workplace, args),
  })
}
