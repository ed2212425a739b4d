import { z } from 'zod'
import { type AnyTool, defineTool } from '../tools/define-tool.ts'
import type { EmailReader } from './store/email-reader.ts'
import type { EmailScope } from './store/email-store.ts'
import { isDay, normalizeAddress } from './store/normalize.ts'
import { MAX_SEARCH_KEYWORDS } from './store/fts-query.ts'
import { DEFAULT_ARTE_READ_MAX_CHARS } from './settings.ts'
import type { EmailStoreWorker } from './store/store-worker.ts'

const Day = z.string().refine(isDay, { message: 'expected a date YYYY-MM-DD' })

/** Arguments of `search_emails`. */
export const SearchEmailsArgsSchema = z.object({
  keywords: z
    .array(z.string())
    .describe(
      `Words or short phrases to look for in the subject and body. Every keyword must match; a multi-word keyword must match as a phrase. Matching ignores case and word endings (contract matches contracts). Punctuation and search operators are treated as plain spaces. At most ${MAX_SEARCH_KEYWORDS} distinct keywords are used. Pass [] to list the most recent emails that match the other filters.`,
    ),
  from: z
    .string()
    .optional()
    .describe(
      'Only emails whose sender address contains this text, e.g. "skilling" or "jeff.skilling@enron.com". Several words ("Jeff Skilling") must all appear in the address.',
    ),
  to: z.string().optional().describe('Only emails with a to/cc/bcc address containing this text (several words must all appear in that address).'),
  sent_after: Day.optional().describe('Only emails sent on or after this day, YYYY-MM-DD (UTC).'),
  sent_before: Day.optional().describe('Only emails sent before this day, YYYY-MM-DD (UTC); the day itself is excluded.'),
  max_results: z.number().int().min(1).max(10).optional().describe('How many results to return, 1 to 10. Default 10.'),
})

/** Arguments of `read_email`. */
export const ReadEmailArgsSchema = z.object({
  message_id: z.string().describe('The message_id of an email, exactly as returned by search_emails, e.g. "<12345.1075840045955.JavaMail.evans@thyme>".'),
})

/** Arguments of `return_final_answer`. */
export const FinalAnswerArgsSchema = z.object({
  answer: z
    .string()
    .describe(
      'The answer to the question: short and exact (a name, a date, a number, a phrase). If the emails do not contain the answer, say "I don\'t know".',
    ),
  sources: z.array(z.string()).describe('The message_id of every email the answer is based on.'),
})

/** The answer a model gives through `return_final_answer`. */
export type FinalAnswer = z.infer<typeof FinalAnswerArgsSchema>

/** One `search_emails` result as the model sees it. */
export interface SearchEmailsResult {
  message_id: string
  subject: string
  date: string | null
  from: string
  snippet: string
}

/** `read_email`'s result as the model sees it. */
export type ReadEmailResult =
  | { message_id: string; date: string | null; subject: string; from: string; to: string[]; cc: string[]; bcc: string[]; body: string }
  | { error: string }

/** Options of {@link createEmailTools}. */
export interface EmailToolOptions {
  /**
   * Characters of a body that `read_email` returns; the rest is cut and
   * replaced by a marker that gives the full length (`ARTE_READ_MAX_CHARS`).
   * @default DEFAULT_ARTE_READ_MAX_CHARS
   */
  maxBodyChars?: number | undefined
}

/** Characters of a subject that the tools return; longer subjects are cut with a marker. */
export const MAX_SUBJECT_CHARS = 1_000

/** `text` cut to `max` characters, with a marker saying how long it was, when longer (`total`: its full length). */
export function truncateWithMarker(text: string, max: number, total = text.length): string {
  if (total <= max) return text
  const cut = text.slice(0, max)
  const shown = /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
  return `${shown}\n[... truncated: ${total.toLocaleString('en-US')} characters in all, the first ${max.toLocaleString('en-US')} shown]`
}

/**
 * The three ART-E tools over `store`, all bound to `scope` (the task's inbox and query date):
 * whatever the model asks, it only ever sees mail inside the scope. With an {@link EmailStoreWorker} as `store`,
 * each search and read runs within its time budget; a call past it answers the model with a tool error. Results are bounded: at most 10 hits,
 * snippets of about 24 words, subjects and bodies cut with a marker (see {@link EmailToolOptions}).
 */
