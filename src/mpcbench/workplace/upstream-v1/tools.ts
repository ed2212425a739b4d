import { z } from 'zod'
import { type AnyTool, defineTool } from '../../../tools/define-tool.ts'
import type { Workplace } from '../workplace.ts'
import { upstreamFreeSlots } from './free-slots.ts'
import { fromIsoFormat, PythonError, pyCompare, pyGet, pyInt, pyJsonDumps, pySplit, pyTruthy, today } from './python.ts'

/**
 * The `upstream-v1` tool profile: upstream MPCBench's tool backend (`evaluation/tool_backend.py`) and tool list
 * (`build_all_tools_spec()` in `evaluation/openai_agent_runner.py`) at commit eb0b7ca, over our loaded sources.
 * Wire names, descriptions, parameters and required lists are upstream's; results are upstream's JSON, sent as Python's
 * `json.dumps(result, ensure_ascii=False)`. Every quirk is listed in `src/mpcbench/workplace/README.md`.
 *
 * Upstream reads arguments with `dict.get(key, default)`, so a missing required argument is a default, not an error,
 * and `null` mostly means "no value": `prepareArguments` turns the model's arguments into that reading before the zod
 * schema (upstream's declared parameters) parses them. Calls on which upstream's Python raises become tool errors.
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

/** Removes `key` when it is `null` (upstream treats `None` like a missing argument there). */
function dropNull(args: Args, ...keys: string[]): void {
  for (const key of keys) if (args[key] === null) delete args[key]
}

/** Upstream's `limit` / `max_results`: applied only when it is a number above 0. */
function limited<T>(items: T[], limit: number | undefined): T[] {
  return limit !== undefined && limit > 0 ? items.slice(0, limit) : items
}

function lower(value: unknown): string {
  if (typeof value !== 'string') throw new PythonError('TypeError', `expected a string, got ${JSON.stringify(value)}`)
  return value.toLowerCase()
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : String(value)
}

const SLACK_SKIPPED_WORDS = new Set(['the', 'a', 'an', 'and', 'or', 'from', 'has', 'with'])

// Upstream reads arguments by name (`dict.get`): an argument it does not know is never seen, not an error.
const common = { formatResult: pyJsonDumps, unknownArguments: 'ignore' } as const

/** `Slack_search_messages {search_query}`: messages where any query word is a substring of the text, channel or author name. */
function slackSearch(workplace: Workplace) {
  return defineTool({
    ...common,
    name: 'Slack.search_messages',
    wireName: 'Slack_search_messages',
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
    name: 'GoogleContacts.SearchContactsByName',
    wireName: 'GoogleContacts_SearchContactsByName',
    description: 'Search contacts by name.',
    parameters: z.object({
      name: z.string().describe('Full name or partial name of the contact.'),
      limit: z.number().int().optional().describe('Maximum number of contacts to return.'),
    }),
    prepareArguments: prepare((args) => {
      defaultWhenMissing(args, 'name', '')
      dropNull(args, 'limit')
    }),
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
      return { contacts: limited(contacts, limit) }
    },
  })
}

/** `GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree`: see {@link upstreamFreeSlots}. */
function findFreeSlots(workplace: Workplace) {
  return defineTool({
    ...common,
    name: 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
    wireName: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    description: 'Find time slots when everyone is free within a date range and workday hours.',
    parameters: z.object({
      email_addresses: z.array(z.string()).describe('Email addresses of participants.'),
      start_date: z.string().optional().describe("Start date in YYYY-MM-DD format (e.g., '2025-11-17')"),
      end_date: z.string().optional().describe("End date in YYYY-MM-DD format (e.g., '2025-11-21')"),
      workday_start_time: z.string().optional(),
      workday_end_time: z.string().optional(),
      slot_minimum_minutes: z.number().int().optional(),
    }),
    prepareArguments: prepare((args) => {
      if (args.email_addresses === null || !Object.hasOwn(args, 'email_addresses')) args.email_addresses = []
      // `arguments.get("start_date") or arguments.get("date_range_start", "")`; a falsy result means "no date".
      for (const [key, legacy] of [['start_date', 'date_range_start'], ['end_date', 'date_range_end']] as const) {
        const value = pyTruthy(args[key]) ? args[key] : pyGet(args, legacy, '')
        args[key] = pyTruthy(value) ? value : ''
        delete args[legacy]
      }
      // Missing: "09:00" / "18:00"; null or "": the world state's global_settings.
      defaultWhenMissing(args, 'workday_start_time', '09:00')
      defaultWhenMissing(args, 'workday_end_time', '18:00')
      for (const key of ['workday_start_time', 'workday_end_time']) if (args[key] === null) args[key] = ''
      defaultWhenMissing(args, 'slot_minimum_minutes', 30)
    }),
    handler: (args) =>
      upstreamFreeSlots(
        workplace.sources.calendar,
        {
          email_addresses: args.email_addresses,
          start_date: args.start_date ?? '',
          end_date: args.end_date ?? '',
          workday_start_time: args.workday_start_time ?? '09:00',
          workday_end_time: args.workday_end_time ?? '18:00',
          slot_minimum_minutes: args.slot_minimum_minutes ?? 30,
        },
        { start: workplace.settings.workdayStart, end: workplace.settings.workdayEnd },
      ),
  })
}

