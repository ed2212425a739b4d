import { describe, expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { toOpenAITool, toolTable } from '../../tools/define-tool.ts'
import { JqlError } from './jql/jql-error.ts'
import { WorkplaceToolError } from './tool-error.ts'
import { createWorkplaceTools } from './tool-profiles.ts'
import { completeScenarioIds, readUpstreamScenario } from './upstream-logs.ts'
import { SOURCES, sourceValidationErrors } from './validate-source.ts'
import { Workplace } from './workplace.ts'

const logDir = sharedDataPath('mpcbench', 'v1_eb0b7ca', 'generator', 'logs', 'llm')

function upstreamWorkplace(scenarioId: string, timezone?: string): Workplace {
  const { worldState, sources } = readUpstreamScenario(logDir, scenarioId)
  const global = worldState.global_settings as { timezone: string; workday_start: string; workday_end: string }
  return Workplace.fromSources(sources, { timezone: timezone ?? global.timezone, workdayStart: global.workday_start, workdayEnd: global.workday_end })
}

function call(workplace: Workplace, name: string, args: Record<string, unknown>): unknown {
  const tool = toolTable(createWorkplaceTools(workplace))[name.replaceAll('.', '__')]
  if (tool === undefined) throw new Error(`no tool ${name}`)
  return tool.handler(tool.parameters.parse(args), {})
}

describeWithSharedData('upstream MPCBench v1 generated sources', () => {
  const ids = completeScenarioIds(logDir)

  it('finds scenario_A and the 26 other scenarios with all seven logs', () => {
    expect(ids).toContain('scenario_A')
    expect(ids.filter((id) => id.startsWith('scenario_group'))).toHaveLength(21)
    expect(ids).toHaveLength(27)
  })

  // Every field upstream's gpt-5.1 output holds is accepted: our schemas list them all
  // (free_busy in calendar, thread_ts in Slack, phone/organization in contacts, mimeType in drive).
  // The list of upstream fields we do not accept is therefore empty for every scenario.
  describe.each(ids)('%s', (scenarioId) => {
    it('validates against our six schemas and loads into the ToolBackend', () => {
      const { sources } = readUpstreamScenario(logDir, scenarioId)
      const errors = SOURCES.flatMap((source) => sourceValidationErrors(source, sources[source]).map((e) => `${source}: ${e}`))
      expect(errors).toEqual([])
      const workplace = upstreamWorkplace(scenarioId)
      expect(workplace.events.length + workplace.slackMessages.length).toBeGreaterThan(0)
      expect(createWorkplaceTools(workplace).map((tool) => toOpenAITool(tool).function.name)).toContain('Slack__search_messages')
    })
  })
})

describeWithSharedData('workplace tools on upstream scenario_A (Asia/Seoul)', () => {
  const workplace = upstreamWorkplace('scenario_A')

  describe('GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', () => {
    const base = {
      email_addresses: ['tom@partner.co', 'alice.kim@company.com', 'min.lee@company.com'],
      date_range_start: '2025-11-17',
      date_range_end: '2025-11-21',
      workday_start_time: '09:00',
      workday_end_time: '18:00',
      slot_minimum_minutes: 45,
    }

    it('finds the hand-computed free slots of Tom, Alice and Min', () => {
      // Busy intervals (events where they attend, plus free_busy, all KST):
      //   Mon 11-17: Alice+Min lunch 12:15-13:00
      //   Tue 11-18: Tom 09:45-10:15 (CS handoff); Tom+Alice 10:30-11:00 (ETA check-in); Alice+Min 16:00-16:30 (policy read)
      //   Wed 11-19: Alice+Min 16:00-16:30 (code review)   [Dana's 11:30 expense call does not count]
      //   Thu 11-20: Alice+Min 09:00-09:15 (VPN briefing); all 15:00-15:45 (planning sync)
      //   Fri 11-21: all 10:30-11:00 (weekly sync)
      // Gaps inside 09:00-18:00 of at least 45 min; Tue 10:15-10:30 (15 min) is too short.
      const slot = (day: string, start: string, end: string) => ({ start: `2025-11-${day}T${start}:00+09:00`, end: `2025-11-${day}T${end}:00+09:00` })
      expect(call(workplace, 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', base)).toEqual({
        time_slots: [
          slot('17', '09:00', '12:15'),
          slot('17', '13:00', '18:00'),
          slot('18', '09:00', '09:45'),
          slot('18', '11:00', '16:00'),
          slot('18', '16:30', '18:00'),
          slot('19', '09:00', '16:00'),
          slot('19', '16:30', '18:00'),
          slot('20', '09:15', '15:00'),
          slot('20', '15:45', '18:00'),
          slot('21', '09:00', '10:30'),
          slot('21', '11:00', '18:00'),
        ],
        timezone: 'Asia/Seoul',
        unknown_emails: [],
      })
    })

    it('drops slots shorter than slot_minimum_minutes and adds the busy times of another participant', () => {
      // 60 min: Tue 09:00-09:45 goes. Adding Dana: Tue 09:45-10:15, 10:30-11:00, 16:00-16:30 are already busy;
      // her Wed 11:30-11:45 splits Wed 09:00-16:00 into 09:00-11:30 and 11:45-16:00; Thu/Fri add nothing new.
      const result = call(workplace, 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', {
        ...base,
        email_addresses: [...base.email_addresses, 'Dana.Choi@company.com'],
        date_range_start: '2025-11-18',
        date_range_end: '2025-11-19',
        slot_minimum_minutes: 60,
      }) as { time_slots: Array<{ start: string; end: string }> }
      expect(result.time_slots.map((s) => `${s.start.slice(5, 16)}-${s.end.slice(11, 16)}`)).toEqual([
        '11-18T11:00-16:00',
        '11-18T16:30-18:00',
        '11-19T09:00-11:30',
        '11-19T11:45-16:00',
        '11-19T16:30-18:00',
      ])
    })

    it('skips the weekend and reports addresses without a calendar', () => {
      const result = call(workplace, 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', {
        ...base,
        email_addresses: ['tom@partner.co', 'nobody@example.com'],
        date_range_start: '2025-11-22',
        date_range_end: '2025-11-23',
      })
      expect(result).toEqual({ time_slots: [], timezone: 'Asia/Seoul', unknown_emails: ['nobody@example.com'] })
    })

    it('rejects an empty participant list and a workday that ends before it starts', () => {
      expect(() => call(workplace, 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', { ...base, email_addresses: [] })).toThrow(WorkplaceToolError)
      expect(() =>
        call(workplace, 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree', { ...base, workday_start_time: '18:00', workday_end_time: '09:00' }),
      ).toThrow(/workday_end_time 09:00 is not after workday_start_time 18:00/)
    })
  })

  it('ListEvents returns the events of one local day, earliest first', () => {
    const result = call(workplace, 'GoogleCalendar.ListEvents', { min_date: '2025-11-18', max_date: '2025-11-18' }) as { events: Array<{ id: string }> }
    expect(result.events.map((e) => e.id)).toEqual(['evt_cs_handoff_finsync', 'evt_qna_feature_x_eta', 'evt_hr_policy_read_time'])
  })

  describe('Slack.search_messages', () => {
    const ids = (query: string, tz?: string) =>
      (
        call(tz === undefined ? workplace : upstreamWorkplace('scenario_A', tz), 'Slack.search_messages', { query }) as { messages: Array<{ id: string }> }
      ).messages.map((m) => m.id)

    it('combines from:, in: and after: (after a date = from the next local day), newest first', () => {
      expect(ids('from:@tom in:#proj-api-launch after:2025-11-17')).toEqual(['M020', 'M017', 'M016', 'M014'])
    })

    it('matches words by prefix, phrases, OR and exclusion', () => {
      expect(ids('jjajangmyeon OR carbs')).toEqual(['M008', 'M007'])
      expect(ids('APP-412 in:cs-eng-handoff')).toEqual(['M012', 'M011', 'M010', 'M009'])
      expect(ids('APP-412 in:cs-eng-handoff -FinSync')).toEqual(['M012', 'M011', 'M010'])
      expect(ids('"remote work" -policy')).toEqual([])
      expect(ids('from:alice.kim@company.com invite')).toEqual(['M005'])
    })

    it('reads before:/on: dates in the scenario time zone', () => {
      // M021 is 2025-11-17T09:30+09:00, i.e. 2025-11-16 19:30 in New York.
      expect(ids('on:2025-11-16')).toEqual([])
      expect(ids('before:2025-11-17')).toEqual([])
      expect(ids('on:2025-11-16', 'America/New_York')).toHaveLength(11)
      expect(ids('on:2025-11-16 from:dana', 'America/New_York')).toEqual(['M021'])
    })

    it('rejects unknown users, channels and unsupported modifiers', () => {
      expect(() => ids('from:@zed')).toThrow(/no Slack user matches from:@zed/)
      expect(() => ids('in:#random-stuff')).toThrow(/no Slack channel matches/)
      expect(() => ids('from:@tom has:calendar')).toThrow(/modifier has: is not supported/)
      expect(() => ids('before:next-week')).toThrow(/before: needs a date as YYYY-MM-DD/)
    })
  })

  describe('Jira.SearchIssuesWithJql', () => {
    const keys = (jql: string) => (call(workplace, 'Jira.SearchIssuesWithJql', { jql }) as { issues: Array<{ key: string }> }).issues.map((i) => i.key)

    it('runs the upstream example query: text search with ORDER BY updated DESC (ties keep data order)', () => {
      expect(keys('project = APP AND text ~ "feature X" ORDER BY updated DESC')).toEqual(['APP-431', 'CS-9821', 'APP-412', 'APP-432'])
    })

    it('reads date-only bounds as whole days in the scenario zone', () => {
      expect(keys('project = APP AND updated >= "2025-11-18" AND updated <= "2025-11-18"')).toEqual(['APP-410', 'APP-412', 'APP-432', 'CS-9821'])
      // "now" is the latest timestamp in the data: the last Gmail message, 2025-11-21T11:32+09:00.
      expect(keys('updated >= -1d')).toEqual(['APP-431', 'APP-433'])
    })

    it('supports IN, NOT IN, != and key lookups', () => {
      expect(keys('status IN ("Done", "In QA") ORDER BY key ASC')).toEqual(['APP-410', 'APP-412', 'APP-433', 'HR-204'])
      expect(keys('fixVersion = "API Launch 2025-11-28" AND status != Done')).toEqual(['APP-412', 'APP-430', 'APP-431', 'APP-432'])
      expect(keys('project NOT IN (APP, MOB)')).toEqual(['HR-204', 'FIN-7741', 'IT-882'])
      expect(keys('key = app-412')).toEqual(['APP-412'])
      expect(keys('(status = Done OR status = Planned) AND NOT project = APP')).toEqual(['HR-204', 'IT-882'])
    })

    it('throws a JqlError naming the unsupported part', () => {
      expect(() => keys('sprint = 5')).toThrow(JqlError)
      expect(() => keys('project = APP AND assignee WAS alice')).toThrow(/Unsupported operator WAS: `WAS` at position 27/)
    })
  })

  describe('Gmail', () => {
    it('SearchThreads filters by sender, subject words and a relative range ending at the data\'s "now"', () => {
      const ids = (args: Record<string, unknown>) => (call(workplace, 'Gmail.SearchThreads', args) as { thread_ids: string[] }).thread_ids
      // The ETA thread's subject ("Re: ETA for Feature X in API Launch") matches too: Tom wrote its second message.
      expect(ids({ sender: 'tom@partner.co', subject: 'API Launch' })).toEqual([
        'thread_weekly_update_api_launch',
        'thread_feature_eta_finsync',
        'thread_planning_meeting_api_launch',
      ])
      expect(ids({ sender: 'Tom Park', subject: 'planning sync' })).toEqual(['thread_planning_meeting_api_launch'])
      expect(ids({ sender: '@finsync.io' })).toEqual(['thread_feature_eta_finsync'])
      expect(ids({ date_range: 'last_2_days' })).toEqual(['thread_weekly_update_api_launch', 'thread_it_vpn_maintenance'])
      expect(ids({ subject: 'remote policy', date_range: '2025-11-16' })).toEqual(['thread_hr_remote_policy'])
      expect(() => ids({ date_range: 'since the launch' })).toThrow(WorkplaceToolError)
    })

    it('GetThread returns every message oldest first, and throws on an unknown id', () => {
      const result = call(workplace, 'Gmail.GetThread', { thread_id: 'thread_it_vpn_maintenance' }) as { thread: { messages: Array<{ id: string }> } }
      expect(result.thread.messages.map((m) => m.id)).toEqual(['msg_it_1_from_it', 'msg_it_2_from_alice', 'msg_it_3_from_it_reply'])
      expect(() => call(workplace, 'Gmail.GetThread', { thread_id: 'thread_nope' })).toThrow(/Gmail.GetThread: no thread with id "thread_nope"/)
    })
  })

  describe('Contacts and Drive', () => {
    it('SearchContactsByName matches name words in any order, by prefix, or an exact email', () => {
      const names = (name: string) =>
        (call(workplace, 'GoogleContacts.SearchContactsByName', { name }) as { contacts: Array<{ name: string }> }).contacts.map((c) => c.name)
      expect(names('Park Tom')).toEqual(['Tom Park'])
      expect(names('ali')).toEqual(['Alice Kim'])
      expect(names('devops@finsync.io')).toEqual(['Jin'])
      expect(names('Nobody Here')).toEqual([])
    })

    it('gdrive_search by name words and Drive query syntax, then gdrive_read_file', () => {
      const files = (args: Record<string, unknown>) =>
        (call(workplace, 'GoogleDrive.gdrive_search', args) as { files: Array<{ id: string }> }).files.map((f) => f.id)
      expect(files({ name: 'Weekly Update' })).toEqual(['doc_weekly_api_launch_update_2025_11_21'])
      expect(files({ query: "name contains 'Runbook'" })).toEqual(['doc_api_launch_runbook_2025_11_28'])
      const read = call(workplace, 'GoogleDrive.gdrive_read_file', { file_id: 'doc_api_launch_runbook_2025_11_28' }) as { file: { content: string } }
      expect(read.file.content).toMatch(/^API Launch Runbook/)
      expect(() => call(workplace, 'GoogleDrive.gdrive_read_file', { file_id: 'nope' })).toThrow(WorkplaceToolError)
    })
  })
})
