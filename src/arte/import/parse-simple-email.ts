import { addressParser, decodeWords } from 'postal-mime'
import type { Address } from 'postal-mime'
import { isAscii } from 'node:buffer'
import { TextDecoder } from 'node:util'
import { canonicalMessageId } from '../store/normalize.ts'
import { decodeOddCharsetWords, type ReadOutcome, readDate } from './parse-raw-email.ts'

/**
 * A fast path for the mail most of Enron is: one `text/plain` part, 7bit/8bit or quoted-printable, in an
 * ASCII-compatible charset. It gives exactly what {@link parseRawEmail} (postal-mime, then `readParsedEmail`) gives
 * for such a message, about ten times faster, and `undefined` for anything else (multipart, base64, HTML,
 * attachments, format=flowed, other charsets, repeated MIME headers, ...), which then goes to postal-mime.
 *
 * Equality rests on doing what postal-mime 2.7 does on this subset: lines end at LF with trailing CRs dropped; the
 * header ends at the first empty line; folded lines are joined, runs of whitespace become one space, keys are
 * lowercased; `subject`, `message-id`, `from` come from the last header of that name, `date` and `x-origin` from
 * the first, `to`/`cc`/`bcc` from all of them, last first; the body is every line plus `\n`, decoded with the
 * charset's `TextDecoder` (`windows-1252` for an unknown label). Address lists other than plain
 * `user@host, user@host` and subjects with encoded words go through postal-mime's own `addressParser` and
 * `decodeWords`. The proof is `parse-simple-email.test.ts`: every real Enron message, and fixtures for each branch.
 */
export function parseSimpleEmail(raw: Uint8Array | string, fileName: string): ReadOutcome | undefined {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw
  const head = readHeader(bytes)
  if (head === undefined) return undefined
  const { lines, bodyStart } = head

  let contentType: string | undefined
  let transferEncoding: string | undefined
  let messageId = ''
  let subject = ''
  let fromValue = ''
  let date: string | undefined
  let origin: string | undefined
  const recipients: { to: string[]; cc: string[]; bcc: string[] } = { to: [], cc: [], bcc: [] }
  const lists: Array<[keyof typeof recipients, string]> = []
  let seenMessageId = false
  let seenSubject = false
  let seenFrom = false
  // Last header first, as postal-mime's `headers.find` sees them.
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string
    const sep = line.indexOf(':')
    let key = (sep < 0 ? line : line.slice(0, sep)).toLowerCase()
    if (!INTERESTING.has(key)) {
      if (!HAS_WHITESPACE.test(key)) continue
      key = key.replace(WHITESPACE, ' ').trim()
      if (!INTERESTING.has(key)) continue
    }
    const value = sep < 0 ? '' : collapseWhitespace(line.slice(sep + 1))
    switch (key) {
      case 'content-type':
        if (contentType !== undefined) return undefined
        contentType = value
        break
      case 'content-transfer-encoding':
        if (transferEncoding !== undefined) return undefined
        transferEncoding = value
        break
      case 'content-disposition':
        return undefined
      case 'message-id':
        if (!seenMessageId) messageId = value === '' ? '' : decodeHeaderWords(value)
        seenMessageId = true
        break
      case 'subject':
        if (!seenSubject) subject = value === '' ? '' : decodeOddCharsetWords(decodeHeaderWords(value))
        seenSubject = true
        break
      case 'from':
        if (!seenFrom) fromValue = value
        seenFrom = true
        break
      case 'date':
        date = value
        break
      case 'x-origin':
        origin = value
        break
      default:
        if (value !== '') lists.push([key as keyof typeof recipients, value])
    }
  }

  let charset: string | undefined
  if (contentType !== undefined) {
    const match = TEXT_PLAIN.exec(contentType)
    if (match === null) return undefined
    charset = match[2]
  }
  const label = (charset ?? 'utf8').trim().toLowerCase()
  const decoder = DECODERS.get(label)
  if (decoder === undefined) return undefined
  const encoding = (transferEncoding ?? '8bit').toLowerCase().split(/[^\w-]/)[0] ?? ''
  if (/base64/.test(encoding)) return undefined
  const quotedPrintable = /quoted-printable/.test(encoding)

  let body = ''
  if (bodyStart < bytes.length) {
    const content = bodyBytes(bytes, bodyStart)
    if (quotedPrintable && (content.indexOf(0x3d) >= 0 || !isAscii(content))) {
      const decoded = decodeQuotedPrintable(content)
      if (decoded === undefined) return undefined
      body = decodeText(decoder, decoded)
    } else {
      body = decodeText(decoder, content)
    }
  }

  const canonicalId = canonicalMessageId(messageId)
  if (canonicalId === '') return { kind: 'failed', reason: 'no Message-ID header' }
  for (const [key, value] of lists) appendAddresses(recipients[key], value)
  const { date: storedDate, dateNote } = readDate(date)
  return {
    kind: 'read',
    value: {
      email: {
        messageId: canonicalId,
        subject,
        from: fromValue === '' ? '' : firstAddress(fromValue),
        to: recipients.to,
        cc: recipients.cc,
        bcc: recipients.bcc,
        date: storedDate,
        body,
        fileName,
      },
      origin: origin?.trim() || undefined,
      dateNote,
    },
  }
}

