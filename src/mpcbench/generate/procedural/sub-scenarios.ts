import { addDays, weekdayName } from '../../../time/calendar.ts'
import { formatInZone } from '../../../time/zone.ts'
import type { JiraSeed, Person, Project, SubScenario } from '../../scenario.ts'
import type { CalendarEvent, JiraEvent } from '../../world-state.ts'
import { Prng } from '../prng.ts'
import { commonFreeSlots } from './free-slots.ts'
import { type DecisionFraming, decisionFraming, followUpAction, optionMeasure, optionPairs, wordCount } from './decision-framing.ts'
import { BUSY_TITLES, PARTNER_COMPANIES } from './vocabulary.ts'
import { type WorldBuilder, projectKeyOf, slug } from './world-builder.ts'

/** An expanded sub-scenario before its events are attached; `finalize` adds facts that depend on the whole world. */
export interface PendingExpansion {
  id: string
  type: string
  abstract_description: string
  timestamp: string
  start_time?: string
  end_time?: string
  participants: { id: string; email: string }[]
  event_description: string
  facts: Record<string, unknown>
  /** Index range of `builder.events` this expansion created. */
  from: number
  to: number
  finalize?: () => void
}

/** Expands one abstract sub-scenario into concrete events; the handler is chosen by `type` and hints. */
export function expandSubScenario(b: WorldBuilder, sub: SubScenario): PendingExpansion {
  const type = sub.type.toLowerCase()
  const from = b.events.length
  let pending: Omit<PendingExpansion, 'from' | 'to'>
  if (/meeting|planning|sync|schedul/.test(type)) pending = planningMeeting(b, sub)
  else if (/eta|rollout|release|issue|status|email_reply|customer/.test(type) || typeof sub.issue_key_hint === 'string') {
    pending = issueEta(b, sub)
  } else if (/report|summary|weekly|document/.test(type) || typeof sub.metrics_hint === 'object') pending = weeklyReport(b, sub)
  else pending = decision(b, sub)
  return { ...pending, from, to: b.events.length }
}

function participantsOf(b: WorldBuilder, sub: SubScenario, fallback: number): Person[] {
  const hinted = b.resolvePeople(sub.participants_hint)
  return hinted.length > 0 ? hinted : b.scenario.people.slice(0, Math.min(fallback, b.scenario.people.length))
}

function ids(people: readonly Person[]): { id: string; email: string }[] {
  return people.map((p) => ({ id: p.id, email: p.email }))
}

function mainProject(b: WorldBuilder): Project | undefined {
  return b.scenario.projects[0]
}

function projectChannel(b: WorldBuilder, project: Project | undefined): string {
  return project === undefined ? 'general' : `proj-${slug(project.name)}`
}

function durationOf(hint: SubScenario['constraints_hint']): number | undefined {
  if (hint === undefined) return undefined
  if (typeof hint === 'string') {
    const match = /(\d+)\s*-?\s*min/i.exec(hint)
    return match === null ? undefined : Number(match[1])
  }
  for (const key of ['approx_duration_minutes', 'duration_minutes', 'duration']) {
    const value = hint[key]
    if (typeof value === 'number') return value
  }
  return undefined
}

function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}

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
          const guests = b.rng.chance(0.4) ? b.rng.sample(b.scenario.people.filter((p) => p !== person), 1) : []
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
  b.gmail(threadId, organizer.email, others.map((p) => p.email), [], subject, body, request.iso)

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

function findSeed(b: WorldBuilder, key: string | undefined): { seed: JiraSeed; project: Project } | undefined {
  for (const project of b.scenario.projects) {
    for (const seed of project.jira_seeds ?? []) {
      if (key === undefined || seed.issue_key === key) return { seed, project }
    }
  }
  return undefined
}

function engineers(b: WorldBuilder): Person[] {
  const eng = b.scenario.people.filter((p) => /engineer|developer|sre|qa/i.test(`${p.role} ${p.team}`))
  return eng.length > 0 ? eng : [...b.scenario.people]
}

function productPeople(b: WorldBuilder): Person[] {
  const pm = b.scenario.people.filter((p) => /pm|product|manager|lead|support|success/i.test(`${p.role} ${p.team}`))
  return pm.length > 0 ? pm : [...b.scenario.people]
}

