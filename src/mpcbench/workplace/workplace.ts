import { parseClock } from '../../time/calendar.ts'
import { isValidTimeZone, parseInstant } from '../../time/zone.ts'
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'
import { InvalidFormatError } from '../../core/errors.ts'
import { parseWith } from '../../core/parse.ts'
import { resolveInside } from '../../core/paths.ts'
import { PLAIN_SCENARIO_ID } from '../tasks/file-names.ts'
import type {
  CalendarEvent,
  Contact,
  DriveFile,
  GmailMessage,
  GmailThread,
  JiraIssue,
  JiraProject,
  SlackChannel,
  SlackMessage,
  SlackUser,
  WorkplaceSources,
} from './source-types.ts'
import { words } from './text-match.ts'
import { SOURCES, type SourceName, validateSource } from './validate-source.ts'

/** Scenario-wide settings the tools need. */
export interface WorkplaceSettings {
  /** IANA zone in which dates without an offset are read and results are written. */
  timezone: string
  /** `HH:MM`; the default workday for free-slot search. */
  workdayStart: string
  workdayEnd: string
  /** "Now" for relative ranges such as `last_7_days`, epoch ms. Defaults to the latest timestamp in the data. */
  now?: number
}

/** Default settings when a scenario has no world state: UTC, 09:00-18:00. */
export const DEFAULT_WORKPLACE_SETTINGS: WorkplaceSettings = { timezone: 'UTC', workdayStart: '09:00', workdayEnd: '18:00' }

/** A Slack message with its instant, resolved author and channel, and the words of its text. */
export interface IndexedSlackMessage {
  message: SlackMessage
  at: number
  /** `words(text)`, for search. */
  words: string[]
  user: SlackUser | undefined
  channel: SlackChannel | undefined
}

/** A calendar event with its interval. */
export interface IndexedEvent {
  event: CalendarEvent
  start: number
  end: number
  /** Lower-cased emails of attendees and organizer. */
  participants: ReadonlySet<string>
}

/** A mail thread with the instants of its first and last message. */
export interface IndexedThread {
  thread: GmailThread
  first: number
  last: number
  /** Oldest first; `subjectWords` are the words of the thread subject followed by the message subject, for search. */
  messages: Array<{ message: GmailMessage; at: number; subjectWords: string[] }>
}

/** A Jira issue with its update instant (or `undefined`). */
export interface IndexedIssue {
  issue: JiraIssue
  updated: number | undefined
  created: number | undefined
}

/** A Drive file with its modification instant and the words of its name and of name plus content, for search. */
export interface IndexedFile {
  file: DriveFile
  modified: number
  nameWords: string[]
  fullTextWords: string[]
}

/** A busy interval of one person. */
export interface BusyInterval {
  start: number
  end: number
  /** Event id, or `free_busy` for an interval listed only in the calendar's free_busy section. */
  source: string
}

type SourceFiles = Partial<Record<SourceName, string>>

/**
 * The six sources of one scenario in memory, with the indexes the tools use.
 * Build it with {@link loadWorkplace} (from `data/`) or {@link Workplace.fromSources} (from objects).
 */
export class Workplace {
  readonly sources: WorkplaceSources
  readonly settings: WorkplaceSettings

  readonly slackUsersById = new Map<string, SlackUser>()
  readonly slackChannelsById = new Map<string, SlackChannel>()
  /** Slack messages, oldest first. */
  readonly slackMessages: IndexedSlackMessage[]

  readonly threadsById = new Map<string, IndexedThread>()
  /** Mail threads, newest last message first. */
  readonly threads: IndexedThread[]

  /** Calendar events sorted by start. */
  readonly events: IndexedEvent[]
  /** The longest event, used to bound range scans. */
  readonly maxEventMs: number
  /** Busy intervals by lower-cased email (events as attendee or organizer, plus free_busy entries), sorted by start. */
  readonly busyByEmail = new Map<string, BusyInterval[]>()
  /** Lower-cased emails that own a calendar. */
  readonly calendarEmails = new Set<string>()

  readonly contactsByEmail = new Map<string, Contact>()

  readonly issuesByKey = new Map<string, IndexedIssue>()
  readonly issues: IndexedIssue[]
  readonly projectsByKey = new Map<string, JiraProject>()

  readonly filesById = new Map<string, IndexedFile>()
  readonly files: IndexedFile[]

  /** "Now" for relative date ranges: settings.now, else the latest Slack, Gmail, Jira `updated` or Drive timestamp (calendar events may lie in the future). */
  readonly now: number

