import type { EmailImport, EmailInput, EmailStore } from '../store/email-store.ts'
import { inferMailboxOwner, type MailboxMember } from './mailbox-owner.ts'
import { normalizeAddress } from '../store/normalize.ts'
import type { SourceEmail } from './parse-raw-email.ts'
import { FTS_INDEXED_CHARS } from '../store/schema.ts'

/** A message that was not imported, or imported with an odd date, and why. */
export interface ImportIssue {
  file: string
  reason: string
}

/** What an import did. `imported + duplicates + failed` is the number of messages read. */
export interface ImportReport {
  imported: number
  /** Messages whose Message-ID was already stored (by this import or an earlier one). */
  duplicates: number
  /** Messages that could not be imported (e.g. no Message-ID); see `failures`. */
  failed: number
  /**
   * Imported messages with a missing or unparseable date (stored as `null`, never in any scope) or an implausible one
   * (stored as parsed, and searched by that date).
   */
  oddDates: number
  /** The first {@link MAX_LISTED_ISSUES} failures. */
  failures: ImportIssue[]
  /** The first {@link MAX_LISTED_ISSUES} odd dates. */
  oddDateSamples: ImportIssue[]
  /** Imported messages that declare a charset no decoder knows: their text was decoded as Latin-1 (windows-1252). */
  charsetWarnings: number
  /** The first {@link MAX_LISTED_ISSUES} of them. */
  charsetWarningSamples: ImportIssue[]
  /**
   * Imported messages whose body is longer than {@link FTS_INDEXED_CHARS} (1,000,000) characters: it is stored whole,
   * but search finds words in its first 1,000,000 characters only.
   */
  longBodies: number
  /** The first {@link MAX_LISTED_ISSUES} of them. */
  longBodySamples: ImportIssue[]
  /** Inferred (or given) inbox of each mailbox: mailbox name (`X-Origin`, or folder) to address. */
  inboxes: Record<string, string>
}

/** Options shared by every importer. */
export interface ImportOptions {
  /** Store every message under this inbox address instead of inferring each mailbox's owner. */
  inbox?: string | undefined
  /** Read at most this many messages (0 or absent: all). */
  limit?: number | undefined
  /**
   * Messages held before they are inserted (all of an import's messages go in one transaction; the FTS5 index is
   * written once at its end).
   * @default 5000
   */
  batchSize?: number | undefined
  /**
   * Worker threads that parse MIME in a maildir or Kaggle CSV import, 0 to parse on the importing thread.
   * @default one per core but one, 1 to 4; 0 for fewer than 20,000 files or a CSV under 50 MB
   */
  parseWorkers?: number | undefined
}

/** Messages held before they are inserted unless {@link ImportOptions.batchSize} says otherwise. */
export const DEFAULT_IMPORT_BATCH_SIZE = 5000

/** A finished unit's rows are inserted at once from this many (fewer wait for the next unit or the batch size). */
const MIN_UNIT_BATCH = 500

/** How many failures and odd dates a report lists (all are counted). */
export const MAX_LISTED_ISSUES = 50

const FALLBACK_INBOX = 'unknown@unknown'

/**
 * Collects messages from an importer, resolves their inbox, and inserts them in batches.
 * Without a fixed inbox, the messages of one unit (`maildir/<user>`, a CSV `file` prefix) are held until the
 * unit ends, then each mailbox in it (by `X-Origin`, else the unit) gets its owner from {@link inferMailboxOwner}.
 * An owner found once is kept for that mailbox name for the rest of the import.
 * All of it goes into the store in one {@link EmailStore.beginImport} transaction, committed by {@link ImportSink.finish};
 * an importer that stops on an error calls {@link ImportSink.close}, which commits what was read before it.
 */