/** Jira seeds become issues: each exactly once, whether or not a sub-scenario claimed it. */
export function seedIssue(b: WorldBuilder, seed: JiraSeed, project: Project, overrides: Partial<JiraEvent> = {}): JiraEvent {
  const assignee = seed.assignee === undefined ? b.rng.pick(engineers(b)) : b.person(seed.assignee)
  const created = b.randomTime(addDays(b.thisMonday, -28), addDays(b.thisMonday, -14)).iso
  const milestones = project.milestones ?? []
  const fix = milestones[milestones.length - 1]
  const event: Omit<JiraEvent, 'event_id' | 'source'> = {
    timestamp: b.pastTime().iso,
    issue_key: seed.issue_key,
    project_key: projectKeyOf(project),
    summary: seed.summary,
    description: `${seed.summary}. Part of ${project.name}.`,
    status: seed.status,
    issue_type: 'Story',
    priority: 'High',
    assignee: assignee.email,
    reporter: b.rng.pick(productPeople(b)).email,
    created,
    labels: [slug(project.name)],
    ...(seed.due_date === undefined ? {} : { due_date: seed.due_date }),
    ...(fix === undefined ? {} : { fix_version: fix.name }),
    ...overrides,
  }
  return b.jira(event)
}

function issueEta(b: WorldBuilder, sub: SubScenario): Omit<PendingExpansion, 'from' | 'to'> {
  const depth = b.scenario.depth
  const hint = typeof sub.issue_key_hint === 'string' ? sub.issue_key_hint : undefined
  const found = findSeed(b, hint) ?? findSeed(b, undefined)
  const project = found?.project ?? mainProject(b)
  const key = found?.seed.issue_key ?? hint ?? b.issueKey(project === undefined ? 'OPS' : projectKeyOf(project))
  const summary = found?.seed.summary ?? sub.abstract_description.slice(0, 60)
  const milestones = project?.milestones ?? []
  const plannedDue = found?.seed.due_date ?? milestones[milestones.length - 1]?.date ?? addDays(b.nextMonday, 3)
  const slipped = addDays(plannedDue, 7)
  const participants = participantsOf(b, sub, 0)
  const owner = participants[0] ?? b.rng.pick(productPeople(b))
  const assigneeId = found?.seed.assignee
  const assignee = assigneeId !== undefined ? b.person(assigneeId) : b.rng.pick(engineers(b).filter((p) => p !== owner).concat(engineers(b)).slice(0, 3))

  const company = b.rng.pick(PARTNER_COMPANIES)
  const asked = b.randomTime(addDays(b.today, -3), b.today)
  const customer = b.newContact(company, asked.iso)
  const threadId = b.id('thread')
  const subject = `Question about ${summary}`
  if (depth >= 0.5) {
    const earlier = b.randomTime(addDays(b.thisMonday, -7), addDays(b.thisMonday, -3))
    b.gmail(threadId, customer.email, [owner.email], [], subject, `Hello ${b.firstName(owner)},\n\nWe are planning our own release around ${summary}. Is there a target date yet?\n\nBest,\n${customer.name}\n${company.name}`, earlier.iso)
    b.gmail(threadId, owner.email, [customer.email], [], `Re: ${subject}`, `Hi ${customer.name.split(' ')[0]},\n\nNot yet, I will come back to you as soon as engineering confirms a date.\n\n${owner.name}`, b.randomTime(earlier.date, addDays(b.thisMonday, -2)).iso)
  }
  b.gmail(
    threadId,
    customer.email,
    [owner.email],
    [],
    depth >= 0.5 ? `Re: ${subject}` : subject,
    `Hi ${b.firstName(owner)},\n\nCould you tell us when ${summary} (${key}) will be available to us? Our team needs a date to plan the rollout on our side.\n\nThanks,\n${customer.name}\n${company.name}`,
    asked.iso,
  )
  const issueFields: Partial<JiraEvent> = { due_date: plannedDue, assignee: assignee.email, timestamp: b.randomTime(addDays(b.thisMonday, -7), addDays(b.today, -1)).iso }
  if (found !== undefined && project !== undefined) seedIssue(b, found.seed, project, issueFields)
  else {
    b.jira({
      timestamp: issueFields.timestamp as string,
      issue_key: key,
      project_key: key.split('-')[0] as string,
      summary,
      description: sub.abstract_description,
      status: 'In Progress',
      issue_type: 'Story',
      priority: 'High',
      assignee: assignee.email,
      reporter: owner.email,
      created: b.randomTime(addDays(b.thisMonday, -28), addDays(b.thisMonday, -14)).iso,
      due_date: plannedDue,
      labels: [],
    })
  }
  const channel = projectChannel(b, project)
  const eta = depth >= 0.5 ? slipped : plannedDue
  if (depth >= 0.5) {
    b.slack(channel, assignee, `${key} update: QA found a blocker in the migration path, so the target moves one week to ${slipped}. Jira still shows the old due date, I'll fix it after standup.`, b.randomTime(addDays(b.today, -2), b.today).iso)
  } else {
    b.slack(channel, assignee, `${key} is on track for ${plannedDue}.`, b.randomTime(addDays(b.today, -2), b.today).iso)
  }
  const playbook = b.drive({
    timestamp: b.randomTime(addDays(b.thisMonday, -21), addDays(b.thisMonday, -10)).iso,
    name: 'Customer Communication Guidelines',
    mime_type: 'application/vnd.google-apps.document',
    owner: owner.email,
    content: [
      'Customer Communication Guidelines',
      '',
      'Release dates',
      '- Give a target date, never a promise; say it may change.',
      '- Use the latest date engineering has confirmed, even if the tracker lags behind.',
      '- Offer a follow-up when the date is confirmed.',
      '',
      'Tone',
      '- Thank the customer for their patience, keep it short, sign with your name and role.',
    ].join('\n'),
  })
  return {
    id: sub.id,
    type: sub.type,
    abstract_description: sub.abstract_description,
    timestamp: asked.iso,
    participants: ids([owner, assignee]),
    event_description: `${customer.name} of ${company.name} emails ${owner.name} asking when ${key} (${summary}) ships. Jira says ${plannedDue}${depth >= 0.5 ? `; ${assignee.name} said in Slack it slipped to ${slipped}` : ''}.`,
    facts: {
      issue_key: key,
      customer: { name: customer.name, email: customer.email, organization: company.name },
      thread_id: threadId,
      jira_due_date: plannedDue,
      eta,
      assignee: assignee.id,
      guidelines_file_id: playbook.file_id,
    },
  }
}

