import { z } from 'zod'
import { defineTool } from '../../../tools/define-tool.ts'
import { readDateRange } from '../date-bounds.ts'
import { hasAllWords, words } from '../text-match.ts'
import type { GmailSearchResult, GmailThreadResult } from '../tool-results.ts'
import { WorkplaceToolError } from '../tool-error.ts'
import type { IndexedThread, Workplace } from '../workplace.ts'

/** Most thread ids `Gmail.SearchThreads` returns when no `max_results` is given. */
export const DEFAULT_GMAIL_LIMIT = 20

/** `Name <a@b.c>` or `a@b.c` as display name and lower-cased address. */
export function parseAddress(header: string): { name: string; address: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(header)
  if (match !== null) return { name: (match[1] as string).trim(), address: (match[2] as string).trim().toLowerCase() }
  return { name: '', address: header.trim().toLowerCase() }
}

/**
 * Whether a `From` header matches a sender filter: the same address, the same domain (`@client.com` or `client.com`),
 * or a name whose words all match (by prefix) the display name or the address's local part.
 */
export function senderMatches(header: string, sender: string): boolean {
  const { name, address } = parseAddress(header)
  const wanted = sender.trim().toLowerCase()
  if (wanted === '') return true
  if (wanted.includes('@') && !wanted.startsWith('@')) return address === wanted || parseAddress(wanted).address === address
  const domain = wanted.replace(/^@/, '')
  if (domain.includes('.') && !domain.includes(' ') && address.endsWith(`@${domain}`)) return true
  const have = [...words(name), ...words(address.split('@')[0] ?? '')]
  const want = words(wanted)
  return want.length > 0 && hasAllWords(have, want)
}

/** Addresses of contacts and Slack users whose name has every word of `name` (by prefix); empty when `name` holds `@`. */
function addressesNamed(workplace: Workplace, name: string): Set<string> {
  const out = new Set<string>()
  if (name.includes('@')) return out
  const want = words(name)
  if (want.length === 0) return out
  const people = [...workplace.sources.contacts.contacts, ...workplace.sources.slack.users]
  for (const person of people) {
    if (hasAllWords(words(person.name), want)) out.add(person.email.toLowerCase())
  }
  return out
}

/** `Gmail.SearchThreads {sender, subject, date_range}`: thread ids, newest activity first. */
export function searchThreadsTool(workplace: Workplace) {
  const tz = workplace.settings.timezone
  return defineTool({
    name: 'Gmail.SearchThreads',
    description:
      "Search mail threads. sender: an address, a domain (@client.com) or a person's name (resolved through contacts); subject: words that must all appear in the subject; " +
      `date_range: last_7_days, last_2_weeks, last_1_months, today, yesterday, YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD (in ${tz}); a thread matches when one of its messages matches all given filters. ` +
      'Returns thread ids (newest first) with a one-line summary; read a thread with Gmail.GetThread.',
    parameters: z.object({
      sender: z.string().optional().describe('Sender address, domain or name'),
      subject: z.string().optional().describe('Words of the subject'),
      date_range: z.string().optional().describe('e.g. last_30_days or 2025-11-10..2025-11-16'),
      max_results: z.number().int().positive().optional().describe(`Maximum threads to return (default ${DEFAULT_GMAIL_LIMIT})`),
    }),
    handler: ({ sender, subject, date_range, max_results }): GmailSearchResult => {
      let range: { from: number; to: number } | undefined
      if (date_range !== undefined && date_range.trim() !== '') {
        range = readDateRange(date_range, workplace.now, tz)
        if (range === undefined) {
          throw new WorkplaceToolError('Gmail.SearchThreads', `date_range ${JSON.stringify(date_range)} is not a range`, {
            hint: 'Use last_N_days, last_N_weeks, last_N_months, today, yesterday, YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD.',
          })
        }
      }
      const wanted = subject === undefined ? [] : words(subject)
      const knownAddresses = sender === undefined ? new Set<string>() : addressesNamed(workplace, sender)
      // Mail has few distinct From headers: judge each once per search.
      const senderVerdicts = new Map<string, boolean>()
      const fromMatches = (from: string): boolean => {
        if (sender === undefined) return true
        let verdict = senderVerdicts.get(from)
        if (verdict === undefined) {
          verdict = senderMatches(from, sender) || knownAddresses.has(parseAddress(from).address)
          senderVerdicts.set(from, verdict)
        }
        return verdict
      }
      const matches = (thread: IndexedThread) =>
        thread.messages.some(
          ({ message, at, subjectWords }) =>
            (range === undefined || (at >= range.from && at < range.to)) &&
            (wanted.length === 0 || hasAllWords(subjectWords, wanted)) &&
            fromMatches(message.from),
        )
      const limit = max_results ?? DEFAULT_GMAIL_LIMIT
      const found: IndexedThread[] = []
      for (const thread of workplace.threads) {
        if (found.length >= limit) break
        if (matches(thread)) found.push(thread)
      }
      return {
        thread_ids: found.map((t) => t.thread.id),
        threads: found.map((t) => ({
          id: t.thread.id,
          subject: t.thread.subject,
          from: t.messages[0]?.message.from ?? '',
          last_date: t.messages.at(-1)?.message.date ?? '',
          message_count: t.messages.length,
        })),
      }
    },
  })
}

/** `Gmail.GetThread {thread_id}`: the whole thread, messages oldest first. */
export function getThreadTool(workplace: Workplace) {
  return defineTool({
    name: 'Gmail.GetThread',
    description: 'Read a mail thread by id (from Gmail.SearchThreads): every message with from, to, cc, date and body, oldest first.',
    parameters: z.object({ thread_id: z.string().describe('Thread id') }),
    handler: ({ thread_id }): GmailThreadResult => {
      const indexed = workplace.threadsById.get(thread_id.trim())
      if (indexed === undefined) {
        throw new WorkplaceToolError('Gmail.GetThread', `no thread with id ${JSON.stringify(thread_id)}`, {
          hint: 'Use a thread id returned by Gmail.SearchThreads.',
        })
      }
      return {
        thread: {
          id: indexed.thread.id,
          subject: indexed.thread.subject,
          messages: indexed.messages.map(({ message }) => ({ ...message, to: [...message.to], ...(message.cc === undefined ? {} : { cc: [...message.cc] }) })),
        },
      }
    },
  })
}
