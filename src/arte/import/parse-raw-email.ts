import PostalMime, { decodeWords } from 'postal-mime'
import type { Address, Email } from 'postal-mime'
import { TextDecoder } from 'node:util'
import type { EmailInput } from '../store/email-store.ts'
import { canonicalMessageId } from '../store/normalize.ts'
import { readDate } from './read-date.ts'

/** An email read from a source, before its inbox is known. */
export interface SourceEmail {
  email: Omit<EmailInput, 'inbox'>
  /** The `X-Origin` header of CMU Enron mail (`KEAN-S`): which mailbox the copy came from. */
  origin: string | undefined
  /** Why the date is odd (missing, unparseable, implausible), when it is. */
  dateNote: string | undefined
  /** When the message declares a charset no decoder knows: its text was decoded as Latin-1 (windows-1252). */
  charsetNote?: string | undefined
}

/** The outcome of reading one message. */
export type ReadOutcome = { kind: 'read'; value: SourceEmail } | { kind: 'failed'; reason: string }

/** Re-exported for the importers that parse MIME (the JSONL importer reads it from `read-date.ts`, without postal-mime). */
export { readDate }

/** An RFC 2047 encoded word whose charset name has a character postal-mime's `decodeWords` does not take (`ANSI_X3.4-1968`). */
const ODD_CHARSET_WORD = /=\?([^?\s]*[^\w\-*?\s][^?\s]*)\?([QqBb])\?([^?]*)\?=/g

/** The name `TextDecoder` gives `charset` (`ANSI_X3.4-1968` -> `windows-1252`), or `undefined` when it knows none. */
function decoderName(charset: string): string | undefined {
  try {
    return new TextDecoder(charset.split('*')[0]).encoding
  } catch {
    return undefined
  }
}

/**
 * `text` (a header value postal-mime has decoded) with the encoded words it left because of their charset's name
 * decoded too: Enron has subjects such as `=?ANSI_X3.4-1968?Q?Mind=01,s_Eye_Madness?=`. Words in a charset
 * `TextDecoder` does not know stay as they are.
 */
export function decodeOddCharsetWords(text: string): string {
  if (!text.includes('=?')) return text
  let renamed = false
  const rewritten = text.replace(ODD_CHARSET_WORD, (word, charset: string, encoding: string, content: string) => {
    const name = decoderName(charset)
    if (name === undefined) return word
    renamed = true
    return `=?${name}?${encoding}?${content}?=`
  })
  return renamed ? decodeWords(rewritten) : text
}

function addresses(list: Address[] | undefined): string[] {
  const out: string[] = []
  for (const entry of list ?? []) {
    if (entry.group !== undefined) {
      for (const member of entry.group) if (member.address) out.push(member.address)
    } else if (entry.address) {
      out.push(entry.address)
    }
  }
  return out
}

function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
}

/** The parts of postal-mime's result that an import reads. */
export type ParsedMime = Pick<Email, 'messageId' | 'subject' | 'from' | 'to' | 'cc' | 'bcc' | 'text' | 'html' | 'headers'>

/**
 * Parses one raw RFC 2822 message (CRLF or LF, folded headers, any bytes) with postal-mime.
 * Fails (with the reason) only when the message has no Message-ID.
 */
export async function parseRawEmail(raw: string | Uint8Array, fileName: string): Promise<ReadOutcome> {
  let parsed: ParsedMime
  try {
    parsed = await PostalMime.parse(raw)
  } catch (error) {
    return unparseable(error)
  }
  const outcome = readParsedEmail(parsed, fileName)
  const unknown = outcome.kind === 'read' ? unknownCharsets(raw) : []
  if (outcome.kind === 'read' && unknown.length > 0) {
    // postal-mime decodes text in a charset it cannot name as windows-1252 (Latin-1 and more): kept, and said so.
    outcome.value.charsetNote = `unknown charset ${unknown.map((name) => JSON.stringify(name)).join(', ')}: its text was decoded as Latin-1 (windows-1252)`
  }
  return outcome
}

/** A `Content-Type` header line of a message or of one of its parts, with its folded continuation lines. */
const CONTENT_TYPE_LINE = /^content-type:[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*/gim

/** The `charset` parameter of a `Content-Type` value (`text/plain; charset="x"`). */
const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([A-Za-z0-9_.:+-]+)/i

/** Whether a `TextDecoder` knows each charset label seen so far (postal-mime's aliases applied). */
const knownCharsets = new Map<string, boolean>()

function isKnownCharset(label: string): boolean {
  const name = label.trim().toLowerCase()
  let known = knownCharsets.get(name)
  if (known === undefined) {
    try {
      new TextDecoder(name === 'iso-8859-8-i' || name === 'iso-8859-8-e' ? 'iso-8859-8' : name)
      known = true
    } catch {
      known = false
    }
    knownCharsets.set(name, known)
  }
  return known
}

/**
 * The charsets the `Content-Type` headers of `raw` (its own and its parts') declare that no decoder knows: postal-mime
 * decodes their text as windows-1252.
 */
export function unknownCharsets(raw: string | Uint8Array): string[] {
  const text = typeof raw === 'string' ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1')
  const unknown = new Set<string>()
  for (const [line] of text.matchAll(CONTENT_TYPE_LINE)) {
    const label = CHARSET_PARAMETER.exec(line)?.[1]
    if (label !== undefined && !isKnownCharset(label)) unknown.add(label)
  }
  return [...unknown]
}

/** The outcome for a message postal-mime could not parse. */
export function unparseable(error: unknown): ReadOutcome {
  return { kind: 'failed', reason: `unparseable message: ${error instanceof Error ? error.message : String(error)}` }
}

/** The email in a postal-mime result (see {@link parseRawEmail}). */
export function readParsedEmail(parsed: ParsedMime, fileName: string): ReadOutcome {
  const messageId = canonicalMessageId(parsed.messageId ?? '')
  if (messageId === '') return { kind: 'failed', reason: 'no Message-ID header' }
  const rawDate = parsed.headers.find((header) => header.key === 'date')?.value
  const { date, dateNote } = readDate(rawDate)
  const body = parsed.text ?? (parsed.html === undefined ? '' : htmlToText(parsed.html))
  return {
    kind: 'read',
    value: {
      email: {
        messageId,
        subject: decodeOddCharsetWords(parsed.subject ?? ''),
        from: parsed.from?.address ?? parsed.from?.name ?? '',
        to: addresses(parsed.to),
        cc: addresses(parsed.cc),
        bcc: addresses(parsed.bcc),
        date,
        body,
        fileName,
      },
      origin: parsed.headers.find((header) => header.key === 'x-origin')?.value.trim() || undefined,
      dateNote,
    },
  }
}
