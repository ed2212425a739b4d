import { z } from 'zod'
import { defineTool } from '../../tools/define-tool.ts'
import { readDateRange } from '../date-bounds.ts'
import { words } from '../text-match.ts'
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
  return want.length > 0 && want.every((w) => have.some((h) => h.startsWith(w)))
}

/** Addresses of contacts and Slack users whose name has every word of `name` (by prefix); empty when `name` holds `@`. */
function addressesNamed(workplace: Workplace, name: string): Set<string> {
  const out = new Set<string>()
  if (name.includes('@')) return out
  const want = words(name)
  if (want.length === 0) return out
  const people = [...workplace.sources.contacts.contacts, ...workplace.sources.slack.users]
  for (const person of people) {
    const have = words(person.name)
    if (want.every((w) => have.some((h) => h.startsWith(w)))) out.add(person.email.toLowerCase())
  }
  return out
}

/** `Gmail.SearchThreads {sender, subject, date_range}`: thread ids, newest activity first. */
export function searchThreadsTool(workplace: Workplace) {
  const tz = workplace.settings.timezone
  return defineTool({
    name: 'Gmail.SearchThreads',
    description:
      'Search mail threads. sender: an address, a domain (@client.com) or a person\'s name (resolved through contacts); subject: words that must all appear in the subject; ' +
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
      const subjectWords = subject === undefined ? [] : words(subject)
      const knownAddresses = sender === undefined ? new Set<string>() : addressesNamed(workplace, sender)
      const matches = (thread: IndexedThread) =>
        thread.messages.some(({ message, at }) => {
          if (sender !== undefined && !senderMatches(message.from, sender) && !knownAddresses.has(parseAddress(message.from).address)) return false
          if (range !== undefined && (at < range.from || at >= range.to)) return false
          if (subjectWords.length > 0) {
            const have = words(`${thread.thread.subject} ${message.subject}`)
            if (!subjectWords.every((w) => have.some((h) => h.startsWith(w)))) return false
          }
          return true
        })
      const found = workplace.threads.filter(matches).slice(0, max_results ?? DEFAULT_GMAIL_LIMIT)
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
        throw new WorkplaceToolError('Gmail.GetThread', `no thread with id ${JSON.stringify(thread_id)}`, { hint: 'Use a thread id returned by Gmail.SearchThreads.' })
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