/** `GoogleCalendar_ListEvents`: events as stored, filtered by comparing the ISO strings as text. */
function listEvents(workplace: Workplace) {
  return defineTool({
    ...common,
    name: 'GoogleCalendar.ListEvents',
    wireName: 'GoogleCalendar_ListEvents',
    description: 'List calendar events within a time window for weekly reporting or summaries.',
    parameters: z.object({
      min_end_datetime: z.string().optional().describe('Minimum event end datetime (ISO string), inclusive or null.'),
      max_start_datetime: z.string().optional().describe('Maximum event start datetime (ISO string), exclusive or null.'),
      max_results: z.number().int().optional().describe('Maximum number of events to return.'),
    }),
    prepareArguments: prepare((args) => dropNull(args, 'min_end_datetime', 'max_start_datetime', 'max_results')),
    handler: ({ min_end_datetime, max_start_datetime, max_results }) => {
      const events = workplace.sources.calendar.events.filter((event) => {
        if (min_end_datetime !== undefined && min_end_datetime !== '' && pyCompare(text(pyGet(event, 'end', '')), min_end_datetime) < 0) return false
        if (max_start_datetime !== undefined && max_start_datetime !== '' && pyCompare(text(pyGet(event, 'start', '')), max_start_datetime) >= 0) return false
        return true
      })
      return { events: limited(events, max_results) }
    },
  })
}

/** Whether a thread passes upstream's `date_range` test (`last_N_days` against today's date; anything else passes). */
function withinDateRange(firstDate: string, dateRange: string): boolean {
  const parsed = fromIsoFormat(firstDate.replaceAll('Z', '+00:00'))
  if (parsed === undefined || !dateRange.startsWith('last_')) return true
  const days = pyInt(dateRange.replaceAll('last_', '').replaceAll('_days', '').replaceAll('_day', ''))
  if (days === undefined) return true
  if (Math.abs(days) > 999_999_999) throw new PythonError('OverflowError', `days=${days}; must have magnitude <= 999999999`)
  const cutoff = today(parsed.offset) - days
  const firstDay = Math.floor(parsed.wall / 86_400_000_000)
  return firstDay >= cutoff
}

