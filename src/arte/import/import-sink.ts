import type { EmailImport, EmailStore } from '../store/email-store.ts'
import { MailboxTally } from './mailbox-owner.ts'
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
   * Messages of a mailbox held, while its owner is inferred, before they are inserted under the owner inferred so far
   * (re-assigned at the mailbox's end if its owner turns out another); a unit holding several mailboxes is held whole.
   * Messages with a known inbox are inserted as they are read. All of an import's messages go in one transaction; the FTS5 index is written once at its end.
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

/**
 * Body characters of the held messages of a unit beyond which they are inserted under the owner inferred so far: held
 * bodies outlive V8's young generation and are copied by its garbage collector.
 */
const HELD_BODY_CHARS = 1_000_000

/** How many failures and odd dates a report lists (all are counted). */
export const MAX_LISTED_ISSUES = 50

const FALLBACK_INBOX = 'unknown@unknown'

/** A message read and not yet inserted, and the folder path it was found under. */
interface HeldMessage {
  source: SourceEmail
  path: string
}

/** The messages of one mailbox of the current unit already inserted, under its known owner or a provisional one. */
interface EarlyMailbox {
  /** The owner they were inserted under. */
  inbox: string
  /** Their rowids (duplicates, not inserted, have none); `undefined` when the owner was known (nothing to move). */
  rowids: number[] | undefined
}

/**
 * Collects messages from an importer, resolves their inbox, and inserts them.
 * With a fixed inbox, a message is inserted as it is read. Otherwise each mailbox of one unit (`maildir/<user>`, a
 * CSV `file` prefix; a mailbox is the `X-Origin`, else the unit) gets its owner from owner inference's rules, counted
 * message by message as they are read ({@link MailboxTally}: no message is kept for it). A unit's messages are held
 * until the unit ends, or, while they are all of one mailbox, until they grow past {@link HELD_BODY_CHARS} characters
 * of body or `batchSize` messages: they are then inserted under the owner inferred so far, and so is the rest of that
 * mailbox as it is read; at the unit's end, if its owner is another, those rows are moved to it
 * ({@link EmailImport.reassign}). A unit holding several mailboxes is held whole from the second one on.
 * An owner found once is kept for that mailbox name for the rest of the import (its mail then goes in as read).
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
  #unit: string | undefined
  #pending: HeldMessage[] = []
  #pendingChars = 0
  /**
   * The mailbox of the current unit's messages so far, `null` once it has several (they are then held until the unit
   * ends and inserted mailbox by mailbox, as a mailbox's rows must stay one run of rowids).
   */
  #mailbox: string | null | undefined
  /** The current unit's mailbox whose messages were inserted under a provisional owner, by mailbox name. */
  readonly #early = new Map<string, EarlyMailbox>()
  /** Owner inference's counts of the current unit's mailboxes whose owner is not known yet, by mailbox name. */
  readonly #tallies = new Map<string, MailboxTally>()
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

  /**
   * Adds a message read from `path`; `unit` is the top folder it belongs to (see the class comment). `inbox`, when the
   * source names the message's mailbox, is stored as it is (no inference; the `inbox` option still comes first).
   */
  add(source: SourceEmail, path: string, unit: string, inbox?: string): void {
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
    const given = this.#inbox ?? (inbox === undefined ? undefined : normalizeAddress(inbox) || undefined)
    if (given !== undefined) {
      this.#report.inboxes[unit] ??= given
      this.#insert(source, given)
      return
    }
    if (this.#unit !== undefined && this.#unit !== unit) this.#resolveUnit()
    this.#unit = unit
    const mailbox = (source.origin ?? unit).toLowerCase()
    if (this.#mailbox === undefined) this.#mailbox = mailbox
    else if (this.#mailbox !== mailbox) this.#mailbox = null
    if (!this.#owners.has(mailbox)) {
      let tally = this.#tallies.get(mailbox)
      if (tally === undefined) {
        tally = new MailboxTally(mailbox)
        this.#tallies.set(mailbox, tally)
      }
      tally.add({ source, path })
    }
    this.#pending.push({ source, path })
    this.#pendingChars += source.email.body.length
    // The unit's only mailbox so far goes in as read once its owner is known or it was inserted early (held messages
    // would only outlive V8's young generation); otherwise it is held up to a batch.
    const single = this.#mailbox
    if (
      single !== null &&
      (this.#early.has(single) || this.#owners.has(single) || this.#pendingChars > HELD_BODY_CHARS || this.#pending.length >= this.#batchSize)
    ) {
      this.#insertEarly(single)
    }
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
    this.#closed = true
    this.#session?.finish()
    return this.#report
  }

  /**
   * After an error stopped the importer: commits the messages read so far (the last unit's owners inferred from what
   * of it was read), as a finished import would (they stay stored, a re-run counts them as duplicates). A no-op after
   * {@link ImportSink.finish}.
   */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    try {
      this.#resolveUnit()
    } catch {
      // The store itself failed: commit what it holds.
    }
    this.#session?.finish()
  }

  /** The held messages of the current unit, by mailbox name (`X-Origin`, else the unit), in the order read. */
  #pendingByMailbox(): Map<string, HeldMessage[]> {
    const unit = this.#unit ?? ''
    const mailboxes = new Map<string, HeldMessage[]>()
    for (const member of this.#pending) {
      const name = (member.source.origin ?? unit).toLowerCase()
      const list = mailboxes.get(name)
      if (list === undefined) mailboxes.set(name, [member])
      else list.push(member)
    }
    this.#pending = []
    this.#pendingChars = 0
    return mailboxes
  }

  /**
   * Inserts the held messages, all of mailbox `name`, under its owner, or the owner inferred so far (fixed the first
   * time, the rows kept to be moved if the owner at the unit's end is another).
   */
  #insertEarly(name: string): void {
    const members = this.#pending
    this.#pending = []
    this.#pendingChars = 0
    let early = this.#early.get(name)
    if (early === undefined) {
      const owner = this.#owners.get(name)
      early = { inbox: owner ?? this.#tallies.get(name)?.owner() ?? FALLBACK_INBOX, rowids: owner === undefined ? [] : undefined }
      this.#early.set(name, early)
    }
    for (const { source } of members) {
      const rowid = this.#insert(source, early.inbox)
      if (rowid !== undefined) early.rowids?.push(rowid)
    }
  }

  #resolveUnit(): void {
    const pending = this.#pendingByMailbox()
    // The mailbox inserted early goes on first, so that its rows stay one run; the others in the order they came.
    const mailboxes = new Map<string, HeldMessage[]>()
    for (const name of this.#early.keys()) mailboxes.set(name, pending.get(name) ?? [])
    for (const [name, members] of pending) if (!mailboxes.has(name)) mailboxes.set(name, members)
    for (const [name, members] of mailboxes) {
      const early = this.#early.get(name)
      let owner = this.#owners.get(name)
      if (owner === undefined) {
        owner = this.#tallies.get(name)?.owner() ?? FALLBACK_INBOX
        this.#owners.set(name, owner)
        this.#report.inboxes[name] = owner
      }
      if (early?.rowids !== undefined && early.inbox !== owner) this.#session?.reassign(early.rowids, owner)
      for (const { source } of members) this.#insert(source, owner)
    }
    this.#early.clear()
    this.#tallies.clear()
    this.#unit = undefined
    this.#mailbox = undefined
  }

  /** Inserts one message under `inbox`; its rowid, or `undefined` for a duplicate. */
  #insert(source: SourceEmail, inbox: string): number | undefined {
    this.#session ??= this.#store.beginImport()
    const rowid = this.#session.insert({ ...source.email, inbox })
    if (rowid === undefined) this.#report.duplicates++
    else this.#report.imported++
    return rowid
  }
}
