import Database from 'better-sqlite3'
import type { ArteRow } from '../dataset/row.ts'
import { ConfigError, InvalidFormatError } from '../../core/errors.ts'
import { buildFtsQuery, ftsQueryGroups, ftsQueryOfGroups, SearchKeywordsError } from './fts-query.ts'
import { addNormalizedAddresses, canonicalMessageId, isDay, normalizeAddress, STORED_DATE, toIsoDate } from './normalize.ts'
import { checkSchemaVersion, FTS_INDEXED_CHARS, layoutByInboxSql, migrate, TERM_DOCS_SCHEMA_VERSION } from './schema.ts'
import { compileSnippetGroups, ftsSnippet, porterTerm, type SnippetQuery } from './fts-snippet.ts'
import { SNIPPET_SQL } from './snippet-scratch.ts'
import { AVERAGES_SQL, type Bm25Phrase, bm25AgreesWithSqlite, indexTotals, rankByBm25, termBytes } from './fts-bm25.ts'
import { type FtsIndexStatements, prepareFtsIndexStatements } from './fts-index.ts'
import { refreshTermDocs, TERM_DOCS_MIN_DOCS, TERM_DOCS_MIN_ROWS, TermCountsError, type TermDocsState } from './term-docs.ts'

/** One email to store. Addresses and the Message-ID are normalized on insert. */
export interface EmailInput {
  /** Message-ID; stored in canonical `<...>` form. */
  messageId: string
  /** The mailbox this copy belongs to (an address). */
  inbox: string
  subject: string
  /** Sender address. */
  from: string
  to: string[]
  cc: string[]
  bcc: string[]
  /** ISO 8601 UTC, or `null` when the source had no parseable date. Another date string is stored as ISO 8601 UTC (read as UTC when it gives no zone). */
  date: string | null
  body: string
  /** Where it came from (maildir path, CSV `file` column), when known. */
  fileName?: string | null
}

/** One stored email. */
export interface EmailRecord extends Omit<EmailInput, 'fileName'> {
  fileName: string | null
  /** Characters in the stored body; more than `body.length` when {@link EmailStore.read} cut it. */
  bodyChars: number
}

/** Options of {@link EmailStore.read}. */
export interface ReadOptions {
  /** Return at most this many characters of the body (`bodyChars` tells the full length). Default: all. */
  maxBodyChars?: number | undefined
}

/**
 * What a task may see: mail stored under `inbox`, sent from it, or sent to it (to/cc/bcc),
 * dated on or before the end of `queryDate` (UTC). Mail without a date is never in scope; mail with a placeholder date
 * (Enron's 1979-12-31, the Unix epoch) is in scope by that date, as in OpenPipe's ART-E.
 */
export interface EmailScope {
  /** The mailbox owner's address. */
  inbox: string
  /** `YYYY-MM-DD` (a longer ISO string is cut to its day). */
  queryDate: string
}

/** A search inside a scope. */
export interface EmailSearch {
  /**
   * Every keyword must match (a multi-word keyword is a phrase); see `fts-query.ts`. No keyword, or only blank ones:
   * latest mail first. Keywords that are not blank but hold no word (`"?!"`, `"*"`): a {@link SearchKeywordsError}.
   */
  keywords: ReadonlyArray<string>
  /** Sender filter: every word of it (split on spaces, commas, quotes, angle brackets) is a case-insensitive substring of the sender address. */
  from?: string | undefined
  /** Recipient filter: as `from`, for one of the to/cc/bcc addresses. */
  to?: string | undefined
  /** `YYYY-MM-DD`, inclusive. */
  sentAfter?: string | undefined
  /** `YYYY-MM-DD`, exclusive. */
  sentBefore?: string | undefined
  /** 1 to 50; default 10. */
  maxResults?: number | undefined
}

/** One search result. */
export interface EmailHit {
  messageId: string
  subject: string
  date: string | null
  from: string
  /**
   * Matching passage, matched terms in `[brackets]`; the start of the body when there were no keywords, or when
   * the match lies beyond the first {@link SNIPPET_SCAN_CHARS} characters of a long email.
   */
  snippet: string
}

/** Counts from {@link EmailStore.insertEmails}. */
export interface InsertResult {
  imported: number
  /** Rows skipped because their Message-ID was already stored. */
  duplicates: number
}

/**
 * How {@link EmailStore.search} runs a keyword search; both give the same hits in the same order.
 * - `match-first`: walk the FTS5 matches and check each against the scope through its `emails` row.
 *   Cheap when the keywords are rare; costs a table lookup per match anywhere in the corpus.
 * - `scope-first`: first collect the scope's rowids (index-only), then walk the FTS5 matches and keep those in
 *   that set before touching `emails`. Cheap when the keywords occur in much of the corpus and the scope is small.
 * - `auto` (the default): `match-first` when no mail of the inbox is dated after the scope's query date (one index
 *   lookup: then the inbox's rowid range, where the mail is laid out, holds only mail in scope); otherwise `scope-first`
 *   when the matches reach {@link SCOPE_FIRST_MIN_MATCHES} and a quarter of the scope's size.
 *
 * Both walk only the FTS5 matches inside the scope's rowid span. Before touching `emails`, `match-first` keeps those
 * in the inbox's rowid range or among the scope's few rows outside it (mail sent from the inbox or to it that is stored
 * in another mailbox), a superset of the scope read from indexes only; when the inbox's range holds only its mail, all
 * dated up to the query date, and the search has no filter, it reads no row for a match in that range.
 */
export type SearchPlan = 'auto' | 'match-first' | 'scope-first'

/**
 * Snippets of an email whose subject and body exceed this many bytes are computed over the first this many
 * characters of each: FTS5 `snippet()` cost grows with the square of the matches in a document.
 */
export const SNIPPET_SCAN_CHARS = 10_000

/** Characters of a snippet taken from the start of the body when there is no keyword match to show. */
const PLAIN_SNIPPET_CHARS = 200

/** How much of a store opened read-only SQLite maps into memory (`PRAGMA mmap_size`). */
const READONLY_MMAP_BYTES = 256 * 1024 * 1024

/** Below this many FTS5 matches, `auto` searches match-first without sizing the scope. */
export const SCOPE_FIRST_MIN_MATCHES = 200

/** Options of {@link EmailStore.open}. */
export interface EmailStoreOptions {
  /**
   * Open read-only (the file must exist and be at the current schema version).
   * @default false
   */
  readonly?: boolean
}

interface EmailRow {
  message_id: string
  inbox: string
  subject: string
  sender: string
  to_addresses: string
  cc_addresses: string
  bcc_addresses: string
  date: string | null
  body: string
  body_chars: number
  file_name: string | null
}

interface HitRow {
  id: number
  message_id: string
  subject: string
  date: string | null
  sender: string
  /** Searches without keywords: the start of the body. */
  snippet?: string
  /** Keyword searches: the first {@link SNIPPET_SCAN_CHARS} characters of the body. */
  body?: string
  /** Keyword searches, long emails (subject and body over {@link SNIPPET_SCAN_CHARS} bytes): the subject's first as many characters. */
  subject_prefix?: string | null
}

/*
 * Parameters in a search's statements that SQLite's planner could read are written `+@name` (a unary plus: the
 * same value). better-sqlite3's SQLite reads the value of a plain `@name` compared with an indexed column (STAT4
 * statistics, which `PRAGMA optimize` writes) or given as a LIMIT, and then marks the statement to be compiled again
 * whenever that parameter is bound, which is every run: a search's statement was compiled anew on every search,
 * about half of its cost.
 */
