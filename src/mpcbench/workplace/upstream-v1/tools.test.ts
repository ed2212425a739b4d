import { describe, expect, it } from 'vitest'
import { parseToolArguments, toolTable } from '../../../tools/define-tool.ts'
import { FIXTURE_SOURCES } from '../fixture-sources.ts'
import { createWorkplaceTools } from '../tool-profiles.ts'
import { Workplace } from '../workplace.ts'
import { civilFromDays, daysFromCivil, fromIsoFormat, isoformat, pyInt, pyJsonDumps, pySplit } from './python.ts'

// Hand-computed expectations of upstream's semantics on the hand-written fixture (the oracle test covers upstream's data).
const workplace = Workplace.fromSources(FIXTURE_SOURCES, { timezone: 'Asia/Seoul', workdayStart: '10:00', workdayEnd: '17:00' })
const table = toolTable(createWorkplaceTools(workplace, 'upstream-v1'))

async function call(wireName: string, args: unknown): Promise<unknown> {
  const tool = table[wireName]
  if (tool === undefined) throw new Error(`no tool ${wireName}`)
  const parsed = parseToolArguments(tool, args)
  if (!parsed.success) throw parsed.error
  return tool.handler(parsed.data, {})
}

describe('upstream-v1 tools (hand-written data)', () => {
  it('Slack: any word, as a substring of the text, channel or author name; common words skipped', async () => {
    expect(await call('Slack_search_messages', { search_query: 'the CHEN' })).toEqual({
      matches: [
        { channel: 'random', text: 'Lunch anyone?', timestamp: '1741050000.000200' },
        { channel: 'launch', text: 'Thursday works for the launch review', timestamp: '2025-03-04T10:00:00+09:00' },
      ],
    })
    expect(await call('Slack_search_messages', { search_query: 'the and' })).toEqual({ matches: [] })
  })

  it('Contacts: the query inside the name or the name inside the query; limit only above 0', async () => {
    expect(await call('GoogleContacts_SearchContactsByName', { name: 'Dr. Ana Lima (PM)' })).toEqual({ contacts: [{ name: 'Ana Lima', emails: ['ana@acme.test'] }] })
    expect(await call('GoogleContacts_SearchContactsByName', { name: 'a', limit: 0 })).toEqual({
      contacts: [
        { name: 'Ana Lima', emails: ['ana@acme.test'] },
        { name: 'Cy Park', emails: ['cy@partner.test'] },
      ],
    })
  })

  it('free slots: weekends included, in the first event offset, organizers and free_busy ignored, world-state workday for ""', async () => {
    // Saturday: Ana's offsite (01:00-07:00 UTC) ends before the workday in the first event's offset (+00:00).
    expect(await call('GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree', { email_addresses: ['ana@acme.test'], start_date: '2025-03-08', end_date: '2025-03-08' })).toEqual({
      time_slots: [{ start: '2025-03-08T09:00:00+00:00', end: '2025-03-08T18:00:00+00:00' }],
    })
    // Wednesday: Ana's free_busy block is not read; Tuesday: Bo organizes the partner call but is no attendee.
    expect(
      await call('GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree', {
        email_addresses: ['ana@acme.test', 'bo@acme.test'],
        date_range_start: '2025-03-04',
        date_range_end: '2025-03-05',
        workday_start_time: '',
        workday_end_time: null,
        slot_minimum_minutes: 60,
      }),
    ).toEqual({
      time_slots: [
        { start: '2025-03-04T10:00:00+00:00', end: '2025-03-04T17:00:00+00:00' },
        { start: '2025-03-05T10:00:00+00:00', end: '2025-03-05T17:00:00+00:00' },
      ],
    })
    expect(await call('GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree', { email_addresses: ['ana@acme.test'], start_date: '2025/03/08' })).toEqual({ time_slots: [] })
    await expect(call('GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree', { email_addresses: ['ana@acme.test'], workday_start_time: '09:00:00' })).rejects.toThrow(/ValueError/)
  })

  it('ListEvents compares the bounds as text; Gmail reads only last_N_days; Jira reads only its four clauses', async () => {
    const events = (await call('GoogleCalendar_ListEvents', { min_end_datetime: '2025-03-04T', max_start_datetime: '2025-03-08', max_results: -1 })) as { events: Array<{ id: string }> }
    expect(events.events.map((e) => e.id)).toEqual(['V1', 'V2'])
    expect(await call('Gmail_SearchThreads', { date_range: 'last_7_days' })).toEqual({ thread_ids: [] })
    expect(await call('Gmail_SearchThreads', { date_range: 'yesterday', sender: 'ana', max_results: 'x' })).toEqual({ thread_ids: ['T1'] })
    expect(await call('Jira_SearchIssuesWithJql', { jql: 'assignee = "ana@acme.test" ORDER BY updated ASC', limit: 1 })).toEqual({
      issues: [
        { key: 'LCH-10', summary: 'Fix login crash', status: 'To Do', updated: '2025-03-02T10:00:00+09:00', fixVersions: [{ name: '1.0' }], project: { key: 'LCH' } },
        { key: 'LCH-2', summary: 'Write launch checklist', status: 'In Progress', updated: '2025-03-04T23:30:00Z', fixVersions: [], project: { key: 'LCH' } },
      ],
    })
    expect(await call('Jira_SearchIssuesWithJql', { jql: 'project=LCH and text ~ "LOGIN"' })).toMatchObject({ issues: [{ key: 'LCH-10' }] })
  })

  it('Drive and Gmail reads: whole-query substring, null for unknown ids', async () => {
    expect(await call('GoogleDrive_gdrive_search', { query: 'FREEZE THE' })).toEqual({ files: [{ id: 'D1', name: 'Launch checklist', mimeType: 'text/plain' }] })
    expect(await call('GoogleDrive_gdrive_search', { query: 'freeze checklist' })).toEqual({ files: [] })
    expect(await call('GoogleDrive_gdrive_read_file', { file_id: 'd1' })).toEqual({ file: null })
    expect(await call('Gmail_GetThread', {})).toEqual({ thread: null })
  })
})

describe('Python behaviours behind upstream-v1', () => {
  it('datetime.fromisoformat / isoformat with fixed offsets', () => {
    const dt = fromIsoFormat('2025-03-09T01:30:00.5-05:00')
    expect(dt === undefined ? undefined : isoformat(dt)).toBe('2025-03-09T01:30:00.500000-05:00')
    expect(isoformat(fromIsoFormat('2025-11-17 09:00+00:00')!)).toBe('2025-11-17T09:00:00+00:00')
    expect(isoformat(fromIsoFormat('2025-11-17')!)).toBe('2025-11-17T00:00:00')
    expect(fromIsoFormat('2025-02-30T10:00:00')).toBeUndefined()
    expect(civilFromDays(daysFromCivil(1, 1, 1))).toEqual({ year: 1, month: 1, day: 1 })
    expect(daysFromCivil(2025, 3, 9)).toBe(Date.UTC(2025, 2, 9) / 86_400_000)
  })

  it('str.split(), int(str) and json.dumps(ensure_ascii=False)', () => {
    expect(pySplit('  a\u3000b\tc ')).toEqual(['a', 'b', 'c'])
    expect([pyInt(' 3_0 '), pyInt('-7'), pyInt('3.0'), pyInt('')]).toEqual([30, -7, undefined, undefined])
    expect(pyJsonDumps({ a: [1, 'é', null], b: { c: true } })).toBe('{"a": [1, "é", null], "b": {"c": true}}')
  })
})
