import { callsTo, str } from '../../baseline/conversation.ts'
import type { Conversation } from '../../baseline/conversation.ts'
import { dayRangeFrom } from '../../baseline/date-phrases.ts'
import type { BaselineStep, PlannedCall } from '../../baseline/step.ts'
import { splitSentences, truncate } from '../../baseline/text.ts'
import {
  HITS,
  LATEST_ISSUE_JQL,
  WORKPLACE_TOOLS as T,
  driveFilesRead,
  driveReads,
  issueKeysIn,
  pendingSearches,
  referenceDay,
  shrinkingQueries,
  topicKeywords,
  trackHits,
  type SearchTrack,
} from './common.ts'

/** Items listed per section of the generated document. */
export const ITEMS_PER_SECTION = 5

/** Words kept for document searches even though they describe the task (`weekly report` finds report templates). */
const DOCUMENT_WORDS = /\b(weekly|monthly|report|summary|status|update|template|plan|retro(?:spective)?|notes|okr)\b/gi

function documentTracks(prompt: string): { jira: SearchTrack; slack: SearchTrack; drive: SearchTrack } {
  const topic = topicKeywords(prompt)
  const queries = shrinkingQueries(topic, prompt)
  const docWords = [...new Set((prompt.match(DOCUMENT_WORDS) ?? []).map((w) => w.toLowerCase()))]
  const keys = issueKeysIn(prompt)
  return {
    jira: {
      tool: T.jiraSearch,
      attempts: [
        ...(keys.length > 0 ? [{ jql: `key IN (${keys.join(', ')})` }] : []),
        ...queries.map((q) => ({ jql: `text ~ "${q.replaceAll('"', '')}" ORDER BY updated DESC` })),
        { jql: LATEST_ISSUE_JQL },
      ],
      hits: HITS.jira,
    },
    slack: {
      tool: T.slackSearch,
      attempts: [...queries, ...docWords.filter((w) => !queries.includes(w))].map((query) => ({ query })),
      hits: HITS.slack,
    },
    drive: {
      tool: T.driveSearch,
      attempts: [
        ...(docWords.length > 0 ? [{ query: docWords.slice(0, 2).join(' ') }] : []),
        ...queries.map((query) => ({ query })),
        ...docWords.slice(0, 2).map((query) => ({ query })),
      ].filter((a, i, all) => all.findIndex((b) => b.query === a.query) === i),
      hits: HITS.drive,
    },
  }
}

/** Headings of a document: short lines that end without a full stop, or markdown headings. */
function headingsOf(content: string): string[] {
  return content
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /^#{1,4}\s+\S/.test(line) || (line.length > 0 && line.length <= 40 && !/[.,;]$/.test(line) && /^[A-Z0-9]/.test(line)))
    .map((line) => line.replace(/^#+\s*/, '').replace(/:$/, ''))
    .slice(0, 8)
}

/**
 * Document generation: search Jira, Slack and Drive for the topic (and Calendar for the period the
 * prompt names), read the top Drive files, and compose a sectioned summary that lists the issue
 * keys, messages, meetings and file names found, with their dates.
 */
export function documentStep(conversation: Conversation): BaselineStep {
  const prompt = conversation.user
  const { jira, slack, drive } = documentTracks(prompt)
  const searches = pendingSearches(conversation, [jira, slack, drive])
  if (searches.length > 0) return { kind: 'call', calls: searches, note: 'document: searching Jira, Slack and Drive for the topic' }

  const followUps: PlannedCall[] = driveReads(conversation, drive, 2)
  const today = referenceDay(conversation)
  const range = today === undefined ? undefined : dayRangeFrom(prompt, today)
  if (range !== undefined && conversation.tools.has(T.listEvents) && callsTo(conversation, T.listEvents).length === 0) {
    followUps.push({ name: T.listEvents, arguments: { min_date: range.start, max_date: range.end } })
  }
  if (followUps.length > 0) return { kind: 'call', calls: followUps, note: 'document: reading the top files and the calendar for the period' }

  const issues = trackHits(conversation, jira).slice(0, ITEMS_PER_SECTION)
  const messages = trackHits(conversation, slack).slice(0, ITEMS_PER_SECTION)
  const events = HITS.events(callsTo(conversation, T.listEvents).at(-1)?.result).slice(0, ITEMS_PER_SECTION)
  const files = driveFilesRead(conversation)
  const template = files.map((f) => ({ name: f.name, headings: headingsOf(f.content) })).find((t) => t.headings.length >= 3)

  const lines: string[] = []
  const title = truncate(prompt.replace(/^(please\s+)?(draft|write|prepare|create|compose|generate)\s+(a|an|the)?\s*/i, ''), 80)
  lines.push(`Summary: ${title.replace(/[.?!]$/, '')}${range === undefined ? '' : ` (${range.start} to ${range.end})`}`)
  if (template !== undefined) lines.push(`Sections found in "${template.name}": ${template.headings.join(', ')}.`)
  lines.push('', 'Work items (Jira):')
  if (issues.length === 0) lines.push('- none found')
  for (const issue of issues) {
    const updated = str(issue, 'updated')
    lines.push(
      `- ${str(issue, 'key')}: ${str(issue, 'summary')} [${str(issue, 'status') || 'unknown status'}]${updated ? `, updated ${updated.slice(0, 10)}` : ''}`,
    )
  }
  lines.push('', 'Highlights from Slack:')
  if (messages.length === 0) lines.push('- none found')
  for (const m of messages) {
    const who = str(m, 'user_name') || str(m, 'user_id')
    const where = str(m, 'channel_name') || str(m, 'channel_id')
    lines.push(`- ${str(m, 'timestamp').slice(0, 10)} ${where ? `#${where} ` : ''}${who ? `${who}: ` : ''}${truncate(str(m, 'text'), 160)}`)
  }
  lines.push('', 'Meetings (Calendar):')
  if (events.length === 0) lines.push('- none found')
  for (const e of events) lines.push(`- ${str(e, 'start').slice(0, 16).replace('T', ' ')} ${str(e, 'title')}`)
  lines.push('', 'Documents (Drive):')
  if (files.length === 0) lines.push('- none read')
  for (const f of files) lines.push(`- ${f.name}: ${truncate(splitSentences(f.content)[0] ?? '', 160)}`)

  return {
    kind: 'json-answer',
    finalAnswer: lines.join('\n'),
    rationale: `document: listed what the searches returned (${issues.length} Jira issues, ${messages.length} Slack messages, ${events.length} calendar events, ${files.length} Drive files read) under fixed sections; no text was written beyond copying those items`,
  }
}
