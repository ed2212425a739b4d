import { senderName } from '../../baseline/answer-extraction.ts'
import { callsTo, isErrorResult, str } from '../../baseline/conversation.ts'
import type { Conversation } from '../../baseline/conversation.ts'
import type { BaselineStep, PlannedCall } from '../../baseline/step.ts'
import { overlapScore, splitSentences, truncate, weightedStems } from '../../baseline/text.ts'
import {
  HITS,
  WORKPLACE_TOOLS as T,
  driveFilesRead,
  driveReads,
  emailAddressesIn,
  issueKeysIn,
  pendingSearches,
  shrinkingQueries,
  topicKeywords,
  trackHits,
  type SearchTrack,
} from './common.ts'

/** The searches an email reply starts with: Gmail by sender/subject, Jira and Drive by topic. */
export function replyTracks(prompt: string): { gmail: SearchTrack; jira: SearchTrack; drive: SearchTrack } {
  const topic = topicKeywords(prompt)
  const queries = shrinkingQueries(topic, prompt)
  const sender = emailAddressesIn(prompt)[0]
  const gmailAttempts: Array<Record<string, unknown>> = []
  if (sender !== undefined) {
    if (queries[0] !== undefined) gmailAttempts.push({ sender, subject: queries[0] })
    gmailAttempts.push({ sender })
  }
  for (const subject of queries) gmailAttempts.push({ subject })
  gmailAttempts.push({})
  const keys = issueKeysIn(prompt)
  const jiraAttempts = [
    ...(keys.length > 0 ? [{ jql: `key IN (${keys.join(', ')})` }] : []),
    ...queries.map((q) => ({ jql: `text ~ "${q.replaceAll('"', '')}" ORDER BY updated DESC` })),
  ]
  return {
    gmail: { tool: T.gmailSearch, attempts: gmailAttempts, hits: HITS.gmail },
    jira: { tool: T.jiraSearch, attempts: jiraAttempts, hits: HITS.jira },
    drive: { tool: T.driveSearch, attempts: queries.map((query) => ({ query })), hits: HITS.drive },
  }
}

/** The sentence of `text` sharing the most topic stems, or `undefined` when none shares any. */
export function bestSentence(text: string, stems: ReadonlyMap<string, number>): string | undefined {
  let best: { sentence: string; score: number } | undefined
  for (const sentence of splitSentences(text)) {
    const score = overlapScore(stems, sentence)
    if (score > 0 && (best === undefined || score > best.score)) best = { sentence, score }
  }
  return best?.sentence
}

/**
 * Email reply: find the customer's thread in Gmail (by sender and subject words), the matching
 * Jira issues and Drive documents, read the thread and the top document, and draft a reply that
 * quotes the facts found (issue status, fix version and release date) with cautious wording.
 */
export function emailReplyStep(conversation: Conversation): BaselineStep {
  const prompt = conversation.user
  const { gmail, jira, drive } = replyTracks(prompt)
  const searches = pendingSearches(conversation, [gmail, jira, drive])
  if (searches.length > 0) return { kind: 'call', calls: searches, note: 'email reply: searching Gmail, Jira and Drive for the topic' }

  const threadId = str(trackHits(conversation, gmail)[0], 'id')
  const reads: PlannedCall[] = []
  if (threadId !== '' && conversation.tools.has(T.gmailThread) && callsTo(conversation, T.gmailThread).length === 0) {
    reads.push({ name: T.gmailThread, arguments: { thread_id: threadId } })
  }
  reads.push(...driveReads(conversation, drive, 1))
  if (reads.length > 0) return { kind: 'call', calls: reads, note: 'email reply: reading the thread and the top document' }

  const threadResult = callsTo(conversation, T.gmailThread).at(-1)?.result
  const thread =
    threadResult !== null && typeof threadResult === 'object' && !isErrorResult(threadResult)
      ? ((threadResult as Record<string, unknown>).thread as Record<string, unknown> | undefined)
      : undefined
  const messages = Array.isArray(thread?.messages) ? (thread.messages as Array<Record<string, unknown>>) : []
  const customer = emailAddressesIn(prompt)[0]
  // The customer: the sender named in the prompt, else whoever started the thread.
  const fromCustomer = (customer === undefined ? undefined : [...messages].reverse().find((m) => str(m, 'from').includes(customer))) ?? messages[0]
  const topic = topicKeywords(prompt)
  const stems = weightedStems(topic.map((text) => ({ text, weight: 1 })))
  const issues = trackHits(conversation, jira).slice(0, 3)
  const files = driveFilesRead(conversation)

  const lines: string[] = []
  const greetingName = fromCustomer === undefined ? '' : senderName(str(fromCustomer, 'from')).split(' ')[0]
  lines.push(`Hi${greetingName ? ` ${greetingName}` : ''},`, '')
  const subject = str(thread, 'subject')
  lines.push(`Thank you for your message${subject ? ` about "${subject}"` : ''}.`)
  const asked = fromCustomer === undefined ? undefined : bestSentence(str(fromCustomer, 'body'), stems)
  if (asked !== undefined) lines.push(`You asked: "${truncate(asked, 200)}"`)
  for (const issue of issues) {
    const versions = Array.isArray(issue.fixVersions) ? (issue.fixVersions as Array<Record<string, unknown>>) : []
    const release = versions
      .map((v) => `${str(v, 'name')}${str(v, 'releaseDate') ? ` (target date ${str(v, 'releaseDate')})` : ''}`)
      .filter((v) => v !== '')
      .join(', ')
    lines.push(
      `Our tracking item ${str(issue, 'key')} "${str(issue, 'summary')}" is currently ${str(issue, 'status') || 'open'}${release ? `, planned for ${release}` : ''}.`,
    )
  }
  if (issues.some((i) => Array.isArray(i.fixVersions) && (i.fixVersions as unknown[]).length > 0)) {
    lines.push('This is our current target and may change; we will confirm the date as soon as it is final.')
  } else {
    lines.push('We do not have a confirmed date yet; we will follow up as soon as we do.')
  }
  lines.push('', 'Best regards')

  const sources = [
    threadId ? `Gmail thread ${threadId}` : 'no Gmail thread found',
    issues.length > 0 ? `Jira ${issues.map((i) => str(i, 'key')).join(', ')}` : 'no Jira issue found',
    files.length > 0 ? `Drive file "${files[0]?.name}"` : 'no Drive file read',
  ]
  return {
    kind: 'json-answer',
    finalAnswer: lines.join('\n'),
    rationale: `email reply: filled a fixed reply template with facts from ${sources.join('; ')}`,
  }
}