const SCOPE_SQL = `(e.inbox = @inbox OR e.sender = @inbox
    OR EXISTS (SELECT 1 FROM email_addresses a WHERE a.address = @inbox AND a.email_rowid = e.rowid))
  AND e.date IS NOT NULL AND e.date <= @until`

/**
 * Rowids of a superset of the scope (mail from `@inbox` and mail to it are not cut at the date; the scope filter
 * on `emails` does that), from indexes only.
 */
const SCOPE_ROWIDS_SQL = `SELECT rowid FROM emails WHERE inbox = +@inbox AND date <= +@until
  UNION ALL SELECT rowid FROM emails WHERE sender = +@inbox
  UNION ALL SELECT email_rowid FROM email_addresses WHERE address = +@inbox`

/**
 * The scope's rows outside the inbox's rowid range `[@ilo, @ihi]` (mail from `@inbox` or to it stored in another
 * mailbox), from index range seeks only: with the inbox laid out as one range, a few rows.
 */
const OUTSIDE_INBOX_SQL = `SELECT rowid FROM emails INDEXED BY idx_emails_sender WHERE sender = +@inbox AND rowid < +@ilo
  UNION ALL SELECT rowid FROM emails INDEXED BY idx_emails_sender WHERE sender = +@inbox AND rowid > +@ihi
  UNION ALL SELECT email_rowid FROM email_addresses WHERE address = +@inbox AND email_rowid < +@ilo
  UNION ALL SELECT email_rowid FROM email_addresses WHERE address = +@inbox AND email_rowid > +@ihi`

/**
 * Where a mailbox's mail lies (from indexes only; a rowid bound is `null` when there is no such mail), read before a
 * keyword search and kept while the database does not change (see EmailStore.#layoutOf).
 */
interface InboxLayout {
  /** The inbox's rowid range. */
  ilo: number | null
  ihi: number | null
  /** Rowid range of the mail sent from the inbox. */
  slo: number | null
  shi: number | null
  /** Rowid range of the mail sent to it (to, cc, bcc). */
  rlo: number | null
  rhi: number | null
  /** The latest date of the inbox's mail. */
  last: string | null
  /** The inbox's emails. */
  count: number
  /** 1 when an email of the inbox has no date. */
  undated: number
  /** The database's state it was read at: `PRAGMA data_version` (commits by other connections) and `total_changes()` (this one's). */
  dv: number
  tc: number
}

/** The database's state a search statement runs at, compared there with the layout's (see EmailStore.#layoutOf). */
const STATE_GUARD_SQL = '(SELECT data_version FROM pragma_data_version) = @dv AND total_changes() = @tc'

/** Layouts kept per store; the map is emptied when it reaches this many mailboxes. */
const MAX_LAYOUTS = 10_000

/** The last scope {@link scopeParams} read, and what it gave: a task's searches share their scope. */
let lastScope: { inbox: string; queryDate: string; params: { inbox: string; until: string } } | undefined

function scopeParams(scope: EmailScope): { inbox: string; until: string } {
  if (lastScope !== undefined && lastScope.inbox === scope.inbox && lastScope.queryDate === scope.queryDate) return lastScope.params
  const day = scope.queryDate.trim().slice(0, 10)
  if (!isDay(day)) {
    throw new ConfigError(`Invalid email scope query date ${JSON.stringify(scope.queryDate)}.`, {
      hint: 'Pass the task query_date as YYYY-MM-DD.',
    })
  }
  const inbox = normalizeAddress(scope.inbox)
  if (inbox === '') {
    throw new ConfigError('Email scope has an empty inbox.', { hint: "Pass the task's inbox_address." })
  }
  const params = { inbox, until: `${day}T23:59:59.999Z` }
  lastScope = { inbox: scope.inbox, queryDate: scope.queryDate, params }
  return params
}

/** The date of `email` as stored: ISO 8601 UTC as `toISOString` writes it, so that dates compare as strings. */
function storedDate(email: EmailInput): string | null {
  if (email.date === null || STORED_DATE.test(email.date)) return email.date
  const iso = toIsoDate(email.date)
  if (iso === undefined) {
    throw new InvalidFormatError(`Email ${email.messageId} has the date ${JSON.stringify(String(email.date).slice(0, 80))}, which is not a date.`, {
      hint: 'Pass an ISO 8601 date (2001-05-14T23:39:00.000Z), or null when the date is unknown.',
    })
  }
  return iso
}

function noSearchableKeyword(keywords: ReadonlyArray<string>): SearchKeywordsError {
  const shown = keywords
    .filter((keyword) => keyword.trim() !== '')
    .slice(0, 3)
    .map((keyword) => JSON.stringify(keyword.slice(0, 40)))
  return new SearchKeywordsError(
    `No keyword has a word to search for (${shown.join(', ')}${keywords.length > 3 ? ', ...' : ''}): punctuation, symbols and search operators are ignored.`,
    {
      hint: 'Pass words or short phrases, e.g. ["gas contract"], or [] for the most recent emails.',
    },
  )
}

