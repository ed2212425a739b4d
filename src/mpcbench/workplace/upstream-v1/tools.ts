import { z } from 'zod'
import { type AnyTool, defineTool } from '../../../tools/define-tool.ts'
import type { Workplace } from '../workplace.ts'
import { upstreamFreeSlots } from './free-slots.ts'
import {
  fromIsoFormat,
  isPyDay,
  PY_SPACE,
  PythonError,
  pyCompare,
  pyEquals,
  pyGet,
  pyInt,
  pyJsonDumps,
  pyLimit,
  pyOrder,
  pySplit,
  pyTruthy,
  today,
} from './python.ts'

/**
 * The `upstream-v1` tool profile: upstream MPCBench's tool backend (`evaluation/tool_backend.py`) and tool list
 * (`build_all_tools_spec()` in `evaluation/openai_agent_runner.py`) at commit eb0b7ca, over our loaded sources.
 * Wire names, descriptions, parameters and required lists are upstream's; results are upstream's JSON, sent as Python's
 * `json.dumps(result, ensure_ascii=False)`. Every quirk is listed in `src/mpcbench/workplace/README.md`.
 *
 * Upstream reads arguments with `dict.get(key, default)`, so a missing required argument is a default, not an error,
 * and `null` mostly means "no value": `prepareArguments` turns the model's arguments into that reading before the zod
 * schema (upstream's declared parameters) parses them. Where upstream applies Python operations that work on more than
 * its declared type (`limit > 0` on a float or a bool, `len()` of a list, `if not value` on `0`), the parameter takes
 * any JSON value ({@link anyValue}) and the handler applies the same operations. Calls on which upstream's Python
 * raises become tool errors: an invalid-arguments error where zod's declared type already rejects every value on which
 * upstream raises before it could return, else the handler's {@link PythonError}.
 */

type Args = Record<string, unknown>

/** A copy of the arguments object with `edit` applied; anything else (not an object) is left for zod to reject. */
function prepare(edit: (args: Args) => void): (raw: unknown) => unknown {
  return (raw) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw
    const args: Args = { ...(raw as Args) }
    edit(args)
    return args
  }
}

/** Sets `key` to `value` when it is absent (`dict.get(key, value)`). */
function defaultWhenMissing(args: Args, key: string, value: unknown): void {
  if (!Object.hasOwn(args, key)) args[key] = value
}

/**
 * A parameter advertised to the model as `declared` (upstream's spec, unchanged) that parses any JSON value: the
 * handler reads it with upstream's Python operations (see `python.ts`), raising where Python raises.
 */
function anyValue(declared: z.ZodType) {
  const { $schema: _schema, ...advertised } = z.toJSONSchema(declared, { io: 'input' }) as Record<string, unknown>
  return z.unknown().meta(advertised)
}

function lower(value: unknown): string {
  if (typeof value !== 'string') throw new PythonError('TypeError', `expected a string, got ${JSON.stringify(value)}`)
  return value.toLowerCase()
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : String(value)
}

const SLACK_SKIPPED_WORDS = new Set(['the', 'a', 'an', 'and', 'or', 'from', 'has', 'with'])

/**
 * Upstream's nine tools by name (`Slack.search_messages`) and the function name its agent calls each by
 * (`map_function_name_to_backend_tool_name` in `evaluation/openai_agent_runner.py`, read backwards).
 */
export const UPSTREAM_V1_WIRE_NAMES = {
  'Slack.search_messages': 'Slack_search_messages',
  'GoogleContacts.SearchContactsByName': 'GoogleContacts_SearchContactsByName',
  'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree': 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
  'GoogleCalendar.ListEvents': 'GoogleCalendar_ListEvents',
  'Gmail.SearchThreads': 'Gmail_SearchThreads',
  'Gmail.GetThread': 'Gmail_GetThread',
  'GoogleDrive.gdrive_search': 'GoogleDrive_gdrive_search',
  'GoogleDrive.gdrive_read_file': 'GoogleDrive_gdrive_read_file',
  'Jira.SearchIssuesWithJql': 'Jira_SearchIssuesWithJql',
} as const