export class ImportSink {
  readonly #store: EmailStore
  #session: EmailImport | undefined
  #closed = false
  readonly #inbox: string | undefined
  readonly #limit: number
  readonly #batchSize: number
  readonly #batch: EmailInput[] = []
  #unit: string | undefined
  #pending: MailboxMember[] = []
  readonly #owners = new Map<string, string>()
  #read = 0
  readonly #report: ImportReport = {
    imported: 0,
    duplicates: 0,
    failed: 0,
    oddDates: 0,
    failures: [],
    oddDateSamples: [],
    charsetWarnings: 0,
    charsetWarningSamples: [],
    longBodies: 0,
    longBodySamples: [],
    inboxes: {},
  }

  constructor(store: EmailStore, options: ImportOptions) {
    this.#store = store
    const inbox = options.inbox === undefined ? undefined : normalizeAddress(options.inbox)
    this.#inbox = inbox === '' ? undefined : inbox
    this.#limit = options.limit !== undefined && options.limit > 0 ? options.limit : Number.POSITIVE_INFINITY
    this.#batchSize = Math.max(1, options.batchSize ?? DEFAULT_IMPORT_BATCH_SIZE)
  }

  /** Whether the `limit` has been reached: the importer should stop reading. */
  get full(): boolean {
    return this.#read >= this.#limit
  }

  /** Adds a message read from `path`; `unit` is the top folder it belongs to (see the class comment). */
  add(source: SourceEmail, path: string, unit: string): void {
    this.#read++
    if (source.dateNote !== undefined) {
      this.#report.oddDates++
      if (this.#report.oddDateSamples.length < MAX_LISTED_ISSUES) this.#report.oddDateSamples.push({ file: path, reason: source.dateNote })
    }
    if (source.charsetNote !== undefined) {
      this.#report.charsetWarnings++
      if (this.#report.charsetWarningSamples.length < MAX_LISTED_ISSUES) this.#report.charsetWarningSamples.push({ file: path, reason: source.charsetNote })
    }
    if (source.email.body.length > FTS_INDEXED_CHARS) {
      this.#report.longBodies++
      const reason = `body of ${source.email.body.length.toLocaleString('en-US')} characters: stored whole, searchable in its first ${FTS_INDEXED_CHARS.toLocaleString('en-US')} only`
      if (this.#report.longBodySamples.length < MAX_LISTED_ISSUES) this.#report.longBodySamples.push({ file: path, reason })
    }
    if (this.#inbox !== undefined) {
      this.#report.inboxes[unit] ??= this.#inbox
      this.#push({ ...source.email, inbox: this.#inbox })
      return
    }
    if (this.#unit !== undefined && this.#unit !== unit) this.#resolveUnit()
    this.#unit = unit
    this.#pending.push({ source, path })
  }

  /** Records a message that could not be read. */
  fail(path: string, reason: string): void {
    this.#read++
    this.#report.failed++
    if (this.#report.failures.length < MAX_LISTED_ISSUES) this.#report.failures.push({ file: path, reason })
  }

  /** Inserts what is left, commits the import (its FTS5 index written) and returns the report. */
  finish(): ImportReport {
    this.#resolveUnit()
    this.#flush()
    this.#closed = true
    this.#session?.finish()
    return this.#report
  }

  /**
   * After an error stopped the importer: commits the messages inserted so far, as a finished import would (they stay
   * stored, a re-run counts them as duplicates). A no-op after {@link ImportSink.finish}.
   */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#session?.finish()
  }

  #resolveUnit(): void {
    const unit = this.#unit ?? ''
    const mailboxes = new Map<string, MailboxMember[]>()
    for (const member of this.#pending) {
      const name = (member.source.origin ?? unit).toLowerCase()
      const list = mailboxes.get(name)
      if (list === undefined) mailboxes.set(name, [member])
      else list.push(member)
    }
    for (const [name, members] of mailboxes) {
      let owner = this.#owners.get(name)
      if (owner === undefined) {
        owner = inferMailboxOwner(members, name) ?? FALLBACK_INBOX
        this.#owners.set(name, owner)
        this.#report.inboxes[name] = owner
      }
      for (const { source } of members) this.#push({ ...source.email, inbox: owner })
    }
    this.#pending = []
    this.#unit = undefined
    // A unit's rows go in now, while parse workers read on (with a floor, so that many small units share a transaction).
    if (this.#batch.length >= MIN_UNIT_BATCH) this.#flush()
  }

  #push(email: EmailInput): void {
    this.#batch.push(email)
    if (this.#batch.length >= this.#batchSize) this.#flush()
  }

  #flush(): void {
    if (this.#batch.length === 0) return
    this.#session ??= this.#store.beginImport()
    const { imported, duplicates } = this.#session.add(this.#batch)
    this.#report.imported += imported
    this.#report.duplicates += duplicates
    this.#batch.length = 0
  }
}
