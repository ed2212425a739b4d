/**
 * Result shapes of the workplace tools (plain JSON, sent to the model as the tool message).
 * Field names follow upstream MPCBench's tool API (`schemas/api_schemas/*.json` in v1) and add a few
 * fields that save the model a call (channel and user names on Slack hits, thread summaries on Gmail search).
 *
 * Tools never return errors as values: a bad argument (unknown id, bad JQL, bad date) throws a
 * `BenchError` subclass (`WorkplaceToolError`, `JqlError`), which the agent loop reports to the model.
 */

/** `Slack.search_messages`. */
export interface SlackSearchResult {
  messages: SlackSearchHit[]
  /** Number of matching messages before `limit` was applied. */
  total: number
}
export interface SlackSearchHit {
  id: string
  text: string
  user_id: string
  user_name: string | null
  channel_id: string
  channel_name: string | null
  timestamp: string
  thread_ts?: string
}

/** `GoogleContacts.SearchContactsByName`. */
export interface ContactsSearchResult {
  contacts: Array<{ id: string; name: string; email: string; phone?: string; organization?: string }>
}

/** `GoogleCalendar.ListEvents`. */
export interface ListEventsResult {
  events: Array<{
    id: string
    title: string
    start: string
    end: string
    attendees: Array<{ email: string; name?: string }>
    organizer?: { email: string; name?: string }
    description?: string
    location?: string
  }>
  /** IANA time zone in which date-only bounds were read. */
  timezone: string
}

/** `GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree`. */
export interface FreeSlotsResult {
  /** Maximal free intervals, each at least `slot_minimum_minutes` long, in the scenario's offset. */
  time_slots: TimeSlot[]
  timezone: string
  /** Requested addresses with no calendar and no events: treated as free all the time. */
  unknown_emails: string[]
}
export interface TimeSlot {
  /** ISO 8601 with the scenario's UTC offset, e.g. `2025-11-17T09:00:00+09:00`. */
  start: string
  end: string
}

/** `Gmail.SearchThreads`. */
export interface GmailSearchResult {
  thread_ids: string[]
  /** One summary line per thread, same order as `thread_ids` (newest last message first). */
  threads: Array<{ id: string; subject: string; from: string; last_date: string; message_count: number }>
}

/** `Gmail.GetThread`. */
export interface GmailThreadResult {
  thread: {
    id: string
    subject: string
    messages: Array<{ id: string; from: string; to: string[]; cc?: string[]; subject: string; body: string; date: string }>
  }
}

/** `GoogleDrive.gdrive_search`. */
export interface DriveSearchResult {
  files: Array<{ id: string; name: string; mimeType?: string; modifiedTime: string }>
}

/** `GoogleDrive.gdrive_read_file`. */
export interface DriveReadResult {
  file: { id: string; name: string; mimeType?: string; modifiedTime: string; content: string }
}

/** `Jira.SearchIssuesWithJql`. */
export interface JiraSearchResult {
  issues: JiraIssueHit[]
  /** Number of matching issues before `limit` was applied. */
  total: number
}
export interface JiraIssueHit {
  key: string
  summary: string
  status: string
  updated?: string
  fixVersions: Array<{ name: string; releaseDate?: string }>
  project: { key: string } | null
  description?: string
  assignee?: string
  priority?: string
  labels?: string[]
}
