import { addDays } from '../../../time/calendar.ts'
import type { Person } from '../../tasks/scenario.ts'
import { BUG_AREAS, BUSY_TITLES, CHATTER, LUNCH_PLACES, OFFSITE_TOPICS, PARTNER_COMPANIES, POLICY_TOPICS, SYSTEMS } from './vocabulary.ts'
import { type WorldBuilder, projectKeyOf, slug } from './world-builder.ts'

/** A noise scenario before its events are attached. */
export interface PendingNoise {
  id: string
  type: string
  timestamp: string
  participants: { id: string; email: string }[]
  event_description: string
  from: number
  to: number
}

/** Number of noise scenarios for a noise level and scale: none at 0, 20 per unit of scale at 1. */
export function noiseCount(noiseLevel: number, scale: number): number {
  return Math.round(noiseLevel * 20 * scale)
}

type NoiseMaker = (b: WorldBuilder, people: Person[]) => { type: string; timestamp: string; description: string }

function teamChannel(_b: WorldBuilder, person: Person): string {
  return `team-${slug(person.team)}`
}

function futureSlot(b: WorldBuilder): { date: string; start: number } {
  const t = b.randomTime(b.pastFrom, b.calendarTo)
  return { date: t.date, start: b.workStart + 30 * b.rng.int(0, Math.max(0, (b.workEnd - b.workStart) / 30 - 2)) }
}

function tryCalendar(b: WorldBuilder, fields: Parameters<WorldBuilder['calendar']>[0]): void {
  for (let attempt = 0; attempt < 4; attempt++) {
    if (b.calendar(fields) !== undefined) return
    const slot = futureSlot(b)
    const length = fields.endMinutes - fields.startMinutes
    fields = { ...fields, date: slot.date, startMinutes: slot.start, endMinutes: Math.min(b.workEnd, slot.start + length) }
  }
}