export function createEmailTools(store: EmailReader, scope: EmailScope, options: EmailToolOptions = {}): AnyTool[] {
  const maxBodyChars = options.maxBodyChars ?? DEFAULT_ARTE_READ_MAX_CHARS
  const day = scope.queryDate.slice(0, 10)
  const searchEmails = defineTool({
    name: 'search_emails',
    description: `Search the user's mailbox (${scope.inbox}) by keywords; only emails sent on or before ${day} exist. Returns up to 10 emails, best match first, each with message_id, subject, date (ISO 8601 UTC), sender and a snippet where matched words are in [brackets]. Use read_email with a message_id to see the full email. Prefer a few distinctive keywords (names, project words); if nothing comes back, try fewer or different keywords.`,
    parameters: SearchEmailsArgsSchema,
    async handler(args): Promise<SearchEmailsResult[]> {
      const hits = await store.search(
        {
          keywords: args.keywords,
          from: args.from,
          to: args.to,
          sentAfter: args.sent_after,
          sentBefore: args.sent_before,
          maxResults: args.max_results ?? 10,
        },
        scope,
      )
      return hits.map((hit) => ({
        message_id: hit.messageId,
        subject: truncateWithMarker(hit.subject, MAX_SUBJECT_CHARS),
        date: hit.date,
        from: hit.from,
        snippet: hit.snippet,
      }))
    },
  })
  const readEmail = defineTool({
    name: 'read_email',
    description: "Read one email of the user's mailbox in full: date, subject, sender, to, cc, bcc and body. Pass a message_id returned by search_emails.",
    parameters: ReadEmailArgsSchema,
    // As OpenPipe's rollout, which reads `message_id` by name; its search_emails(**args) raises on an unknown argument.
    unknownArguments: 'ignore',
    async handler(args): Promise<ReadEmailResult> {
      const email = await store.read(args.message_id, scope, { maxBodyChars })
      if (email === undefined) {
        return {
          error: `No email with message_id ${JSON.stringify(args.message_id)} in this mailbox (on or before ${day}). Use a message_id returned by search_emails.`,
        }
      }
      return {
        message_id: email.messageId,
        date: email.date,
        subject: truncateWithMarker(email.subject, MAX_SUBJECT_CHARS),
        from: email.from,
        to: email.to,
        cc: email.cc,
        bcc: email.bcc,
        body: truncateWithMarker(email.body, maxBodyChars, email.bodyChars),
      }
    },
  })
  const returnFinalAnswer = defineTool({
    name: 'return_final_answer',
    description:
      'Give your final answer to the question and the message_ids of the emails that support it. This ends the task: call it once, when you are done searching.',
    parameters: FinalAnswerArgsSchema,
    // As OpenPipe's rollout, which reads `answer` and `sources` by name (a `rationale` beside them is read by the loop).
    unknownArguments: 'ignore',
    final: true,
    handler(args): FinalAnswer {
      return args
    },
  })
  return [searchEmails, readEmail, returnFinalAnswer]
}

/** The last day a scope can name: a scope up to it holds all of an inbox's dated mail. */
const LAST_DAY = '9999-12-31'

/**
 * What the inbox of a scope holds in a store: mail in the scope, mail sent only after the query date
 * (`latestDay`: the day of its latest email), or no dated email at all (then every search of it returns `[]`).
 */
export type InboxContents = { kind: 'in-scope' } | { kind: 'after-query-date'; latestDay: string } | { kind: 'empty' }

/**
 * What the inbox of `scope` holds in `store` (see {@link InboxContents}): one search of the scope for its latest email,
 * and a second one over all dates when the scope is empty. Meant to run once per inbox, not per search.
 */
export async function inboxContents(store: EmailReader, scope: EmailScope): Promise<InboxContents> {
  const latest = { keywords: [], maxResults: 1 }
  if ((await store.search(latest, scope)).length > 0) return { kind: 'in-scope' }
  const [any] = scope.queryDate.slice(0, 10) === LAST_DAY ? [] : await store.search(latest, { inbox: scope.inbox, queryDate: LAST_DAY })
  const date = any?.date ?? null
  return date === null ? { kind: 'empty' } : { kind: 'after-query-date', latestDay: date.slice(0, 10) }
}

/** The database file of a store, for messages: `EmailStore` and {@link EmailStoreWorker} both have `file`. */
export function emailReaderFile(store: EmailReader): string {
  const file = (store as { file?: unknown }).file
  return typeof file === 'string' && file !== '' ? file : 'the email store'
}

/** The warning of an ART-E run whose tasks' inbox holds no email in the store (see {@link warnIfInboxEmpty}). */
export function emptyInboxWarning(inbox: string, database: string): string {
  return [
    `ART-E: the inbox ${inbox} holds no email in ${database}: every search_emails of its tasks returns [] and read_email finds nothing.`,
    `  Fix: check the tasks' inbox_address, or point ARTE_DB (agent-bench arte --db) at the database that holds this mailbox (\`agent-bench import-enron\` builds one).`,
  ].join('\n')
}

/** Inboxes already checked, by store: the check runs once per store and inbox. */
const checkedInboxes = new WeakMap<EmailReader, Map<string, Promise<void>>>()

/**
 * Warns (`console.warn`, {@link emptyInboxWarning}) when `inbox` holds no email at all in `store`, once per store
 * and inbox: the tools would otherwise answer `[]` to every search without a word. The first call for an inbox runs
 * at most two searches; later calls reuse its result. A check that fails (a store timeout) warns nothing.
 */
export function warnIfInboxEmpty(store: EmailReader, inbox: string): Promise<void> {
  const key = normalizeAddress(inbox)
  let checked = checkedInboxes.get(store)
  if (checked === undefined) {
    checked = new Map()
    checkedInboxes.set(store, checked)
  }
  let done = checked.get(key)
  if (done === undefined) {
    done = inboxContents(store, { inbox, queryDate: LAST_DAY }).then(
      (contents) => {
        if (contents.kind === 'empty') console.warn(emptyInboxWarning(inbox, emailReaderFile(store)))
      },
      () => undefined,
    )
    checked.set(key, done)
  }
  return done
}
