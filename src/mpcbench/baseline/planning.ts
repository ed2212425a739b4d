import { callsTo, str } from '../../baseline/conversation.ts'
import type { Conversation } from '../../baseline/conversation.ts'
import { dayRangeFrom, durationIn, formatMeeting, wallClock } from '../../baseline/date-phrases.ts'
import type { BaselineStep } from '../../baseline/step.ts'
import {
  HITS,
  LATEST_ISSUE_JQL,
  WORKPLACE_TOOLS as T,
  pendingSearches,
  personNames,
  referenceDay,
  shrinkingQueries,
  topicKeywords,
  trackHits,
  type SearchTrack,
} from './common.ts'

/** Meeting length when neither the prompt nor Slack gives one. */
export const DEFAULT_MEETING_MINUTES = 30
/** Workday bounds when the prompt gives none. */
export const DEFAULT_WORKDAY = { start: '09:00', end: '18:00' } as const
/** How many options the answer proposes. */
export const PROPOSED_SLOTS = 3

function tracks(conversation: Conversation): { contacts: SearchTrack[]; slack: SearchTrack } {
  const names = personNames(conversation.user)
  const topic = topicKeywords(conversation.user, names)
  return {
    contacts: names.map((name) => ({
      tool: T.contactsSearch,
      attempts: [{ name }],
      hits: HITS.contacts,
      owns: (call) => call.arguments.name === name,
    })),
    slack: { tool: T.slackSearch, attempts: shrinkingQueries(topic, conversation.user).map((query) => ({ query })), hits: HITS.slack },
  }
}

/** For each name, the email of the contact that matches it best (exact name, then first-name prefix, then first hit). */
function resolveParticipants(conversation: Conversation): Array<{ name: string; email: string | undefined; fullName: string }> {
  const lookups = callsTo(conversation, T.contactsSearch)
  return personNames(conversation.user).map((name) => {
    const call = lookups.find((c) => String(c.arguments.name ?? '') === name)
    const hits = call === undefined ? [] : HITS.contacts(call.result)
    const lower = name.toLowerCase()
    const best = hits.find((h) => str(h, 'name').toLowerCase() === lower) ?? hits.find((h) => str(h, 'name').toLowerCase().startsWith(`${lower} `)) ?? hits[0]
    const email = str(best, 'email')
    return { name, email: email === '' ? undefined : email, fullName: str(best, 'name') || name }
  })
}

/** A time written in the description of one parameter of a tool definition. */
function timeInParameter(definition: unknown, parameter: string): string | undefined {
  const properties = (definition as { parameters?: { properties?: Record<string, { description?: unknown }> } } | undefined)?.parameters?.properties
  const description = properties?.[parameter]?.description
  const time = typeof description === 'string' ? /\b(\d{1,2}:\d{2})\b/.exec(description)?.[1] : undefined
  return time?.padStart(5, '0')
}

/** Workday bounds: written in the prompt (`09:00-17:00`), else in the free-slots tool's parameter descriptions, else the default. */
function workdayOf(conversation: Conversation): { start: string; end: string } {
  const hours = /\b(\d{1,2}:\d{2})\s*(?:-|–|to)\s*(\d{1,2}:\d{2})\b/.exec(conversation.user)
  if (hours !== null) return { start: (hours[1] as string).padStart(5, '0'), end: (hours[2] as string).padStart(5, '0') }
  const definition = conversation.toolDefinitions.get(T.freeSlots)
  return {
    start: timeInParameter(definition, 'workday_start_time') ?? DEFAULT_WORKDAY.start,
    end: timeInParameter(definition, 'workday_end_time') ?? DEFAULT_WORKDAY.end,
  }
}

/**
 * Planning: resolve the people named in the prompt through Contacts (and read Slack for the
 * meeting's length), ask Calendar for slots when everyone is free in the range the prompt names,
 * and propose the earliest slots, one per day.
 */