const makers: NoiseMaker[] = [
  function teamLunch(b, people) {
    const host = people[0] as Person
    const t = b.pastTime()
    const place = b.rng.pick(LUNCH_PLACES)
    const slot = futureSlot(b)
    b.slack(teamChannel(b, host), host, `Lunch at ${place} on ${slot.date}? Reply here if you're in.`, t.iso)
    tryCalendar(b, {
      timestamp: t.iso,
      title: `Team lunch - ${place}`,
      organizer: host.email,
      attendees: people.map((p) => p.email),
      description: 'Optional.',
      date: slot.date,
      startMinutes: 12 * 60,
      endMinutes: 13 * 60,
    })
    return { type: 'team_lunch', timestamp: t.iso, description: `${host.name} organises a team lunch at ${place}.` }
  },
  function maintenance(b) {
    const t = b.pastTime()
    const system = b.rng.pick(SYSTEMS)
    const window = addDays(t.date, b.rng.int(1, 6))
    b.gmail(
      b.id('thread'),
      `it-helpdesk@${b.domain}`,
      b.scenario.people.map((p) => p.email),
      [],
      `Planned maintenance: ${system} on ${window}`,
      `The ${system} will be unavailable on ${window} from 19:00 to 21:00. No action is needed.\n\nIT Helpdesk`,
      t.iso,
    )
    return { type: 'it_maintenance', timestamp: t.iso, description: `IT announces maintenance of the ${system} on ${window}.` }
  },
  function policy(b, people) {
    const author = people[0] as Person
    const t = b.pastTime()
    const topic = b.rng.pick(POLICY_TOPICS)
    const file = b.drive({
      timestamp: t.iso,
      name: `Policy update - ${topic} (${t.date})`,
      mime_type: 'application/vnd.google-apps.document',
      owner: `people-ops@${b.domain}`,
      content: `Summary of changes to the ${topic} policy, effective ${addDays(t.date, 14)}.\n- Requests go through the HR portal.\n- Managers approve within five working days.`,
    })
    b.gmail(
      b.id('thread'),
      `people-ops@${b.domain}`,
      b.scenario.people.map((p) => p.email),
      [],
      `Updated ${topic} policy`,
      `Hi all,\n\nThe ${topic} policy changes on ${addDays(t.date, 14)}. Details: "${file.name}" on Drive.\n\nPeople Ops`,
      t.iso,
    )
    b.slack('general', author, `FYI the ${topic} policy changed, see the People Ops email.`, b.at(t.date, Math.min(b.workEnd - 1, t.minutes + 20)))
    return { type: 'hr_announcement', timestamp: t.iso, description: `People Ops updates the ${topic} policy.` }
  },
  function vendorFollowup(b, people) {
    const owner = people[0] as Person
    const t = b.pastTime()
    const company = b.rng.pick(PARTNER_COMPANIES)
    const contact = b.newContact(company, t.iso)
    const thread = b.id('thread')
    b.gmail(
      thread,
      contact.email,
      [owner.email],
      [],
      `Renewal quote from ${company.name}`,
      `Hi ${b.firstName(owner)},\n\nAttached is the renewal quote we discussed. It is valid for 30 days.\n\nRegards,\n${contact.name}`,
      t.iso,
    )
    b.gmail(
      thread,
      owner.email,
      [contact.email],
      [],
      `Re: Renewal quote from ${company.name}`,
      `Thanks ${contact.name.split(' ')[0]}, I'll review it with finance and get back to you.\n\n${owner.name}`,
      b.at(t.date, Math.min(b.workEnd - 1, t.minutes + 45)),
    )
    return { type: 'vendor_followup', timestamp: t.iso, description: `${contact.name} of ${company.name} sends ${owner.name} a renewal quote.` }
  },
  function bugTriage(b, people) {
    const reporter = people[0] as Person
    const assignee = people[1] ?? reporter
    const t = b.pastTime()
    const project = b.scenario.projects.length > 0 ? b.rng.pick(b.scenario.projects) : undefined
    const key = b.issueKey(project === undefined ? 'OPS' : projectKeyOf(project))
    const bug = b.rng.pick(BUG_AREAS)
    b.jira({
      timestamp: t.iso,
      issue_key: key,
      project_key: key.split('-')[0] as string,
      summary: bug.charAt(0).toUpperCase() + bug.slice(1),
      description: `Reported by ${reporter.name}. Steps to reproduce attached in the ticket comments.`,
      status: b.rng.pick(['To Do', 'In Progress', 'In Review', 'Done', 'Blocked']),
      issue_type: 'Bug',
      priority: b.rng.pick(['Low', 'Medium', 'Medium', 'High']),
      assignee: b.rng.chance(0.8) ? assignee.email : null,
      reporter: reporter.email,
      created: t.iso,
      labels: ['triage'],
    })
    b.slack(teamChannel(b, reporter), reporter, `Filed ${key}: ${bug}. Not urgent.`, b.at(t.date, Math.min(b.workEnd - 1, t.minutes + 5)))
    return { type: 'bug_triage', timestamp: t.iso, description: `${reporter.name} files ${key} (${bug}).` }
  },
  function offsite(b, people) {
    const organizer = people[0] as Person
    const t = b.pastTime()
    const topic = b.rng.pick(OFFSITE_TOPICS)
    const when = addDays(b.nextMonday, 7 + b.rng.int(0, 4))
    b.drive({
      timestamp: t.iso,
      name: `${topic.charAt(0).toUpperCase() + topic.slice(1)} ideas (${when})`,
      mime_type: 'application/vnd.google-apps.document',
      owner: organizer.email,
      content: `Planning notes for the ${topic} on ${when}.\n- Venue shortlist: two options within walking distance\n- Budget: to be confirmed by finance`,
    })
    b.slack('random', organizer, `Collecting ideas for the ${topic} on ${when}, add yours to the doc.`, t.iso)
    return { type: 'offsite_planning', timestamp: t.iso, description: `${organizer.name} plans the ${topic} on ${when}.` }
  },
  function interviews(b, people) {
    const t = b.pastTime()
    const candidate = `${b.rng.pick(['Robin', 'Sasha', 'Jamie', 'Alexis', 'Morgan'])} ${b.rng.pick(['Hale', 'Quinn', 'Ortega', 'Fischer'])}`
    for (const interviewer of people.slice(0, 2)) {
      const slot = futureSlot(b)
      tryCalendar(b, {
        timestamp: t.iso,
        title: `Interview: ${candidate}`,
        organizer: `recruiting@${b.domain}`,
        attendees: [interviewer.email],
        description: 'Scorecard due within 24 hours.',
        date: slot.date,
        startMinutes: slot.start,
        endMinutes: Math.min(b.workEnd, slot.start + 60),
      })
    }
    b.gmail(
      b.id('thread'),
      `recruiting@${b.domain}`,
      people.slice(0, 2).map((p) => p.email),
      [],
      `Interview panel: ${candidate}`,
      `Thanks for joining the panel for ${candidate}. Invites are on your calendars.\n\nRecruiting`,
      t.iso,
    )
    return { type: 'interview_loop', timestamp: t.iso, description: `Recruiting schedules interviews with ${candidate}.` }
  },
  function chatter(b, people) {
    const t = b.pastTime()
    const count = b.rng.int(2, 4)
    for (let i = 0; i < count; i++) {
      const who = b.rng.pick(people)
      b.slack(b.rng.pick(['general', 'random']), who, b.rng.pick(CHATTER), b.at(t.date, Math.min(b.workEnd - 1, t.minutes + i * 7)))
    }
    return { type: 'slack_chatter', timestamp: t.iso, description: 'Office chatter in public channels.' }
  },
  function oneOnOne(b, people) {
    const a = people[0] as Person
    const c = people[1] ?? a
    const t = b.pastTime()
    const slot = futureSlot(b)
    tryCalendar(b, {
      timestamp: t.iso,
      title: `1:1 ${b.firstName(a)} / ${b.firstName(c)}`,
      organizer: a.email,
      attendees: [a.email, c.email],
      description: 'Recurring 1:1.',
      date: slot.date,
      startMinutes: slot.start,
      endMinutes: Math.min(b.workEnd, slot.start + 30),
    })
    b.drive({
      timestamp: t.iso,
      name: `1:1 notes ${b.firstName(a)} - ${b.firstName(c)} (${t.date})`,
      mime_type: 'application/vnd.google-apps.document',
      owner: a.email,
      content: `Career goals, feedback on the last sprint, and time off in ${b.rng.pick(['spring', 'summer', 'autumn', 'winter'])}.`,
    })
    return { type: 'one_on_one', timestamp: t.iso, description: `${a.name} and ${c.name} hold a 1:1.` }
  },
  function busyDay(b, people) {
    const who = people[0] as Person
    const t = b.pastTime()
    const slot = futureSlot(b)
    tryCalendar(b, {
      timestamp: t.iso,
      title: b.rng.pick(BUSY_TITLES),
      organizer: who.email,
      attendees: people.slice(0, 2).map((p) => p.email),
      description: '',
      date: slot.date,
      startMinutes: slot.start,
      endMinutes: Math.min(b.workEnd, slot.start + b.rng.pick([30, 60])),
    })
    return { type: 'calendar_block', timestamp: t.iso, description: `${who.name} books a meeting.` }
  },
]

/** Adds `count` noise scenarios of unrelated workplace activity. */
export function addNoise(b: WorldBuilder, count: number): PendingNoise[] {
  const result: PendingNoise[] = []
  for (let i = 0; i < count; i++) {
    const from = b.events.length
    const people = b.rng.sample(b.scenario.people, b.rng.int(2, Math.min(4, b.scenario.people.length)))
    if (people.length === 0) break
    const made = b.rng.pick(makers)(b, people)
    result.push({
      id: b.id('noise'),
      type: made.type,
      timestamp: made.timestamp,
      participants: people.map((p) => ({ id: p.id, email: p.email })),
      event_description: made.description,
      from,
      to: b.events.length,
    })
  }
  return result
}
