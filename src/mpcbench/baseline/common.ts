import { callsTo, isErrorResult, listIn, str } from '../../baseline/conversation.ts'
import type { Conversation, PastCall } from '../../baseline/conversation.ts'
import { isoDaysIn } from '../../baseline/date-phrases.ts'
import type { PlannedCall } from '../../baseline/step.ts'
import { extractKeywords } from '../../baseline/text.ts'

/** Workplace tool display names (upstream MPCBench names). */
export const WORKPLACE_TOOLS = {
  slackSearch: 'Slack.search_messages',
  contactsSearch: 'GoogleContacts.SearchContactsByName',
  listEvents: 'GoogleCalendar.ListEvents',
  freeSlots: 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
  gmailSearch: 'Gmail.SearchThreads',
  gmailThread: 'Gmail.GetThread',
  driveSearch: 'GoogleDrive.gdrive_search',
  driveRead: 'GoogleDrive.gdrive_read_file',
  jiraSearch: 'Jira.SearchIssuesWithJql',
} as const

/** Words that describe the task rather than its topic; kept out of search queries. */
const TASK_WORDS = new Set(
  `please find few possible time slots slot meeting meetings schedule scheduling sync syncing book arrange set up
  draft write reply respond response email mail customer client asking asks asked wants want would like
  create prepare compose generate summarize summarizing summarise summary report document doc
  sometime soon next this last week weeks today tomorrow mentioned mention said talked talk about project team`.split(/\s+/),
)

/** Topic keywords of a prompt (most distinctive first), without task words and the given names. */
export function topicKeywords(prompt: string, names: ReadonlyArray<string> = []): string[] {
  const nameWords = new Set(names.flatMap((name) => name.toLowerCase().split(/\s+/)))
  return extractKeywords(prompt, new Set([...TASK_WORDS, ...nameWords])).map((k) => k.text)
}

/** Capitalised words that begin a sentence without being a name. */
const NOT_A_NAME = new Set(
  `A An The This That Please Find Schedule Set Book Can Could Would Draft Write Create Prepare Summarize Reply Help Let
  Organize Arrange Plan Send Check Also And But Or If When What Who Where Which How Hi Hello Dear Thanks Thank I We You
  Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September
  October November December Slack Jira Gmail Google Drive Calendar Contacts`.split(/\s+/),
)

/**
 * Person names in a prompt: runs of Capitalised words (`Alex Smith`, `Tom`), split at commas and
 * `and`, without words that only begin a sentence (`Please`) or name a day, month or tool.
 */
