/**
 * TypeScript shapes of the six MPCBench source files, mirroring `schemas/{source}_schema.json`.
 * Data is checked against the JSON Schemas with ajv (see `validate-source.ts`); these types describe what passed.
 */

/** `schemas/slack_schema.json`. */
export interface SlackSource {
  workspace_name: string
  channels: SlackChannel[]
  messages: SlackMessage[]
  users: SlackUser[]
}
export interface SlackChannel {
  id: string
  name: string
}
export interface SlackMessage {
  id: string
  channel_id: string
  user_id: string
  text: string
  /** ISO 8601 with offset (or a Slack epoch `1763341380.000100`). */
  timestamp: string
  /** Timestamp of the thread root when this message is a reply; used as a grouping key only. */
  thread_ts?: string
}
export interface SlackUser {
  id: string
  name: string
  email: string
}

/** `schemas/gmail_schema.json`. */
export interface GmailSource {
  threads: GmailThread[]
}
export interface GmailThread {
  id: string
  subject: string
  messages: GmailMessage[]
}
export interface GmailMessage {
  id: string
  /** An address or `Name <address>`. */
  from: string
  to: string[]
  cc?: string[]
  subject: string
  body: string
  date: string
}

/** `schemas/calendar_schema.json`. */
export interface CalendarSource {
  events: CalendarEvent[]
  calendars: CalendarOwner[]
  /** Busy intervals per person, as upstream's generator emits them. */
  free_busy?: FreeBusyEntry[]
}
export interface CalendarPerson {
  email: string
  name?: string
}
export interface CalendarEvent {
  id: string
  title: string
  start: string
  end: string
  attendees: CalendarPerson[]
  organizer?: CalendarPerson
  description?: string
  location?: string
}
export interface CalendarOwner {
  id: string
  email: string
}
export interface FreeBusyEntry {
  email: string
  time_slots: Array<{ start: string; end: string }>
}

/** `schemas/contacts_schema.json`. */
export interface ContactsSource {
  contacts: Contact[]
}
export interface Contact {
  id: string
  name: string
  email: string
  phone?: string
  organization?: string
}

/** `schemas/jira_schema.json`. */
export interface JiraSource {
  projects: JiraProject[]
  issues: JiraIssue[]
}
export interface JiraFixVersion {
  name: string
  releaseDate?: string
}
export interface JiraProject {
  key: string
  name: string
  fixVersions?: JiraFixVersion[]
}
export interface JiraIssue {
  key: string
  summary: string
  status: string
  updated?: string
  created?: string
  fixVersions?: JiraFixVersion[]
  project?: { key: string }
  description?: string
  assignee?: string
  reporter?: string
  priority?: string
  issuetype?: string
  labels?: string[]
}

/** `schemas/drive_schema.json`. */
export interface DriveSource {
  files: DriveFile[]
}
export interface DriveFile {
  id: string
  name: string
  mimeType?: string
  content: string
  modifiedTime: string
}

/** The six sources of one scenario, by source name. */
export interface WorkplaceSources {
  slack: SlackSource
  gmail: GmailSource
  calendar: CalendarSource
  contacts: ContactsSource
  jira: JiraSource
  drive: DriveSource
}
