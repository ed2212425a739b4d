import { describe, expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { Workplace, createWorkplaceTools, type ToolProfile } from '../workplace/index.ts'
import { readUpstreamScenario } from '../workplace/upstream-logs.ts'
import { runAgent } from '../../agent/run-agent.ts'
import type { AgentTrace } from '../../agent/trace.ts'
import { createBaselineModel } from '../../baseline/baseline-model.ts'
import { workplaceTaskType } from './mpcbench-strategy.ts'
import { personNames, topicKeywords } from './common.ts'
import { mpcbenchStrategy } from './mpcbench-strategy.ts'

const person = (id: string, name: string) => ({ id, name, email: `${id}@orbit.test` })
const PEOPLE = [person('maya.chen', 'Maya Chen'), person('leo.park', 'Leo Park'), person('ines.duarte', 'Ines Duarte')]

/** A small world written for this test: Berlin time (UTC+01:00 in November); the latest Slack message is Thursday 2025-11-13. */
const SOURCES = {
  slack: {
    workspace_name: 'Orbit',
    channels: [{ id: 'C1', name: 'proj-atlas' }],
    users: PEOPLE,
    messages: [
      {
        id: 'M1',
        channel_id: 'C1',
        user_id: 'maya.chen',
        text: 'Leo, Ines: can we do a 45 minute sync on the Atlas migration next week?',
        timestamp: '2025-11-12T10:00:00+01:00',
      },
      {
        id: 'M2',
        channel_id: 'C1',
        user_id: 'leo.park',
        text: 'Atlas status: cutover rehearsal passed, error rate down to 0.4%.',
        timestamp: '2025-11-13T09:00:00+01:00',
      },
    ],
  },
  gmail: {
    threads: [
      {
        id: 'T1',
        subject: 'Atlas export availability',
        messages: [
          {
            id: 'G1',
            from: 'Rosa Vidal <rosa@harbor.test>',
            to: ['support@orbit.test'],
            subject: 'Atlas export availability',
            body: 'Hello, when will the Atlas export be available for our account? We plan our quarter around it.',
            date: '2025-11-10T08:00:00+01:00',
          },
        ],
      },
    ],
  },
  calendar: {
    calendars: PEOPLE.map((p) => ({ id: p.id, email: p.email })),
    events: [
      {
        id: 'E1',
        title: 'Atlas standup',
        start: '2025-11-17T09:00:00+01:00',
        end: '2025-11-17T10:30:00+01:00',
        attendees: [{ email: 'maya.chen@orbit.test' }, { email: 'leo.park@orbit.test' }],
      },
      { id: 'E2', title: 'Dentist', start: '2025-11-17T10:30:00+01:00', end: '2025-11-17T11:00:00+01:00', attendees: [{ email: 'ines.duarte@orbit.test' }] },
      {
        id: 'E3',
        title: 'Atlas cutover review',
        start: '2025-11-12T14:00:00+01:00',
        end: '2025-11-12T15:00:00+01:00',
        attendees: [{ email: 'maya.chen@orbit.test' }],
      },
    ],
  },
  contacts: { contacts: [...PEOPLE, { id: 'rosa', name: 'Rosa Vidal', email: 'rosa@harbor.test' }] },
  jira: {
    projects: [{ key: 'ATL', name: 'Atlas' }],
    issues: [
      {
        key: 'ATL-7',
        summary: 'Atlas export for customer accounts',
        status: 'In Progress',
        updated: '2025-11-12T16:00:00+01:00',
        fixVersions: [{ name: 'Atlas 2.0', releaseDate: '2025-12-01' }],
        project: { key: 'ATL' },
      },
      { key: 'ATL-3', summary: 'Atlas migration cutover rehearsal', status: 'Done', updated: '2025-11-11T12:00:00+01:00', project: { key: 'ATL' } },
    ],
  },
  drive: {
    files: [
      {
        id: 'F1',
        name: 'Atlas status report template',
        content: 'Goals\nHighlights\nRisks\nNext steps\nFill each section with the week’s facts.',
        modifiedTime: '2025-11-01T09:00:00+01:00',
      },
    ],
  },
}

function world(): Workplace {
  return Workplace.fromSources(SOURCES, { timezone: 'Europe/Berlin', workdayStart: '09:00', workdayEnd: '17:30' })
}

const SYSTEM = 'You are a workplace assistant. Answer with {"final_answer": "...", "rationale": "..."}.'

async function run(user: string, workplace = world(), profile: ToolProfile = 'extended'): Promise<AgentTrace> {
  return runAgent({ model: createBaselineModel([mpcbenchStrategy]), system: SYSTEM, user, tools: createWorkplaceTools(workplace, profile) })
}

function answerOf(trace: AgentTrace): { answer: string; rationale: string | null } {
  if (trace.outcome.kind !== 'answered') throw new Error(`expected an answer, got ${JSON.stringify(trace.outcome)}`)
  expect(trace.outcome.via).toBe('json')
  return trace.outcome
}

describe('reading workplace prompts', () => {
  it('tells the task types apart', () => {
    expect(workplaceTaskType('Find a few possible times for Maya and Leo to meet next week.')).toBe('planning')
    expect(workplaceTaskType('A client wrote about the invoice. Draft a reply.')).toBe('email_reply')
    expect(workplaceTaskType('Write the monthly status report for the Atlas team.')).toBe('document_generation')
  })

  it('finds person names and topic words', () => {
    const prompt = 'Please ask Maya Chen, Leo Park and Ines about the Atlas migration next week.'
    expect(personNames(prompt)).toEqual(['Maya Chen', 'Leo Park', 'Ines', 'Atlas'])
    expect(topicKeywords(prompt, personNames(prompt))).toEqual(['migration'])
  })
})

describe('baseline on MPCBench-style tasks through runAgent', () => {
  it('planning: proposes the earliest common free slot of each day, with the length from Slack', async () => {
    const trace = await run('Maya Chen wants to sync with Leo Park and Ines Duarte about the Atlas migration next week. Please suggest a few meeting times.')
    const { answer, rationale } = answerOf(trace)
    expect(answer).toContain('Mon 2025-11-17 11:00-11:45 (UTC+01:00); Tue 2025-11-18 09:00-09:45 (UTC+01:00); Wed 2025-11-19 09:00-09:45 (UTC+01:00)')
    expect(answer).toContain('Ines Duarte (ines.duarte@orbit.test)')
    expect(rationale).toMatch(/^baseline heuristic: planning: .*45 minutes \(from Slack\)/)
    const slotCall = trace.toolCalls.find((c) => c.name === 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree')
    // The workday comes from the tool's own description of this company's hours.
    expect(slotCall?.arguments).toMatchObject({
      date_range_start: '2025-11-17',
      date_range_end: '2025-11-21',
      slot_minimum_minutes: 45,
      workday_end_time: '17:30',
    })
    expect(trace.usage).toMatchObject({ totalTokens: 0, costUsd: 0 })
  })

  it('email reply: reads the thread and quotes the tracked status and target date', async () => {
    const trace = await run('A customer asked when the Atlas export will be available. Draft a reply email.')
    const { answer, rationale } = answerOf(trace)
    expect(trace.toolCalls.map((c) => c.name)).toContain('Gmail.GetThread')
    expect(answer).toMatch(/^Hi Rosa,/)
    expect(answer).toContain('ATL-7 "Atlas export for customer accounts" is currently In Progress, planned for Atlas 2.0 (target date 2025-12-01)')
    expect(answer).toContain('may change')
    expect(rationale).toContain('Gmail thread T1')
  })

  it('document: lists the issues, messages, meetings and files found, by section', async () => {
    const trace = await run("Please write this week's status report for the Atlas team.")
    const { answer } = answerOf(trace)
    expect(answer).toContain('Sections found in "Atlas status report template": Goals, Highlights, Risks, Next steps.')
    expect(answer).toContain('- ATL-7: Atlas export for customer accounts [In Progress], updated 2025-11-12')
    expect(answer).toContain('Atlas status: cutover rehearsal passed')
    expect(answer).toContain('2025-11-12 14:00 Atlas cutover review')
  })

  it('works with the upstream-v1 tools: upstream wire names and arguments, results read in their shapes', async () => {
    const trace = await run(
      'Maya Chen wants to sync with Leo Park and Ines Duarte about the Atlas migration next week. Please suggest a few meeting times.',
      world(),
      'upstream-v1',
    )
    const { answer } = answerOf(trace)
    expect(trace.toolCalls.every((c) => c.status === 'ok')).toBe(true)
    const slotCall = trace.toolCalls.find((c) => c.name === 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree')
    expect(slotCall?.arguments).toMatchObject({
      email_addresses: ['maya.chen@orbit.test', 'leo.park@orbit.test', 'ines.duarte@orbit.test'],
      start_date: '2025-11-17',
      end_date: '2025-11-21',
    })
    expect(
      trace.messages.some((m) => m.role === 'assistant' && m.tool_calls?.some((c) => c.type === 'function' && c.function.name === 'Slack_search_messages')),
    ).toBe(true)
    expect(answer).toContain('Ines Duarte (ines.duarte@orbit.test)')
    for (const prompt of [
      'A customer asked when the Atlas export will be available. Draft a reply email.',
      "Please write this week's status report for the Atlas team.",
    ]) {
      const other = await run(prompt, world(), 'upstream-v1')
      expect(answerOf(other).answer).toContain('ATL-7')
      expect(other.toolCalls.every((c) => c.status === 'ok')).toBe(true)
    }
  })

  it('is deterministic', async () => {
    const prompt = 'Maya Chen wants to sync with Leo Park about the Atlas migration next week.'
    const strip = (t: AgentTrace) => ({ messages: t.messages, outcome: t.outcome, calls: t.toolCalls.map((c) => [c.name, c.arguments, c.result]) })
    expect(strip(await run(prompt))).toEqual(strip(await run(prompt)))
  })
})

describeWithSharedData('baseline on upstream MPCBench scenario_A', () => {
  const logDir = sharedDataPath('mpcbench', 'v1_eb0b7ca', 'generator', 'logs', 'llm')
  const upstream = () => {
    const log = readUpstreamScenario(logDir, 'scenario_A')
    const settings = (log.worldState.global_settings ?? {}) as { timezone?: string; workday_start?: string; workday_end?: string }
    return Workplace.fromSources(log.sources, { timezone: settings.timezone, workdayStart: settings.workday_start, workdayEnd: settings.workday_end })
  }

  it('answers the planning prompt with slots the calendar says are free for everyone', async () => {
    const trace = await run(
      'Tom mentioned syncing with Alice and Min about the API launch next week. Please find a few possible time slots for that meeting.',
      upstream(),
    )
    const { answer } = answerOf(trace)
    const slotCall = trace.toolCalls.find((c) => c.name === 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree')
    expect(slotCall?.arguments).toMatchObject({ email_addresses: ['tom@partner.co', 'alice.kim@company.com', 'min.lee@company.com'] })
    const free = (slotCall?.result as { time_slots: Array<{ start: string }> } | undefined)?.time_slots ?? []
    const firstStart = free[0]?.start ?? ''
    expect(answer).toContain(`${firstStart.slice(0, 10)} ${firstStart.slice(11, 16)}`)
  })

  it('answers the email-reply and report prompts with JSON answers built from what the tools returned', async () => {
    const workplace = upstream()
    for (const prompt of [
      'A customer is asking when a feature update will be released. Draft a reply email.',
      'Please draft a weekly team report summarizing this week’s work.',
    ]) {
      const trace = await run(prompt, workplace)
      const { answer, rationale } = answerOf(trace)
      expect(rationale).toMatch(/^baseline heuristic: /)
      expect(answer).toMatch(/[A-Z]+-\d+/)
      expect(trace.toolCalls.every((c) => c.status === 'ok')).toBe(true)
    }
  })
})
