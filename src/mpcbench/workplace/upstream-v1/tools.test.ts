import { describe, expect, it } from 'vitest'
import { parseToolArguments, toolTable } from '../../../tools/define-tool.ts'
import { FIXTURE_SOURCES } from '../fixture-sources.ts'
import { createWorkplaceTools } from '../tool-profiles.ts'
import { Workplace } from '../workplace.ts'
import { civilFromDays, daysFromCivil, fromIsoFormat, isoformat, pyEquals, pyInt, pyIterate, pyJsonDumps, pyLen, pyLimit, pyOrder, pySplit } from './python.ts'

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
    expect(await call('GoogleContacts_SearchContactsByName', { name: 'Dr. Ana Lima (PM)' })).toEqual({
      contacts: [{ name: 'Ana Lima', emails: ['ana@acme.test'] }],
    })
    expect(await call('GoogleContacts_SearchContactsByName', { name: 'a', limit: 0 })).toEqual({
      contacts: [
        { name: 'Ana Lima', emails: ['ana@acme.test'] },
        { name: 'Cy Park', emails: ['cy@partner.test'] },
      ],
    })
  })

  it('free slots: weekends included, in the first event offset, organizers and free_busy ignored, world-state workday for ""', async () => {
    // Saturday: Ana's offsite (01:00-07:00 UTC) ends before the workday in the first event's offset (+00:00).
    expect(
      await call('GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree', { email_addresses: ['ana@acme.test'], start_date: '2025-03-08', end_date: '2025-03-08' }),
    ).toEqual({
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
    expect(await call('GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree', { email_addresses: ['ana@acme.test'], start_date: '2025/03/08' })).toEqual({
      time_slots: [],
    })
    await expect(
      call('GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree', { email_addresses: ['ana@acme.test'], workday_start_time: '09:00:00' }),
    ).rejects.toThrow(/ValueError/)
  })

  it('free slots read arguments as Python does: float and bool minimums, full-width digits, strings as emails, lazy errors', async () => {
    const saturday = { email_addresses: ['ana@acme.test'], start_date: '2025-03-08', end_date: '2025-03-08' }
    const wholeDay = { time_slots: [{ start: '2025-03-08T09:00:00+00:00', end: '2025-03-08T18:00:00+00:00' }] }
    const slots = (args: object) => call('GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree', { ...saturday, ...args })
    expect(await slots({ slot_minimum_minutes: 539.5 })).toEqual(wholeDay)
    expect(await slots({ slot_minimum_minutes: 540.5 })).toEqual({ time_slots: [] })
    expect(await slots({ slot_minimum_minutes: true })).toEqual(wholeDay)
    // `int()` and `strptime`'s `\d` take any Unicode decimal digit; `strptime`'s literal month digits are ASCII.
    expect(await slots({ start_date: '２０２５-03-08', workday_start_time: '０９:00', workday_end_time: '١٨:00' })).toEqual(wholeDay)
    expect(await slots({ start_date: '2025-0３-08' })).toEqual({ time_slots: [] })
    // A string is iterated by character (no one is busy); a number is not iterable.
    expect(await slots({ email_addresses: 'ana@acme.test' })).toEqual(wholeDay)
    await expect(slots({ email_addresses: 5 })).rejects.toThrow(/TypeError/)
    // Falsy emails return before anything else is read; a bad minimum or hour raises only once a day is built.
    expect(await slots({ email_addresses: 0, workday_start_time: 9, slot_minimum_minutes: 'x' })).toEqual({ time_slots: [] })
    await expect(slots({ slot_minimum_minutes: null })).rejects.toThrow(/TypeError/)
    expect(await slots({ start_date: '2025-03-09', slot_minimum_minutes: null, workday_start_time: '25:00' })).toEqual({ time_slots: [] })
    await expect(slots({ workday_start_time: '25:00' })).rejects.toThrow(/ValueError/)
  })

  it('ListEvents compares the bounds as text; Gmail reads only last_N_days; Jira reads only its four clauses', async () => {
    const events = (await call('GoogleCalendar_ListEvents', { min_end_datetime: '2025-03-04T', max_start_datetime: '2025-03-08', max_results: -1 })) as {
      events: Array<{ id: string }>
    }
    expect(events.events.map((e) => e.id)).toEqual(['V1', 'V2'])
    expect(await call('Gmail_SearchThreads', { date_range: 'last_7_days' })).toEqual({ thread_ids: [] })
    expect(await call('Gmail_SearchThreads', { date_range: 'yesterday', sender: 'ana', max_results: 'x' })).toEqual({ thread_ids: ['T1'] })
    expect(await call('Jira_SearchIssuesWithJql', { jql: 'assignee = "ana@acme.test" ORDER BY updated ASC', limit: 1 })).toEqual({
      issues: [
        {
          key: 'LCH-10',
          summary: 'Fix login crash',
          status: 'To Do',
          updated: '2025-03-02T10:00:00+09:00',
          fixVersions: [{ name: '1.0' }],
          project: { key: 'LCH' },
        },
        { key: 'LCH-2', summary: 'Write launch checklist', status: 'In Progress', updated: '2025-03-04T23:30:00Z', fixVersions: [], project: { key: 'LCH' } },
      ],
    })
    expect(await call('Jira_SearchIssuesWithJql', { jql: 'project=LCH and text ~ "LOGIN"' })).toMatchObject({ issues: [{ key: 'LCH-10' }] })
  })

  it('Drive and Gmail reads: whole-query substring, null for unknown ids', async () => {
    expect(await call('GoogleDrive_gdrive_search', { query: 'FREEZE THE' })).toEqual({
      files: [{ id: 'D1', name: 'Launch checklist', mimeType: 'text/plain' }],
    })
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

  it('int() of Unicode digits, ==, ordering, len(), iteration and a `[:limit]` slice on JSON values', () => {
    expect([pyInt('０９'), pyInt('١٠'), pyInt('\u3000+9\x85'), pyInt('9\x1c'), pyInt('1'.repeat(4300)) !== undefined, pyInt('1'.repeat(4301))]).toEqual([
      9,
      10,
      9,
      undefined,
      true,
      undefined,
    ])
    expect([pyEquals(true, 1), pyEquals([1, 'a'], [1.0, 'a']), pyEquals({ a: 1 }, { a: true }), pyEquals('1', 1)]).toEqual([true, true, true, false])
    expect(pyOrder(['a', 'b'], ['a', 'c'])).toBeLessThan(0)
    expect(pyOrder(false, 0.5)).toBeLessThan(0)
    expect(() => pyOrder('2025', 5)).toThrow(/TypeError/)
    expect(() => pyOrder(null, 0)).toThrow(/TypeError/)
    expect([pyLen('a\u{1F600}'), pyLen([1, 2]), pyLen({ a: 1 })]).toEqual([2, 2, 1])
    expect(() => pyLen(5)).toThrow(/TypeError/)
    expect([pyIterate('ab'), pyIterate({ x: 1 })]).toEqual([['a', 'b'], ['x']])
    expect([pyLimit([1, 2, 3], true), pyLimit([1, 2, 3], false), pyLimit([1, 2, 3], -1.5), pyLimit([1, 2, 3], null), pyLimit([1, 2, 3], 2)]).toEqual([
      [1],
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
      [1, 2],
    ])
    expect(() => pyLimit([1, 2, 3], 1.5)).toThrow(/slice indices/)
    expect(() => pyLimit([1, 2, 3], '2')).toThrow(/TypeError/)
  })
})
