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
  const tally = new MailboxTally(mailboxName)
  for (const member of members) tally.add(member)
  return tally.owner()
}

/**
 * {@link inferMailboxOwner} one message at a time: {@link MailboxTally.owner} is, at any point, the owner of the
 * messages added so far. An importer counts each message as it reads it and keeps none of them for the inference.
 */
export class MailboxTally {
  readonly #surname: string | undefined
  /** One tally per normalized address, found from each raw spelling by one lookup (the same addresses recur). */
  readonly #tallies = new Map<string, AddressTally>()
  readonly #bySpelling = new Map<string, AddressTally | null>()
  /** Whether each folder path seen is a sent folder (a mailbox has few folders). */
  readonly #sentFolders = new Map<string, boolean>()
  /** Whether a sender of a sent folder was counted: rule 1 then decides, and the other counts are no longer kept. */
  #anySent = false
  #messages = 0

  constructor(mailboxName: string | undefined) {
    this.#surname = surnameHint(mailboxName)
  }

  /** Counts one message of the mailbox. */
  add({ source, path }: MailboxMember): void {
    const { email } = source
    const message = this.#messages++
    if (email.from !== '' && this.#inSentFolder(path)) {
      const sender = this.#tally(email.from)
      if (sender !== null) {
        sender.sent++
        this.#anySent = true
      }
    }
    // Rule 1 decides whenever it applies: once it does, the senders and recipients (most of the addresses) of the
    // rest of the mailbox need no counting.
    if (this.#anySent) return
    const sender = email.from === '' ? null : this.#tally(email.from)
    if (sender !== null) sender.sender++
    this.#countRecipients(email.to, message)
    this.#countRecipients(email.cc, message)
    this.#countRecipients(email.bcc, message)
    if (sender?.holdsSurname && sender.lastNamedMessage !== message) {
      sender.named++
      sender.lastNamedMessage = message
    }
  }

  /** The owner of the messages added so far, by the rules of {@link inferMailboxOwner}. */
  owner(): string | undefined {
    const tallies = this.#tallies
    if (this.#anySent) return mostCommon(tallies, 'sent')
    return mostCommon(tallies, 'named') ?? mostCommon(tallies, 'recipient') ?? mostCommon(tallies, 'sender')
  }

  /** Counts each address of `list` as a recipient of `message`, once per message (its tally remembers the last one). */
  #countRecipients(list: ReadonlyArray<string>, message: number): void {
    const bySpelling = this.#bySpelling
    for (let i = 0; i < list.length; i++) {
      const spelling = list[i] as string
      let recipient = bySpelling.get(spelling)
      if (recipient === undefined) recipient = this.#tally(spelling)
      if (recipient === null || recipient.lastMessage === message) continue
      recipient.lastMessage = message
      recipient.recipient++
      if (recipient.holdsSurname) {
        recipient.named++
        recipient.lastNamedMessage = message
      }
    }
  }

  #tally(spelling: string): AddressTally | null {
    let found = this.#bySpelling.get(spelling)
    if (found === undefined) {
      const address = normalizeAddress(spelling)
      found = address === '' ? null : (this.#tallies.get(address) ?? null)
      if (found === null && address !== '') {
        const at = address.indexOf('@')
        const surname = this.#surname
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
        this.#tallies.set(address, found)
      }
      this.#bySpelling.set(spelling, found)
    }
    return found
  }

  #inSentFolder(path: string): boolean {
    const folder = path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1)
    let sentFolder = this.#sentFolders.get(folder)
    if (sentFolder === undefined) {
      sentFolder = folder
        .split(/[\\/]/)
        .slice(0, -1)
        .some((name) => SENT_FOLDER.test(name))
      this.#sentFolders.set(folder, sentFolder)
    }
    return sentFolder
  }
}