export function personNames(prompt: string): string[] {
  const out: string[] = []
  for (const match of prompt.matchAll(/\b[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?(?:\s+[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)*/g)) {
    const parts = match[0].split(/\s+/).filter((part) => !NOT_A_NAME.has(part))
    if (parts.length === 0) continue
    const name = parts.join(' ')
    if (!out.includes(name)) out.push(name)
  }
  return out
}

/** Email addresses written in `text`, in order, without repeats. */
export function emailAddressesIn(text: string): string[] {
  return [...new Set(text.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? [])]
}

/** Jira issue keys (`APP-412`) written in `text`. */
export function issueKeysIn(text: string): string[] {
  return [...new Set(text.match(/\b[A-Z][A-Z0-9]+-\d+\b/g) ?? [])]
}

/**
 * A search that is retried with the next argument set while it finds nothing. `attempts` are
 * tried in order; the search is settled once an attempt has hits or all were tried.
 */
export interface SearchTrack {
  tool: string
  attempts: Array<Record<string, unknown>>
  /** The hit list in a result. */
  hits: (result: unknown) => Array<Record<string, unknown>>
  /** Which calls to `tool` belong to this track (several tracks may share a tool); default all. */
  owns?: (call: PastCall) => boolean
}

/** Where a {@link SearchTrack} stands. */
export type TrackState =
  | { kind: 'pending'; next: Record<string, unknown> }
  | { kind: 'found'; hits: Array<Record<string, unknown>>; call: PastCall }
  | { kind: 'exhausted' }

/** The state of `track` given the calls already made to its tool. */
export function trackState(conversation: Conversation, track: SearchTrack): TrackState {
  const made = callsTo(conversation, track.tool).filter((call) => track.owns?.(call) ?? true)
  const last = made.at(-1)
  if (last !== undefined) {
    const hits = track.hits(last.result)
    if (hits.length > 0) return { kind: 'found', hits, call: last }
  }
  const next = track.attempts[made.length]
  return next === undefined ? { kind: 'exhausted' } : { kind: 'pending', next }
}

/**
 * Runs search tracks in rounds: every pending track (whose tool is offered) gets its next attempt
 * in one parallel step. Returns the calls to make now, or an empty list when all are settled.
 */
export function pendingSearches(conversation: Conversation, tracks: ReadonlyArray<SearchTrack>): PlannedCall[] {
  const calls: PlannedCall[] = []
  for (const track of tracks) {
    if (!conversation.tools.has(track.tool)) continue
    const state = trackState(conversation, track)
    if (state.kind === 'pending') calls.push({ name: track.tool, arguments: state.next })
  }
  return calls
}

/** The hits a track found, or `[]`. */
export function trackHits(conversation: Conversation, track: SearchTrack): Array<Record<string, unknown>> {
  const state = trackState(conversation, track)
  return state.kind === 'found' ? state.hits : []
}

/** Keyword attempts for a word-AND search: the top 2 (in prompt order), then each of the top 3 alone. */
export function shrinkingQueries(keywords: ReadonlyArray<string>, prompt: string): string[] {
  const inPromptOrder = (set: string[]) => [...set].sort((a, b) => prompt.indexOf(a) - prompt.indexOf(b)).join(' ')
  const out: string[] = []
  if (keywords.length >= 2) out.push(inPromptOrder(keywords.slice(0, 2)))
  for (const k of keywords.slice(0, 3)) out.push(k)
  return [...new Set(out)]
}

/** Hit lists of each workplace tool's result. */
export const HITS = {
  slack: (r: unknown) => listIn(r, ['messages']),
  contacts: (r: unknown) => listIn(r, ['contacts']),
  events: (r: unknown) => listIn(r, ['events']),
  slots: (r: unknown) => listIn(r, ['time_slots', 'slots']),
  gmail: (r: unknown) => {
    if (isErrorResult(r) || r === null || typeof r !== 'object') return []
    const ids = (r as Record<string, unknown>).thread_ids
    if (Array.isArray(ids)) return ids.filter((id): id is string => typeof id === 'string').map((id) => ({ id }))
    return listIn(r, ['threads'])
  },
  drive: (r: unknown) => listIn(r, ['files']),
  jira: (r: unknown) => listIn(r, ['issues']),
} as const

/** The Jira query that lists the most recently updated issue (its date stands in for "today"). */
export const LATEST_ISSUE_JQL = 'ORDER BY updated DESC'

/**
 * "Today" for relative dates: a date written in the system or user message, else the latest day
 * among the timestamps of Slack messages, Gmail threads, Jira issues and Drive files seen so far
 * (calendar events are left out: they may lie in the future), else `undefined`.
 */
export function referenceDay(conversation: Conversation): string | undefined {
  const written = isoDaysIn(`${conversation.system}\n${conversation.user}`)
  if (written[0] !== undefined) return written[0]
  const seen: string[] = []
  const add = (items: Array<Record<string, unknown>>, ...keys: string[]) => {
    for (const item of items) for (const key of keys) seen.push(...isoDaysIn(str(item, key)))
  }
  for (const call of conversation.calls) {
    if (call.name === WORKPLACE_TOOLS.slackSearch) add(HITS.slack(call.result), 'timestamp')
    if (call.name === WORKPLACE_TOOLS.gmailSearch) add(listIn(call.result, ['threads']), 'last_date')
    if (call.name === WORKPLACE_TOOLS.jiraSearch) add(HITS.jira(call.result), 'updated')
    if (call.name === WORKPLACE_TOOLS.driveSearch) add(HITS.drive(call.result), 'modifiedTime')
  }
  return seen.sort().at(-1)
}

/** Files read from Drive so far: `{name, content}`. */
export function driveFilesRead(conversation: Conversation): Array<{ name: string; content: string }> {
  return callsTo(conversation, WORKPLACE_TOOLS.driveRead).flatMap((call) => {
    const r = call.result
    if (isErrorResult(r) || r === null || typeof r !== 'object') return []
    const file = (r as Record<string, unknown>).file
    if (file === null || typeof file !== 'object') return []
    const record = file as Record<string, unknown>
    return [{ name: str(record, 'name'), content: str(record, 'content') }]
  })
}

/** Read calls for the top `count` Drive hits not read yet. */
export function driveReads(conversation: Conversation, drive: SearchTrack, count: number): PlannedCall[] {
  if (!conversation.tools.has(WORKPLACE_TOOLS.driveRead) || callsTo(conversation, WORKPLACE_TOOLS.driveRead).length > 0) return []
  return trackHits(conversation, drive)
    .slice(0, count)
    .map((file) => str(file, 'id'))
    .filter((id) => id !== '')
    .map((file_id) => ({ name: WORKPLACE_TOOLS.driveRead, arguments: { file_id } }))
}
