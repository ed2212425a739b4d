import { expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../../testing/shared-data.ts'
import { toolTable } from '../../../tools/define-tool.ts'
import { executeToolCall } from '../../../tools/execute-tool-call.ts'
import { createWorkplaceTools } from '../tool-profiles.ts'
import { readUpstreamScenario } from '../upstream-logs.ts'
import { Workplace } from '../workplace.ts'

/**
 * One call whose arguments are not the shape upstream's tool spec declares (floats, bools, negative numbers, strings
 * where numbers go, full-width and Arabic-Indic digits, null, empty strings, lists, dicts), on `scenario_A`, and what
 * upstream's own backend did with it.
 */
type ShapeCase = {
  /** Wire name of the tool. */
  tool: string
  label: string
  /** The arguments' JSON text, as a model sends it. */
  args: string
} & (
  | {
      /** The tool message upstream sent: `json.dumps(result, ensure_ascii=False)`. */
      expected: string
    }
  | {
      /** The exception upstream's Python raised instead (its run crashed): ours must fail the call. */
      raises: 'AttributeError' | 'TypeError' | 'ValueError' | 'OverflowError'
    }
)

// Captured by running upstream's `evaluation/tool_backend.py` at commit eb0b7ca (`ToolBackend.call_tool`, Python
// 3.11.7) on scenario_A's data rebuilt from `v1_eb0b7ca/generator/logs/llm` as `tool-oracle/README.md` describes.
// Results that read today's date (`date_range`) hold for any date between 2025-12 and year 2190.
const CASES: ShapeCase[] = [
  { tool: 'Slack_search_messages', label: 'search_query null', args: '{"search_query": null}', raises: 'AttributeError' },
  { tool: 'Slack_search_messages', label: 'search_query 5', args: '{"search_query": 5}', raises: 'AttributeError' },
  { tool: 'Slack_search_messages', label: 'search_query true', args: '{"search_query": true}', raises: 'AttributeError' },
  { tool: 'Slack_search_messages', label: 'search_query false', args: '{"search_query": false}', raises: 'AttributeError' },
  { tool: 'Slack_search_messages', label: 'search_query []', args: '{"search_query": []}', raises: 'AttributeError' },
  { tool: 'Slack_search_messages', label: 'search_query ["sync"]', args: '{"search_query": ["sync"]}', raises: 'AttributeError' },
  { tool: 'Slack_search_messages', label: 'search_query {}', args: '{"search_query": {}}', raises: 'AttributeError' },
  { tool: 'Slack_search_messages', label: 'search_query ""', args: '{"search_query": ""}', expected: '{"matches": []}' },
  { tool: 'Slack_search_messages', label: 'search_query full-width "ＡＰＩ"', args: '{"search_query": "ＡＰＩ"}', expected: '{"matches": []}' },
  { tool: 'Slack_search_messages', label: 'search_query full-width digits "２０２５"', args: '{"search_query": "２０２５"}', expected: '{"matches": []}' },
  { tool: 'Slack_search_messages', label: 'search_query "lunch\\u3000zzzz"', args: '{"search_query": "lunch\u3000zzzz"}', expected: '{"matches": []}' },
  {
    tool: 'GoogleContacts_SearchContactsByName',
    label: 'limit null',
    args: '{"name": "a", "limit": null}',
    expected:
      '{"contacts": [{"name": "Tom Park", "emails": ["tom@partner.co"]}, {"name": "Alice Kim", "emails": ["alice.kim@company.com"]}, {"name": "Dana Choi", "emails": ["dana.choi@company.com"]}, {"name": "HR Team", "emails": ["hr@company.com"]}]}',
  },
  {
    tool: 'GoogleContacts_SearchContactsByName',
    label: 'limit 0',
    args: '{"name": "a", "limit": 0}',
    expected:
      '{"contacts": [{"name": "Tom Park", "emails": ["tom@partner.co"]}, {"name": "Alice Kim", "emails": ["alice.kim@company.com"]}, {"name": "Dana Choi", "emails": ["dana.choi@company.com"]}, {"name": "HR Team", "emails": ["hr@company.com"]}]}',
  },
  {
    tool: 'GoogleContacts_SearchContactsByName',
    label: 'limit false',
    args: '{"name": "a", "limit": false}',
    expected:
      '{"contacts": [{"name": "Tom Park", "emails": ["tom@partner.co"]}, {"name": "Alice Kim", "emails": ["alice.kim@company.com"]}, {"name": "Dana Choi", "emails": ["dana.choi@company.com"]}, {"name": "HR Team", "emails": ["hr@company.com"]}]}',
  },
  {
    tool: 'GoogleContacts_SearchContactsByName',
    label: 'limit true',
    args: '{"name": "a", "limit": true}',
    expected: '{"contacts": [{"name": "Tom Park", "emails": ["tom@partner.co"]}]}',
  },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit ""', args: '{"name": "a", "limit": ""}', raises: 'TypeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit []', args: '{"name": "a", "limit": []}', raises: 'TypeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit {}', args: '{"name": "a", "limit": {}}', raises: 'TypeError' },
  {
    tool: 'GoogleContacts_SearchContactsByName',
    label: 'limit -1',
    args: '{"name": "a", "limit": -1}',
    expected:
      '{"contacts": [{"name": "Tom Park", "emails": ["tom@partner.co"]}, {"name": "Alice Kim", "emails": ["alice.kim@company.com"]}, {"name": "Dana Choi", "emails": ["dana.choi@company.com"]}, {"name": "HR Team", "emails": ["hr@company.com"]}]}',
  },
  {
    tool: 'GoogleContacts_SearchContactsByName',
    label: 'limit -1.5',
    args: '{"name": "a", "limit": -1.5}',
    expected:
      '{"contacts": [{"name": "Tom Park", "emails": ["tom@partner.co"]}, {"name": "Alice Kim", "emails": ["alice.kim@company.com"]}, {"name": "Dana Choi", "emails": ["dana.choi@company.com"]}, {"name": "HR Team", "emails": ["hr@company.com"]}]}',
  },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit 0.5', args: '{"name": "a", "limit": 0.5}', raises: 'TypeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit 2.5', args: '{"name": "a", "limit": 2.5}', raises: 'TypeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit "2"', args: '{"name": "a", "limit": "2"}', raises: 'TypeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit "x"', args: '{"name": "a", "limit": "x"}', raises: 'TypeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit ["x"]', args: '{"name": "a", "limit": ["x"]}', raises: 'TypeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit {"a": 1}', args: '{"name": "a", "limit": {"a": 1}}', raises: 'TypeError' },
  {
    tool: 'GoogleContacts_SearchContactsByName',
    label: 'limit 2',
    args: '{"name": "a", "limit": 2}',
    expected: '{"contacts": [{"name": "Tom Park", "emails": ["tom@partner.co"]}, {"name": "Alice Kim", "emails": ["alice.kim@company.com"]}]}',
  },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit "２"', args: '{"name": "a", "limit": "２"}', raises: 'TypeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'name null', args: '{"name": null}', raises: 'AttributeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'name 0', args: '{"name": 0}', raises: 'AttributeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'name false', args: '{"name": false}', raises: 'AttributeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'name []', args: '{"name": []}', raises: 'AttributeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'name 5', args: '{"name": 5}', raises: 'AttributeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'name ["Tom"]', args: '{"name": ["Tom"]}', raises: 'AttributeError' },
  {
    tool: 'GoogleContacts_SearchContactsByName',
    label: 'name "" with limit "x" (no limit read)',
    args: '{"name": "", "limit": "x"}',
    expected: '{"contacts": []}',
  },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'name with no match, limit "x"', args: '{"name": "zzzz", "limit": "x"}', raises: 'TypeError' },
  { tool: 'GoogleContacts_SearchContactsByName', label: 'limit 1e400 (inf)', args: '{"name": "a", "limit": 1e400}', raises: 'TypeError' },
  {
    tool: 'GoogleContacts_SearchContactsByName',
    label: 'limit -1e400 (-inf)',
    args: '{"name": "a", "limit": -1e400}',
    expected:
      '{"contacts": [{"name": "Tom Park", "emails": ["tom@partner.co"]}, {"name": "Alice Kim", "emails": ["alice.kim@company.com"]}, {"name": "Dana Choi", "emails": ["dana.choi@company.com"]}, {"name": "HR Team", "emails": ["hr@company.com"]}]}',
  },
  {
    tool: 'GoogleContacts_SearchContactsByName',
    label: 'limit 3 with -0',
    args: '{"name": "a", "limit": -0}',
    expected:
      '{"contacts": [{"name": "Tom Park", "emails": ["tom@partner.co"]}, {"name": "Alice Kim", "emails": ["alice.kim@company.com"]}, {"name": "Dana Choi", "emails": ["dana.choi@company.com"]}, {"name": "HR Team", "emails": ["hr@company.com"]}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes 45.5',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": 45.5}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes 90.5',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": 90.5}',
    expected: '{"time_slots": [{"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes 89.5',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": 89.5}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes 90',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": 90}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes 420.5',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": 420.5}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes 0.5',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": 0.5}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes -5.5',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": -5.5}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes true',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": true}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes false',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": false}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes null',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": null}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes "30"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": "30"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes []',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": []}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes {}',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": {}}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes [30]',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": [30]}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes 1e400 (inf)',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "slot_minimum_minutes": 1e400}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes null, start after end (no gap compared)',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-19", "end_date": "2025-11-18", "slot_minimum_minutes": null}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes "x", bad date (no gap compared)',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025/11/18", "end_date": "2025-11-18", "slot_minimum_minutes": "x"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'slot_minimum_minutes null, workday 10:00-10:00 (no gap)',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "10:00", "workday_end_time": "10:00", "slot_minimum_minutes": null}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "０９:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "０９:00"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "09:３0"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "09:３0"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:30:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "١٠:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "١٠:00"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T10:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time " 9 : 30 "',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": " 9 : 30 "}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:30:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "+9:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "+9:00"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "0_9:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "0_9:00"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "9\\u3000:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "9\u3000:00"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "9\\x1c:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "9\\u001c:00"}',
    raises: 'ValueError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "9:00:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "9:00:00"}',
    raises: 'ValueError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "25:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "25:00"}',
    raises: 'ValueError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "-1:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "-1:00"}',
    raises: 'ValueError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "9:60"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "9:60"}',
    raises: 'ValueError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time null',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": null}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time 0',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": 0}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time false',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": false}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time []',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": []}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time {}',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": {}}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time 9',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": 9}',
    raises: 'AttributeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time true',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": true}',
    raises: 'AttributeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time ["09:00"]',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": ["09:00"]}',
    raises: 'AttributeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "9.5:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_start_time": "9.5:00"}',
    raises: 'ValueError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_end_time "１７:00"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18", "workday_end_time": "１７:00"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T17:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "25:00", start after end (no day built)',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-19", "end_date": "2025-11-18", "workday_start_time": "25:00"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'workday_start_time "25:00", bad date',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-13-01", "end_date": "2025-11-18", "workday_start_time": "25:00"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "２０２５-11-18"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "２０２５-11-18", "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "2025-11-1８"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-1８", "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "2025-1１-18"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-1１-18", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "2025-11-١٨"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-١٨", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "٢٠٢٥-11-18"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "٢٠٢٥-11-18", "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "2025-1-018"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-1-018", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "2025-11-18 "',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18 ", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date null',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": null, "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-17T09:00:00+09:00", "end": "2025-11-17T12:15:00+09:00"}, {"start": "2025-11-17T13:00:00+09:00", "end": "2025-11-17T18:00:00+09:00"}, {"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date 0',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": 0, "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-17T09:00:00+09:00", "end": "2025-11-17T12:15:00+09:00"}, {"start": "2025-11-17T13:00:00+09:00", "end": "2025-11-17T18:00:00+09:00"}, {"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date false',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": false, "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-17T09:00:00+09:00", "end": "2025-11-17T12:15:00+09:00"}, {"start": "2025-11-17T13:00:00+09:00", "end": "2025-11-17T18:00:00+09:00"}, {"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date []',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": [], "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-17T09:00:00+09:00", "end": "2025-11-17T12:15:00+09:00"}, {"start": "2025-11-17T13:00:00+09:00", "end": "2025-11-17T18:00:00+09:00"}, {"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date {}',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": {}, "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-17T09:00:00+09:00", "end": "2025-11-17T12:15:00+09:00"}, {"start": "2025-11-17T13:00:00+09:00", "end": "2025-11-17T18:00:00+09:00"}, {"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date 20251118',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": 20251118, "end_date": "2025-11-18"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date true',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": true, "end_date": "2025-11-18"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date 1.5',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": 1.5, "end_date": "2025-11-18"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date ["2025-11-18"]',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": ["2025-11-18"], "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date {"a": 1}',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": {"a": 1}, "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date list of 10 chars',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": ["2", "0", "2", "5", "-", "1", "1", "-", "1", "8"], "end_date": "2025-11-18"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date list of 10 items, one "-"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": ["2", "0", "2", "5", "-", "1", "1", "1", "1", "8"], "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date dict of 10 keys',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": {"0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9}, "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "0000-01-01"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "0000-01-01", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "2025-02-29"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-02-29", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'end_date "２０２５-11-18"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "２０２５-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'end_date 5',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": 5}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'end_date {}',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": {}}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}, {"start": "2025-11-19T09:00:00+09:00", "end": "2025-11-19T16:00:00+09:00"}, {"start": "2025-11-19T16:30:00+09:00", "end": "2025-11-19T18:00:00+09:00"}, {"start": "2025-11-20T09:15:00+09:00", "end": "2025-11-20T15:00:00+09:00"}, {"start": "2025-11-20T15:45:00+09:00", "end": "2025-11-20T18:00:00+09:00"}, {"start": "2025-11-21T09:00:00+09:00", "end": "2025-11-21T10:30:00+09:00"}, {"start": "2025-11-21T11:00:00+09:00", "end": "2025-11-21T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'end_date null',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": null}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}, {"start": "2025-11-19T09:00:00+09:00", "end": "2025-11-19T16:00:00+09:00"}, {"start": "2025-11-19T16:30:00+09:00", "end": "2025-11-19T18:00:00+09:00"}, {"start": "2025-11-20T09:15:00+09:00", "end": "2025-11-20T15:00:00+09:00"}, {"start": "2025-11-20T15:45:00+09:00", "end": "2025-11-20T18:00:00+09:00"}, {"start": "2025-11-21T09:00:00+09:00", "end": "2025-11-21T10:30:00+09:00"}, {"start": "2025-11-21T11:00:00+09:00", "end": "2025-11-21T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'end_date "2025-11-1７"',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-1７"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "2025-11- 8" (strptime reads " 8")',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "2025-11- 8", "end_date": "2025-11-08"}',
    expected: '{"time_slots": [{"start": "2025-11-08T09:00:00+09:00", "end": "2025-11-08T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date 0 falls back to date_range_start',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": 0, "end_date": "2025-11-20", "date_range_start": "2025-11-20"}',
    expected:
      '{"time_slots": [{"start": "2025-11-20T09:15:00+09:00", "end": "2025-11-20T15:00:00+09:00"}, {"start": "2025-11-20T15:45:00+09:00", "end": "2025-11-20T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date false, date_range_start 5 (a number)',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": false, "end_date": "2025-11-18", "date_range_start": 5}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start_date "bad", end_date 5 (start returns first)',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "bad", "end_date": 5}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'start 9999-12-31 to 9999-12-31 (date overflow after the day)',
    args: '{"email_addresses": ["alice.kim@company.com", "min.lee@company.com"], "start_date": "9999-12-31", "end_date": "9999-12-31"}',
    raises: 'OverflowError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses a string',
    args: '{"email_addresses": "alice.kim@company.com", "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected: '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses a dict of emails',
    args: '{"email_addresses": {"alice.kim@company.com": 1, "min.lee@company.com": 2}, "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses [1, null, true]',
    args: '{"email_addresses": [1, null, true], "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected: '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses [[x]]',
    args: '{"email_addresses": [["x"]], "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses [{}]',
    args: '{"email_addresses": [{}], "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses 5',
    args: '{"email_addresses": 5, "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses true',
    args: '{"email_addresses": true, "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses 0',
    args: '{"email_addresses": 0, "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses false',
    args: '{"email_addresses": false, "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses ""',
    args: '{"email_addresses": "", "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses {}',
    args: '{"email_addresses": {}, "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses null',
    args: '{"email_addresses": null, "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses [alice, 1.5]',
    args: '{"email_addresses": ["alice.kim@company.com", 1.5], "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses [alice, alice]',
    args: '{"email_addresses": ["alice.kim@company.com", "alice.kim@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected:
      '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T10:30:00+09:00"}, {"start": "2025-11-18T11:00:00+09:00", "end": "2025-11-18T16:00:00+09:00"}, {"start": "2025-11-18T16:30:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses [ＡＬＩＣＥ (full-width)]',
    args: '{"email_addresses": ["ａｌｉｃｅ.kim@company.com"], "start_date": "2025-11-18", "end_date": "2025-11-18"}',
    expected: '{"time_slots": [{"start": "2025-11-18T09:00:00+09:00", "end": "2025-11-18T18:00:00+09:00"}]}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses [] with every other argument invalid',
    args: '{"email_addresses": [], "start_date": 5, "workday_start_time": 9, "slot_minimum_minutes": "x"}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    label: 'email_addresses 0 with workday true',
    args: '{"email_addresses": 0, "workday_start_time": true}',
    expected: '{"time_slots": []}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime null',
    args: '{"min_end_datetime": null, "max_start_datetime": "2025-11-17T23"}',
    expected:
      '{"events": [{"id": "evt_lunch_jjajangmyeon", "title": "Lunch – jjajangmyeon", "start": "2025-11-17T12:15:00+09:00", "end": "2025-11-17T13:00:00+09:00", "attendees": [{"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime 0',
    args: '{"min_end_datetime": 0, "max_start_datetime": "2025-11-17T23"}',
    expected:
      '{"events": [{"id": "evt_lunch_jjajangmyeon", "title": "Lunch – jjajangmyeon", "start": "2025-11-17T12:15:00+09:00", "end": "2025-11-17T13:00:00+09:00", "attendees": [{"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime false',
    args: '{"min_end_datetime": false, "max_start_datetime": "2025-11-17T23"}',
    expected:
      '{"events": [{"id": "evt_lunch_jjajangmyeon", "title": "Lunch – jjajangmyeon", "start": "2025-11-17T12:15:00+09:00", "end": "2025-11-17T13:00:00+09:00", "attendees": [{"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime true',
    args: '{"min_end_datetime": true, "max_start_datetime": "2025-11-17T23"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime ""',
    args: '{"min_end_datetime": "", "max_start_datetime": "2025-11-17T23"}',
    expected:
      '{"events": [{"id": "evt_lunch_jjajangmyeon", "title": "Lunch – jjajangmyeon", "start": "2025-11-17T12:15:00+09:00", "end": "2025-11-17T13:00:00+09:00", "attendees": [{"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime []',
    args: '{"min_end_datetime": [], "max_start_datetime": "2025-11-17T23"}',
    expected:
      '{"events": [{"id": "evt_lunch_jjajangmyeon", "title": "Lunch – jjajangmyeon", "start": "2025-11-17T12:15:00+09:00", "end": "2025-11-17T13:00:00+09:00", "attendees": [{"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime {}',
    args: '{"min_end_datetime": {}, "max_start_datetime": "2025-11-17T23"}',
    expected:
      '{"events": [{"id": "evt_lunch_jjajangmyeon", "title": "Lunch – jjajangmyeon", "start": "2025-11-17T12:15:00+09:00", "end": "2025-11-17T13:00:00+09:00", "attendees": [{"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime -1',
    args: '{"min_end_datetime": -1, "max_start_datetime": "2025-11-17T23"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime -1.5',
    args: '{"min_end_datetime": -1.5, "max_start_datetime": "2025-11-17T23"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime 0.5',
    args: '{"min_end_datetime": 0.5, "max_start_datetime": "2025-11-17T23"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime 2.5',
    args: '{"min_end_datetime": 2.5, "max_start_datetime": "2025-11-17T23"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime "2"',
    args: '{"min_end_datetime": "2", "max_start_datetime": "2025-11-17T23"}',
    expected:
      '{"events": [{"id": "evt_lunch_jjajangmyeon", "title": "Lunch – jjajangmyeon", "start": "2025-11-17T12:15:00+09:00", "end": "2025-11-17T13:00:00+09:00", "attendees": [{"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime "x"',
    args: '{"min_end_datetime": "x", "max_start_datetime": "2025-11-17T23"}',
    expected: '{"events": []}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime ["x"]',
    args: '{"min_end_datetime": ["x"], "max_start_datetime": "2025-11-17T23"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime {"a": 1}',
    args: '{"min_end_datetime": {"a": 1}, "max_start_datetime": "2025-11-17T23"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime 2',
    args: '{"min_end_datetime": 2, "max_start_datetime": "2025-11-17T23"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime "２"',
    args: '{"min_end_datetime": "２", "max_start_datetime": "2025-11-17T23"}',
    expected: '{"events": []}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime "２０２５-11-20"',
    args: '{"min_end_datetime": "２０２５-11-20", "max_start_datetime": "2025-11-17T23"}',
    expected: '{"events": []}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'min_end_datetime 1e400',
    args: '{"min_end_datetime": 1e400, "max_start_datetime": "2025-11-17T23"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime null',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": null}',
    expected:
      '{"events": [{"id": "evt_weekly_sync_pm_eng", "title": "API Launch Weekly PM-Eng Sync", "start": "2025-11-21T10:30:00+09:00", "end": "2025-11-21T11:00:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime 0',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": 0}',
    expected:
      '{"events": [{"id": "evt_weekly_sync_pm_eng", "title": "API Launch Weekly PM-Eng Sync", "start": "2025-11-21T10:30:00+09:00", "end": "2025-11-21T11:00:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime false',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": false}',
    expected:
      '{"events": [{"id": "evt_weekly_sync_pm_eng", "title": "API Launch Weekly PM-Eng Sync", "start": "2025-11-21T10:30:00+09:00", "end": "2025-11-21T11:00:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime true',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": true}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime ""',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": ""}',
    expected:
      '{"events": [{"id": "evt_weekly_sync_pm_eng", "title": "API Launch Weekly PM-Eng Sync", "start": "2025-11-21T10:30:00+09:00", "end": "2025-11-21T11:00:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime []',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": []}',
    expected:
      '{"events": [{"id": "evt_weekly_sync_pm_eng", "title": "API Launch Weekly PM-Eng Sync", "start": "2025-11-21T10:30:00+09:00", "end": "2025-11-21T11:00:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime {}',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": {}}',
    expected:
      '{"events": [{"id": "evt_weekly_sync_pm_eng", "title": "API Launch Weekly PM-Eng Sync", "start": "2025-11-21T10:30:00+09:00", "end": "2025-11-21T11:00:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime -1',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": -1}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime -1.5',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": -1.5}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime 0.5',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": 0.5}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime 2.5',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": 2.5}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime "2"',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": "2"}',
    expected: '{"events": []}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime "x"',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": "x"}',
    expected:
      '{"events": [{"id": "evt_weekly_sync_pm_eng", "title": "API Launch Weekly PM-Eng Sync", "start": "2025-11-21T10:30:00+09:00", "end": "2025-11-21T11:00:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime ["x"]',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": ["x"]}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime {"a": 1}',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": {"a": 1}}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime 2',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": 2}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime "２"',
    args: '{"min_end_datetime": "2025-11-21", "max_start_datetime": "２"}',
    expected:
      '{"events": [{"id": "evt_weekly_sync_pm_eng", "title": "API Launch Weekly PM-Eng Sync", "start": "2025-11-21T10:30:00+09:00", "end": "2025-11-21T11:00:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_start_datetime 5 after a min that keeps no event',
    args: '{"min_end_datetime": "9999", "max_start_datetime": 5}',
    expected: '{"events": []}',
  },
  { tool: 'GoogleCalendar_ListEvents', label: 'max_start_datetime [2025] (list < list)', args: '{"max_start_datetime": ["2025"]}', raises: 'TypeError' },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results null',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": null}',
    expected:
      '{"events": [{"id": "evt_api_launch_planning_sync", "title": "API Launch Planning Sync", "start": "2025-11-20T15:00:00+09:00", "end": "2025-11-20T15:45:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results 0',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": 0}',
    expected:
      '{"events": [{"id": "evt_api_launch_planning_sync", "title": "API Launch Planning Sync", "start": "2025-11-20T15:00:00+09:00", "end": "2025-11-20T15:45:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results false',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": false}',
    expected:
      '{"events": [{"id": "evt_api_launch_planning_sync", "title": "API Launch Planning Sync", "start": "2025-11-20T15:00:00+09:00", "end": "2025-11-20T15:45:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results true',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": true}',
    expected:
      '{"events": [{"id": "evt_api_launch_planning_sync", "title": "API Launch Planning Sync", "start": "2025-11-20T15:00:00+09:00", "end": "2025-11-20T15:45:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results ""',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": ""}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results []',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": []}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results {}',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": {}}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results -1',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": -1}',
    expected:
      '{"events": [{"id": "evt_api_launch_planning_sync", "title": "API Launch Planning Sync", "start": "2025-11-20T15:00:00+09:00", "end": "2025-11-20T15:45:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results -1.5',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": -1.5}',
    expected:
      '{"events": [{"id": "evt_api_launch_planning_sync", "title": "API Launch Planning Sync", "start": "2025-11-20T15:00:00+09:00", "end": "2025-11-20T15:45:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results 0.5',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": 0.5}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results 2.5',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": 2.5}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results "2"',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": "2"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results "x"',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": "x"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results ["x"]',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": ["x"]}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results {"a": 1}',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": {"a": 1}}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results 2',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": 2}',
    expected:
      '{"events": [{"id": "evt_api_launch_planning_sync", "title": "API Launch Planning Sync", "start": "2025-11-20T15:00:00+09:00", "end": "2025-11-20T15:45:00+09:00", "attendees": [{"email": "tom@partner.co", "name": "Tom Park"}, {"email": "alice.kim@company.com", "name": "Alice Kim"}, {"email": "min.lee@company.com", "name": "Min Lee"}, {"email": "dana.choi@company.com", "name": "Dana Choi"}]}]}',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results "２"',
    args: '{"min_end_datetime": "2025-11-20T12:00", "max_start_datetime": "2025-11-21", "max_results": "２"}',
    raises: 'TypeError',
  },
  {
    tool: 'GoogleCalendar_ListEvents',
    label: 'max_results "x" with no event kept',
    args: '{"min_end_datetime": "9999", "max_results": "x"}',
    raises: 'TypeError',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'subject null',
    args: '{"subject": null}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'subject 0',
    args: '{"subject": 0}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'subject false',
    args: '{"subject": false}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'subject []',
    args: '{"subject": []}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'subject {}',
    args: '{"subject": {}}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'subject ""',
    args: '{"subject": ""}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  { tool: 'Gmail_SearchThreads', label: 'subject 5', args: '{"subject": 5}', raises: 'AttributeError' },
  { tool: 'Gmail_SearchThreads', label: 'subject true', args: '{"subject": true}', raises: 'AttributeError' },
  { tool: 'Gmail_SearchThreads', label: 'subject ["api"]', args: '{"subject": ["api"]}', raises: 'AttributeError' },
  { tool: 'Gmail_SearchThreads', label: 'subject "ＡＰＩ"', args: '{"subject": "ＡＰＩ"}', expected: '{"thread_ids": []}' },
  {
    tool: 'Gmail_SearchThreads',
    label: 'sender null',
    args: '{"sender": null}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'sender 0',
    args: '{"sender": 0}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'sender false',
    args: '{"sender": false}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'sender []',
    args: '{"sender": []}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'sender {}',
    args: '{"sender": {}}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'sender ""',
    args: '{"sender": ""}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  { tool: 'Gmail_SearchThreads', label: 'sender 5', args: '{"sender": 5}', raises: 'AttributeError' },
  { tool: 'Gmail_SearchThreads', label: 'sender true', args: '{"sender": true}', raises: 'AttributeError' },
  { tool: 'Gmail_SearchThreads', label: 'sender ["api"]', args: '{"sender": ["api"]}', raises: 'AttributeError' },
  { tool: 'Gmail_SearchThreads', label: 'sender "ＡＰＩ"', args: '{"sender": "ＡＰＩ"}', expected: '{"thread_ids": []}' },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range null',
    args: '{"date_range": null}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range 0',
    args: '{"date_range": 0}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range false',
    args: '{"date_range": false}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range []',
    args: '{"date_range": []}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range {}',
    args: '{"date_range": {}}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range 5',
    args: '{"date_range": 5}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range true',
    args: '{"date_range": true}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range ["last_7_days"]',
    args: '{"date_range": ["last_7_days"]}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range {"a": 1}',
    args: '{"date_range": {"a": 1}}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  { tool: 'Gmail_SearchThreads', label: 'date_range "last_７_days"', args: '{"date_range": "last_７_days"}', expected: '{"thread_ids": []}' },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range "last_ 36500 _days"',
    args: '{"date_range": "last_ 36500 _days"}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range "last_+36500_days"',
    args: '{"date_range": "last_+36500_days"}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range "last_36_500_days"',
    args: '{"date_range": "last_36_500_days"}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range "last_٣٦٥٠٠_days"',
    args: '{"date_range": "last_٣٦٥٠٠_days"}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  { tool: 'Gmail_SearchThreads', label: 'date_range "last_-36500_days"', args: '{"date_range": "last_-36500_days"}', expected: '{"thread_ids": []}' },
  { tool: 'Gmail_SearchThreads', label: 'date_range "last_7_days"', args: '{"date_range": "last_7_days"}', expected: '{"thread_ids": []}' },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range "last_800000_days" (date out of range)',
    args: '{"date_range": "last_800000_days"}',
    raises: 'OverflowError',
  },
  { tool: 'Gmail_SearchThreads', label: 'date_range "last_1000000000_days"', args: '{"date_range": "last_1000000000_days"}', raises: 'OverflowError' },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range "last_3.5_days"',
    args: '{"date_range": "last_3.5_days"}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range "last_\\x1c7_days"',
    args: '{"date_range": "last_\\u001c7_days"}',
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range "last_<4301 nines>_days" (int() refuses over 4300 digits)',
    args: `{"date_range": "last_${'9'.repeat(4301)}_days"}`,
    expected:
      '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch", "thread_hr_remote_policy", "thread_it_vpn_maintenance"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'date_range "last_800000_days" with a subject matching nothing',
    args: '{"subject": "zzzz", "date_range": "last_800000_days"}',
    expected: '{"thread_ids": []}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'max_results "x" (ignored)',
    args: '{"subject": "api", "max_results": "x"}',
    expected: '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'max_results 1.5 (ignored)',
    args: '{"subject": "api", "max_results": 1.5}',
    expected: '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'max_results null (ignored)',
    args: '{"subject": "api", "max_results": null}',
    expected: '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch"]}',
  },
  {
    tool: 'Gmail_SearchThreads',
    label: 'max_results {} (ignored)',
    args: '{"subject": "api", "max_results": {}}',
    expected: '{"thread_ids": ["thread_planning_meeting_api_launch", "thread_feature_eta_finsync", "thread_weekly_update_api_launch"]}',
  },
  { tool: 'Gmail_GetThread', label: 'thread_id null', args: '{"thread_id": null}', expected: '{"thread": null}' },
  { tool: 'Gmail_GetThread', label: 'thread_id 0', args: '{"thread_id": 0}', expected: '{"thread": null}' },
  { tool: 'Gmail_GetThread', label: 'thread_id false', args: '{"thread_id": false}', expected: '{"thread": null}' },
  { tool: 'Gmail_GetThread', label: 'thread_id []', args: '{"thread_id": []}', expected: '{"thread": null}' },
  { tool: 'Gmail_GetThread', label: 'thread_id {}', args: '{"thread_id": {}}', expected: '{"thread": null}' },
  { tool: 'Gmail_GetThread', label: 'thread_id 5', args: '{"thread_id": 5}', expected: '{"thread": null}' },
  { tool: 'Gmail_GetThread', label: 'thread_id true', args: '{"thread_id": true}', expected: '{"thread": null}' },
  { tool: 'Gmail_GetThread', label: 'thread_id 1.5', args: '{"thread_id": 1.5}', expected: '{"thread": null}' },
  { tool: 'Gmail_GetThread', label: 'thread_id ["thread_hr_remote_policy"]', args: '{"thread_id": ["thread_hr_remote_policy"]}', expected: '{"thread": null}' },
  { tool: 'Gmail_GetThread', label: 'thread_id {"id": 1}', args: '{"thread_id": {"id": 1}}', expected: '{"thread": null}' },
  { tool: 'Gmail_GetThread', label: 'thread_id "THREAD_HR_REMOTE_POLICY"', args: '{"thread_id": "THREAD_HR_REMOTE_POLICY"}', expected: '{"thread": null}' },
  {
    tool: 'GoogleDrive_gdrive_search',
    label: 'limit null',
    args: '{"query": "exec", "limit": null}',
    expected:
      '{"files": [{"id": "doc_api_launch_planning_sync_notes_2025_11_20", "name": "API Launch Planning Sync – 2025-11-20 Notes", "mimeType": "application/vnd.google-apps.document"}, {"id": "doc_exec_summary_api_launch_2025_11_21", "name": "Exec Summary – API Launch Weekly Highlights (2025-11-21)", "mimeType": "application/vnd.google-apps.document"}]}',
  },
  {
    tool: 'GoogleDrive_gdrive_search',
    label: 'limit 0',
    args: '{"query": "exec", "limit": 0}',
    expected:
      '{"files": [{"id": "doc_api_launch_planning_sync_notes_2025_11_20", "name": "API Launch Planning Sync – 2025-11-20 Notes", "mimeType": "application/vnd.google-apps.document"}, {"id": "doc_exec_summary_api_launch_2025_11_21", "name": "Exec Summary – API Launch Weekly Highlights (2025-11-21)", "mimeType": "application/vnd.google-apps.document"}]}',
  },
  {
    tool: 'GoogleDrive_gdrive_search',
    label: 'limit false',
    args: '{"query": "exec", "limit": false}',
    expected:
      '{"files": [{"id": "doc_api_launch_planning_sync_notes_2025_11_20", "name": "API Launch Planning Sync – 2025-11-20 Notes", "mimeType": "application/vnd.google-apps.document"}, {"id": "doc_exec_summary_api_launch_2025_11_21", "name": "Exec Summary – API Launch Weekly Highlights (2025-11-21)", "mimeType": "application/vnd.google-apps.document"}]}',
  },
  {
    tool: 'GoogleDrive_gdrive_search',
    label: 'limit true',
    args: '{"query": "exec", "limit": true}',
    expected:
      '{"files": [{"id": "doc_api_launch_planning_sync_notes_2025_11_20", "name": "API Launch Planning Sync – 2025-11-20 Notes", "mimeType": "application/vnd.google-apps.document"}]}',
  },
  { tool: 'GoogleDrive_gdrive_search', label: 'limit ""', args: '{"query": "exec", "limit": ""}', raises: 'TypeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'limit []', args: '{"query": "exec", "limit": []}', raises: 'TypeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'limit {}', args: '{"query": "exec", "limit": {}}', raises: 'TypeError' },
  {
    tool: 'GoogleDrive_gdrive_search',
    label: 'limit -1',
    args: '{"query": "exec", "limit": -1}',
    expected:
      '{"files": [{"id": "doc_api_launch_planning_sync_notes_2025_11_20", "name": "API Launch Planning Sync – 2025-11-20 Notes", "mimeType": "application/vnd.google-apps.document"}, {"id": "doc_exec_summary_api_launch_2025_11_21", "name": "Exec Summary – API Launch Weekly Highlights (2025-11-21)", "mimeType": "application/vnd.google-apps.document"}]}',
  },
  {
    tool: 'GoogleDrive_gdrive_search',
    label: 'limit -1.5',
    args: '{"query": "exec", "limit": -1.5}',
    expected:
      '{"files": [{"id": "doc_api_launch_planning_sync_notes_2025_11_20", "name": "API Launch Planning Sync – 2025-11-20 Notes", "mimeType": "application/vnd.google-apps.document"}, {"id": "doc_exec_summary_api_launch_2025_11_21", "name": "Exec Summary – API Launch Weekly Highlights (2025-11-21)", "mimeType": "application/vnd.google-apps.document"}]}',
  },
  { tool: 'GoogleDrive_gdrive_search', label: 'limit 0.5', args: '{"query": "exec", "limit": 0.5}', raises: 'TypeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'limit 2.5', args: '{"query": "exec", "limit": 2.5}', raises: 'TypeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'limit "2"', args: '{"query": "exec", "limit": "2"}', raises: 'TypeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'limit "x"', args: '{"query": "exec", "limit": "x"}', raises: 'TypeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'limit ["x"]', args: '{"query": "exec", "limit": ["x"]}', raises: 'TypeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'limit {"a": 1}', args: '{"query": "exec", "limit": {"a": 1}}', raises: 'TypeError' },
  {
    tool: 'GoogleDrive_gdrive_search',
    label: 'limit 2',
    args: '{"query": "exec", "limit": 2}',
    expected:
      '{"files": [{"id": "doc_api_launch_planning_sync_notes_2025_11_20", "name": "API Launch Planning Sync – 2025-11-20 Notes", "mimeType": "application/vnd.google-apps.document"}, {"id": "doc_exec_summary_api_launch_2025_11_21", "name": "Exec Summary – API Launch Weekly Highlights (2025-11-21)", "mimeType": "application/vnd.google-apps.document"}]}',
  },
  { tool: 'GoogleDrive_gdrive_search', label: 'limit "２"', args: '{"query": "exec", "limit": "２"}', raises: 'TypeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'query null', args: '{"query": null}', raises: 'AttributeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'query 0', args: '{"query": 0}', raises: 'AttributeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'query []', args: '{"query": []}', raises: 'AttributeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'query 5', args: '{"query": 5}', raises: 'AttributeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'query true', args: '{"query": true}', raises: 'AttributeError' },
  { tool: 'GoogleDrive_gdrive_search', label: 'query "" with limit "x" (no limit read)', args: '{"query": "", "limit": "x"}', expected: '{"files": []}' },
  { tool: 'GoogleDrive_gdrive_search', label: 'query "２０２５"', args: '{"query": "２０２５"}', expected: '{"files": []}' },
  { tool: 'GoogleDrive_gdrive_read_file', label: 'file_id null', args: '{"file_id": null}', expected: '{"file": null}' },
  { tool: 'GoogleDrive_gdrive_read_file', label: 'file_id 0', args: '{"file_id": 0}', expected: '{"file": null}' },
  { tool: 'GoogleDrive_gdrive_read_file', label: 'file_id false', args: '{"file_id": false}', expected: '{"file": null}' },
  { tool: 'GoogleDrive_gdrive_read_file', label: 'file_id []', args: '{"file_id": []}', expected: '{"file": null}' },
  { tool: 'GoogleDrive_gdrive_read_file', label: 'file_id {}', args: '{"file_id": {}}', expected: '{"file": null}' },
  { tool: 'GoogleDrive_gdrive_read_file', label: 'file_id 5', args: '{"file_id": 5}', expected: '{"file": null}' },
  { tool: 'GoogleDrive_gdrive_read_file', label: 'file_id true', args: '{"file_id": true}', expected: '{"file": null}' },
  {
    tool: 'GoogleDrive_gdrive_read_file',
    label: 'file_id ["doc_it_vpn_maintenance_2025_11_22"]',
    args: '{"file_id": ["doc_it_vpn_maintenance_2025_11_22"]}',
    expected: '{"file": null}',
  },
  { tool: 'Jira_SearchIssuesWithJql', label: 'jql null', args: '{"jql": null}', expected: '{"issues": []}' },
  { tool: 'Jira_SearchIssuesWithJql', label: 'jql 0', args: '{"jql": 0}', expected: '{"issues": []}' },
  { tool: 'Jira_SearchIssuesWithJql', label: 'jql false', args: '{"jql": false}', expected: '{"issues": []}' },
  { tool: 'Jira_SearchIssuesWithJql', label: 'jql []', args: '{"jql": []}', expected: '{"issues": []}' },
  { tool: 'Jira_SearchIssuesWithJql', label: 'jql {}', args: '{"jql": {}}', expected: '{"issues": []}' },
  { tool: 'Jira_SearchIssuesWithJql', label: 'jql ""', args: '{"jql": ""}', expected: '{"issues": []}' },
  { tool: 'Jira_SearchIssuesWithJql', label: 'jql 5', args: '{"jql": 5}', raises: 'TypeError' },
  { tool: 'Jira_SearchIssuesWithJql', label: 'jql true', args: '{"jql": true}', raises: 'TypeError' },
  { tool: 'Jira_SearchIssuesWithJql', label: 'jql ["project = APP"]', args: '{"jql": ["project = APP"]}', raises: 'TypeError' },
  { tool: 'Jira_SearchIssuesWithJql', label: 'jql "project = ＡＰＰ"', args: '{"jql": "project = ＡＰＰ"}', expected: '{"issues": []}' },
  {
    tool: 'Jira_SearchIssuesWithJql',
    label: 'jql "project\\x1f=\\x85HR"',
    args: '{"jql": "project\\u001f=\x85HR"}',
    expected:
      '{"issues": [{"key": "HR-204", "summary": "Update remote work policy for 2025", "status": "Done", "updated": "2025-11-16T09:00:00+09:00", "fixVersions": [], "project": {"key": "HR"}}]}',
  },
  {
    tool: 'Jira_SearchIssuesWithJql',
    label: 'jql "text ~ \\"remote\\" project\\ufeff=IT"',
    args: '{"jql": "text ~ \\"remote\\" project\ufeff=IT"}',
    expected:
      '{"issues": [{"key": "HR-204", "summary": "Update remote work policy for 2025", "status": "Done", "updated": "2025-11-16T09:00:00+09:00", "fixVersions": [], "project": {"key": "HR"}}]}',
  },
  {
    tool: 'Jira_SearchIssuesWithJql',
    label: 'jql "project =\\u3000HR"',
    args: '{"jql": "project =\u3000HR"}',
    expected:
      '{"issues": [{"key": "HR-204", "summary": "Update remote work policy for 2025", "status": "Done", "updated": "2025-11-16T09:00:00+09:00", "fixVersions": [], "project": {"key": "HR"}}]}',
  },
  {
    tool: 'Jira_SearchIssuesWithJql',
    label: 'jql "project = HR order\\x1cby updated asc"',
    args: '{"jql": "project = HR order\\u001cby updated asc"}',
    expected:
      '{"issues": [{"key": "HR-204", "summary": "Update remote work policy for 2025", "status": "Done", "updated": "2025-11-16T09:00:00+09:00", "fixVersions": [], "project": {"key": "HR"}}]}',
  },
  {
    tool: 'Jira_SearchIssuesWithJql',
    label: 'limit "x" (ignored)',
    args: '{"jql": "project = HR", "limit": "x"}',
    expected:
      '{"issues": [{"key": "HR-204", "summary": "Update remote work policy for 2025", "status": "Done", "updated": "2025-11-16T09:00:00+09:00", "fixVersions": [], "project": {"key": "HR"}}]}',
  },
  {
    tool: 'Jira_SearchIssuesWithJql',
    label: 'limit 1.5 (ignored)',
    args: '{"jql": "project = HR", "limit": 1.5}',
    expected:
      '{"issues": [{"key": "HR-204", "summary": "Update remote work policy for 2025", "status": "Done", "updated": "2025-11-16T09:00:00+09:00", "fixVersions": [], "project": {"key": "HR"}}]}',
  },
  {
    tool: 'Jira_SearchIssuesWithJql',
    label: 'limit true (ignored)',
    args: '{"jql": "project = HR", "limit": true}',
    expected:
      '{"issues": [{"key": "HR-204", "summary": "Update remote work policy for 2025", "status": "Done", "updated": "2025-11-16T09:00:00+09:00", "fixVersions": [], "project": {"key": "HR"}}]}',
  },
  {
    tool: 'Jira_SearchIssuesWithJql',
    label: 'limit {} (ignored)',
    args: '{"jql": "project = HR", "limit": {}}',
    expected:
      '{"issues": [{"key": "HR-204", "summary": "Update remote work policy for 2025", "status": "Done", "updated": "2025-11-16T09:00:00+09:00", "fixVersions": [], "project": {"key": "HR"}}]}',
  },
]

const logDir = sharedDataPath('mpcbench', 'v1_eb0b7ca', 'generator', 'logs', 'llm')

describeWithSharedData("upstream-v1 on unusual argument shapes, against upstream's Python (scenario_A)", () => {
  const { worldState, sources } = readUpstreamScenario(logDir, 'scenario_A')
  const global = (worldState.global_settings ?? {}) as { timezone?: string; workday_start?: string; workday_end?: string }
  const workplace = Workplace.fromSources(sources, { timezone: global.timezone, workdayStart: global.workday_start, workdayEnd: global.workday_end })
  const table = toolTable(createWorkplaceTools(workplace, 'upstream-v1'))

  it.each(CASES.map((c) => [`${c.tool} ${c.label}`, c] as const))('%s', async (_label, c) => {
    const call = await executeToolCall(table, c.tool, c.args)
    if (call === 'aborted') throw new Error('aborted')
    if ('expected' in c) {
      expect(call.status).toBe('ok')
      expect(call.content).toBe(c.expected)
    } else {
      // Where zod's declared type rejects every value upstream raises on, the model gets an invalid-arguments error.
      expect(['tool-error', 'invalid-arguments']).toContain(call.status)
      if (call.status === 'tool-error') expect(call.content).toContain(`${c.raises}:`)
    }
  })
})