/** A tool's upstream name and wire name, from {@link UPSTREAM_V1_WIRE_NAMES}. */
function upstreamNames(name: keyof typeof UPSTREAM_V1_WIRE_NAMES): { name: string; wireName: string } {
  return { name, wireName: UPSTREAM_V1_WIRE_NAMES[name] }
}

// Upstream reads arguments by name (`dict.get`): an argument it does not know is never seen, not an error.
const common = { formatResult: pyJsonDumps, unknownArguments: 'ignore' } as const

/** `Slack_search_messages {search_query}`: messages where any query word is a substring of the text, channel or author name. */
function slackSearch(workplace: Workplace) {
  return defineTool({
    ...common,
    ...upstreamNames('Slack.search_messages'),
    description: 'Search Slack messages in the company workspace.',
    parameters: z.object({ search_query: z.string().describe('Search query string used to find relevant messages.') }),
    prepareArguments: prepare((args) => defaultWhenMissing(args, 'search_query', '')),
    handler: ({ search_query }) => {
      const query = search_query.toLowerCase()
      if (query === '') return { matches: [] }
      const slack = workplace.sources.slack
      const channels = new Map<unknown, unknown>(slack.channels.map((channel) => [channel.id, channel.name]))
      const users = new Map<unknown, unknown>(slack.users.map((user) => [user.id, user]))
      const queryWords = pySplit(query).filter((word) => !SLACK_SKIPPED_WORDS.has(word))
      const matches: Array<{ channel: unknown; text: unknown; timestamp: unknown }> = []
      for (const message of slack.messages) {
        const channelName = channels.get(pyGet(message, 'channel_id', null)) ?? ''
        const messageText = lower(pyGet(message, 'text', ''))
        const userName = lower(pyGet(users.get(pyGet(message, 'user_id', '')) ?? {}, 'name', ''))
        const channelLower = lower(channelName)
        if (queryWords.some((word) => messageText.includes(word) || channelLower.includes(word) || userName.includes(word))) {
          matches.push({ channel: channelName, text: pyGet(message, 'text', ''), timestamp: pyGet(message, 'timestamp', '') })
        }
      }
      return { matches }
    },
  })
}

/** `GoogleContacts_SearchContactsByName {name, limit}`: contacts whose name contains the query or is contained in it. */
function contactsSearch(workplace: Workplace) {
  return defineTool({
    ...common,
    ...upstreamNames('GoogleContacts.SearchContactsByName'),
    description: 'Search contacts by name.',
    parameters: z.object({
      name: z.string().describe('Full name or partial name of the contact.'),
      limit: anyValue(z.number().int().describe('Maximum number of contacts to return.')).optional(),
    }),
    prepareArguments: prepare((args) => defaultWhenMissing(args, 'name', '')),
    handler: ({ name, limit }) => {
      const query = name.toLowerCase()
      if (query === '') return { contacts: [] }
      const contacts: Array<{ name: unknown; emails: unknown[] }> = []
      for (const contact of workplace.sources.contacts.contacts) {
        const contactName = lower(pyGet(contact, 'name', ''))
        if (contactName.includes(query) || query.includes(contactName)) {
          contacts.push({ name: pyGet(contact, 'name', ''), emails: [pyGet(contact, 'email', '')] })
        }
      }
      return { contacts: pyLimit(contacts, limit) }
    },
  })
}

