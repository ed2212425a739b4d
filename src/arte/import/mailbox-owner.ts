import { normalizeAddress } from '../store/normalize.ts'
import type { SourceEmail } from './parse-raw-email.ts'

/** One email of a mailbox and the folder path it was found under (`allen-p/_sent_mail/1.`). */
export interface MailboxMember {
  /** The message (inference reads its addresses only). */
  source: { email: Pick<SourceEmail['email'], 'from' | 'to' | 'cc' | 'bcc'> }
  path: string
}

const SENT_FOLDER = /sent/i

/** What {@link inferMailboxOwner} counts of one normalized address. */
interface AddressTally {
  address: string
  /** Messages of sent folders it sent. */
  sent: number
  /** Messages it sent or received, if its local part holds the mailbox's surname. */
  named: number
  /** Messages it received (to, cc or bcc). */
  recipient: number
  /** Messages it sent. */
  sender: number
  holdsSurname: boolean
  /** The last message (index) that counted it as a recipient, and as named. */
  lastMessage: number
  lastNamedMessage: number
}

/** The address with the highest count, ties to the alphabetically first; `undefined` when every count is 0. */
function mostCommon(tallies: Map<string, AddressTally>, count: 'sent' | 'named' | 'recipient' | 'sender'): string | undefined {
  let best: string | undefined
  let bestCount = 0
  for (const tally of tallies.values()) {
    const n = tally[count]
    if (n > bestCount || (n === bestCount && n > 0 && best !== undefined && tally.address < best)) {
      best = tally.address
      bestCount = n
    }
  }
  return best
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
  const surname = surnameHint(mailboxName)
  // One tally per normalized address, found from each raw spelling by one map lookup: the same few hundred addresses
  // recur across a mailbox, and a lookup per address and message is most of the work.
  const tallies = new Map<string, AddressTally>()
  const bySpelling = new Map<string, AddressTally | null>()
  const tally = (spelling: string): AddressTally | null => {
    let found = bySpelling.get(spelling)
    if (found === undefined) {
      const address = normalizeAddress(spelling)
      found = address === '' ? null : (tallies.get(address) ?? null)
      if (found === null && address !== '') {
        const at = address.indexOf('@')
        found = {
          address,
          sent: 0,
          named: 0,
          recipient: 0,
          sender: 0,
          holdsSurname: surname !== undefined && (at === -1 ? address : address.slice(0, at)).includes(surname),
          lastMessage: -1,
          lastNamedMessage: -1,
        }
        tallies.set(address, found)
      }
      bySpelling.set(spelling, found)
    }
    return found
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
  // Rule 1 first, from the senders of sent folders alone: a mailbox that has them (most do) needs no pass over its
  // recipients, which are most of the addresses.
  let anySent = false
  for (const { source, path } of members) {
    if (source.email.from === '' || !inSentFolder(path)) continue
    const sender = tally(source.email.from)
    if (sender !== null) {
      sender.sent++
      anySent = true
    }
  }
  if (anySent) return mostCommon(tallies, 'sent')
  for (let message = 0; message < members.length; message++) {
    const { email } = (members[message] as MailboxMember).source
    const sender = email.from === '' ? null : tally(email.from)
    if (sender !== null) sender.sender++
    // Each address once per message: its tally remembers the last message that counted it.
    for (const list of [email.to, email.cc, email.bcc]) {
      for (const spelling of list) {
        const recipient = tally(spelling)
        if (recipient === null || recipient.lastMessage === message) continue
        recipient.lastMessage = message
        recipient.recipient++
        if (recipient.holdsSurname) {
          recipient.named++
          recipient.lastNamedMessage = message
        }
      }
    }
    if (sender?.holdsSurname && sender.lastNamedMessage !== message) {
      sender.named++
      sender.lastNamedMessage = message
    }
  }
  return mostCommon(tallies, 'named') ?? mostCommon(tallies, 'recipient') ?? mostCommon(tallies, 'sender')
}