function weeklyReport(b: WorldBuilder, sub: SubScenario): Omit<PendingExpansion, 'from' | 'to'> {
  const depth = b.scenario.depth
  const project = mainProject(b)
  const key = project === undefined ? 'OPS' : projectKeyOf(project)
  const participants = participantsOf(b, sub, 0)
  const author = participants[0] ?? b.rng.pick(productPeople(b))
  const weekEnd = addDays(b.thisMonday, 4)
  const hint = typeof sub.metrics_hint === 'object' && sub.metrics_hint !== null ? (sub.metrics_hint as Record<string, unknown>) : {}
  const metrics: Record<string, number> = {}
  for (const [name, value] of Object.entries(hint)) if (typeof value === 'number') metrics[name] = value
  if (Object.keys(metrics).length === 0) {
    metrics.p95_latency_reduction_percent = b.rng.int(5, 30)
    metrics.weekly_active_users_growth_percent = b.rng.int(2, 12)
    metrics.open_bugs = b.rng.int(3, 20)
  }
  const describeMetric = (name: string, value: number): string =>
    name.endsWith('_percent') ? `${name.slice(0, -'_percent'.length).replace(/_/g, ' ')}: ${value}%` : `${name.replace(/_/g, ' ')}: ${value}`
  const template = b.drive({
    timestamp: b.randomTime(addDays(b.thisMonday, -30), addDays(b.thisMonday, -20)).iso,
    name: 'Weekly Report Template',
    mime_type: 'application/vnd.google-apps.document',
    owner: author.email,
    content: ['Weekly Report - <team> - week of <date>', '', '1. Highlights', '2. Metrics (value and change vs last week)', '3. Completed work (issue keys)', '4. Risks and blockers', '5. Next week'].join('\n'),
  })
  const sheet = b.drive({
    timestamp: b.randomTime(addDays(weekEnd, -1), weekEnd > b.today ? b.today : weekEnd).iso,
    name: `${project?.name ?? 'Team'} metrics - week of ${b.thisMonday}`,
    mime_type: 'application/vnd.google-apps.spreadsheet',
    owner: author.email,
    content: ['metric,value', ...Object.entries(metrics).map(([name, value]) => `${name},${value}`)].join('\n'),
  })
  const done: string[] = []
  const eng = engineers(b)
  const doneSummaries = b.rng.sample(
    ['Add request tracing to gateway', 'Cache tenant settings', 'Tighten rate limits for batch API', 'Remove legacy auth path', 'Paginate audit log endpoint', 'Backfill usage metrics'],
    3,
  )
  for (const summary of doneSummaries) {
    const issueKey = b.issueKey(key)
    done.push(issueKey)
    b.jira({
      timestamp: b.randomTime(b.thisMonday, weekEnd > b.today ? b.today : weekEnd).iso,
      issue_key: issueKey,
      project_key: key,
      summary,
      description: 'Completed this week.',
      status: 'Done',
      issue_type: 'Task',
      priority: 'Medium',
      assignee: b.rng.pick(eng).email,
      reporter: author.email,
      created: b.randomTime(addDays(b.thisMonday, -14), addDays(b.thisMonday, -8)).iso,
      labels: ['weekly-report'],
    })
  }
  const riskKey = b.issueKey(key)
  b.jira({
    timestamp: b.randomTime(b.thisMonday, b.today).iso,
    issue_key: riskKey,
    project_key: key,
    summary: 'Load test shows memory growth under sustained traffic',
    description: 'Needs investigation before the next milestone.',
    status: 'In Progress',
    issue_type: 'Bug',
    priority: 'High',
    assignee: b.rng.pick(eng).email,
    reporter: author.email,
    created: b.randomTime(b.thisMonday, b.today).iso,
    labels: ['risk'],
  })
  const channel = project === undefined ? 'general' : `proj-${slug(project.name)}`
  const numbers = Object.entries(metrics)
    .map(([name, value]) => describeMetric(name, value))
    .join(', ')
  b.slack(
    channel,
    author,
    depth < 0.5 ? `Wins this week: ${numbers}. Closed ${done.join(', ')}.` : `Good week overall; the numbers are in "${sheet.name}". Risk to watch: ${riskKey}.`,
    b.randomTime(b.today, b.today).iso,
  )
  return {
    id: sub.id,
    type: sub.type,
    abstract_description: sub.abstract_description,
    timestamp: b.at(b.today, b.workEnd - 60),
    participants: ids([author]),
    event_description: `${author.name} reports on the week of ${b.thisMonday}: ${numbers}; done ${done.join(', ')}; risk ${riskKey}.`,
    facts: {
      window: { start: b.thisMonday, end: weekEnd },
      metrics,
      done_issues: done,
      risk_issue: riskKey,
      template_file_id: template.file_id,
      metrics_file_id: sheet.file_id,
    },
  }
}