/** `GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree`: see {@link upstreamFreeSlots}. */
function findFreeSlots(workplace: Workplace) {
  return defineTool({
    ...common,
    ...upstreamNames('GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree'),
    description: 'Find time slots when everyone is free within a date range and workday hours.',
    parameters: z.object({
      email_addresses: anyValue(z.array(z.string()).describe('Email addresses of participants.')),
      start_date: anyValue(z.string().describe("Start date in YYYY-MM-DD format (e.g., '2025-11-17')")).optional(),
      end_date: anyValue(z.string().describe("End date in YYYY-MM-DD format (e.g., '2025-11-21')")).optional(),
      workday_start_time: anyValue(z.string()).optional(),
      workday_end_time: anyValue(z.string()).optional(),
      slot_minimum_minutes: anyValue(z.number().int()).optional(),
    }),
    prepareArguments: prepare((args) => {
      defaultWhenMissing(args, 'email_addresses', [])
      // `arguments.get("start_date") or arguments.get("date_range_start", "")`.
      for (const [key, legacy] of [
        ['start_date', 'date_range_start'],
        ['end_date', 'date_range_end'],
      ] as const) {
        args[key] = pyTruthy(args[key]) ? args[key] : pyGet(args, legacy, '')
        delete args[legacy]
      }
      // Missing: "09:00" / "18:00"; falsy (null, ""): the world state's global_settings.
      defaultWhenMissing(args, 'workday_start_time', '09:00')
      defaultWhenMissing(args, 'workday_end_time', '18:00')
      defaultWhenMissing(args, 'slot_minimum_minutes', 30)
    }),
    handler: (args) =>
      upstreamFreeSlots(
        workplace.sources.calendar,
        {
          email_addresses: args.email_addresses,
          start_date: args.start_date,
          end_date: args.end_date,
          workday_start_time: args.workday_start_time,
          workday_end_time: args.workday_end_time,
          slot_minimum_minutes: args.slot_minimum_minutes,
        },
        { start: workplace.settings.workdayStart, end: workplace.settings.workdayEnd },
      ),
  })
}

/** `GoogleCalendar_ListEvents`: events as stored, filtered by comparing the ISO strings as text. */
function listEvents(workplace: Workplace) {
  return defineTool({
    ...common,
    ...upstreamNames('GoogleCalendar.ListEvents'),
    description: 'List calendar events within a time window for weekly reporting or summaries.',
    parameters: z.object({
      min_end_datetime: anyValue(z.string().describe('Minimum event end datetime (ISO string), inclusive or null.')).optional(),
      max_start_datetime: anyValue(z.string().describe('Maximum event start datetime (ISO string), exclusive or null.')).optional(),
      max_results: anyValue(z.number().int().describe('Maximum number of events to return.')).optional(),
    }),
    handler: ({ min_end_datetime, max_start_datetime, max_results }) => {
      const events = workplace.sources.calendar.events.filter((event) => {
        if (pyTruthy(min_end_datetime) && pyOrder(pyGet(event, 'end', ''), min_end_datetime, '<') < 0) return false
        if (pyTruthy(max_start_datetime) && pyOrder(pyGet(event, 'start', ''), max_start_datetime, '>=') >= 0) return false
        return true
      })
      return { events: pyLimit(events, max_results) }
    },
  })
}

/**
 * Whether a thread passes upstream's `date_range` test: `last_N_days` against today's date (`N` as Python's `int()`
 * reads it: `' 7'`, `'+7'`, `'７'`); any other value passes, a `date_range` that is no string too (its missing
 * `startswith` raises an `AttributeError` upstream catches).
 */
function withinDateRange(firstDate: string, dateRange: unknown): boolean {
  const parsed = fromIsoFormat(firstDate.replaceAll('Z', '+00:00'))
  if (parsed === undefined || typeof dateRange !== 'string' || !dateRange.startsWith('last_')) return true
  const days = pyInt(dateRange.replaceAll('last_', '').replaceAll('_days', '').replaceAll('_day', ''))
  if (days === undefined) return true
  const cutoff = today(parsed.offset) - days
  // `today - timedelta(days=days)` outside years 1 to 9999 (or `timedelta` itself past 999999999 days).
  if (!isPyDay(cutoff)) throw new PythonError('OverflowError', `date value out of range (days=${days})`)
  const firstDay = Math.floor(parsed.wall / 86_400_000_000)
  return firstDay >= cutoff
}

