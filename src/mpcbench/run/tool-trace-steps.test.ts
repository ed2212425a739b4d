import { describe, expect, it } from 'vitest'
import { functionNameOf, genericArgumentSummary, toolTraceSteps, upstreamArgumentSummary } from './tool-trace-steps.ts'

const ONE_TO_51 = Array.from({ length: 51 }, (_, i) => i + 1)

describe('upstreamArgumentSummary', () => {
  // Expected: what upstream's own summary code (evaluation/openai_agent_runner.py at eb0b7ca, run unchanged in
  // Python 3.11) wrote for the same tool name and arguments.
  it.each<[string, unknown, string]>([
    [
      'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
      { email_addresses: ['alice.kim@company.com', 'min.lee@company.com'], start_date: '2025-11-17', end_date: '2025-11-21', slot_minimum_minutes: 45 },
      "email_addresses=['alice.kim@company.com', 'min.lee@company.com']",
    ],
    ['GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', { start_date: '2025-11-17' }, 'email_addresses=[]'],
    ['GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', { email_addresses: null }, 'email_addresses=None'],
    [
      'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
      { email_addresses: ["o'brien@x.com", 'say "hi"@x.com', 'tab\there', 'é@ü.com'] },
      `email_addresses=["o'brien@x.com", 'say "hi"@x.com', 'tab\\there', 'é@ü.com']`,
    ],
    ['GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', { email_addresses: 'alice@company.com' }, 'email_addresses=alice@company.com'],
    [
      'Jira.SearchIssuesWithJql',
      { jql: 'project = APP AND status != "Done" ORDER BY updated DESC' },
      'jql=project = APP AND status != "Done" ORDER BY update...',
    ],
    ['Jira.SearchIssuesWithJql', { jql: '12345678901234567890123456789012345678901234567890' }, 'jql=12345678901234567890123456789012345678901234567890'],
    ['Jira.SearchIssuesWithJql', { jql: '123456789012345678901234567890123456789012345678901' }, 'jql=12345678901234567890123456789012345678901234567890...'],
    [
      'Jira.SearchIssuesWithJql',
      { jql: '日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語😀😀😀' },
      'jql=日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語😀😀😀',
    ],
    ['Jira.SearchIssuesWithJql', {}, 'jql='],
    ['Jira.SearchIssuesWithJql', { jql: ['a', 'b'] }, "jql=['a', 'b']"],
    ['Jira.SearchIssuesWithJql', { jql: ONE_TO_51 }, `jql=[${ONE_TO_51.slice(0, 50).join(', ')}]...`],
    ['Jira.SearchIssuesWithJql', { jql: { project: 'APP' } }, "jql={'project': 'APP'}"],
    ['GoogleCalendar.ListEvents', { min_end_datetime: '2025-11-09' }, 'min_end_datetime=2025-11-09, max_start_datetime='],
    [
      'GoogleCalendar.ListEvents',
      { min_end_datetime: '2025-11-09T00:00:00+09:00', max_start_datetime: '2025-11-16T00:00:00+09:00' },
      'min_end_datetime=2025-11-09T00:00:00+09:00, max_start_datetime=2025-11-16T00:00:00+09:00',
    ],
    ['GoogleCalendar.ListEvents', {}, 'min_end_datetime=, max_start_datetime='],
    ['GoogleCalendar.ListEvents', { min_end_datetime: null, max_start_datetime: 20251116 }, 'min_end_datetime=None, max_start_datetime=20251116'],
    ['Gmail.SearchThreads', { subject: 'release', sender: 'alice@company.com' }, 'subject=release, sender=alice@company.com'],
    ['Gmail.SearchThreads', { subject: 'release' }, 'subject=release'],
    ['Gmail.SearchThreads', { sender: 'alice@company.com', subject: '' }, 'sender=alice@company.com'],
    ['Gmail.SearchThreads', { date_range: 'last week' }, 'no filters'],
    ['Gmail.SearchThreads', { subject: null, sender: null }, 'no filters'],
    ['Gmail.SearchThreads', { subject: ['a'], sender: 0 }, "subject=['a']"],
    ['Gmail.SearchThreads', { subject: 0.5, sender: true }, 'subject=0.5, sender=True'],
    ['Gmail.GetThread', { thread_id: 'thread_1' }, 'thread_id=thread_1'],
    ['Gmail.GetThread', {}, 'thread_id='],
    ['GoogleDrive.gdrive_search', { query: 'weekly report' }, 'query=weekly report'],
    ['GoogleDrive.gdrive_search', { name: 'report' }, 'query='],
    ['GoogleDrive.gdrive_read_file', { file_id: 'doc_1' }, 'file_id=doc_1'],
    ['Slack.search_messages', { search_query: 'launch' }, 'search_query=launch'],
    ['Slack.search_messages', { query: 'launch' }, 'search_query='],
    ['Slack.search_messages', { search_query: 'it\'s "done"\n' }, 'search_query=it\'s "done"\n'],
    ['GoogleContacts.SearchContactsByName', { name: 'Alice Kim', limit: 5 }, 'name=Alice Kim'],
    ['GoogleContacts.SearchContactsByName', { name: { first: 'Alice' } }, "name={'first': 'Alice'}"],
    [
      'Calendar.Unknown',
      { a: 1, b: [true, false, null], c: { d: 1.5, e: "x'y" }, f: 1e-5 },
      `{'a': 1, 'b': [True, False, None], 'c': {'d': 1.5, 'e': "x'y"}, 'f': 1e-05}`,
    ],
    ['Calendar.Unknown', {}, '{}'],
  ])('%s %j → %s', (tool, args, expected) => {
    expect(upstreamArgumentSummary(tool, args)).toBe(expected)
  })

  it('prints values upstream could not summarize (its run failed on them) as Python str()', () => {
    expect(upstreamArgumentSummary('Jira.SearchIssuesWithJql', { jql: null })).toBe('jql=None')
    expect(upstreamArgumentSummary('Jira.SearchIssuesWithJql', { jql: 7 })).toBe('jql=7')
    expect(upstreamArgumentSummary('Gmail.GetThread', 'not json {')).toBe('not json {')
    expect(upstreamArgumentSummary('Gmail.GetThread', ['t1'])).toBe("['t1']")
  })
})

