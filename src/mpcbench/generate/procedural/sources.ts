import { InvalidFormatError } from '../../../core/errors.ts'
import type { CalendarSource, ContactsSource, DriveSource, GmailSource, JiraSource, SlackSource, WorkplaceSources } from '../../workplace/source-types.ts'
import type { SourceName } from '../../workplace/validate-source.ts'
import type { Person } from '../../tasks/scenario.ts'
import { type WorldEvent, WorldEventSchema, type WorldState } from '../../tasks/world-state.ts'
import { projectKeyOf } from './world-builder.ts'
import { compareNatural } from '../../../core/natural-order.ts'

/** Every event of a world state (core, noise and background), parsed as our event shape. */
export function worldEvents(world: WorldState): WorldEvent[] {
  const events: WorldEvent[] = []
  const take = (list: ReadonlyArray<unknown> | undefined, path: string): void => {
    list?.forEach((raw, index) => {
      const parsed = WorldEventSchema.safeParse(raw)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        const field = [path, index, ...(issue?.path ?? [])].map(String).join('.')
        throw new InvalidFormatError(`World state ${world.scenario_id}: ${field}: ${issue?.message ?? 'invalid event'}`, {
          field,
          hint: 'The procedural generator projects only events in its own shape (source, event_id, timestamp, ...); regenerate the world state with --generator procedural, or use --generator llm for the sources.',
        })
      }
      events.push(parsed.data)
    })
  }
  world.sub_scenarios_expanded.forEach((s, i) => take(s.events, `sub_scenarios_expanded.${i}.events`))
  world.noise_scenarios.forEach((s, i) => take(s.events, `noise_scenarios.${i}.events`))
  take(world.background_events, 'background_events')
  return sortBy(
    events,
    (e) => Date.parse(e.timestamp),
    (e) => e.event_id,
  )
}

/** Sorts by a numeric key computed once per item, then by a string tie-breaker. */
function sortBy<T>(items: readonly T[], key: (item: T) => number, tie: (item: T) => string): T[] {
  return items
    .map((item) => ({ item, key: key(item), tie: tie(item) }))
    .sort((a, b) => a.key - b.key || (a.tie < b.tie ? -1 : a.tie > b.tie ? 1 : 0))
    .map((entry) => entry.item)
}

function byEmail(world: WorldState): Map<string, Person> {
  return new Map(world.people.map((p) => [p.email, p]))
}

function companyOf(world: WorldState): string {
  if (world.company !== undefined) return world.company
  const domain = world.people[0]?.email.split('@')[1] ?? 'example.com'
  const name = domain.split('.')[0] ?? domain
  return name.charAt(0).toUpperCase() + name.slice(1)
}

function slack(world: WorldState, events: readonly WorldEvent[]): SlackSource {
  const messages = events.filter((e) => e.source === 'slack')
  const channelNames = [...new Set(['general', ...messages.map((m) => m.channel)])].sort()
  const channelIds = new Map(channelNames.map((name, i) => [name, `C${String(i + 1).padStart(3, '0')}`]))
  const rootTs = new Map(messages.map((m) => [m.event_id, m.timestamp]))
  return {
    workspace_name: `${companyOf(world)} workspace`,
    channels: channelNames.map((name) => ({ id: channelIds.get(name) as string, name })),
    users: world.people.map((p) => ({ id: p.id, name: p.name, email: p.email })),
    messages: messages.map((m, i) => {
      const message: SlackSource['messages'][number] = {
        id: `M${String(i + 1).padStart(6, '0')}`,
        channel_id: channelIds.get(m.channel) as string,
        user_id: m.user,
        text: m.text,
        timestamp: m.timestamp,
      }
      const root = m.thread_of === undefined ? undefined : rootTs.get(m.thread_of)
      if (root !== undefined) message.thread_ts = root
      return message
    }),
  }
}

function gmail(events: readonly WorldEvent[]): GmailSource {
  const threads = new Map<string, GmailSource['threads'][number]>()
  let n = 0
  for (const e of events) {
    if (e.source !== 'gmail') continue
    let thread = threads.get(e.thread_id)
    if (thread === undefined) {
      thread = { id: e.thread_id, subject: e.subject.replace(/^(Re|Fwd):\s*/i, ''), messages: [] }
      threads.set(e.thread_id, thread)
    }
    n++
    const message: GmailSource['threads'][number]['messages'][number] = {
      id: `msg_${String(n).padStart(6, '0')}`,
      from: e.from,
      to: e.to,
      subject: e.subject,
      body: e.body,
      date: e.timestamp,
    }
    if (e.cc.length > 0) message.cc = e.cc
    thread.messages.push(message)
  }
  return { threads: [...threads.values()] }
}