export function planningStep(conversation: Conversation): BaselineStep {
  const { contacts, slack } = tracks(conversation)
  const slotCalls = callsTo(conversation, T.freeSlots)
  if (slotCalls.length === 0) {
    // One Contacts lookup per name; Slack retried with fewer words while it finds nothing.
    const searches = pendingSearches(conversation, [...contacts, slack])
    if (searches.length > 0) {
      return { kind: 'call', calls: searches, note: 'planning: looking up participants in Contacts and the request in Slack' }
    }
  }

  const participants = resolveParticipants(conversation)
  const emails = [...new Set(participants.flatMap((p) => (p.email === undefined ? [] : [p.email])))]
  const slackTexts = trackHits(conversation, slack).map((m) => str(m, 'text'))
  const duration = durationIn(conversation.user) ?? slackTexts.map(durationIn).find((d) => d !== undefined) ?? DEFAULT_MEETING_MINUTES
  const workday = workdayOf(conversation)
  const today = referenceDay(conversation)
  const unresolved = participants.filter((p) => p.email === undefined).map((p) => p.name)

  if (emails.length === 0) {
    return {
      kind: 'json-answer',
      finalAnswer: `I could not find contact details for ${participants.length === 0 ? 'any participant (no names in the request)' : participants.map((p) => p.name).join(', ')}, so I cannot propose meeting times.`,
      rationale: `planning: no participant could be resolved through Contacts`,
    }
  }

  if (!conversation.tools.has(T.freeSlots)) {
    return {
      kind: 'json-answer',
      finalAnswer: `Participants: ${participants.map((p) => `${p.fullName} <${p.email ?? 'unknown'}>`).join(', ')}. No calendar tool was available to find a common free time.`,
      rationale: 'planning: resolved participants through Contacts, but no free-slot tool was offered',
    }
  }

  if (slotCalls.length === 0) {
    if (today === undefined && conversation.tools.has(T.jiraSearch) && callsTo(conversation, T.jiraSearch).length === 0) {
      return {
        kind: 'call',
        calls: [{ name: T.jiraSearch, arguments: { jql: LATEST_ISSUE_JQL, limit: 1 } }],
        note: 'planning: no date in the request or Slack; reading the latest Jira update as today',
      }
    }
    const range = today === undefined ? undefined : dayRangeFrom(conversation.user, today)
    if (range === undefined) {
      return {
        kind: 'json-answer',
        finalAnswer: `Participants: ${participants.map((p) => `${p.name} <${p.email ?? 'unknown'}>`).join(', ')}. I could not tell which dates the request means, so I cannot propose slots.`,
        rationale: 'planning: no reference date in the request, Slack or Gmail to read "next week" from',
      }
    }
    return {
      kind: 'call',
      calls: [
        {
          name: T.freeSlots,
          arguments: {
            email_addresses: emails,
            date_range_start: range.start,
            date_range_end: range.end,
            workday_start_time: workday.start,
            workday_end_time: workday.end,
            slot_minimum_minutes: duration,
          },
        },
      ],
      note: `planning: free slots of ${duration} minutes for ${emails.length} people over ${range.label} (${range.start} to ${range.end})`,
    }
  }

  const slots = slotCalls.length === 0 ? [] : HITS.slots(slotCalls.at(-1)?.result)
  const picked: string[] = []
  const days = new Set<string>()
  for (const slot of slots) {
    const start = wallClock(str(slot, 'start'))
    const end = wallClock(str(slot, 'end'))
    if (start === undefined || days.has(start.day)) continue
    if (end !== undefined && end.day === start.day && end.minutes - start.minutes < duration) continue
    days.add(start.day)
    picked.push(formatMeeting(start, duration))
    if (picked.length === PROPOSED_SLOTS) break
  }
  const who = participants
    .filter((p) => p.email !== undefined)
    .map((p) => `${p.fullName} (${p.email})`)
    .join(', ')
  const missing = unresolved.length === 0 ? '' : ` I could not find ${unresolved.join(', ')} in Contacts.`
  if (picked.length === 0) {
    return {
      kind: 'json-answer',
      finalAnswer: `I found no time when ${who} are all free for ${duration} minutes in the requested range.${missing}`,
      rationale: `planning: Calendar returned no common free slot of ${duration} minutes`,
    }
  }
  const range = slotCalls.at(-1)?.arguments
  return {
    kind: 'json-answer',
    finalAnswer: `Possible ${duration}-minute slots for ${who}: ${picked.join('; ')}.${missing}`,
    rationale: `planning: resolved ${emails.length} participants through Contacts, meeting length ${duration} minutes (${durationIn(conversation.user) !== undefined ? 'from the request' : slackTexts.some((t) => durationIn(t) !== undefined) ? 'from Slack' : 'default'}), asked Calendar for common free slots between ${String(range?.date_range_start ?? '?')} and ${String(range?.date_range_end ?? '?')} within ${workday.start}-${workday.end}, and proposed the earliest slot of each of the first ${picked.length} days`,
  }
}
