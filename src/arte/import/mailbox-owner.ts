import { normalizeAddress } from '../store/normalize.ts'
import type { SourceEmail } from './parse-raw-email.ts'

/** One email of a mailbox and the folder path it was found under (`allen-p/_sent_mail/1.`). */
export interface MailboxMember {
  /** The message (inference reads its addresses only). */
  source: { email: Pick<SourceEmail['email'], 'from' | 'to' | 'cc' | 'bcc'> }
  path: string
}

const SENT_FOLDER = /sent/i

function mostCommon(counts: Map<string, number>): string | undefined {
  let best: string | undefined
  let bestCount = 0
  for (const [address, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== undefined && address < best)) {
      best = address
      bestCount = count
    }
  }
  return best
}

/** `key` is a normalized address (see {@link normalizeAddress}). */
function bump(counts: Map<string, number>, key: string): void {
  if (key !== '') counts.set(key, (counts.get(key) ?? 0) + 1)
}

/** `KEAN-S` or `kean-s` -> `kean`; `williams-w3` -> `williams`; too short or absent -> undefined. */
export function surnameHint(mailbox: string | undefined): string | undefined {
  const match = mailbox?.toLowerCase().match(/^([a-z]+)(?:-[a-z0-9]+)?$/)
  const surname = match?.[1]
  return surname !== undefined && surname.length >= 3 ? surname : undefined
}

/**
 * The owner address of one mailbox (all members share an `X-Origin`, or a `maildir/<user>` folder), by the first rule that gives one:
 * 1. the most common sender of the mail in a folder whose name contains `sent` (`sent`, `sent_items`, `_sent_mail`);
 * 2. the most common address (sender or recipient, once per message) whose local part holds the mailbox's surname
 *    (`kean-s` -> an address with `kean` before the `@`);
 * 3. the most common recipient (to/cc/bcc, once per message);
 * 4. the most common sender.
 * Ties go to the alphabetically first address. `undefined` only when no member has any address.
 */
export function inferMailboxOwner(members: ReadonlyArray<MailboxMember>, mailboxName: string | undefined): string | undefined {
  const sent = new Map<string, number>()
  const named = new Map<string, number>()
  const recipients = new Map<string, number>()
  const senders = new Map<string, number>()
  const surname = surnameHint(mailboxName)
  // The same few hundred addresses recur across a mailbox: normalize each once (normalizing is idempotent).
  const normalized = new Map<string, string>()
  const normalize = (address: string): string => {
    let key = normalized.get(address)
    if (key === undefined) {
      key = normalizeAddress(address)
      normalized.set(address, key)
    }
    return key
  }
  // Members share a few folders: whether a folder path is a sent folder is decided once per folder path.
  const sentFolders = new Map<string, boolean>()
  const inSentFolder = (path: string): boolean => {
    const folder = path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1)
    let sentFolder = sentFolders.get(folder)
    if (sentFolder === undefined) {
      sentFolder = folder
        .split(/[\\/]/)
        .slice(0, -1)
        .some((name) => SENT_FOLDER.test(name))
      sentFolders.set(folder, sentFolder)
    }
    return sentFolder
  }
  // Whether an address's local part holds the surname, decided once per address.
  const namedAddresses = new Map<string, boolean>()
  const holdsSurname = (address: string): boolean => {
    let holds = namedAddresses.get(address)
    if (holds === undefined) {
      const at = address.indexOf('@')
      holds = surname !== undefined && (at === -1 ? address : address.slice(0, at)).includes(surname)
      namedAddresses.set(address, holds)
    }
    return holds
  }
  // Rule 1 first, from the senders of sent folders alone: a mailbox that has them (most do) needs no pass over its
  // recipients, which are most of the addresses.
  for (const { source, path } of members) {
    if (source.email.from !== '' && inSentFolder(path)) bump(sent, normalize(source.email.from))
  }
  const fromSent = mostCommon(sent)
  if (fromSent !== undefined) return fromSent
  const people = new Set<string>()
  for (const { source } of members) {
    const { email } = source
    const from = normalize(email.from)
    if (email.from !== '') bump(senders, from)
    people.clear()
    for (const list of [email.to, email.cc, email.bcc]) for (const address of list) people.add(normalize(address))
    for (const address of people) bump(recipients, address)
    if (surname !== undefined) {
      for (const address of people) if (holdsSurname(address)) bump(named, address)
      if (!people.has(from) && holdsSurname(from)) bump(named, from)
    }
  }
  return mostCommon(named) ?? mostCommon(recipients) ?? mostCommon(senders)
}