  private constructor(sources: WorkplaceSources, settings: WorkplaceSettings, files: SourceFiles) {
    this.sources = sources
    this.settings = settings
    const tz = settings.timezone
    const instant = (source: SourceName, path: string, text: string): number => {
      const at = parseInstant(text, tz)
      if (at === undefined) {
        const file = files[source]
        throw new InvalidFormatError(
          `Invalid ${source} source${file === undefined ? '' : ` ${file}`}:\n  ${path}: ${JSON.stringify(text)} is not a date-time`,
          {
            file,
            field: path,
            hint: 'Write timestamps as ISO 8601 with an offset, e.g. 2025-11-17T10:00:00+09:00.',
          },
        )
      }
      return at
    }
    let latest = Number.NEGATIVE_INFINITY

    const { slack, gmail, calendar, contacts, jira, drive } = sources
    for (const user of slack.users) this.slackUsersById.set(user.id, user)
    for (const channel of slack.channels) this.slackChannelsById.set(channel.id, channel)
    this.slackMessages = slack.messages.map((message, i) => {
      const at = instant('slack', `messages.${i}.timestamp`, message.timestamp)
      latest = Math.max(latest, at)
      return {
        message,
        at,
        words: words(message.text),
        user: this.slackUsersById.get(message.user_id),
        channel: this.slackChannelsById.get(message.channel_id),
      }
    })
    this.slackMessages.sort((a, b) => a.at - b.at)

    this.threads = gmail.threads.map((thread, t) => {
      const messages = thread.messages.map((message, m) => ({
        message,
        at: instant('gmail', `threads.${t}.messages.${m}.date`, message.date),
        subjectWords: words(`${thread.subject} ${message.subject}`),
      }))
      messages.sort((a, b) => a.at - b.at)
      const first = messages[0]?.at ?? Number.NEGATIVE_INFINITY
      const last = messages.at(-1)?.at ?? Number.NEGATIVE_INFINITY
      latest = Math.max(latest, last)
      const indexed = { thread, first, last, messages }
      this.threadsById.set(thread.id, indexed)
      return indexed
    })
    this.threads.sort((a, b) => b.last - a.last)

    let maxEventMs = 0
    this.events = calendar.events.map((event, i) => {
      const start = instant('calendar', `events.${i}.start`, event.start)
      const end = instant('calendar', `events.${i}.end`, event.end)
      maxEventMs = Math.max(maxEventMs, end - start)
      const participants = new Set(event.attendees.map((a) => a.email.toLowerCase()))
      if (event.organizer !== undefined) participants.add(event.organizer.email.toLowerCase())
      for (const email of participants) this.busyFor(email).push({ start, end, source: event.id })
      return { event, start, end, participants }
    })
    this.events.sort((a, b) => a.start - b.start || a.end - b.end)
    this.maxEventMs = maxEventMs
    for (const [e, entry] of (calendar.free_busy ?? []).entries()) {
      const busy = this.busyFor(entry.email.toLowerCase())
      for (const [s, slot] of entry.time_slots.entries()) {
        busy.push({
          start: instant('calendar', `free_busy.${e}.time_slots.${s}.start`, slot.start),
          end: instant('calendar', `free_busy.${e}.time_slots.${s}.end`, slot.end),
          source: 'free_busy',
        })
      }
    }
    for (const busy of this.busyByEmail.values()) busy.sort((a, b) => a.start - b.start)
    for (const owner of calendar.calendars) this.calendarEmails.add(owner.email.toLowerCase())

    for (const contact of contacts.contacts) this.contactsByEmail.set(contact.email.toLowerCase(), contact)

    for (const project of jira.projects) this.projectsByKey.set(project.key.toUpperCase(), project)
    this.issues = jira.issues.map((issue, i) => {
      const updated = issue.updated === undefined ? undefined : instant('jira', `issues.${i}.updated`, issue.updated)
      if (updated !== undefined) latest = Math.max(latest, updated)
      const created = issue.created === undefined ? undefined : instant('jira', `issues.${i}.created`, issue.created)
      const indexed = { issue, updated, created }
      this.issuesByKey.set(issue.key.toUpperCase(), indexed)
      return indexed
    })

    this.files = drive.files.map((file, i) => {
      const modified = instant('drive', `files.${i}.modifiedTime`, file.modifiedTime)
      latest = Math.max(latest, modified)
      const indexed = { file, modified, nameWords: words(file.name), fullTextWords: words(`${file.name} ${file.content}`) }
      this.filesById.set(file.id, indexed)
      return indexed
    })

    this.now = settings.now ?? (Number.isFinite(latest) ? latest : Date.now())
  }

  private busyFor(email: string): BusyInterval[] {
    let busy = this.busyByEmail.get(email)
    if (busy === undefined) {
      busy = []
      this.busyByEmail.set(email, busy)
    }
    return busy
  }

  /**
   * A workplace from source objects; each source is validated against its schema first.
   * `files` names where each source came from, for error messages.
   */
  static fromSources(sources: Record<SourceName, unknown>, settings: Partial<WorkplaceSettings> = {}, files: SourceFiles = {}): Workplace {
    const full: WorkplaceSettings = { ...DEFAULT_WORKPLACE_SETTINGS, ...stripUndefined(settings) }
    checkSettings(full)
    const validated = {} as Record<SourceName, unknown>
    for (const source of SOURCES) validated[source] = validateSource(source, sources[source], files[source])
    return new Workplace(validated as unknown as WorkplaceSources, full, files)
  }