/** `Gmail_SearchThreads {subject, sender, date_range}`: thread ids by substring of subject and first sender. */
function gmailSearch(workplace: Workplace) {
  return defineTool({
    ...common,
    name: 'Gmail.SearchThreads',
    wireName: 'Gmail_SearchThreads',
    description: 'Search Gmail threads by subject, sender, and date range.',
    parameters: z.object({
      subject: z.string().optional(),
      sender: z.string().optional(),
      date_range: z.string().optional(),
      max_results: z.number().int().optional(),
    }),
    // Upstream never reads max_results.
    prepareArguments: prepare((args) => {
      dropNull(args, 'subject', 'sender', 'date_range')
      delete args.max_results
    }),
    handler: ({ subject, sender, date_range }) => {
      const subjectFilter = subject === undefined || subject === '' ? undefined : subject.toLowerCase()
      const senderFilter = sender === undefined || sender === '' ? undefined : sender.toLowerCase()
      const threadIds: unknown[] = []
      for (const thread of workplace.sources.gmail.threads) {
        const messages = pyGet(thread, 'messages', []) as unknown[]
        if (subjectFilter !== undefined && !lower(pyGet(thread, 'subject', '')).includes(subjectFilter)) continue
        if (senderFilter !== undefined) {
          if (messages.length === 0) continue
          if (!lower(pyGet(messages[0], 'from', '')).includes(senderFilter)) continue
        }
        if (date_range !== undefined && date_range !== '') {
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
    name: 'Gmail.GetThread',
    wireName: 'Gmail_GetThread',
    description: 'Get a full Gmail thread by thread ID.',
    parameters: z.object({ thread_id: z.string() }),
    prepareArguments: prepare((args) => {
      if (args.thread_id === null || !Object.hasOwn(args, 'thread_id')) args.thread_id = ''
    }),
    handler: ({ thread_id }) => {
      if (thread_id === '') return { thread: null }
      return { thread: workplace.sources.gmail.threads.find((thread) => pyGet(thread, 'id', null) === thread_id) ?? null }
    },
  })
}

/** `GoogleDrive_gdrive_search {query, limit}`: files whose name or content contains the whole query. */
function driveSearch(workplace: Workplace) {
  return defineTool({
    ...common,
    name: 'GoogleDrive.gdrive_search',
    wireName: 'GoogleDrive_gdrive_search',
    description: 'Search Google Drive files by name or keywords.',
    parameters: z.object({ query: z.string(), limit: z.number().int().optional() }),
    prepareArguments: prepare((args) => {
      defaultWhenMissing(args, 'query', '')
      dropNull(args, 'limit')
    }),
    handler: ({ query, limit }) => {
      const wanted = query.toLowerCase()
      if (wanted === '') return { files: [] }
      const files: Array<{ id: unknown; name: unknown; mimeType: unknown }> = []
      for (const file of workplace.sources.drive.files) {
        if (lower(pyGet(file, 'name', '')).includes(wanted) || lower(pyGet(file, 'content', '')).includes(wanted)) {
          files.push({ id: pyGet(file, 'id', ''), name: pyGet(file, 'name', ''), mimeType: pyGet(file, 'mimeType', '') })
        }
      }
      return { files: limited(files, limit) }
    },
  })
}

/** `GoogleDrive_gdrive_read_file {file_id}`: `{id, name, content}` of the file, or `null`. */
function driveRead(workplace: Workplace) {
  return defineTool({
    ...common,
    name: 'GoogleDrive.gdrive_read_file',
    wireName: 'GoogleDrive_gdrive_read_file',
    description: 'Read the content of a Google Drive file by file ID.',
    parameters: z.object({ file_id: z.string() }),
    prepareArguments: prepare((args) => {
      if (args.file_id === null || !Object.hasOwn(args, 'file_id')) args.file_id = ''
    }),
    handler: ({ file_id }) => {
      if (file_id === '') return { file: null }
      const file = workplace.sources.drive.files.find((f) => pyGet(f, 'id', null) === file_id)
      return { file: file === undefined ? null : { id: pyGet(file, 'id', ''), name: pyGet(file, 'name', ''), content: pyGet(file, 'content', '') } }
    },
  })
}

// Python `\w` is Unicode letters, digits and `_`; `re.IGNORECASE` folds case like JavaScript's `iu`.
const JQL_PROJECT = /project\s*=\s*([\p{L}\p{N}_]+)/iu
const JQL_STATUS = /status\s*=\s*"([^"]+)"/iu
const JQL_TEXT = /text\s*~\s*"([^"]+)"/iu
const JQL_ORDER = /ORDER\s+BY\s+([\p{L}\p{N}_]+)\s+(DESC|ASC)/iu

/** `Jira_SearchIssuesWithJql {jql}`: only `project = KEY`, `status = "X"`, `text ~ "x"` (summary) and `ORDER BY updated` are read. */
function jiraSearch(workplace: Workplace) {
  return defineTool({
    ...common,
    name: 'Jira.SearchIssuesWithJql',
    wireName: 'Jira_SearchIssuesWithJql',
    description: 'Search Jira issues using JQL (Jira Query Language).',
    parameters: z.object({ jql: z.string(), limit: z.number().int().optional() }),
    // Upstream never reads limit.
    prepareArguments: prepare((args) => {
      if (args.jql === null || !Object.hasOwn(args, 'jql')) args.jql = ''
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
