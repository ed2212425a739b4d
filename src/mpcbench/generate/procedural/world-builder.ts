import { addDays, isWeekend, mondayOf, parseClock } from '../../../time/calendar.ts'
import { formatInZone, wallClockInstant } from '../../../time/zone.ts'
import { DEFAULT_REFERENCE_DATE, type Person, type Project, type Scenario } from '../../tasks/scenario.ts'
import type { CalendarEvent, ContactEvent, DriveEvent, GmailEvent, JiraEvent, SlackEvent, WorldEvent } from '../../tasks/world-state.ts'
import { Prng } from '../prng.ts'
import { FIRST_NAMES as FIRST, LAST_NAMES as LAST } from './vocabulary.ts'

/** A busy interval in UTC milliseconds. */
export interface Interval {
  start: number
  end: number
}

/** The Jira key of a scenario project: its `project_key`, or one derived from its name. */
export function projectKeyOf(project: Project): string {
  if (project.project_key !== undefined) return project.project_key
  const initials = project.name
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('')
  return initials.length >= 2 ? initials : `${initials}P`
}

/** A channel-safe slug. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

/**
 * Shared state of one procedural world: the scenario's clock and people, id counters, the events made so far,
 * and the calendar windows no generated event may cover (they keep planning answers stable).
 */
export class WorldBuilder {
  readonly scenario: Scenario
  readonly rng: Prng
  readonly tz: string
  readonly workStart: number
  readonly workEnd: number
  /** The world's "today". */
  readonly today: string
  readonly thisMonday: string
  readonly nextMonday: string
  /** First day of past communications (the Monday before this week's). */
  readonly pastFrom: string
  /** Calendar noise spans last week to the week after next. */
  readonly calendarTo: string
  readonly company: string
  readonly domain: string
  readonly events: WorldEvent[] = []
  readonly #counters = new Map<string, number>()
  readonly #reserved = new Map<string, Interval[]>()
  readonly #issueNumbers = new Map<string, number>()
  readonly #contactEmails = new Set<string>()
  readonly #workdays = new Map<string, string[]>()

  constructor(scenario: Scenario, seed: number) {
    this.scenario = scenario
    this.rng = new Prng(seed, scenario.scenario_id)
    this.tz = scenario.global_settings.timezone
    this.workStart = clock(scenario.global_settings.workday_start, 'global_settings.workday_start')
    this.workEnd = clock(scenario.global_settings.workday_end, 'global_settings.workday_end')
    this.today = scenario.global_settings.reference_date ?? DEFAULT_REFERENCE_DATE
    this.thisMonday = mondayOf(this.today)
    this.nextMonday = addDays(this.thisMonday, 7)
    this.pastFrom = addDays(this.thisMonday, -7)
    this.calendarTo = addDays(this.nextMonday, 11)
    this.domain = majorityDomain(scenario.people)
    this.company = scenario.company ?? titleFromDomain(this.domain)
    for (const project of scenario.projects) {
      const key = projectKeyOf(project)
      const seeded = (project.jira_seeds ?? []).map((s) => Number(s.issue_key.split('-')[1]))
      this.#issueNumbers.set(key, Math.max(100, ...seeded))
    }
    for (const person of scenario.people) this.#contactEmails.add(person.email.toLowerCase())
  }

