import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { InvalidFormatError } from '../../core/errors.ts'
import { toOpenAITool, toolTable } from '../../tools/define-tool.ts'
import { FIXTURE_SOURCES } from './fixture-sources.ts'
import { createWorkplaceTools } from './tool-profiles.ts'
import { WORKPLACE_TOOL_NAMES } from './tools/create-workplace-tools.ts'
import { SOURCES } from './validate-source.ts'
import { loadWorkplace, Workplace } from './workplace.ts'

const tmp = mkdtempSync(join(tmpdir(), 'workplace-test-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function writeScenario(dir: string, id: string, sources: Record<string, unknown>, worldState?: unknown): void {
  mkdirSync(dir, { recursive: true })
  for (const [source, data] of Object.entries(sources)) writeFileSync(join(dir, `${id}_${source}.json`), JSON.stringify(data))
  if (worldState !== undefined) writeFileSync(join(dir, `${id}_world_state.json`), JSON.stringify(worldState))
}

function call(workplace: Workplace, name: string, args: Record<string, unknown>): unknown {
  const tool = toolTable(createWorkplaceTools(workplace))[name.replaceAll('.', '__')]
  if (tool === undefined) throw new Error(`no tool ${name}`)
  return tool.handler(tool.parameters.parse(args), {})
}

function thrown(fn: () => unknown): InvalidFormatError {
  try {
    fn()
  } catch (error) {
    if (error instanceof InvalidFormatError) return error
    throw error
  }
  throw new Error('expected an InvalidFormatError')
}

describe('loadWorkplace', () => {
  it('reads the six sources and global_settings from the world state', () => {
    writeScenario(join(tmp, 'ok'), 'acme', FIXTURE_SOURCES, {
      global_settings: { timezone: 'Asia/Seoul', workday_start: '10:00', workday_end: '19:00' },
      people: [],
    })
    const workplace = loadWorkplace(join(tmp, 'ok'), 'acme')
    expect(workplace.settings).toEqual({ timezone: 'Asia/Seoul', workdayStart: '10:00', workdayEnd: '19:00' })
    expect(loadWorkplace(join(tmp, 'ok'), 'acme', { timezone: 'Europe/London' }).settings.timezone).toBe('Europe/London')
    expect(workplace.threadsById.get('T1')?.messages.map((m) => m.message.id)).toEqual(['E1', 'E2'])
    expect(workplace.busyByEmail.get('bo@acme.test')?.map((b) => b.source)).toEqual(['V1', 'V2'])
  })

  it('defaults to UTC and a 09:00-18:00 workday without a world state', () => {
    writeScenario(join(tmp, 'bare'), 'acme', FIXTURE_SOURCES)
    expect(loadWorkplace(join(tmp, 'bare'), 'acme').settings).toEqual({ timezone: 'UTC', workdayStart: '09:00', workdayEnd: '18:00' })
  })

  it('names the file and the JSON path of an invalid source', () => {
    const dir = join(tmp, 'bad-source')
    writeScenario(dir, 'acme', { ...FIXTURE_SOURCES, jira: { projects: [], issues: [{ key: 'X-1', summary: 's' }] } })
    const error = thrown(() => loadWorkplace(dir, 'acme'))
    expect(error.file).toBe(join(dir, 'acme_jira.json'))
    expect(error.field).toBe('issues.0.status')
    expect(error.message).toContain(`Invalid jira source ${join(dir, 'acme_jira.json')}:\n  issues.0.status: is required`)
  })

  it('names the file and path of a timestamp that is not a date-time', () => {
    const dir = join(tmp, 'bad-time')
    const slack = { ...FIXTURE_SOURCES.slack, messages: [{ id: 'S1', channel_id: 'C1', user_id: 'U1', text: 'x', timestamp: 'yesterday' }] }
    writeScenario(dir, 'acme', { ...FIXTURE_SOURCES, slack })
    const error = thrown(() => loadWorkplace(dir, 'acme'))
    expect(error.file).toBe(join(dir, 'acme_slack.json'))
    expect(error.message).toContain('messages.0.timestamp: "yesterday" is not a date-time')
  })

  it('reports a missing file, bad JSON and an unknown time zone', () => {
    const dir = join(tmp, 'broken')
    writeScenario(dir, 'acme', { ...FIXTURE_SOURCES })
    rmSync(join(dir, 'acme_drive.json'))
    expect(thrown(() => loadWorkplace(dir, 'acme')).message).toContain(`Cannot read drive source ${join(dir, 'acme_drive.json')}`)
    writeFileSync(join(dir, 'acme_drive.json'), '{"files": [')
    expect(thrown(() => loadWorkplace(dir, 'acme')).message).toContain('not JSON')
    writeScenario(dir, 'acme', FIXTURE_SOURCES, { global_settings: { timezone: 'Mars/Olympus' } })
    expect(thrown(() => loadWorkplace(dir, 'acme')).field).toBe('global_settings.timezone')
  })
})

describe('workplace tools on hand-written data', () => {
  const seoul = Workplace.fromSources(FIXTURE_SOURCES, { timezone: 'Asia/Seoul' })
  const newYork = Workplace.fromSources(FIXTURE_SOURCES, { timezone: 'America/New_York' })

  it('exposes the nine upstream tools with upstream argument names, dotted in traces and __ on the wire', () => {
    const tools = createWorkplaceTools(seoul)
    expect(tools.map((t) => t.name)).toEqual([...WORKPLACE_TOOL_NAMES])
    const wire = Object.fromEntries(
      tools.map((t) => [toOpenAITool(t).function.name, toOpenAITool(t).function.parameters as { properties: object; required?: string[] }]),
    )
    expect(Object.keys(wire)).toContain('GoogleCalendar__FindTimeSlotsWhenEveryoneIsFree')
    expect(wire.GoogleCalendar__FindTimeSlotsWhenEveryoneIsFree?.required).toEqual([
      'email_addresses',
      'date_range_start',
      'date_range_end',
      'workday_start_time',
      'workday_end_time',
      'slot_minimum_minutes',
    ])
    expect(Object.keys(wire.GoogleCalendar__ListEvents?.properties ?? {})).toEqual(['min_date', 'max_date', 'max_results'])
    expect(Object.keys(wire.Gmail__SearchThreads?.properties ?? {})).toEqual(['sender', 'subject', 'date_range', 'max_results'])
    expect(wire.Gmail__SearchThreads?.required).toEqual([])
    expect(Object.keys(wire.GoogleDrive__gdrive_search?.properties ?? {})).toEqual(['name', 'query', 'limit'])
    expect(wire.Jira__SearchIssuesWithJql?.required).toEqual(['jql'])
    expect(wire.Slack__search_messages?.required).toEqual(['query'])
  })

  it('ListEvents puts an event at 23:30 UTC on the next local day in Seoul, the same day in New York', () => {
    const ids = (workplace: Workplace, day: string) =>
      (call(workplace, 'GoogleCalendar.ListEvents', { min_date: day, max_date: day }) as { events: Array<{ id: string }> }).events.map((e) => e.id)
    expect(ids(seoul, '2025-03-04')).toEqual(['V1', 'V2'])
    expect(ids(seoul, '2025-03-03')).toEqual([])
    expect(ids(newYork, '2025-03-03')).toEqual(['V1'])
    // A date-time bound is an instant: only the event running at 09:00 overlaps it.
    expect(ids(seoul, '2025-03-04T09:00:00+09:00')).toEqual(['V1'])
    expect(() => ids(seoul, 'soon')).toThrow(/min_date "soon" is not a date/)
  })

  it('FindTimeSlots counts organizers and free_busy as busy and skips weekends', () => {
    // Seoul, 09:00-18:00, 60 min, Ana + Bo, Tue 2025-03-04 .. Mon 2025-03-10:
    //   Tue: V1 08:30-09:30 (both), V2 14:00-15:00 (Bo organizes) -> 09:30-14:00, 15:00-18:00
    //   Wed: Ana's free_busy 09:00-12:00 -> 12:00-18:00
    //   Thu, Fri: free all day. Sat (V3 offsite) and Sun skipped. Mon: free all day.
    const result = call(seoul, 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', {
      email_addresses: ['ana@acme.test', 'BO@acme.test'],
      date_range_start: '2025-03-04',
      date_range_end: '2025-03-10',
      workday_start_time: '09:00',
      workday_end_time: '18:00',
      slot_minimum_minutes: 60,
    }) as { time_slots: Array<{ start: string; end: string }> }
    expect(result.time_slots.map((s) => `${s.start.slice(5, 16)}-${s.end.slice(11, 16)}`)).toEqual([
      '03-04T09:30-14:00',
      '03-04T15:00-18:00',
      '03-05T12:00-18:00',
      '03-06T09:00-18:00',
      '03-07T09:00-18:00',
      '03-10T09:00-18:00',
    ])
  })

  it('FindTimeSlots writes each slot in the offset of its day across a DST change (New York, 2025-03-09)', () => {
    const result = call(newYork, 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', {
      email_addresses: ['cy@partner.test'],
      date_range_start: '2025-03-07',
      date_range_end: '2025-03-10',
      workday_start_time: '09:00',
      workday_end_time: '17:00',
      slot_minimum_minutes: 30,
    })
    expect(result).toEqual({
      time_slots: [
        { start: '2025-03-07T09:00:00-05:00', end: '2025-03-07T17:00:00-05:00' },
        { start: '2025-03-10T09:00:00-04:00', end: '2025-03-10T17:00:00-04:00' },
      ],
      timezone: 'America/New_York',
      unknown_emails: [],
    })
  })

  it('Slack search reads Slack epochs and dates in the scenario zone', () => {
    const ids = (workplace: Workplace, query: string) =>
      (call(workplace, 'Slack.search_messages', { query }) as { messages: Array<{ id: string }> }).messages.map((m) => m.id)
    // S1 is 2025-03-03T23:30Z: 03-04 in Seoul, 03-03 in New York. S2 (epoch 1741050000) is 2025-03-04T01:00Z.
    expect(ids(seoul, 'on:2025-03-04')).toEqual(['S3', 'S2', 'S1'])
    expect(ids(newYork, 'on:2025-03-03')).toEqual(['S3', 'S2', 'S1'])
    expect(ids(newYork, 'launch review before:2025-03-04')).toEqual(['S3', 'S1'])
    expect(ids(seoul, 'from:bo in:launch "launch review"')).toEqual(['S3'])
  })

  it('Jira compares dates in the scenario zone and orders keys numerically', () => {
    const keys = (workplace: Workplace, jql: string) =>
      (call(workplace, 'Jira.SearchIssuesWithJql', { jql }) as { issues: Array<{ key: string }> }).issues.map((i) => i.key)
    // LCH-2 was updated 2025-03-04T23:30Z: 03-05 in Seoul, 03-04 in New York.
    expect(keys(seoul, 'updated = "2025-03-05"')).toEqual(['LCH-2'])
    expect(keys(newYork, 'updated = "2025-03-05"')).toEqual([])
    expect(keys(seoul, 'project = LCH ORDER BY key DESC')).toEqual(['LCH-10', 'LCH-2'])
    expect(keys(seoul, 'assignee IS EMPTY')).toEqual(['LCH-10'])
    expect(keys(seoul, 'labels = docs OR priority = high ORDER BY key')).toEqual(['LCH-2', 'LCH-10'])
    expect(keys(seoul, 'crash')).toEqual(['LCH-10'])
    expect(() => keys(seoul, 'updated > "last week"')).toThrow(/Not a date/)
  })

  it('Gmail matches cc-less name senders via contacts and a date range', () => {
    const ids = (args: Record<string, unknown>) => (call(seoul, 'Gmail.SearchThreads', args) as { thread_ids: string[] }).thread_ids
    expect(ids({ sender: 'Bo Chen' })).toEqual(['T1'])
    expect(ids({ sender: 'Ana', date_range: '2025-03-05..2025-03-06' })).toEqual([])
    expect(ids({ sender: 'bo', date_range: '2025-03-05..2025-03-06' })).toEqual(['T1'])
  })
})