function calendar(world: WorldState, events: readonly WorldEvent[]): CalendarSource {
  const people = byEmail(world)
  const person = (email: string): { email: string; name?: string } => {
    const p = people.get(email)
    return p === undefined ? { email } : { email, name: p.name }
  }
  const calendarEvents = sortBy(
    events.filter((e) => e.source === 'calendar'),
    (e) => Date.parse(e.start),
    (e) => e.calendar_event_id,
  )
  return {
    calendars: world.people.map((p) => ({ id: p.email, email: p.email })),
    events: calendarEvents.map((e) => {
      const event: CalendarSource['events'][number] = {
        id: e.calendar_event_id,
        title: e.title,
        start: e.start,
        end: e.end,
        attendees: e.attendees.map(person),
        organizer: person(e.organizer),
      }
      if (e.description !== '') event.description = e.description
      if (e.location !== undefined) event.location = e.location
      return event
    }),
  }
}

function contacts(world: WorldState, events: readonly WorldEvent[]): ContactsSource {
  const company = companyOf(world)
  return {
    contacts: [
      ...world.people.map((p, i) => ({
        id: p.id,
        name: p.name,
        email: p.email,
        phone: `+1-555-01${String(i).padStart(2, '0')}`,
        organization: company,
      })),
      ...events.flatMap((e) =>
        e.source === 'contacts'
          ? [{ id: e.contact_id, name: e.name, email: e.email, organization: e.organization, ...(e.phone === undefined ? {} : { phone: e.phone }) }]
          : [],
      ),
    ],
  }
}

function jira(world: WorldState, events: readonly WorldEvent[]): JiraSource {
  const projects = new Map<string, JiraSource['projects'][number]>()
  for (const project of world.projects) {
    const key = projectKeyOf(project)
    projects.set(key, {
      key,
      name: project.name,
      fixVersions: (project.milestones ?? []).map((m) => ({ name: m.name, releaseDate: m.date })),
    })
  }
  const latest = new Map<string, Extract<WorldEvent, { source: 'jira' }>>()
  for (const e of events) if (e.source === 'jira') latest.set(e.issue_key, e)
  const issues = [...latest.values()].map((e) => {
    if (!projects.has(e.project_key))
      projects.set(e.project_key, { key: e.project_key, name: e.project_key === 'OPS' ? 'Operations' : e.project_key, fixVersions: [] })
    const issue: JiraSource['issues'][number] = {
      key: e.issue_key,
      summary: e.summary,
      status: e.status,
      created: e.created,
      updated: e.timestamp,
      project: { key: e.project_key },
      description: e.due_date === undefined ? e.description : `${e.description}\nDue date: ${e.due_date}`,
      reporter: e.reporter,
      priority: e.priority,
      issuetype: e.issue_type,
      labels: e.labels,
    }
    if (e.assignee !== null) issue.assignee = e.assignee
    const fixVersion = fixVersionOf(e, projects.get(e.project_key)?.fixVersions ?? [])
    if (fixVersion !== undefined) issue.fixVersions = [fixVersion]
    return issue
  })
  issues.sort((a, b) => compareNatural(a.key, b.key))
  return { projects: [...projects.values()], issues }
}

/** The due date's milestone, else a `Target <date>` version; without a due date, the named milestone. */
function fixVersionOf(
  e: Extract<WorldEvent, { source: 'jira' }>,
  versions: ReadonlyArray<{ name: string; releaseDate?: string }>,
): { name: string; releaseDate?: string } | undefined {
  if (e.due_date !== undefined) return versions.find((v) => v.releaseDate === e.due_date) ?? { name: `Target ${e.due_date}`, releaseDate: e.due_date }
  if (e.fix_version === undefined) return undefined
  return versions.find((v) => v.name === e.fix_version) ?? { name: e.fix_version }
}

function drive(events: readonly WorldEvent[]): DriveSource {
  const latest = new Map<string, Extract<WorldEvent, { source: 'drive' }>>()
  for (const e of events) if (e.source === 'drive') latest.set(e.file_id, e)
  return {
    files: [...latest.values()].map((e) => ({ id: e.file_id, name: e.name, mimeType: e.mime_type, content: e.content, modifiedTime: e.timestamp })),
  }
}

/** Projects a world state's events onto one source, in the shape of `schemas/{source}_schema.json`. */
export function projectSource<S extends SourceName>(name: S, world: WorldState, events: readonly WorldEvent[] = worldEvents(world)): WorkplaceSources[S] {
  const make: { [K in SourceName]: () => WorkplaceSources[K] } = {
    slack: () => slack(world, events),
    gmail: () => gmail(events),
    calendar: () => calendar(world, events),
    contacts: () => contacts(world, events),
    jira: () => jira(world, events),
    drive: () => drive(events),
  }
  return make[name]() as WorkplaceSources[S]
}