  /** `prefix_0001`, counting per prefix. */
  id(prefix: string): string {
    const n = (this.#counters.get(prefix) ?? 0) + 1
    this.#counters.set(prefix, n)
    return `${prefix}_${String(n).padStart(4, '0')}`
  }

  /** The next free issue key of a project. */
  issueKey(projectKey: string): string {
    const n = (this.#issueNumbers.get(projectKey) ?? 100) + 1
    this.#issueNumbers.set(projectKey, n)
    return `${projectKey}-${n}`
  }

  /** Workdays (Mon-Fri) from `from` to `to`, inclusive. */
  workdays(from: string, to: string): string[] {
    const key = `${from}/${to}`
    const cached = this.#workdays.get(key)
    if (cached !== undefined) return cached
    const days: string[] = []
    for (let d = from; d <= to; d = addDays(d, 1)) if (!isWeekend(d)) days.push(d)
    if (days.length === 0) days.push(from)
    this.#workdays.set(key, days)
    return days
  }

  /** ISO time of a wall-clock minute on a date, in the scenario's zone. */
  at(date: string, minutes: number): string {
    return formatInZone(wallClockInstant(date, minutes, this.tz), this.tz)
  }

  /** A random working-hours timestamp on a random workday between `from` and `to`. */
  randomTime(from: string, to: string): { date: string; minutes: number; iso: string } {
    const date = this.rng.pick(this.workdays(from, to))
    const minutes = this.workStart + 5 * this.rng.int(0, Math.max(0, (this.workEnd - this.workStart) / 5 - 1))
    return { date, minutes, iso: this.at(date, minutes) }
  }

  /** A random past communication time: the two weeks up to today. */
  pastTime(): { date: string; minutes: number; iso: string } {
    return this.randomTime(this.pastFrom, this.today)
  }

  person(id: string): Person {
    const person = this.scenario.people.find((p) => p.id === id)
    if (person === undefined) throw new RangeError(`Unknown person id ${id}`)
    return person
  }

  /** Resolves participant hints (ids, full names or first names) to people; unknown hints are skipped. */
  resolvePeople(hints: readonly string[] | undefined): Person[] {
    const found: Person[] = []
    for (const hint of hints ?? []) {
      const h = hint.trim().toLowerCase()
      const person =
        this.scenario.people.find((p) => p.id.toLowerCase() === h || p.name.toLowerCase() === h) ??
        this.scenario.people.find((p) => p.name.toLowerCase().split(/\s+/)[0] === h)
      if (person !== undefined && !found.includes(person)) found.push(person)
    }
    return found
  }

  firstName(person: Person): string {
    return person.name.split(/\s+/)[0] ?? person.name
  }

  /** Keeps `email` free of generated calendar events between `start` and `end` (UTC ms). */
  reserve(email: string, interval: Interval): void {
    const list = this.#reserved.get(email) ?? []
    list.push(interval)
    this.#reserved.set(email, list)
  }

  /** Whether an event of the given attendees and interval would cover a reserved window. */
  collides(attendees: readonly string[], interval: Interval): boolean {
    return attendees.some((email) => (this.#reserved.get(email) ?? []).some((r) => r.start < interval.end && interval.start < r.end))
  }

  /** UTC interval of a wall-clock range on a date. */
  interval(date: string, startMinutes: number, endMinutes: number): Interval {
    return { start: wallClockInstant(date, startMinutes, this.tz), end: wallClockInstant(date, endMinutes, this.tz) }
  }

  /** A new external contact with a unique email. */
  newContact(organization: { name: string; domain: string }, timestamp: string): ContactEvent {
    const first = this.rng.pick(FIRST)
    const last = this.rng.pick(LAST)
    let email = `${first}.${last}@${organization.domain}`.toLowerCase()
    for (let n = 2; this.#contactEmails.has(email); n++) email = `${first}.${last}${n}@${organization.domain}`.toLowerCase()
    this.#contactEmails.add(email)
    return this.add({
      event_id: this.id('ev'),
      source: 'contacts',
      timestamp,
      contact_id: this.id('contact'),
      name: `${first} ${last}`,
      email,
      organization: organization.name,
    })
  }

  add<E extends WorldEvent>(event: E): E {
    this.events.push(event)
    return event
  }

  slack(channel: string, user: Person, text: string, timestamp: string, threadOf?: SlackEvent): SlackEvent {
    const event: SlackEvent = { event_id: this.id('ev'), source: 'slack', timestamp, channel, user: user.id, text }
    if (threadOf !== undefined) event.thread_of = threadOf.event_id
    return this.add(event)
  }

  gmail(threadId: string, from: string, to: readonly string[], cc: readonly string[], subject: string, body: string, timestamp: string): GmailEvent {
    return this.add({ event_id: this.id('ev'), source: 'gmail', timestamp, thread_id: threadId, from, to: [...to], cc: [...cc], subject, body })
  }

  /**
   * Adds a calendar event unless it covers a reserved window of one of its attendees; returns it, or
   * `undefined` when it was refused.
   */
  calendar(
    fields: Omit<CalendarEvent, 'event_id' | 'source' | 'calendar_event_id' | 'start' | 'end'> & {
      date: string
      startMinutes: number
      endMinutes: number
    },
  ): CalendarEvent | undefined {
    const { date, startMinutes, endMinutes, ...rest } = fields
    if (this.collides([rest.organizer, ...rest.attendees], this.interval(date, startMinutes, endMinutes))) return undefined
    return this.add({
      event_id: this.id('ev'),
      source: 'calendar',
      calendar_event_id: this.id('evt'),
      start: this.at(date, startMinutes),
      end: this.at(date, endMinutes),
      ...rest,
    })
  }

  /** Adds an issue state; `created` never comes after the update `timestamp` (they are swapped if so). */
  jira(fields: Omit<JiraEvent, 'event_id' | 'source'>): JiraEvent {
    const ordered = Date.parse(fields.created) > Date.parse(fields.timestamp) ? { ...fields, created: fields.timestamp, timestamp: fields.created } : fields
    return this.add({ event_id: this.id('ev'), source: 'jira', ...ordered })
  }

  drive(fields: Omit<DriveEvent, 'event_id' | 'source' | 'file_id'>): DriveEvent {
    return this.add({ event_id: this.id('ev'), source: 'drive', file_id: this.id('file'), ...fields })
  }

  /** Events of the given source added since index `from`. */
  since(from: number): WorldEvent[] {
    return this.events.slice(from)
  }
}

/** The most common email domain; a tie goes to the domain first in code-unit order (never the process locale's, so the world does not depend on `LANG`). */
export function majorityDomain(people: readonly Person[]): string {
  const counts = new Map<string, number>()
  for (const p of people) {
    const domain = p.email.split('@')[1] ?? 'example.com'
    counts.set(domain, (counts.get(domain) ?? 0) + 1)
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]?.[0] ?? 'example.com'
}

function titleFromDomain(domain: string): string {
  const name = domain.split('.')[0] ?? domain
  return name.charAt(0).toUpperCase() + name.slice(1)
}

function clock(text: string, field: string): number {
  const minutes = parseClock(text)
  if (minutes === undefined) throw new RangeError(`Expected ${field} as HH:MM, got ${JSON.stringify(text)}`)
  return minutes
}