/**
 * Any other sub-scenario is a decision between two options, weighed in a Slack thread against the next milestone
 * and recorded in a Drive decision log. Its text says what kind: a purchase between vendors (`vendor`), or
 * wording, design, a policy or an approach, whose two options are named alternatives that fit the topic.
 */
function decision(b: WorldBuilder, sub: SubScenario): Omit<PendingExpansion, 'from' | 'to'> {
  const framing = decisionFraming(sub)
  return framing.kind === 'vendor' ? vendorDecision(b, sub) : topicDecision(b, sub, framing)
}

/**
 * Draws of the shared stream a decision consumes after its start time, whatever its framing (the vendor
 * framing's sample of two partners and its three ints), so that the framing never shifts the rest of the world.
 */
const DECISION_DRAWS = PARTNER_COMPANIES.length - 1 + 3

function upcomingMilestone(b: WorldBuilder): { deadline: string; name: string | undefined } {
  const upcoming = (mainProject(b)?.milestones ?? []).find((m) => m.date > b.today)
  return { deadline: upcoming?.date ?? addDays(b.nextMonday, 14), name: upcoming?.name }
}

/**
 * A choice between two vendors by price and lead time. (Shipped data depends on this exact sequence of random
 * draws: `DECISION_DRAWS` after the start time.)
 */
/** The Drive decision log of a decision sub-scenario, owned by the person who raised it. */
function decisionLog(b: WorldBuilder, sub: SubScenario, lead: Person, timestamp: string, lines: string[]): ReturnType<WorldBuilder['drive']> {
  return b.drive({
    timestamp,
    name: `Decision log - ${sub.id.replace(/_/g, ' ')}`,
    mime_type: 'application/vnd.google-apps.document',
    owner: lead.email,
    content: lines.join('\n'),
  })
}

