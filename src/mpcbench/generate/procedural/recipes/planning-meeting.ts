import { addDays, weekdayName } from '../../../../time/calendar.ts'
import { formatInZone } from '../../../../time/zone.ts'
import type { Person, SubScenario } from '../../../tasks/scenario.ts'
import type { CalendarEvent } from '../../../tasks/world-state.ts'
import { commonFreeSlots } from '../free-slots.ts'
import { BUSY_TITLES } from '../vocabulary.ts'
import type { WorldBuilder } from '../world-builder.ts'
import type { PendingExpansion, Recipe } from './pending-expansion.ts'
import { durationOf, ids, listNames, mainProject, participantsOf, projectChannel } from './support.ts'

function planningMeeting(b: WorldBuilder, sub: SubScenario): Omit<PendingExpansion, 'from' | 'to'> {
  const depth = b.scenario.depth
  let participants = participantsOf(b, sub, 3)
  if (participants.length < 2) participants = b.scenario.people.slice(0, Math.min(3, b.scenario.people.length))
  const organizer = participants[0] as Person
  const others = participants.slice(1)
  const duration = durationOf(sub.constraints_hint) ?? 45
  const days = b.workdays(b.nextMonday, addDays(b.nextMonday, 4))
  const emails = participants.map((p) => p.email)
  const project = mainProject(b)
  const topic = project?.name ?? 'the project'

  const span = b.workEnd - b.workStart
  const protectedDays = b.rng.sample(days, 2)
  for (const day of protectedDays) {
    const start = b.workStart + 30 * b.rng.int(0, Math.max(0, Math.floor((span - duration - 30) / 30)))
    for (const email of emails) b.reserve(email, b.interval(day, start, Math.min(b.workEnd, start + duration + 30)))
  }
  const blockedDay = depth >= 0.5 ? b.rng.pick(days.filter((d) => !protectedDays.includes(d))) : undefined

  const busyBlocks: CalendarEvent[] = []
  for (const person of participants) {
    for (const day of days) {
      const blocks = b.rng.int(1, 3)
      for (let i = 0; i < blocks; i++) {
        for (let attempt = 0; attempt < 6; attempt++) {
          const start = b.workStart + 30 * b.rng.int(0, Math.max(0, span / 30 - 2))
          const end = Math.min(b.workEnd, start + b.rng.pick([30, 60, 60, 90]))
          const guests = b.rng.chance(0.4)
            ? b.rng.sample(
                b.scenario.people.filter((p) => p !== person),
                1,
              )
            : []
          const event = b.calendar({
            timestamp: b.pastTime().iso,
            title: b.rng.pick(BUSY_TITLES),
            organizer: person.email,
            attendees: [person.email, ...guests.map((g) => g.email)],
            description: '',
            date: day,
            startMinutes: start,
            endMinutes: end,
          })
          if (event !== undefined) {
            busyBlocks.push(event)
            break
          }
        }
      }
    }
  }
  const doubleBooked = busyBlocks.find((e) => e.attendees[0] === others[0]?.email)
  let overlap: CalendarEvent | undefined
  if (doubleBooked !== undefined && others[0] !== undefined) {
    const day = doubleBooked.start.slice(0, 10)
    const startMinutes = Number(doubleBooked.start.slice(11, 13)) * 60 + Number(doubleBooked.start.slice(14, 16))
    overlap = b.calendar({
      timestamp: b.pastTime().iso,
      title: 'Escalation review (double-booked)',
      organizer: others[0].email,
      attendees: [others[0].email],
      description: `Conflicts with "${doubleBooked.title}"; ${b.firstName(others[0])} has not declined either yet.`,
      date: day,
      startMinutes,
      endMinutes: Math.min(b.workEnd, startMinutes + 30),
    })
  }

  const request = b.pastTime()
  const threadId = b.id('thread')
  const subject = `${topic} sync next week`
  const weekOf = b.nextMonday
  const firstNames = others.map((p) => b.firstName(p))
  const agenda = b.drive({
    timestamp: request.iso,
    name: `Agenda - ${topic} sync`,
    mime_type: 'application/vnd.google-apps.document',
    owner: organizer.email,
    content: [
      `Agenda: ${topic} sync (week of ${weekOf})`,
      `Owner: ${organizer.name}`,
      `Attendees: ${participants.map((p) => p.name).join(', ')}`,
      `Timebox: ${duration} minutes`,
      '',
      '1. Status of open work and blockers',
      '2. Milestone dates and what could move them',
      '3. Owners for follow-ups',
    ].join('\n'),
  })
  const body =
    depth < 0.5
      ? `Hi ${listNames(firstNames)},\n\nCould we find ${duration} minutes next week (week of ${weekOf}) for a ${topic} sync? Everyone on this thread needs to be there, and please keep it within working hours (${b.scenario.global_settings.workday_start}-${b.scenario.global_settings.workday_end}, ${b.tz}).\n\nThanks,\n${b.firstName(organizer)}`
      : `Hi ${listNames(firstNames)},\n\nLet's get the ${topic} sync on the calendar for next week. Timebox and agenda are in "${agenda.name}" on Drive. All of us need to attend.\n\n${b.firstName(organizer)}`
  b.gmail(
    threadId,
    organizer.email,
    others.map((p) => p.email),
    [],
    subject,
    body,
    request.iso,
  )

  const facts: Record<string, unknown> = {
    organizer: organizer.id,
    duration_minutes: duration,
    window: { start: days[0], end: days[days.length - 1] },
    agenda_file_id: agenda.file_id,
  }
  let constraint: string | undefined
  if (blockedDay !== undefined) {
    const who = b.rng.pick(others)
    constraint = `${who.name} is at a customer offsite all day ${weekdayName(blockedDay)} ${blockedDay}`
    b.slack(
      projectChannel(b, project),
      who,
      `Heads-up for the ${topic} sync: I'm at a customer offsite all day ${weekdayName(blockedDay)} (${blockedDay}), so please don't put it then. It won't show on my calendar.`,
      b.randomTime(request.date, b.today).iso,
    )
    facts.unavailable = { person: who.id, date: blockedDay, reason: 'customer offsite, not on the calendar' }
  }
  if (overlap !== undefined && doubleBooked !== undefined) {
    facts.double_booked = { person: others[0]?.id, calendar_event_ids: [doubleBooked.calendar_event_id, overlap.calendar_event_id] }
  }

  return {
    id: sub.id,
    type: sub.type,
    abstract_description: sub.abstract_description,
    timestamp: request.iso,
    participants: ids(participants),
    event_description: `${organizer.name} asks ${listNames(others.map((p) => p.name))} for a ${duration}-minute ${topic} sync in the week of ${weekOf}, within working hours.${constraint === undefined ? '' : ` Constraint only stated in Slack: ${constraint}.`}`,
    facts,
    finalize() {
      const calendarEvents = b.events.filter((e): e is CalendarEvent => e.source === 'calendar')
      const slots = commonFreeSlots(b, calendarEvents, emails, days, duration)
      const iso = (s: { start: number; end: number }): { start: string; end: string } => ({
        start: formatInZone(s.start, b.tz),
        end: formatInZone(s.end, b.tz),
      })
      facts.common_free_slots = slots.map(iso)
      if (blockedDay !== undefined) {
        facts.common_free_slots_respecting_constraints = slots.map(iso).filter((s) => s.start.slice(0, 10) !== blockedDay)
      }
    },
  }
}

/** A meeting to schedule: the participants' calendars, a common free slot, constraints stated only in Slack. */
export const planningMeetingRecipe: Recipe = {
  name: 'planning meeting',
  matches: (type) => /meeting|planning|sync|schedul/.test(type),
  expand: planningMeeting,
}
