import { closeSync, existsSync, openSync, readSync } from 'node:fs'
import { ConfigError } from '../../core/errors.ts'
import type { EmailStore } from '../store/email-store.ts'
import { type ImportOptions, type ImportReport, ImportSink } from './import-sink.ts'
import { canonicalMessageId, STORED_DATE, toIsoDate } from '../store/normalize.ts'
import type { SourceEmail } from './parse-raw-email.ts'
import { readDate } from './read-date.ts'
import type { ParsedEmailLine } from './parsed-email-line.ts'

export type { ParsedEmailLine }

/** Bytes read at a time (the buffer's size unless a line is longer). */
const CHUNK_BYTES = 1024 * 1024

/**
 * The lines of a UTF-8 file, as `readline` gives them (`\r\n`, `\n` and a lone `\r` end a line; no empty last line),
 * read synchronously into one buffer (a line read in part moved to its start, the buffer doubled for a longer line):
 * a line is decoded once, whole, without a stream's per-chunk events, an async iterator's promise per line or a new
 * buffer per chunk.
 * @internal Exported for its test (`chunkBytes` too).
 */
export function* fileLines(path: string, chunkBytes = CHUNK_BYTES): Generator<string> {
  const fd = openSync(path, 'r')
  try {
    let buffer = Buffer.allocUnsafe(chunkBytes)
    // The first `held` bytes of `buffer` are a line read in part (no LF in them).
    let held = 0
    for (;;) {
      if (held === buffer.length) {
        const larger = Buffer.allocUnsafe(buffer.length * 2)
        buffer.copy(larger, 0, 0, held)
        buffer = larger
      }
      const end = held + readSync(fd, buffer, held, buffer.length - held, null)
      if (end === held) break
      let start = 0
      for (let lf = buffer.indexOf(10, held); lf !== -1 && lf < end; lf = buffer.indexOf(10, start)) {
        const line = buffer.toString('utf8', start, lf)
        start = lf + 1
        if (line.includes('\r')) yield* crLines(line)
        else yield line
      }
      held = buffer.copy(buffer, 0, start, end)
    }
    if (held > 0) {
      const line = buffer.toString('utf8', 0, held)
      if (line.includes('\r')) yield* crLines(line)
      else yield line
    }
  } finally {
    closeSync(fd)
  }
}

/** The lines of a line that holds a CR: a CR before its end (a CRLF's) is dropped, any other ends a line. */
function crLines(line: string): string[] {
  return (line.endsWith('\r') ? line.slice(0, -1) : line).split('\r')
}

/** `a/b/c.` -> `a`; a path without a `/` is its own first segment. */
function firstSegment(path: string): string {
  const slash = path.indexOf('/')
  return slash === -1 ? path : path.slice(0, slash)
}

/** Schema module of a line, loaded for a line that {@link readLine} does not read (zod costs 60 ms to load). */
const loadLineSchema = () => import('./parsed-email-line.ts')

const isText = (value: unknown): value is string | null | undefined => value == null || typeof value === 'string'

function addressList(value: unknown): string[] | undefined {
  if (value == null) return []
  if (typeof value === 'string') return value.split(/[,;]/)
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined
}

/**
 * A line in the usual shape read without zod, as {@link ParsedEmailLineSchema} would read it; `undefined` for anything
 * else (which the schema then reads, or reports).
 * @internal Exported for its test.
 */
export function readLine(json: unknown): ParsedEmailLine | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const line = json as Record<string, unknown>
  const { message_id, subject, from, date, body, file_name, inbox } = line
  if (typeof message_id !== 'string' || message_id.length === 0) return undefined
  if (!isText(subject) || !isText(from) || !isText(body) || !isText(file_name) || !isText(inbox)) return undefined
  if (date != null && typeof date !== 'string' && typeof date !== 'number') return undefined
  const to = addressList(line.to)
  const cc = addressList(line.cc)
  const bcc = addressList(line.bcc)
  if (to === undefined || cc === undefined || bcc === undefined) return undefined
  return { message_id, subject, from, to, cc, bcc, date, body, file_name, inbox }
}

function lineDate(value: string | number | null | undefined): ReturnType<typeof readDate> {
  // Already stored form (as exports write dates): read as it is.
  if (typeof value === 'string' && STORED_DATE.test(value)) return readDate(value)
  if (typeof value === 'number') {
    const iso = toIsoDate(new Date(value))
    return iso === undefined ? { date: null, dateNote: `unparseable date ${value}` } : readDate(iso)
  }
  // A timestamp without a zone (`2001-05-14 16:39:00`, as pandas writes it) is read as UTC.
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value.trim())) {
    return readDate(`${value.trim().replace(' ', 'T')}Z`)
  }
  return readDate(value ?? undefined)
}

/**
 * Imports parsed emails from a JSONL file (one JSON object per line: `message_id, subject, from, to, cc, bcc,
 * date, body, file_name`, optionally `inbox`), UTF-8, a byte order mark allowed. A line that is not JSON or lacks a
 * `message_id` is counted as failed with its line number.
 * A line's `inbox` is the mailbox it is stored under, without owner inference (as an `--inbox` option for that line);
 * lines without one get their owner inferred, the unit for inference being the first segment of `file_name`.
 */
export async function importJsonl(store: EmailStore, jsonlPath: string, options: ImportOptions = {}): Promise<ImportReport> {
  if (!existsSync(jsonlPath)) {
    throw new ConfigError(`JSONL file ${jsonlPath} does not exist.`, { hint: 'Pass the path of a parsed-email .jsonl file.' })
  }
  const sink = new ImportSink(store, options)
  let number = 0
  try {
    for (const read of fileLines(jsonlPath)) {
      number++
      // A UTF-8 byte order mark (as Windows editors write it) is not part of the first line.
      const line = number === 1 ? read.replace(/^\uFEFF/, '') : read
      if (line.trim() === '') continue
      if (sink.full) break
      const where = (): string => `${jsonlPath}:${number}`
      let json: unknown
      try {
        json = JSON.parse(line)
      } catch (error) {
        sink.fail(where(), `not JSON: ${(error as Error).message}`)
        continue
      }
      let row = readLine(json)
      if (row === undefined) {
        const parsed = (await loadLineSchema()).ParsedEmailLineSchema.safeParse(json)
        if (!parsed.success) {
          const issue = parsed.error.issues[0]
          sink.fail(where(), `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`)
          continue
        }
        row = parsed.data
      }
      const messageId = canonicalMessageId(row.message_id)
      if (messageId === '') {
        sink.fail(where(), 'empty message_id')
        continue
      }
      const { date, dateNote } = lineDate(row.date)
      const fileName = row.file_name ?? null
      const source: SourceEmail = {
        email: {
          messageId,
          subject: row.subject ?? '',
          from: row.from ?? '',
          to: row.to,
          cc: row.cc,
          bcc: row.bcc,
          date,
          body: row.body ?? '',
          fileName,
        },
        origin: undefined,
        dateNote,
      }
      sink.add(source, fileName ?? where(), fileName === null ? jsonlPath : firstSegment(fileName), row.inbox ?? undefined)
    }
  } catch (error) {
    sink.close()
    throw error
  }
  return sink.finish()
}