function vendorDecision(b: WorldBuilder, sub: SubScenario): Omit<PendingExpansion, 'from' | 'to'> {
  const participants = participantsOf(b, sub, 3)
  const project = mainProject(b)
  const channel = projectChannel(b, project)
  const start = b.pastTime()
  const lead = participants[0] as Person
  const [first, second] = b.rng.sample(PARTNER_COMPANIES, 2) as [(typeof PARTNER_COMPANIES)[number], (typeof PARTNER_COMPANIES)[number]]
  const upcoming = (project?.milestones ?? []).find((m) => m.date > b.today)
  const deadline = upcoming?.date ?? addDays(b.nextMonday, 14)
  const weeksLeft = Math.max(1, Math.floor((Date.parse(deadline) - Date.parse(b.today)) / (7 * 86_400_000)))
  const options = [
    { label: 'A', vendor: first.name, cost: 1000 * b.rng.int(18, 30), weeks: weeksLeft + b.rng.int(1, 3) },
    { label: 'B', vendor: second.name, cost: 1000 * b.rng.int(31, 45), weeks: Math.max(1, weeksLeft - 1) },
  ] as const
  const [cheap, fast] = options
  const weeks = (n: number): string => `${n} week${n === 1 ? '' : 's'}`
  const chosen = fast
  const owner = participants[participants.length > 1 ? 1 : 0] as Person
  const followUp = addDays(b.today, 5)
  const at = (offset: number): string => b.at(start.date, Math.min(b.workEnd - 1, start.minutes + offset))
  const root = b.slack(
    channel,
    lead,
    `We need to settle this: ${sub.abstract_description} Option A is ${cheap.vendor} ($${cheap.cost.toLocaleString('en-US')}, ${weeks(cheap.weeks)} lead time); option B is ${fast.vendor} ($${fast.cost.toLocaleString('en-US')}, ${weeks(fast.weeks)}).`,
    start.iso,
  )
  const reviewers = participants.slice(1)
  reviewers.forEach((person, i) => {
    const text =
      i === 0
        ? `A is cheaper, but ${weeks(cheap.weeks)} puts us past ${upcoming === undefined ? deadline : `${upcoming.name} on ${deadline}`}. B fits.`
        : `Agree with ${b.firstName(reviewers[0] as Person)}, the extra cost is within budget.`
    b.slack(channel, person, text, at(10 + 15 * i), root)
  })
  const decision = `Option ${chosen.label}, ${chosen.vendor}: it is the only one delivered before ${deadline}; ${owner.name} confirms the order by ${followUp}`
  b.slack(channel, lead, `Decision: ${decision}.`, at(90), root)
  const note = decisionLog(b, sub, lead, at(120), [
    `Question: ${sub.abstract_description}`,
    '',
    'Option | Vendor | Cost | Lead time',
    ...options.map((o) => `${o.label} | ${o.vendor} | $${o.cost.toLocaleString('en-US')} | ${weeks(o.weeks)}`),
    '',
    `Decision (${start.date}): ${decision}.`,
    `Participants: ${participants.map((p) => p.name).join(', ')}`,
  ])
  return {
    id: sub.id,
    type: sub.type,
    abstract_description: sub.abstract_description,
    timestamp: start.iso,
    participants: ids(participants),
    event_description: `${lead.name} asks in #${channel} to choose between ${cheap.vendor} and ${fast.vendor}; the thread decides: ${decision}.`,
    facts: {
      options: options.map((o) => ({ ...o })),
      decision,
      chosen_vendor: chosen.vendor,
      owner: owner.id,
      follow_up_date: followUp,
      channel,
      decision_file_id: note.file_id,
    },
  }
}

/**
 * A choice between two named alternatives that fit the topic (two drafts of a text, two designs, two policies or
 * two approaches), compared on one measure; the thread picks the stronger one in time for the next milestone.
 * Its own choices come from a stream seeded by one shared draw; it consumes `DECISION_DRAWS` like the vendor one.
 */
