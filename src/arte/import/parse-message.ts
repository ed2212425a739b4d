import { readFileSync } from 'node:fs'
import { parseRawEmail, type ReadOutcome } from './parse-raw-email.ts'
import { parseSimpleEmail } from './parse-simple-email.ts'

/** One message to parse: its bytes (or text) and the name it is reported under. */
export interface RawMessage {
  raw: Uint8Array | string
  fileName: string
}

/** One message still in its file (read where it is parsed, on a worker or the importing thread). */
export interface FileMessage {
  path: string
  fileName: string
}

/** A message read by an importer: its raw text, its file, or why it could not be read. */
export type PendingMessage = RawMessage | FileMessage | { fileName: string; unreadable: string }

/** A message a parser can take: raw, or a file to read. */
export type ParsableMessage = RawMessage | FileMessage

/** Reads `message` if it is a file, then parses it: {@link parseSimpleEmail} when it can, else postal-mime. */
export async function parseMessage(message: ParsableMessage): Promise<ReadOutcome> {
  let raw: Uint8Array | string
  if ('path' in message) {
    try {
      raw = readFileSync(message.path)
    } catch (error) {
      return { kind: 'failed', reason: `unreadable file: ${(error as Error).message}` }
    }
  } else {
    raw = message.raw
  }
  return parseSimpleEmail(raw, message.fileName) ?? parseRawEmail(raw, message.fileName)
}