const repoDataDir = fileURLToPath(new URL('../../../data/', import.meta.url))
const shippedScenarios = (() => {
  try {
    return readdirSync(repoDataDir)
      .filter((name) => name.endsWith('_slack.json'))
      .map((name) => name.slice(0, -'_slack.json'.length))
      .filter((id) => SOURCES.every((source) => readdirSync(repoDataDir).includes(`${id}_${source}.json`)))
  } catch {
    return []
  }
})()

describe.skipIf(shippedScenarios.length === 0)(`shipped scenarios in data/ (${shippedScenarios.length})`, () => {
  it.each(shippedScenarios)('%s loads and every tool answers', (scenarioId) => {
    const workplace = loadWorkplace(repoDataDir, scenarioId)
    const someEmail = workplace.sources.contacts.contacts[0]?.email ?? 'nobody@example.com'
    const firstDay = workplace.events[0]?.event.start.slice(0, 10) ?? '2025-01-06'
    const results = {
      slack: call(workplace, 'Slack.search_messages', { query: workplace.sources.slack.messages[0]?.text.split(/\s+/)[0] ?? 'hello' }),
      contacts: call(workplace, 'GoogleContacts.SearchContactsByName', { name: workplace.sources.contacts.contacts[0]?.name ?? 'x' }),
      events: call(workplace, 'GoogleCalendar.ListEvents', { min_date: firstDay, max_date: firstDay }),
      slots: call(workplace, 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', {
        email_addresses: [someEmail],
        date_range_start: firstDay,
        date_range_end: firstDay,
        workday_start_time: workplace.settings.workdayStart,
        workday_end_time: workplace.settings.workdayEnd,
        slot_minimum_minutes: 15,
      }),
      gmail: call(workplace, 'Gmail.SearchThreads', {}),
      jira: call(workplace, 'Jira.SearchIssuesWithJql', { jql: 'ORDER BY updated DESC' }),
      drive: call(workplace, 'GoogleDrive.gdrive_search', {}),
    }
    expect((results.contacts as { contacts: unknown[] }).contacts.length).toBeGreaterThan(0)
    expect((results.events as { events: unknown[] }).events.length).toBeGreaterThan(0)
    expect((results.jira as { total: number }).total).toBe(workplace.issues.length)
    expect(JSON.parse(JSON.stringify(results))).toEqual(results)
  })

  it.each(shippedScenarios)('%s: Gmail max_results keeps the newest matches', (scenarioId) => {
    const workplace = loadWorkplace(repoDataDir, scenarioId)
    const ids = (args: Record<string, unknown>) => (call(workplace, 'Gmail.SearchThreads', args) as { thread_ids: string[] }).thread_ids
    const all = ids({ max_results: 1000 })
    expect(all.length).toBeGreaterThan(3)
    expect(ids({ max_results: 3 })).toEqual(all.slice(0, 3))
    const subject = workplace.threadsById.get(all[2] as string)?.thread.subject.split(/\s+/)[0] as string
    const matching = ids({ subject, max_results: 1000 })
    expect(matching).toContain(all[2])
    expect(ids({ subject, max_results: 1 })).toEqual(matching.slice(0, 1))
  })
})