function topicDecision(b: WorldBuilder, sub: SubScenario, framing: DecisionFraming): Omit<PendingExpansion, 'from' | 'to'> {
  const participants = participantsOf(b, sub, 3)
  const project = mainProject(b)
  const channel = projectChannel(b, project)
  const start = b.pastTime()
  const local = new Prng(Math.floor(b.rng.next() * 0x1_0000_0000), sub.id)
  for (let i = 1; i < DECISION_DRAWS; i++) b.rng.next()
  const lead = participants[0] as Person
  const { deadline, name: milestone } = upcomingMilestone(b)
  const before = milestone === undefined ? deadline : `${milestone} on ${deadline}`
  const daysLeft = Math.max(1, b.workdays(addDays(b.today, 1), deadline).length)
  const kind = framing.kind as Exclude<typeof framing.kind, 'vendor'>
  const pair = local.pick(optionPairs(framing))
  const measure = optionMeasure(kind, local, daysLeft)
  const strongFirst = local.chance(0.5)
  const noun = kind === 'wording' ? 'Variant' : 'Option'
  const weak = { label: strongFirst ? 'B' : 'A', ...pair.weak, value: measure.weak }
  const strong = { label: strongFirst ? 'A' : 'B', ...pair.strong, value: measure.strong }
  const options = strongFirst ? [strong, weak] : [weak, strong]
  const describe = (o: typeof weak): string =>
    kind === 'wording'
      ? `${noun} ${o.label}, "${o.name}": "${o.text}" (${wordCount(o.text)} words, ${measure.describe(o.value)})`
      : `${noun} ${o.label}, "${o.name}": ${o.text} (${measure.describe(o.value)})`
  const owner = participants[participants.length > 1 ? 1 : 0] as Person
  const followUp = addDays(b.today, 5)
  const at = (offset: number): string => b.at(start.date, Math.min(b.workEnd - 1, start.minutes + offset))
  const root = b.slack(channel, lead, `We need to settle ${framing.topic} before ${before}. ${options.map(describe).join('. ')}.`, start.iso)
  const reviewers = participants.slice(1)
  reviewers.forEach((person, i) => {
    const text =
      i === 0
        ? `${noun} ${weak.label} ${weak.why} (${measure.describe(weak.value)}); ${noun} ${strong.label} ${strong.why} (${measure.describe(strong.value)}), which is what we want in place for ${before}. I'd go with ${strong.label}.`
        : `Agree with ${b.firstName(reviewers[0] as Person)}, ${noun} ${strong.label} it is.`
    b.slack(channel, person, text, at(10 + 15 * i), root)
  })
  const chosen = `${noun} ${strong.label}, "${strong.name}"`
  const outcome = `${chosen}; ${owner.name} ${followUpAction(framing)} by ${followUp}`
  const reason = `it ${strong.why} (${measure.describe(strong.value)}), in time for ${before}`
  const decided = `${outcome}. Why: ${reason}`
  b.slack(channel, lead, `Decision: ${decided}.`, at(90), root)
  const header = kind === 'wording' ? `${noun} | Name | Draft | Words | ${measure.header}` : `${noun} | Name | Description | ${measure.header}`
  const row = (o: typeof weak): string =>
    kind === 'wording' ? `${o.label} | ${o.name} | "${o.text}" | ${wordCount(o.text)} | ${o.value}` : `${o.label} | ${o.name} | ${o.text} | ${o.value}`
  const note = decisionLog(b, sub, lead, at(120), [
    `Question: ${framing.topic.charAt(0).toUpperCase()}${framing.topic.slice(1)}, before ${before}.`,
    `Context: ${sub.abstract_description}`,
    '',
    header,
    ...options.map(row),
    '',
    `Decision (${start.date}, decided by ${lead.name}): ${outcome}.`,
    `Why: ${reason}.`,
    `Why not ${noun} ${weak.label}: it ${weak.why} (${measure.describe(weak.value)}).`,
    `Participants: ${participants.map((p) => p.name).join(', ')}`,
  ])
  return {
    id: sub.id,
    type: sub.type,
    abstract_description: sub.abstract_description,
    timestamp: start.iso,
    participants: ids(participants),
    event_description: `${lead.name} asks in #${channel} to settle ${framing.topic}: "${options[0]?.name}" or "${options[1]?.name}"; the thread decides on ${outcome}. Why: ${reason}.`,
    facts: {
      kind,
      topic: framing.topic,
      options: options.map((o) => ({
        label: o.label,
        name: o.name,
        text: o.text,
        ...(kind === 'wording' ? { words: wordCount(o.text) } : {}),
        [measure.key]: o.value,
      })),
      decision: decided,
      chosen_option: strong.label,
      chosen_name: strong.name,
      decided_by: lead.id,
      decided_on: start.date,
      owner: owner.id,
      follow_up_date: followUp,
      channel,
      decision_file_id: note.file_id,
    },
  }
}
