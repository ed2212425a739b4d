import type { Conversation, PastCall } from '../../baseline/conversation.ts'
import type { BaselineStep, PlannedCall } from '../../baseline/step.ts'
import { WORKPLACE_TOOLS } from './common.ts'

/**
 * The baseline strategies are written against the `extended` tools (dotted names, `query`, `date_range_start`,
 * `messages`, `email`). When the `upstream-v1` profile is offered (wire names `Slack_search_messages`, ...), this
 * module translates the conversation into that form before a strategy reads it, and the strategy's calls back into
 * upstream's names and arguments.
 */

type Args = Record<string, unknown>

interface UpstreamTool {
  wire: string
  /** Upstream arguments → the extended arguments the strategies read. */
  readArgs?: (args: Args) => Args
  /** Extended arguments the strategies plan → upstream arguments. */
  writeArgs?: (args: Args) => Args
  /** Upstream result (of a call with these extended arguments) → the extended result shape the strategies read. */
  readResult?: (result: unknown, args: Args) => unknown
}

function rename(args: Args, from: string, to: string): Args {
  if (!Object.hasOwn(args, from)) return args
  const { [from]: value, ...rest } = args
  return { ...rest, [to]: value }
}

function mapList(result: unknown, key: string, to: string, item: (value: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return result
  const list = (result as Record<string, unknown>)[key]
  if (!Array.isArray(list)) return result
  return {
    ...(result as Record<string, unknown>),
    [to]: list.map((value) => (value !== null && typeof value === 'object' ? item(value as Record<string, unknown>) : value)),
  }
}

/** The next ISO day after `YYYY-MM-DD`, or the text unchanged. */
function nextDay(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day
  const next = new Date(`${day}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return next.toISOString().slice(0, 10)
}

/** Slack hits ordered by how many query words their text holds, then newest first. */
function rankSlack(result: unknown, args: Args): unknown {
  if (result === null || typeof result !== 'object' || !Array.isArray((result as Record<string, unknown>).messages)) return result
  const words = String(args.query ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '')
  const scored = (result as { messages: Array<Record<string, unknown>> }).messages.map((message) => {
    const text = String(message.text ?? '').toLowerCase()
    return { message, score: words.filter((word) => text.includes(word)).length, at: String(message.timestamp ?? '') }
  })
  scored.sort((a, b) => b.score - a.score || (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
  return { ...(result as Record<string, unknown>), messages: scored.map((s) => s.message) }
}

const UPSTREAM_TOOLS: Record<string, UpstreamTool> = {
  [WORKPLACE_TOOLS.slackSearch]: {
    wire: 'Slack_search_messages',
    readArgs: (args) => rename(args, 'search_query', 'query'),
    writeArgs: (args) => rename(args, 'query', 'search_query'),
    // Upstream returns every message holding any query word, oldest first: rank them as the extended search would
    // (messages holding more of the words first, then newest first), on the client side.
    readResult: (result, args) =>
      rankSlack(
        mapList(result, 'matches', 'messages', (m) => ({ ...m, channel_name: m.channel })),
        args,
      ),
  },
  [WORKPLACE_TOOLS.contactsSearch]: {
    wire: 'GoogleContacts_SearchContactsByName',
    readResult: (result) => mapList(result, 'contacts', 'contacts', (c) => ({ ...c, email: Array.isArray(c.emails) ? c.emails[0] : undefined })),
  },
  [WORKPLACE_TOOLS.listEvents]: {
    wire: 'GoogleCalendar_ListEvents',
    writeArgs: ({ min_date, max_date, ...rest }) => ({
      ...rest,
      ...(typeof min_date === 'string' ? { min_end_datetime: min_date } : {}),
      ...(typeof max_date === 'string' ? { max_start_datetime: nextDay(max_date) } : {}),
    }),
  },
  [WORKPLACE_TOOLS.freeSlots]: {
    wire: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
    readArgs: (args) => rename(rename(args, 'start_date', 'date_range_start'), 'end_date', 'date_range_end'),
    writeArgs: (args) => rename(rename(args, 'date_range_start', 'start_date'), 'date_range_end', 'end_date'),
  },
  [WORKPLACE_TOOLS.gmailSearch]: { wire: 'Gmail_SearchThreads' },
  [WORKPLACE_TOOLS.gmailThread]: { wire: 'Gmail_GetThread' },
  [WORKPLACE_TOOLS.driveSearch]: { wire: 'GoogleDrive_gdrive_search' },
  [WORKPLACE_TOOLS.driveRead]: { wire: 'GoogleDrive_gdrive_read_file' },
  [WORKPLACE_TOOLS.jiraSearch]: {
    wire: 'Jira_SearchIssuesWithJql',
    // Upstream ignores `key IN (...)` and returns every issue: keep the asked-for keys, as the extended JQL would.
    readResult: (result, args) => {
      const keys = typeof args.jql === 'string' ? /\bkey\s+IN\s*\(([^)]*)\)/i.exec(args.jql)?.[1] : undefined
      if (keys === undefined || result === null || typeof result !== 'object' || !Array.isArray((result as Record<string, unknown>).issues)) return result
      const wanted = new Set(keys.split(',').map((key) => key.trim().toUpperCase()))
      const issues = (result as { issues: unknown[] }).issues.filter((issue) => wanted.has(String((issue as { key?: unknown }).key ?? '').toUpperCase()))
      return { ...(result as Record<string, unknown>), issues }
    },
  },
}

const BY_UPSTREAM_WIRE = new Map(Object.entries(UPSTREAM_TOOLS).map(([name, tool]) => [tool.wire, name]))

/** The upstream-v1 wire names of the workplace tools (as the baseline sees offered tool names). */
export const UPSTREAM_WIRE_NAMES: ReadonlySet<string> = new Set(BY_UPSTREAM_WIRE.keys())

/** A conversation with upstream-v1 tool names, arguments and results turned into the extended form. */
export function readAsExtended(conversation: Conversation): Conversation {
  if (![...conversation.tools].some((name) => BY_UPSTREAM_WIRE.has(name))) return conversation
  const canonical = (name: string) => BY_UPSTREAM_WIRE.get(name) ?? name
  const calls: PastCall[] = conversation.calls.map((call) => {
    const name = canonical(call.name)
    const tool = name === call.name ? undefined : UPSTREAM_TOOLS[name]
    if (tool === undefined) return call
    const args = tool.readArgs?.(call.arguments) ?? call.arguments
    return { ...call, name, arguments: args, result: tool.readResult?.(call.result, args) ?? call.result }
  })
  return {
    ...conversation,
    calls,
    tools: new Set([...conversation.tools].map(canonical)),
    toolDefinitions: new Map([...conversation.toolDefinitions].map(([name, definition]) => [canonical(name), definition])),
  }
}

/** A step planned on the extended form, with its calls renamed and re-argued for the tools actually offered. */
export function writeForOffered(step: BaselineStep, offered: ReadonlySet<string>): BaselineStep {
  if (step.kind !== 'call') return step
  const calls: PlannedCall[] = step.calls.map((call) => {
    const tool = UPSTREAM_TOOLS[call.name]
    if (tool === undefined || offered.has(call.name) || !offered.has(tool.wire)) return call
    return { name: tool.wire, arguments: tool.writeArgs?.(call.arguments) ?? call.arguments }
  })
  return { ...step, calls }
}