/** postal-mime's whitespace (JavaScript `\s`), collapsed to one space in header lines. */
const WHITESPACE = /\s+/g
const HAS_WHITESPACE = /\s/
/** Whitespace that collapsing would change: a run, or one character other than a space. */
const UNCOLLAPSED = /\s\s|[^\S ]/

/** `value` with runs of whitespace as one space, trimmed, as postal-mime has header values. */
function collapseWhitespace(value: string): string {
  return (UNCOLLAPSED.test(value) ? value.replace(WHITESPACE, ' ') : value).trim()
}
const LEADING_WHITESPACE = /^\s/

/** The header keys the fast path reads or must see to be sure the message is in its subset. */
const INTERESTING: ReadonlySet<string> = new Set([
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'message-id',
  'subject',
  'from',
  'to',
  'cc',
  'bcc',
  'date',
  'x-origin',
])

/** `text/plain`, optionally with a plain charset and nothing else (no comments, no other parameters). */
const TEXT_PLAIN = /^text\/plain\s*(?:;\s*charset\s*=\s*("?)([A-Za-z0-9_.:-]+)\1\s*)?;?\s*$/i

/**
 * Decoders of the charset labels the fast path takes, as postal-mime's `getDecoder` makes them (WHATWG maps
 * `us-ascii` and `iso-8859-1` to windows-1252): each maps ASCII bytes to the same characters, which the
 * quoted-printable path relies on.
 */
const DECODERS: ReadonlyMap<string, TextDecoder> = (() => {
  const map = new Map<string, TextDecoder>()
  const utf8 = new TextDecoder('utf8')
  const windows1252 = new TextDecoder('windows-1252')
  for (const label of ['utf8', 'utf-8']) map.set(label, utf8)
  for (const label of ['us-ascii', 'ascii', 'iso-8859-1', 'iso8859-1', 'latin1', 'windows-1252', 'cp1252', 'ansi_x3.4-1968']) map.set(label, windows1252)
  return map
})()

const headerLineDecoder = new TextDecoder('utf8')

/** `decoder.decode(bytes)`; ASCII (the same characters in every charset taken) skips the decoder. */
function decodeText(decoder: TextDecoder, bytes: Uint8Array): string {
  return isAscii(bytes) ? latin1(bytes, 0, bytes.length) : decoder.decode(bytes)
}

/** Headers over this size go to postal-mime (which fails a message past 2 MB of header lines). */
const MAX_HEADER_BYTES = 1_000_000

/**
 * The unfolded header lines and where the body starts (past the empty line; the length when there is none),
 * or `undefined` for an empty message or a huge header.
 */
function readHeader(bytes: Uint8Array): { lines: string[]; bodyStart: number } | undefined {
  if (bytes.length === 0) return undefined
  // Find the first empty line (trailing CRs dropped), then decode the header in one piece when it is ASCII.
  let start = 0
  let headerEnd = bytes.length
  let bodyStart = bytes.length
  let carriageReturns = false
  while (start < bytes.length) {
    let lineEnd = bytes.indexOf(10, start)
    if (lineEnd < 0) lineEnd = bytes.length
    let end = lineEnd
    while (end > start && bytes[end - 1] === 13) end--
    if (end !== lineEnd) carriageReturns = true
    if (end === start) {
      headerEnd = start
      bodyStart = Math.min(lineEnd + 1, bytes.length)
      break
    }
    start = lineEnd + 1
  }
  if (headerEnd > MAX_HEADER_BYTES) return undefined
  const region = bytes.subarray(0, headerEnd)
  let raw: string[]
  if (isAscii(region)) {
    raw = latin1(bytes, 0, headerEnd).split(carriageReturns ? LINE_END_CR : '\n')
    if (raw[raw.length - 1] === '') raw.pop()
    else if (carriageReturns) raw[raw.length - 1] = (raw[raw.length - 1] as string).replace(TRAILING_CR, '')
  } else {
    // postal-mime decodes each header line as UTF-8 (a BOM starting a line is dropped).
    raw = []
    let lineStart = 0
    while (lineStart < headerEnd) {
      let lineEnd = region.indexOf(10, lineStart)
      if (lineEnd < 0) lineEnd = headerEnd
      let end = lineEnd
      while (end > lineStart && region[end - 1] === 13) end--
      raw.push(headerLineDecoder.decode(region.subarray(lineStart, end)))
      lineStart = lineEnd + 1
    }
  }
  const lines: string[] = []
  for (const line of raw) {
    if (lines.length > 0 && LEADING_WHITESPACE.test(line)) lines[lines.length - 1] += `\n${line}`
    else lines.push(line)
  }
  return { lines, bodyStart }
}

const TRAILING_CR = /\r+$/
const LINE_END_CR = /\r*\n/

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1')
}

/** The body as postal-mime keeps it: every line (trailing CRs dropped) followed by `\n`. */
function bodyBytes(bytes: Uint8Array, start: number): Uint8Array {
  const body = bytes.subarray(start)
  if (body.indexOf(13) < 0) {
    if (body[body.length - 1] === 10) return body
    const out = new Uint8Array(body.length + 1)
    out.set(body)
    out[body.length] = 10
    return out
  }
  const out = new Uint8Array(body.length + 1)
  let length = 0
  let lineStart = 0
  while (lineStart < body.length) {
    let lineEnd = body.indexOf(10, lineStart)
    const next = lineEnd < 0 ? body.length : lineEnd + 1
    if (lineEnd < 0) lineEnd = body.length
    let end = lineEnd
    while (end > lineStart && body[end - 1] === 13) end--
    out.set(body.subarray(lineStart, end), length)
    length += end - lineStart
    out[length++] = 10
    lineStart = next
  }
  return out.subarray(0, length)
}

/** Bodies over this size go to postal-mime, whose quoted-printable decoder works in 100 KB chunks. */
const MAX_QUOTED_PRINTABLE_BYTES = 90_000

/**
 * Quoted-printable as postal-mime decodes an ASCII body: first every soft break (`=` before a line end) removed,
 * then `=XX` to a byte, everything else kept. `undefined` (use postal-mime) for non-ASCII bytes, a large body, or a
 * body starting with an `=` that starts no `=XX` (postal-mime drops it). String and regular-expression work rather
 * than a byte loop: most of an import runs before the JIT has optimized anything.
 */
function decodeQuotedPrintable(content: Uint8Array): Uint8Array | undefined {
  if (content.length > MAX_QUOTED_PRINTABLE_BYTES || !isAscii(content)) return undefined
  const joined = latin1(content, 0, content.length).replace(SOFT_BREAK, '')
  if (joined.startsWith('=') && !STARTS_WITH_ESCAPE.test(joined)) return undefined
  return Buffer.from(
    joined.replace(ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  )
}

const SOFT_BREAK = /=\r?\n/g
const ESCAPE = /=([0-9A-Fa-f]{2})/g
const STARTS_WITH_ESCAPE = /^=[0-9A-Fa-f]{2}/

/** postal-mime's `decodeWords`, which leaves a value without encoded words (`=?`) as it is. */
function decodeHeaderWords(value: string): string {
  return value.includes('=?') ? decodeWords(value) : value
}

/** A bare address (`user@host`): postal-mime's parser gives it back as it is, with an empty name. */
const BARE_ADDRESS = /^[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+$/

/** Appends the addresses of one header value as `readParsedEmail` flattens postal-mime's list (groups opened). */
function appendAddresses(out: string[], value: string): void {
  const pieces = value.split(/[,;]/)
  let simple = true
  for (let i = 0; i < pieces.length; i++) {
    const piece = (pieces[i] as string).trim()
    pieces[i] = piece
    if (piece !== '' && !BARE_ADDRESS.test(piece)) {
      simple = false
      break
    }
  }
  if (simple) {
    for (const piece of pieces) if (piece !== '') out.push(piece)
    return
  }
  for (const entry of addressParser(value) as Address[]) {
    if (entry.group !== undefined) {
      for (const member of entry.group) if (member.address) out.push(member.address)
    } else if (entry.address) {
      out.push(entry.address)
    }
  }
}

/** The sender as `readParsedEmail` reads it: the first address of the `from` value, else its name. */
function firstAddress(value: string): string {
  const comma = value.search(/[,;]/)
  const first = (comma < 0 ? value : value.slice(0, comma)).trim()
  if (BARE_ADDRESS.test(first)) return first
  const entry = (addressParser(value) as Address[])[0]
  return entry?.address ?? entry?.name ?? ''
}