/** `Gmail_SearchThreads {subject, sender, date_range}`: thread ids by substring of subject and first sender. */
function gmailSearch(workplace: Workplace) {
  return defineTool({
    ...common,
    ...upstreamNames('Gmail.SearchThreads'),
    description: 'Search Gmail threads by subject, sender, and date range.',
    parameters: z.object({
      subject: z.string().optional(),
      sender: z.string().optional(),
      date_range: anyValue(z.string()).optional(),
      max_results: z.number().int().optional(),
    }),
    prepareArguments: prepare((args) => {
      // `arguments.get("subject", "").lower() if arguments.get("subject") else None`: a falsy value filters nothing.
      for (const key of ['subject', 'sender']) if (!pyTruthy(args[key])) delete args[key]
      // Upstream never reads max_results.
      delete args.max_results
    }),
    handler: ({ subject, sender, date_range }) => {
      const subjectFilter = subject?.toLowerCase()
      const senderFilter = sender?.toLowerCase()
      const threadIds: unknown[] = []
      for (const thread of workplace.sources.gmail.threads) {
        const messages = pyGet(thread, 'messages', []) as unknown[]
        if (subjectFilter !== undefined && !lower(pyGet(thread, 'subject', '')).includes(subjectFilter)) continue
        if (senderFilter !== undefined) {
          if (messages.length === 0) continue
          if (!lower(pyGet(messages[0], 'from', '')).includes(senderFilter)) continue
        }
        if (pyTruthy(date_range)) {
          if (messages.length === 0) continue
          const firstDate = pyGet(messages[0], 'date', '')
          if (!pyTruthy(firstDate)) continue
          if (!withinDateRange(text(firstDate), date_range)) continue
        }
        threadIds.push(pyGet(thread, 'id', ''))
      }
      return { thread_ids: threadIds }
    },
  })
}

/** `Gmail_GetThread {thread_id}`: the thread as stored, or `null`. */
function gmailThread(workplace: Workplace) {
  return defineTool({
    ...common,
    ...upstreamNames('Gmail.GetThread'),
    description: 'Get a full Gmail thread by thread ID.',
    parameters: z.object({ thread_id: anyValue(z.string()) }),
    prepareArguments: prepare((args) => defaultWhenMissing(args, 'thread_id', '')),
    handler: ({ thread_id }) => {
      if (!pyTruthy(thread_id)) return { thread: null }
      return { thread: workplace.sources.gmail.threads.find((thread) => pyEquals(pyGet(thread, 'id', null), thread_id)) ?? null }
    },
  })
}

/** `GoogleDrive_gdrive_search {query, limit}`: files whose name or content contains the whole query. */
function driveSearch(workplace: Workplace) {
  return defineTool({
    ...common,
    ...upstreamNames('GoogleDrive.gdrive_search'),
    description: 'Search Google Drive files by name or keywords.',
    parameters: z.object({ query: z.string(), limit: anyValue(z.number().int()).optional() }),
    prepareArguments: prepare((args) => defaultWhenMissing(args, 'query', '')),
    handler: ({ query, limit }) => {
      const wanted = query.toLowerCase()
      if (wanted === '') return { files: [] }
      const files: Array<{ id: unknown; name: unknown; mimeType: unknown }> = []
      for (const file of workplace.sources.drive.files) {
        if (lower(pyGet(file, 'name', '')).includes(wanted) || lower(pyGet(file, 'content', '')).includes(wanted)) {
          files.push({ id: pyGet(file, 'id', ''), name: pyGet(file, 'name', ''), mimeType: pyGet(file, 'mimeType', '') })
        }
      }
      return { files: pyLimit(files, limit) }
    },
  })
}

/** `GoogleDrive_gdrive_read_file {file_id}`: `{id, name, content}` of the file, or `null`. */
function driveRead(workplace: Workplace) {
  return defineTool({
    ...common,
    ...upstreamNames('GoogleDrive.gdrive_read_file'),
    description: 'Read the content of a Google Drive file by file ID.',
    parameters: z.object({ file_id: anyValue(z.string()) }),
    prepareArguments: prepare((args) => defaultWhenMissing(args, 'file_id', '')),
    handler: ({ file_id }) => {
      if (!pyTruthy(file_id)) return { file: null }
      const file = workplace.sources.drive.files.find((f) => pyEquals(pyGet(f, 'id', null), file_id))
      return { file: file === undefined ? null : { id: pyGet(file, 'id', ''), name: pyGet(file, 'name', ''), content: pyGet(file, 'content', '') } }
    },
  })
}

