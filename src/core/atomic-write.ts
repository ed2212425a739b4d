import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { redact } from './redact.ts'

/**
 * Writes a file atomically (temp file in the same folder, then rename), creating folders as needed.
 * Text is redacted first (`redact`): no secret reaches a file we write.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true })
  const temp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`
  writeFileSync(temp, typeof data === 'string' ? redact(data) : data)
  renameSync(temp, file)
}

/** Writes `value` as pretty-printed JSON (2 spaces, trailing newline), atomically. */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`)
}