  /** Events overlapping `[from, to)`, by start. */
  eventsBetween(from: number, to: number): IndexedEvent[] {
    const out: IndexedEvent[] = []
    let i = lowerBound(this.events, from - this.maxEventMs, (e) => e.start)
    for (; i < this.events.length; i++) {
      const e = this.events[i] as IndexedEvent
      if (e.start >= to) break
      if (e.end > from || (e.start === e.end && e.start >= from)) out.push(e)
    }
    return out
  }

  /** Slack messages with `from <= at < to`, oldest first. */
  slackMessagesBetween(from: number, to: number): IndexedSlackMessage[] {
    const start = lowerBound(this.slackMessages, from, (m) => m.at)
    const end = lowerBound(this.slackMessages, to, (m) => m.at)
    return this.slackMessages.slice(start, end)
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

function checkSettings(settings: WorkplaceSettings): void {
  if (!isValidTimeZone(settings.timezone)) {
    throw new InvalidFormatError(`Unknown time zone ${JSON.stringify(settings.timezone)}`, {
      field: 'global_settings.timezone',
      hint: 'Use an IANA zone name such as Asia/Seoul or America/New_York.',
    })
  }
  for (const key of ['workdayStart', 'workdayEnd'] as const) {
    if (parseClock(settings[key]) === undefined) {
      throw new InvalidFormatError(`Invalid workday time ${JSON.stringify(settings[key])}`, {
        field: key === 'workdayStart' ? 'global_settings.workday_start' : 'global_settings.workday_end',
        hint: 'Write workday times as HH:MM, e.g. 09:00.',
      })
    }
  }
}

/** First index whose key is >= `value` in an array sorted by `key`. */
export function lowerBound<T>(items: ReadonlyArray<T>, value: number, key: (item: T) => number): number {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (key(items[mid] as T) < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The part of a world state file this module reads; the rest belongs to the generator. */
const WorldStateSettingsSchema = z.looseObject({
  global_settings: z
    .looseObject({
      timezone: z.string(),
      workday_start: z.string().optional(),
      workday_end: z.string().optional(),
    })
    .optional(),
})

/** Options of {@link loadWorkplace}; each overrides the world state's `global_settings`. */
export interface LoadWorkplaceOptions {
  timezone?: string
  workdayStart?: string
  workdayEnd?: string
  now?: number
}

/** `data/{scenarioId}_{source}.json`; a scenario id that would leave `dataDir` (`../x`) is an `InvalidFormatError`. */
export function sourceFilePath(dataDir: string, scenarioId: string, source: SourceName | 'world_state'): string {
  if (!PLAIN_SCENARIO_ID.test(scenarioId)) {
    throw new InvalidFormatError(`scenario_id ${JSON.stringify(scenarioId)} is not a plain name; it must name files inside ${dataDir}`, {
      field: 'data_dependencies.scenario_id',
      hint: 'Use the id of a file in scenarios/ (letters, digits, `.`, `_`, `-`), without `/`, `\\` or `..`.',
    })
  }
  return resolveInside(dataDir, `${scenarioId}_${source}.json`, `scenario_id ${JSON.stringify(scenarioId)}`)
}

function readJson(file: string, label: string): unknown {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new InvalidFormatError(`Cannot read ${label} ${file}: ${(error as Error).message}`, {
      file,
      hint: `Generate the scenario's data first (agent-bench generate --scenario-id <id>) or check the data directory.`,
      cause: error,
    })
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new InvalidFormatError(`Invalid ${label} ${file}: not JSON (${(error as Error).message})`, {
      file,
      hint: `Fix or regenerate ${file}.`,
      cause: error,
    })
  }
}

/**
 * Loads `data/{scenarioId}_{slack,gmail,calendar,contacts,jira,drive}.json` (each validated against its schema)
 * and, when present, `data/{scenarioId}_world_state.json` for `global_settings` (time zone, workday).
 */
export function loadWorkplace(dataDir: string, scenarioId: string, options: LoadWorkplaceOptions = {}): Workplace {
  const files: Record<SourceName, string> = {} as Record<SourceName, string>
  const sources = {} as Record<SourceName, unknown>
  for (const source of SOURCES) {
    const file = sourceFilePath(dataDir, scenarioId, source)
    files[source] = file
    sources[source] = readJson(file, `${source} source`)
  }
  const settings: Partial<WorkplaceSettings> = {}
  const worldStateFile = sourceFilePath(dataDir, scenarioId, 'world_state')
  if (existsSync(worldStateFile)) {
    const { global_settings: global } = parseWith(WorldStateSettingsSchema, readJson(worldStateFile, 'world state'), 'world state', worldStateFile)
    if (global !== undefined) {
      settings.timezone = global.timezone
      if (global.workday_start !== undefined) settings.workdayStart = global.workday_start
      if (global.workday_end !== undefined) settings.workdayEnd = global.workday_end
    }
  }
  return Workplace.fromSources(sources, { ...settings, ...stripUndefined(options) }, files)
}