describe('toolTraceSteps', () => {
  const calls = [
    {
      name: 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
      arguments: { email_addresses: ['a@x.com', 'm@x.com'], start_date: '2025-11-17', slot_minimum_minutes: 45 },
    },
    { name: 'Jira.SearchIssuesWithJql', arguments: { jql: 'project = APP AND status != "Done" ORDER BY updated DESC' } },
  ]

  it("writes upstream's summaries for the upstream-v1 tools", () => {
    expect(toolTraceSteps(calls, 'upstream-v1')).toEqual([
      "Step 1: GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree(email_addresses=['a@x.com', 'm@x.com'])",
      'Step 2: Jira.SearchIssuesWithJql(jql=project = APP AND status != "Done" ORDER BY update...)',
    ])
  })

  it('writes every argument for the extended tools (their arguments are not upstream’s), or when no profile is known', () => {
    const extended = [
      'Step 1: GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree(email_addresses=["a@x.com","m@x.com"], start_date=\'2025-11-17\', slot_minimum_minutes=45)',
      'Step 2: Jira.SearchIssuesWithJql(jql=\'project = APP AND status != "Done" ORDER BY updated DESC\')',
    ]
    expect(toolTraceSteps(calls, 'extended')).toEqual(extended)
    expect(toolTraceSteps(calls, undefined)).toEqual(extended)
  })

  it('cuts a long generic value at 80 characters', () => {
    expect(genericArgumentSummary({ q: 'x'.repeat(100) })).toBe(`q='${'x'.repeat(76)}...`)
  })
})

describe('functionNameOf', () => {
  it("gives upstream's function names under upstream-v1 and our wire names otherwise", () => {
    expect(functionNameOf('GoogleDrive.gdrive_read_file', 'upstream-v1')).toBe('GoogleDrive_gdrive_read_file')
    expect(functionNameOf('GoogleDrive.gdrive_read_file', undefined)).toBe('GoogleDrive_gdrive_read_file')
    expect(functionNameOf('GoogleDrive.gdrive_read_file', 'extended')).toBe('GoogleDrive__gdrive_read_file')
    expect(functionNameOf('Foo.bar', 'upstream-v1')).toBe('Foo__bar')
  })
})