// Python's `\w` is Unicode letters, digits and `_`, its `\s` is {@link PY_SPACE}; `re.IGNORECASE` folds case like
// JavaScript's `iu`.
const WORD = '[\\p{L}\\p{N}_]'
const JQL_PROJECT = new RegExp(`project${PY_SPACE}*=${PY_SPACE}*(${WORD}+)`, 'iu')
const JQL_STATUS = new RegExp(`status${PY_SPACE}*=${PY_SPACE}*"([^"]+)"`, 'iu')
const JQL_TEXT = new RegExp(`text${PY_SPACE}*~${PY_SPACE}*"([^"]+)"`, 'iu')
const JQL_ORDER = new RegExp(`ORDER${PY_SPACE}+BY${PY_SPACE}+(${WORD}+)${PY_SPACE}+(DESC|ASC)`, 'iu')

/** `Jira_SearchIssuesWithJql {jql}`: only `project = KEY`, `status = "X"`, `text ~ "x"` (summary) and `ORDER BY updated` are read. */
function jiraSearch(workplace: Workplace) {
  return defineTool({
    ...common,
    ...upstreamNames('Jira.SearchIssuesWithJql'),
    description: 'Search Jira issues using JQL (Jira Query Language).',
    parameters: z.object({ jql: z.string(), limit: z.number().int().optional() }),
    prepareArguments: prepare((args) => {
      // `if not jql: return`: any falsy value gives no issues; any other non-string raises in `re.search`.
      if (!pyTruthy(args.jql)) args.jql = ''
      // Upstream never reads limit.
      delete args.limit
    }),
    handler: ({ jql }) => {
      if (jql === '') return { issues: [] }
      let issues: unknown[] = [...workplace.sources.jira.issues]
      const project = JQL_PROJECT.exec(jql)
      if (project !== null) issues = issues.filter((issue) => pyGet(pyGet(issue, 'project', {}), 'key', '') === project[1])
      const status = JQL_STATUS.exec(jql)
      if (status !== null) issues = issues.filter((issue) => pyGet(issue, 'status', '') === status[1])
      const keyword = JQL_TEXT.exec(jql)
      if (keyword !== null) {
        const wanted = (keyword[1] as string).toLowerCase()
        issues = issues.filter((issue) => lower(pyGet(issue, 'summary', '')).includes(wanted))
      }
      const order = JQL_ORDER.exec(jql)
      if (order !== null && (order[1] as string).toLowerCase() === 'updated') {
        const descending = (order[2] as string).toUpperCase() === 'DESC'
        const updated = (issue: unknown) => text(pyGet(issue, 'updated', ''))
        issues.sort((a, b) => (descending ? pyCompare(updated(b), updated(a)) : pyCompare(updated(a), updated(b))))
      }
      return {
        issues: issues.map((issue) => ({
          key: pyGet(issue, 'key', ''),
          summary: pyGet(issue, 'summary', ''),
          status: pyGet(issue, 'status', ''),
          updated: pyGet(issue, 'updated', ''),
          fixVersions: pyGet(issue, 'fixVersions', []),
          project: pyGet(issue, 'project', {}),
        })),
      }
    },
  })
}

/** The nine `upstream-v1` tools over one workplace, in upstream's `build_all_tools_spec()` order. */
export function createUpstreamV1Tools(workplace: Workplace): AnyTool[] {
  return [
    slackSearch(workplace),
    contactsSearch(workplace),
    findFreeSlots(workplace),
    listEvents(workplace),
    gmailSearch(workplace),
    gmailThread(workplace),
    driveSearch(workplace),
    driveRead(workplace),
    jiraSearch(workplace),
  ]
}