/** `"John Arnold"` -> `['john', 'arnold']`: each part must occur in the address (at most 5 parts). */
function addressParts(value: string | undefined): string[] {
  if (value === undefined || value === '') return []
  return value
    .toLowerCase()
    .split(/[\s,;<>"']+/)
    .filter((part) => part !== '')
    .slice(0, 5)
}

function likeContains(value: string): string {
  return `%${value
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

function parseAddressList(json: string): string[] {
  const value: unknown = JSON.parse(json)
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function toRecord(row: EmailRow): EmailRecord {
  return {
    messageId: row.message_id,
    inbox: row.inbox,
    subject: row.subject,
    from: row.sender,
    to: parseAddressList(row.to_addresses),
    cc: parseAddressList(row.cc_addresses),
    bcc: parseAddressList(row.bcc_addresses),
    date: row.date,
    body: row.body,
    fileName: row.file_name,
    bodyChars: row.body_chars,
  }
}

/** `text` up to its first NUL character, as SQLite's `substr()` reads a text. */
function cutAtNul(text: string): string {
  const nul = text.indexOf('\0')
  return nul < 0 ? text : text.slice(0, nul)
}

/** Whether `c` is a code unit that `\s` matches in a JavaScript regular expression. */
function isRegExpSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
}

/**
 * `text.replace(/\s+/g, ' ').trim()`: every run of whitespace one space, none at either end, without a regular
 * expression (a text already so, as most snippets are, is returned as is).
 * @internal Exported for its test.
 */
export function collapseWhitespace(text: string): string {
  const last = text.length - 1
  let clean = true
  for (let i = 0; i <= last; i++) {
    const c = text.charCodeAt(i)
    if (c === 32 ? i === 0 || i === last || text.charCodeAt(i + 1) === 32 : c <= 32 || c >= 0xa0 ? isRegExpSpace(c) : false) {
      clean = false
      break
    }
  }
  if (clean) return text
  let out = ''
  // The start of the run of non-whitespace being read (-1 between runs), and whether a run was written.
  let from = -1
  let written = false
  for (let i = 0; i <= last; i++) {
    const c = text.charCodeAt(i)
    if (c <= 32 || c >= 0xa0 ? isRegExpSpace(c) : false) {
      if (from >= 0) {
        out += written ? ` ${text.slice(from, i)}` : text.slice(from, i)
        written = true
        from = -1
      }
    } else if (from < 0) {
      from = i
    }
  }
  if (from >= 0) out += written ? ` ${text.slice(from)}` : text.slice(from)
  return out
}

const minOf = (...values: Array<number | null>): number | null =>
  values.reduce<number | null>((min, value) => (value === null ? min : min === null || value < min ? value : min), null)
const maxOf = (...values: Array<number | null>): number | null =>
  values.reduce<number | null>((max, value) => (value === null ? max : max === null || value > max ? value : max), null)

/**
 * The columns of a keyword search's page, `e` its rows: the text snippets are computed from (the first
 * SNIPPET_SCAN_CHARS characters; a body of at most that many bytes is read as is: substr would walk and copy it).
 */
const PAGE_COLUMNS = `e.rowid AS id, e.message_id, e.subject, e.date, e.sender,
  CASE WHEN octet_length(e.body) <= ${SNIPPET_SCAN_CHARS} THEN e.body ELSE substr(e.body, 1, ${SNIPPET_SCAN_CHARS}) END AS body,
  CASE WHEN octet_length(e.subject) + octet_length(e.body) > ${SNIPPET_SCAN_CHARS} THEN substr(e.subject, 1, ${SNIPPET_SCAN_CHARS}) END AS subject_prefix`

/**
 * The SQL of a search of this shape: the plan (`undefined`: no keywords), how many parts the `from` and `to` filters have, and
 * whether there are date bounds (the values are parameters, see EmailStore.#prepareSearch).
 */
function searchSql(
  plan: 'match-first' | 'scope-first' | 'inbox-range' | undefined,
  fromParts: number,
  toParts: number,
  query: EmailSearch,
  candidates = false,
): string {
  const filters: string[] = []
  for (let i = 0; i < fromParts; i++) filters.push(`e.sender LIKE +@from${i} ESCAPE '\\'`)
  if (toParts > 0) {
    const likes = Array.from({ length: toParts }, (_, i) => `b.address LIKE +@to${i} ESCAPE '\\'`).join(' AND ')
    filters.push(`EXISTS (SELECT 1 FROM email_addresses b WHERE b.email_rowid = e.rowid AND ${likes})`)
  }
  if (query.sentAfter !== undefined) filters.push('e.date >= @after')
  if (query.sentBefore !== undefined) filters.push('e.date < @before')
  const where = [SCOPE_SQL, ...filters].join(' AND ')
  if (plan === undefined) {
    return `SELECT e.rowid AS id, e.message_id, e.subject, e.date, e.sender, substr(e.body, 1, ${PLAIN_SNIPPET_CHARS}) AS snippet
        FROM emails e WHERE ${where} ORDER BY e.date DESC LIMIT +@limit`
  }
  // FTS5 seeks its document lists to the scope's rowid span (one mailbox's range when the mail is laid out by inbox,
  // see EmailImport, and the scope's mail in other mailboxes), so a common word costs in proportion to that span, not
  // the corpus; bm25's statistics stay those of the whole index, so the ranking is the same as without the span.
  // One statement: the ranked page first (a materialized CTE of rowids and scores), then the columns of its rows
  // by rowid, with the text their snippets are computed from (in JavaScript, see EmailStore.#snippet): the first
  // SNIPPET_SCAN_CHARS characters, which is all of an email that is not long (a body of at most that many bytes is
  // read as is: substr would walk and copy it).
  // The unary `+` keeps the rowid filters as filters on the one FTS5 scan (bm25 statistics computed once); as
  // constraints, FTS5 would be re-queried per rowid. They keep, before the `emails` row is read, the matches in the inbox's rowid
  // range or among the scope's rows outside it (scope-first: in the scope's rowid set). `inbox-range` (no filter, and
  // the inbox's range holds only the inbox's mail, all of it dated up to the query date): a match in the range is in
  // scope without reading its row.
  // `candidates`: the same matches unranked, in rowid order, each with its sizes in tokens (FTS5's docsize record), for
  // the ranking in JavaScript (see EmailStore.#rankInJs).
  const score = candidates ? '(SELECT d.sz FROM emails_fts_docsize d WHERE d.id = emails_fts.rowid) AS sz' : 'bm25(emails_fts, 2.0, 1.0) AS score'
  const order = (id: string): string => (candidates ? '' : `ORDER BY score, ${id} LIMIT +@limit`)
  const ranked =
    plan === 'inbox-range'
      ? `SELECT emails_fts.rowid AS id, ${score} FROM emails_fts
          WHERE emails_fts MATCH @match AND emails_fts.rowid BETWEEN @lo AND @hi AND ${STATE_GUARD_SQL}
            AND (+emails_fts.rowid BETWEEN @ilo AND @ihi
              OR (+emails_fts.rowid IN (${OUTSIDE_INBOX_SQL}) AND EXISTS (SELECT 1 FROM emails e WHERE e.rowid = emails_fts.rowid AND ${where})))
          ${order('emails_fts.rowid')}`
      : `SELECT e.rowid AS id, ${score}
          FROM emails_fts JOIN emails e ON e.rowid = emails_fts.rowid
          WHERE emails_fts MATCH @match AND emails_fts.rowid BETWEEN @lo AND @hi AND ${STATE_GUARD_SQL} AND ${
            plan === 'scope-first'
              ? `+emails_fts.rowid IN (${SCOPE_ROWIDS_SQL})`
              : `(+emails_fts.rowid BETWEEN @ilo AND @ihi OR +emails_fts.rowid IN (${OUTSIDE_INBOX_SQL}))`
          } AND ${where}
          ${order('e.rowid')}`
  if (candidates) return ranked
  return `WITH ranked AS MATERIALIZED (${ranked})
        SELECT ${PAGE_COLUMNS}
        FROM ranked r CROSS JOIN emails e WHERE e.rowid = r.id
        ORDER BY r.score, r.id`
}

/** A keyword search's page for rowids ranked in JavaScript: `@ids` a JSON array, in order. */
const PAGE_BY_IDS_SQL = `SELECT ${PAGE_COLUMNS} FROM json_each(@ids) j CROSS JOIN emails e WHERE e.rowid = j.value ORDER BY j.key`

/** What {@link EmailStore}'s ranking in JavaScript returns for a mailbox layout kept from before a change. */
const STALE = Symbol('stale layout')

/** bm25's column weights in the store's search: the subject twice the body. */
const COLUMN_WEIGHTS = [2.0, 1.0] as const

/** How {@link EmailStore.search} ranks: `auto` in JavaScript when the store has current term counts (see `fts-bm25.ts`), `sqlite` always with FTS5's `bm25()`. */
export type SearchRanking = 'auto' | 'sqlite'

const EMAIL_COLUMNS = 'e.message_id, e.inbox, e.subject, e.sender, e.to_addresses, e.cc_addresses, e.bcc_addresses, e.date, e.body, e.file_name'

/**
 * The Enron (or any) email store: SQLite with an FTS5 index, scoped search and read.
 * Open with {@link EmailStore.open}; close with {@link EmailStore.close} or `using`.
 */
export class EmailStore {
  /** The underlying database (for importers and tests; prefer the methods). */
  readonly db: Database.Database
  /** The file it was opened from, or `:memory:`. */
  readonly file: string
  readonly #insert: Database.Statement
  readonly #lastRowid: Database.Statement
  readonly #read: Database.Statement
  readonly #get: Database.Statement
  readonly #count: Database.Statement
  readonly #countMatches: Database.Statement
  readonly #scopeSize: Database.Statement
  readonly #layout: Database.Statement
  readonly #state: Database.Statement
  /** Mailbox layouts by inbox, valid at the database state they hold (see #layoutOf). */
  readonly #layouts = new Map<string, InboxLayout>()
  /** Keyword search statements by shape (see #prepareSearch). */
  readonly #searches = new Map<string, Database.Statement>()
  #rowSnippet: Database.Statement | undefined
  /** Statements of the ranking in JavaScript, prepared at its first use. */
  #bm25: Bm25Statements | undefined
  /** @internal Searches ranked in JavaScript so far (see #rankInJs), for tests. */
  rankedInJavaScript = 0
  /** `fts_term_docs_state` at the state a mailbox layout was read at, once a search read it (`null`: no current counts). */
  readonly #termDocsState = new WeakMap<InboxLayout, TermDocsState | null>()
  /** `fts_term_docs` as read at a database state (see #termDocsAt). */
  #termDocs: { dv: number; tc: number; docs: Map<string, number> } | undefined
  /** Whether the store's schema has the term counts (a version 3 store opened read-only has none). */
  readonly #hasTermDocs: boolean
  /** Candidate statements by search shape (see #rankInJs). */
  readonly #candidates = new Map<string, Database.Statement>()

  private constructor(db: Database.Database, file: string, termDocs: boolean) {
    this.db = db
    this.file = file
    this.#hasTermDocs = termDocs
    this.#insert = db.prepare(`INSERT OR IGNORE INTO emails
      (message_id, inbox, subject, sender, recipients, to_addresses, cc_addresses, bcc_addresses, date, body, file_name)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    this.#lastRowid = db.prepare('SELECT coalesce(max(rowid), 0) FROM emails').pluck()
    this.#read = db.prepare(`SELECT ${EMAIL_COLUMNS.replace('e.body', 'substr(e.body, 1, @maxBodyChars) AS body')}, length(e.body) AS body_chars
      FROM emails e WHERE e.message_id = @messageId AND ${SCOPE_SQL}`)
    this.#get = db.prepare(`SELECT ${EMAIL_COLUMNS}, length(e.body) AS body_chars FROM emails e WHERE e.message_id = ?`)
    this.#count = db.prepare('SELECT count(*) AS n FROM emails').pluck()
    this.#countMatches = db.prepare('SELECT count(*) FROM (SELECT 1 FROM emails_fts WHERE emails_fts MATCH @match LIMIT +@cap)').pluck()
    // Each value but the count is an index lookup (min or max of a rowid or a date inside an index entry's range);
    // NULL when none. The count walks the inbox's index entries: a layout is read once per mailbox and state.
    this.#layout = db.prepare(`SELECT
        (SELECT min(rowid) FROM emails INDEXED BY idx_emails_inbox WHERE inbox = +@inbox) AS ilo,
        (SELECT max(rowid) FROM emails INDEXED BY idx_emails_inbox WHERE inbox = +@inbox) AS ihi,
        (SELECT min(rowid) FROM emails INDEXED BY idx_emails_sender WHERE sender = +@inbox) AS slo,
        (SELECT max(rowid) FROM emails INDEXED BY idx_emails_sender WHERE sender = +@inbox) AS shi,
        (SELECT min(email_rowid) FROM email_addresses WHERE address = +@inbox) AS rlo,
        (SELECT max(email_rowid) FROM email_addresses WHERE address = +@inbox) AS rhi,
        (SELECT max(date) FROM emails INDEXED BY idx_emails_inbox_date WHERE inbox = +@inbox) AS last,
        (SELECT count(*) FROM emails INDEXED BY idx_emails_inbox WHERE inbox = +@inbox) AS count,
        EXISTS (SELECT 1 FROM emails INDEXED BY idx_emails_inbox_date WHERE inbox = +@inbox AND date IS NULL) AS undated,
        (SELECT data_version FROM pragma_data_version) AS dv, total_changes() AS tc`)
    this.#state = db.prepare('SELECT (SELECT data_version FROM pragma_data_version) AS dv, total_changes() AS tc')
    this.#scopeSize = db
      .prepare(`SELECT (SELECT count(*) FROM emails WHERE inbox = +@inbox AND date <= +@until)
      + (SELECT count(*) FROM emails WHERE sender = +@inbox)
      + (SELECT count(*) FROM email_addresses WHERE address = +@inbox)`)
      .pluck()
  }

  /** Opens (creating and migrating if needed) the store at `file`, or an in-memory one for `:memory:`. */
  static open(file: string, options: EmailStoreOptions = {}): EmailStore {
    const readonly = options.readonly ?? false
    let db: Database.Database
    // A store opened read-only at version 3 has no term counts (SQLite ranks its searches).
    let termDocs = true
    try {
      db = new Database(file, { readonly, fileMustExist: readonly })
    } catch (error) {
      throw new ConfigError(`Cannot open email database ${file}: ${(error as Error).message}`, {
        hint: readonly ? 'Build it first with `agent-bench import-enron --db FILE --maildir DIR`.' : 'Check that the folder exists and is writable.',
        cause: error,
      })
    }
    try {
      if (readonly) {
        termDocs = checkSchemaVersion(db, file) >= TERM_DOCS_SCHEMA_VERSION
        // Pages read through a memory map rather than a read() call each (searches revisit the same index pages).
        db.pragma(`mmap_size = ${READONLY_MMAP_BYTES}`)
      } else {
        if (file !== ':memory:' && file !== '') db.pragma('journal_mode = WAL')
        db.pragma('synchronous = NORMAL')
        migrate(db, file)
      }
      return new EmailStore(db, file, termDocs)
    } catch (error) {
      db.close()
      if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') {
        throw new ConfigError(`Email database ${file} is not an SQLite database.`, {
          hint: 'Pass the .db file written by `agent-bench import-enron` (not the mail it was built from), or a new file name for the import to create.',
          cause: error,
        })
      }
      throw error
    }
  }

  /**
   * Inserts `emails` in one transaction (one {@link EmailStore.beginImport} of one batch). A Message-ID already stored
   * (or repeated in `emails`) is skipped and counted as a duplicate, so re-importing is idempotent.
   */
  insertEmails(emails: ReadonlyArray<EmailInput>): InsertResult {
    const session = this.beginImport()
    try {
      const result = session.add(emails)
      session.finish()
      return result
    } finally {
      session.abort()
    }
  }

  /**
   * Starts a bulk import: one transaction, with the pragmas a bulk load wants, until {@link EmailImport.finish}.
   * Rows go in as they are added; their FTS5 and address rows are written once at the end, after the new rows are laid
   * out mailbox by mailbox if they came interleaved (a scoped search then reads only its mailbox's rowid range).
   */
  beginImport(): EmailImport {
    return new EmailImport(this.db, this.#insert, this.#lastRowid.get() as number)
  }

  /**
   * Relevance-ranked (bm25; subject weighs twice the body; ties by storage order) search inside `scope`.
   * `plan` only chooses how the same result is computed (see {@link SearchPlan}); tests and benchmarks pin it. So does
   * `ranking`: `auto` computes bm25 in JavaScript when the store has current counts of its common terms (a store of
   * more than 50,000 emails, after an import; see `fts-bm25.ts`), `sqlite` always uses FTS5's `bm25()`; both give the
   * same hits in the same order.
   */
  search(query: EmailSearch, scope: EmailScope, plan: SearchPlan = 'auto', ranking: SearchRanking = 'auto'): EmailHit[] {
    let prepared = this.#prepareSearch(query, scope, plan)
    if (prepared === undefined) return []
    let ranked = ranking === 'auto' ? this.#rankInJs(prepared) : undefined
    if (ranked === STALE) {
      // The mailbox layout was kept from before a change: read again, and rank with it.
      this.#layouts.clear()
      prepared = this.#prepareSearch(query, scope, plan)
      if (prepared === undefined) return []
      ranked = this.#rankInJs(prepared)
    }
    const layout = prepared.layout
    let rows = ranked === STALE || ranked === undefined ? (prepared.statement.all(prepared.params) as HitRow[]) : ranked
    if (rows.length === 0 && layout !== undefined && !this.#isCurrent(layout)) {
      // The statement ran at another state than the mailbox layout it was given (a layout kept from before a change,
      // or a commit between the two statements), and returned nothing for it: both again, at one state.
      this.#layouts.clear()
      ;[prepared, rows] = this.db.transaction(() => {
        const again = this.#prepareSearch(query, scope, plan)
        return [again, again === undefined ? [] : (again.statement.all(again.params) as HitRow[])] as const
      })()
      if (prepared === undefined) return []
    }
    const { match, groups } = prepared
    const snippetQuery = match === undefined ? undefined : compileSnippetGroups(groups)
    return rows.map((row) => ({
      messageId: row.message_id,
      subject: row.subject,
      date: row.date,
      from: row.sender,
      snippet: collapseWhitespace(snippetQuery === undefined || match === undefined ? (row.snippet ?? '') : this.#snippet(row, snippetQuery, match)),
    }))
  }

  /**
   * The page of a keyword search ranked in JavaScript (`fts-bm25.ts`: the same bm25, from the store's term counts and
   * FTS5's records of the rows in scope), or `undefined` to rank with SQLite: no current term counts, a phrase of
   * several tokens, no common term (FTS5's own count is cheap then), an open transaction (FTS5 holds its new entries
   * in memory), an index not in one segment, or a database changed since the layout was read.
   */
  #rankInJs(prepared: {
    params: Record<string, string | number | bigint>
    groups: string[][][]
    layout: InboxLayout | undefined
    candidates: () => Database.Statement
  }): HitRow[] | typeof STALE | undefined {
    const { layout, groups } = prepared
    if (layout === undefined || !this.#hasTermDocs) return undefined
    let termDocs = this.#termDocsState.get(layout)
    if (termDocs === undefined) {
      this.#bm25 ??= prepareBm25Statements(this.db)
      const state = this.#bm25.state.get() as { rows: number; tokens: number; min_docs: number } | undefined
      termDocs = state === undefined ? null : { rows: state.rows, tokens: state.tokens, minDocs: state.min_docs }
      this.#termDocsState.set(layout, termDocs)
    }
    if (termDocs === null || this.db.inTransaction) return undefined
    const statements = this.#bm25 as Bm25Statements
    const tokens: string[] = []
    const phraseGroups: number[][] = []
    for (const alternatives of groups) {
      const members: number[] = []
      for (const phrase of alternatives) {
        if (phrase.length !== 1) return undefined
        members.push(tokens.length)
        tokens.push(phrase[0] as string)
      }
      phraseGroups.push(members)
    }
    const docs = this.#termDocsAt(layout)
    const stored = tokens.map(porterTerm)
    const counts = stored.map((term) => docs.get(term))
    if (counts.every((count) => count === undefined) || !bm25AgreesWithSqlite()) return undefined
    const terms = stored.map(termBytes)
    return this.db.transaction((): HitRow[] | typeof STALE | undefined => {
      // One snapshot: the layout, the counts, the index's records and the rows as of the same state.
      if (!this.#isCurrent(layout)) return STALE
      const averages = statements.averages.get() as Uint8Array | undefined
      if (averages === undefined) return undefined
      const totals = indexTotals(averages)
      if (totals.rows !== termDocs.rows || totals.tokens !== termDocs.tokens) return undefined
      const phrases: Bm25Phrase[] = terms.map((term, i) => ({
        term,
        // A term missing from the counts is in fewer than minDocs rows: FTS5 counts it quickly.
        rows: counts[i] ?? (statements.countMatches.get(ftsQueryOfGroups([[[tokens[i] as string]]])) as number),
      }))
      const rows = prepared.candidates().all(prepared.params) as Array<[number, Uint8Array | null]>
      const ids = new Float64Array(rows.length)
      const sizes: Uint8Array[] = []
      let previous = 0
      for (let i = 0; i < rows.length; i++) {
        const [id, size] = rows[i] as [number, Uint8Array | null]
        if (size === null || id <= previous) return undefined
        ids[i] = id
        sizes.push(size)
        previous = id
      }
      const ranked = rankByBm25(
        { ln: statements.ln, statements: statements.index, totals, phrases, weights: COLUMN_WEIGHTS, groups: phraseGroups },
        { ids, sizes },
        Number(prepared.params.limit),
      )
      if (ranked === undefined) return undefined
      this.rankedInJavaScript++
      return statements.page.all({ ids: JSON.stringify(ranked) }) as HitRow[]
    })()
  }

  /** The counts of `fts_term_docs` by term (as {@link porterTerm} writes it), read once per database state. */
  #termDocsAt(layout: InboxLayout): ReadonlyMap<string, number> {
    const kept = this.#termDocs
    if (kept !== undefined && kept.dv === layout.dv && kept.tc === layout.tc) return kept.docs
    const docs = new Map<string, number>()
    for (const [term, count] of (this.#bm25 as Bm25Statements).termDocs.all() as Array<[Uint8Array, number]>) {
      docs.set(Buffer.from(term.buffer, term.byteOffset, term.byteLength).toString('latin1'), count)
    }
    this.#termDocs = { dv: layout.dv, tc: layout.tc, docs }
    return docs
  }

  /**
   * The snippet of a keyword search's hit: FTS5's `snippet()` of the row ({@link SNIPPET_SQL}), computed in JavaScript
   * over the row's text (see `fts-snippet.ts`). A long email's is computed over the first {@link SNIPPET_SCAN_CHARS}
   * characters of its subject and body (FTS5 `snippet()` costs grow with the square of the matches in a document); one
   * whose match lies beyond them shows the start of its body.
   */
  #snippet(row: HitRow, query: SnippetQuery, match: string): string {
    // As `substr(body, 1, n)` reads it (the statement reads a short body whole): up to its first NUL.
    const body = cutAtNul(row.body ?? '')
    if (row.subject_prefix !== null && row.subject_prefix !== undefined) {
      return ftsSnippet([row.subject_prefix, body], query) ?? body.slice(0, PLAIN_SNIPPET_CHARS)
    }
    const snippet = ftsSnippet([row.subject, body], query)
    if (snippet !== undefined) return snippet
    // The row matched the index but not its text as read (an index out of step with its rows): SQLite's own snippet.
    this.#rowSnippet ??= this.db.prepare(`SELECT ${SNIPPET_SQL} FROM emails_fts WHERE emails_fts MATCH @match AND rowid = @id`).pluck()
    return (this.#rowSnippet.get({ match, id: BigInt(row.id) }) as string | undefined) ?? ''
  }

  /**
   * SQLite's query plan of {@link EmailStore.search} for these arguments (`EXPLAIN QUERY PLAN` details, in order), or
   * `[]` when the scope holds no mail. For tests and performance work: it shows, e.g., that the FTS5 scan is bounded
   * by the scope's rowid span (`INDEX 0:M...><`) and that snippets look each page row up by rowid (`=M`).
   */
  explainSearch(query: EmailSearch, scope: EmailScope, plan: SearchPlan = 'auto'): string[] {
    const prepared = this.#prepareSearch(query, scope, plan)
    if (prepared === undefined) return []
    const rows = this.db.prepare(`EXPLAIN QUERY PLAN ${prepared.statement.source}`).all(prepared.params) as Array<{ detail: string }>
    return rows.map((row) => row.detail)
  }

  /** The statement and parameters of a search, or `undefined` when the scope holds no mail. */
  #prepareSearch(
    query: EmailSearch,
    scope: EmailScope,
    plan: SearchPlan,
  ):
    | {
        statement: Database.Statement
        params: Record<string, string | number | bigint>
        match: string | undefined
        groups: string[][][]
        layout: InboxLayout | undefined
        /** The statement of the same matches unranked, with their sizes (see #rankInJs). */
        candidates: () => Database.Statement
      }
    | undefined {
    const groups = ftsQueryGroups(query.keywords)
    const match = ftsQueryOfGroups(groups)
    const bounds = scopeParams(scope)
    if (match === undefined && query.keywords.some((keyword) => keyword.trim() !== '')) throw noSearchableKeyword(query.keywords)
    // Every key a search's statements may read, set at once (one object shape from search to search).
    const params: Record<string, string | number | bigint> = {
      inbox: bounds.inbox,
      until: bounds.until,
      limit: Math.max(1, Math.min(50, Math.trunc(query.maxResults ?? 10))),
      match: '',
      lo: 0n,
      hi: 0n,
      ilo: 0n,
      ihi: 0n,
      dv: 0,
      tc: 0,
    }
    const fromParts = addressParts(query.from)
    fromParts.forEach((part, i) => {
      params[`from${i}`] = likeContains(part)
    })
    const toParts = addressParts(query.to)
    toParts.forEach((part, i) => {
      params[`to${i}`] = likeContains(part)
    })
    if (query.sentAfter !== undefined) params.after = query.sentAfter
    if (query.sentBefore !== undefined) params.before = query.sentBefore
    let shape: 'latest' | 'match-first' | 'scope-first' | 'inbox-range' = 'latest'
    let layout: InboxLayout | undefined
    if (match !== undefined) {
      params.match = match
      layout = this.#layoutOf(bounds.inbox)
      const lo = minOf(layout.ilo, layout.slo, layout.rlo)
      const hi = maxOf(layout.ihi, layout.shi, layout.rhi)
      if (lo === null || hi === null) return undefined
      // Bound as integers: FTS5 ignores a rowid bound that reaches it as a REAL (how a JS number is bound) and walks
      // the whole document list.
      params.lo = BigInt(lo)
      params.hi = BigInt(hi)
      // An inbox without mail of its own: an empty range, so that every row of the scope is "outside" it.
      params.ilo = BigInt(layout.ilo ?? 1)
      params.ihi = BigInt(layout.ilo === null ? 0 : (layout.ihi ?? 0))
      params.dv = layout.dv
      params.tc = layout.tc
      shape = plan === 'auto' ? this.#autoPlan(match, bounds, layout) : plan
      // The inbox's range holds only its mail, all of it dated up to the query date, and nothing but the scope filters.
      const filtered = fromParts.length > 0 || toParts.length > 0 || query.sentAfter !== undefined || query.sentBefore !== undefined
      if (
        shape === 'match-first' &&
        !filtered &&
        layout.ilo !== null &&
        layout.ihi !== null &&
        layout.count === layout.ihi - layout.ilo + 1 &&
        layout.undated === 0 &&
        layout.last !== null &&
        layout.last <= bounds.until
      ) {
        shape = 'inbox-range'
      }
    }
    // The SQL depends only on the query's shape: built once per shape.
    const key = `${shape}/${fromParts.length}/${toParts.length}/${query.sentAfter === undefined ? 0 : 1}${query.sentBefore === undefined ? 0 : 1}`
    let statement = this.#searches.get(key)
    if (statement === undefined) {
      statement = this.db.prepare(searchSql(shape === 'latest' ? undefined : shape, fromParts.length, toParts.length, query))
      this.#searches.set(key, statement)
    }
    const candidates = (): Database.Statement => {
      let found = this.#candidates.get(key)
      if (found === undefined) {
        found = this.db.prepare(searchSql(shape === 'latest' ? undefined : shape, fromParts.length, toParts.length, query, true)).raw()
        this.#candidates.set(key, found)
      }
      return found
    }
    return { statement, params, match, groups, layout, candidates }
  }

  /**
   * Where the mail of `inbox` lies ({@link InboxLayout}), kept from search to search while the database is unchanged:
   * each keyword search's statement compares the state it runs at with the layout's (a commit by another connection
   * changes `PRAGMA data_version`, a change by this one `total_changes()`), and returns nothing when they differ, which
   * {@link EmailStore.search} then checks. Not kept when read inside a transaction (a rollback would undo what it saw).
   */
  #layoutOf(inbox: string): InboxLayout {
    const kept = this.#layouts.get(inbox)
    if (kept !== undefined) return kept
    const layout = this.#layout.get({ inbox }) as InboxLayout
    if (!this.db.inTransaction) {
      if (this.#layouts.size >= MAX_LAYOUTS) this.#layouts.clear()
      this.#layouts.set(inbox, layout)
    }
    return layout
  }

  /** Whether the database is at the state `layout` was read at. */
  #isCurrent(layout: InboxLayout): boolean {
    const state = this.#state.get() as { dv: number; tc: number }
    return state.dv === layout.dv && state.tc === layout.tc
  }

  /**
   * The plan `auto` picks for a search: `match-first` when no mail of the inbox is dated after the query date;
   * otherwise `scope-first` when the FTS5 matches (counted up to what decides it) reach {@link SCOPE_FIRST_MIN_MATCHES}
   * and a quarter of an upper bound of the scope's size.
   */
  planSearch(query: EmailSearch, scope: EmailScope): Exclude<SearchPlan, 'auto'> {
    const match = buildFtsQuery(query.keywords)
    if (match === undefined) return 'match-first'
    const bounds = scopeParams(scope)
    return this.#autoPlan(match, bounds, this.#layoutOf(bounds.inbox))
  }

  #autoPlan(match: string, scope: { inbox: string; until: string }, span: InboxLayout): Exclude<SearchPlan, 'auto'> {
    // Nothing of the inbox is cut by the date: the matches kept by the rowid ranges are (all but a few) in scope, and
    // collecting the scope's rowids first would cost more than it saves.
    if (span.last === null || span.last <= scope.until) return 'match-first'
    const atLeast = (cap: number): boolean => (this.#countMatches.get({ match, cap }) as number) >= cap
    if (!atLeast(SCOPE_FIRST_MIN_MATCHES)) return 'match-first'
    const quarterScope = Math.ceil((this.#scopeSize.get(scope) as number) / 4)
    return quarterScope <= SCOPE_FIRST_MIN_MATCHES || atLeast(quarterScope) ? 'scope-first' : 'match-first'
  }

  /** The email with `messageId` (with or without angle brackets), or `undefined` when unknown or outside `scope`. */
  read(messageId: string, scope: EmailScope, options: ReadOptions = {}): EmailRecord | undefined {
    const maxBodyChars = Math.max(0, Math.trunc(options.maxBodyChars ?? Number.MAX_SAFE_INTEGER))
    const row = this.#read.get({ messageId: canonicalMessageId(messageId), ...scopeParams(scope), maxBodyChars }) as EmailRow | undefined
    return row === undefined ? undefined : toRecord(row)
  }

  /** The email with `messageId`, ignoring any scope (for importers, checks and tests, not for agents). */
  get(messageId: string): EmailRecord | undefined {
    const row = this.#get.get(canonicalMessageId(messageId)) as EmailRow | undefined
    return row === undefined ? undefined : toRecord(row)
  }

  /** Number of stored emails. */
  count(): number {
    return this.#count.get() as number
  }

  /** Stores ART-E rows in `art_e_tasks` (a row with a known id is replaced). */
  insertArteTasks(rows: ReadonlyArray<ArteRow>): number {
    const insert = this.db.prepare(`INSERT OR REPLACE INTO art_e_tasks
      (id, question, answer, message_ids, inbox_address, query_date, how_realistic, split)
      VALUES (@id, @question, @answer, @messageIds, @inbox, @queryDate, @howRealistic, @split)`)
    const run = this.db.transaction((batch: ReadonlyArray<ArteRow>) => {
      for (const row of batch) {
        insert.run({
          id: String(row.id),
          question: row.question,
          answer: row.answer,
          messageIds: JSON.stringify(row.message_ids),
          inbox: row.inbox_address,
          queryDate: row.query_date,
          howRealistic: row.how_realistic,
          split: row.split,
        })
      }
      return batch.length
    })
    return run(rows)
  }

  /**
   * Counts the documents of the index's common terms now, as an import does at its end in a store of more than
   * {@link TERM_DOCS_MIN_ROWS} rows (see `term-docs.ts`): searches then rank by bm25 without FTS5 counting them.
   * `minRows` and `minDocs` (defaults: that and {@link TERM_DOCS_MIN_DOCS}) are for tests and tools.
   */
  countTermDocs(options: { minRows?: number; minDocs?: number } = {}): void {
    refreshTermDocs(this.db, options)
    this.#layouts.clear()
  }

  /**
   * Merges the FTS5 index into one segment and refreshes the planner statistics: run once after a bulk import
   * (faster searches; takes a few seconds per 100K emails).
   */
  optimize(): void {
    this.db.exec("INSERT INTO emails_fts(emails_fts) VALUES ('optimize'); PRAGMA optimize;")
  }

  /** Closes the database; further calls fail. Safe to call twice. */
  close(): void {
    if (this.db.open) this.db.close()
  }

  [Symbol.dispose](): void {
    this.close()
  }
}

/** The statements of {@link EmailStore}'s ranking in JavaScript. */
interface Bm25Statements {
  state: Database.Statement
  termDocs: Database.Statement
  averages: Database.Statement
  countMatches: Database.Statement
  ln: Database.Statement
  page: Database.Statement
  index: FtsIndexStatements
}

function prepareBm25Statements(db: Database.Database): Bm25Statements {
  return {
    state: db.prepare('SELECT rows, tokens, min_docs FROM fts_term_docs_state'),
    termDocs: db.prepare('SELECT term, docs FROM fts_term_docs').raw(),
    averages: db.prepare(AVERAGES_SQL).pluck(),
    countMatches: db.prepare('SELECT count(*) FROM emails_fts WHERE emails_fts MATCH ?').pluck(),
    ln: db.prepare('SELECT ln(?)').pluck(),
    page: db.prepare(PAGE_BY_IDS_SQL),
    index: prepareFtsIndexStatements(db, 'emails_fts'),
  }
}

/** FTS5's in-memory index budget during an import's index fill, and its default (restored after). */
const BULK_FTS_HASH_BYTES = 64 * 1024 * 1024
const DEFAULT_FTS_HASH_BYTES = 1024 * 1024

/** Pragmas of a bulk load, restored when the import ends: no fsync inside it (one at its commit), a larger page cache. */
const BULK_PRAGMAS = { synchronous: 'OFF', cache_size: -262_144, temp_store: 'MEMORY' } as const

/** Whether `emails_fts_content` indexes less of `text` than it holds: past {@link FTS_INDEXED_CHARS} or a NUL (`substr` stops there). */
const cutInIndex = (text: string): boolean => text.length > FTS_INDEXED_CHARS || text.includes('\0')

/**
 * The secondary indexes an import into an empty store drops and builds again at its end (one sort each instead of a
 * B-tree insert per row): those of `emails` and `email_addresses` but their primary keys, which find duplicates.
 */
const DEFERRED_INDEXES_SQL = `SELECT name, sql FROM sqlite_master
  WHERE type = 'index' AND tbl_name IN ('emails', 'email_addresses') AND sql IS NOT NULL ORDER BY name`

/**
 * One bulk import into an {@link EmailStore} (from {@link EmailStore.beginImport}): every row in one transaction, the
 * FTS5 index and the address index filled by one statement each at {@link EmailImport.finish}. Until then the new rows
 * are not searchable. {@link EmailImport.abort} (a no-op after `finish`) rolls back what was added.
 */
export class EmailImport {
  readonly #db: Database.Database
  readonly #insert: Database.Statement
  readonly #since: number
  readonly #saved: Record<string, unknown> = {}
  readonly #nested: boolean
  /** The journal mode to restore (`wal`) when the import switched to a rollback journal for its transaction. */
  #journalMode: string | undefined
  /** Indexes dropped for the import (into an empty store), created again at its end. */
  readonly #deferredIndexes: Array<{ name: string; sql: string }> = []
  #open = true
  #imported = 0
  /**
   * The inbox of each new row, in rowid order (new rows take the rowids after `since`, one by one), kept up to date by
   * {@link EmailImport.reassign}: tells whether mailboxes came interleaved. `undefined` if a rowid was not the next one
   * (the rows are then read back).
   */
  #rowInboxes: string[] | undefined = []
  /** Whether some new row's subject or body is longer than the FTS5 index holds, or holds a NUL (see {@link EmailImport.finish}). */
  #cutText = false
  /** The recipients of the row being inserted, and one of its address lists (reused from row to row). */
  readonly #recipients = new Set<string>()
  readonly #list = new Set<string>()

  /** @internal Use {@link EmailStore.beginImport}. */
  constructor(db: Database.Database, insert: Database.Statement, since: number) {
    this.#db = db
    this.#insert = insert
    // New rows get rowids above the largest one (SQLite's rule until rowid 2^63-1), so `rowid > since` are this import's.
    this.#since = since
    // Inside a caller's transaction: a savepoint of it, under the caller's pragmas.
    this.#nested = db.inTransaction
    if (!this.#nested) {
      for (const [name, value] of Object.entries(BULK_PRAGMAS)) {
        this.#saved[name] = db.pragma(name, { simple: true })
        db.pragma(`${name} = ${value}`)
      }
      this.#leaveWal()
    }
    let begun = false
    try {
      db.exec(this.#nested ? 'SAVEPOINT email_import' : 'BEGIN IMMEDIATE')
      begun = true
      db.exec('INSERT INTO bulk_import (active) VALUES (1)')
      if (since === 0) {
        // An empty store: its indexes are built once at the end, from sorted keys (rolled back with the import).
        this.#deferredIndexes.push(...(db.prepare(DEFERRED_INDEXES_SQL).all() as Array<{ name: string; sql: string }>))
        for (const { name } of this.#deferredIndexes) db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`)
      }
    } catch (error) {
      if (begun && db.inTransaction) db.exec(this.#nested ? 'ROLLBACK TO email_import; RELEASE email_import' : 'ROLLBACK')
      this.#restorePragmas()
      throw error
    }
  }

  /**
   * A WAL store imports under a rollback journal (WAL again at the end): a WAL commit writes every page of the import
   * into the log and copies it into the database at the checkpoint, a rollback journal only keeps the few pages the
   * import changes of what was stored (none of an empty store's), and the rows are written once. A crash of the
   * process during the import leaves the journal, which the next open rolls back, as with WAL. Another connection to
   * the file keeps it in WAL (switching needs the only one).
   */
  #leaveWal(): void {
    if (this.#db.pragma('journal_mode', { simple: true }) !== 'wal') return
    try {
      if (this.#db.pragma('journal_mode = DELETE', { simple: true }) === 'delete') this.#journalMode = 'wal'
    } catch {
      // SQLITE_BUSY: another connection has the file open; import in WAL.
    }
  }

  /** Inserts `emails`; a Message-ID already stored (or added earlier in this import) counts as a duplicate. */
  add(emails: ReadonlyArray<EmailInput>): InsertResult {
    let imported = 0
    for (const email of emails) if (this.insert(email) !== undefined) imported++
    return { imported, duplicates: emails.length - imported }
  }

  /**
   * Inserts one email and returns its rowid, or `undefined` when its Message-ID is already stored (or was added
   * earlier in this import): a duplicate.
   */
  insert(email: EmailInput): number | undefined {
    if (!this.#open) throw new Error('EmailImport.add after finish or abort')
    const recipients = this.#recipients
    recipients.clear()
    const to = this.#addressesJson(email.to)
    const cc = this.#addressesJson(email.cc)
    const bcc = this.#addressesJson(email.bcc)
    const inbox = normalizeAddress(email.inbox)
    // Positional parameters, in the column order of #insert (binding by name looks each one up per row).
    const result = this.#insert.run(
      canonicalMessageId(email.messageId),
      inbox,
      email.subject,
      normalizeAddress(email.from),
      JSON.stringify(Array.from(recipients)),
      to,
      cc,
      bcc,
      storedDate(email),
      email.body,
      email.fileName ?? null,
    )
    if (result.changes === 0) return undefined
    this.#imported++
    const rowid = Number(result.lastInsertRowid)
    if (rowid === this.#since + this.#imported) this.#rowInboxes?.push(inbox)
    else this.#rowInboxes = undefined
    if (!this.#cutText) this.#cutText = cutInIndex(email.subject) || cutInIndex(email.body)
    return rowid
  }

  /** The JSON array of `values` as stored (see `addNormalizedAddresses`), each also added to the row's recipients. */
  #addressesJson(values: ReadonlyArray<string>): string {
    if (values.length === 0) return '[]'
    const list = this.#list
    list.clear()
    addNormalizedAddresses(values, list)
    for (const address of list) this.#recipients.add(address)
    return JSON.stringify(Array.from(list))
  }

  /**
   * Moves rows of this import (rowids from {@link EmailImport.insert}) to another inbox: for an importer that stored
   * them under a provisional owner before it knew their mailbox's. They are laid out by inbox at the finish as the rest.
   */
  reassign(rowids: ReadonlyArray<number>, inbox: string): void {
    if (!this.#open) throw new Error('EmailImport.reassign after finish or abort')
    const rows = rowids.filter((rowid) => rowid > this.#since)
    if (rows.length === 0) return
    const to = normalizeAddress(inbox)
    this.#db.prepare('UPDATE emails SET inbox = ? WHERE rowid IN (SELECT value FROM json_each(?))').run(to, JSON.stringify(rows))
    const inboxes = this.#rowInboxes
    if (inboxes !== undefined) for (const rowid of rows) inboxes[rowid - this.#since - 1] = to
  }

  /** Whether this import's rows came with some inbox in more than one run of consecutive rowids. */
  #interleaved(): boolean {
    const inboxes = this.#rowInboxes
    if (inboxes === undefined) {
      const { runs, mailboxes } = this.#db
        .prepare(`SELECT count(*) FILTER (WHERE inbox IS NOT previous) AS runs, count(DISTINCT inbox) AS mailboxes
          FROM (SELECT inbox, lag(inbox) OVER (ORDER BY rowid) AS previous FROM emails WHERE rowid > ?)`)
        .get(this.#since) as { runs: number; mailboxes: number }
      return runs > mailboxes
    }
    let runs = 0
    for (let i = 0; i < inboxes.length; i++) if (inboxes[i] !== inboxes[i - 1]) runs++
    return runs > new Set(inboxes).size
  }

  /** Lays the new rows out by inbox if they came interleaved, writes their FTS5 and address rows, commits. */
  finish(): void {
    if (!this.#open) return
    try {
      if (this.#imported > 0) {
        if (this.#interleaved()) this.#db.exec(layoutByInboxSql(this.#since))
        // The text the index holds is that of `emails_fts_content`, whose `substr` cuts a subject or body at
        // FTS_INDEXED_CHARS characters or a NUL; when no new row has either, the rows are read as stored (the same
        // text, without a copy of each body).
        const text = this.#cutText
          ? `SELECT email_rowid, subject, body FROM emails_fts_content WHERE email_rowid > ${this.#since}`
          : `SELECT rowid, subject, body FROM emails WHERE rowid > ${this.#since}`
        // FTS5 holds up to `hashsize` bytes of new index in memory before it writes a segment (1 MB by default): with
        // 64 MB, an import's index is written in a few segments, which the `optimize` after an import merges cheaply.
        this.#db.exec(`
          INSERT INTO emails_fts (emails_fts, rank) VALUES ('hashsize', ${BULK_FTS_HASH_BYTES});
          INSERT INTO emails_fts (rowid, subject, body) ${text};
          INSERT INTO emails_fts (emails_fts, rank) VALUES ('hashsize', ${DEFAULT_FTS_HASH_BYTES});
          INSERT OR IGNORE INTO email_addresses (address, email_rowid) SELECT j.value, e.rowid FROM emails e, json_each(e.recipients) j WHERE e.rowid > ${this.#since};`)
      }
      for (const { sql } of this.#deferredIndexes) this.#db.exec(sql)
      if (this.#imported > 0) this.#db.exec('DELETE FROM fts_term_docs_state')
      this.#db.exec(`DELETE FROM bulk_import; ${this.#nested ? 'RELEASE email_import' : 'COMMIT'};`)
      this.#open = false
      this.#restorePragmas()
    } catch (error) {
      this.abort()
      throw error
    }
    this.#countTermDocs()
  }

  /**
   * After the commit of an import (not inside a caller's transaction) that added rows, or found the store without
   * current counts (a store migrated from version 3, or written outside an import, re-imported): the document counts of
   * the index's common terms, for the ranking in JavaScript (`term-docs.ts`; a store of up to 50,000 rows keeps none).
   * A failure throws a {@link TermCountsError}, which says the import itself is committed.
   */
  #countTermDocs(): void {
    if (this.#nested) return
    try {
      if (this.#imported === 0 && this.#db.prepare('SELECT count(*) FROM fts_term_docs_state').pluck().get() !== 0) return
      refreshTermDocs(this.#db)
    } catch (error) {
      throw new TermCountsError(this.#db.name, error)
    }
  }

  /** Rolls back everything added (a no-op after {@link EmailImport.finish}). */
  abort(): void {
    if (!this.#open) return
    this.#open = false
    if (this.#db.inTransaction) this.#db.exec(this.#nested ? 'ROLLBACK TO email_import; RELEASE email_import' : 'ROLLBACK')
    this.#restorePragmas()
  }

  #restorePragmas(): void {
    for (const [name, value] of Object.entries(this.#saved)) this.#db.pragma(`${name} = ${String(value)}`)
    if (this.#journalMode !== undefined) {
      try {
        this.#db.pragma(`journal_mode = ${this.#journalMode}`)
      } catch {
        // SQLITE_BUSY: a connection opened during the import is reading; the next EmailStore.open sets WAL again.
      }
      this.#journalMode = undefined
    }
  }
}
