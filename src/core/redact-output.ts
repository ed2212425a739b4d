import { createRedactor } from './redact.ts'

/** The `write` functions that already redact, so a stream is never wrapped twice. */
const redacting = new WeakSet<object>()

/** A stream we print to: `process.stdout`, `process.stderr`, Vitest's logger streams. */
export interface WritableOutput {
  write(chunk: unknown, ...rest: unknown[]): boolean
}

/**
 * Makes every later write to `stream` go through the one redactor (`redact.ts`): text and UTF-8 bytes are written
 * with every secret removed, so a `console.log` anywhere (a command, a reporter, a library we call) cannot print a
 * key. Does nothing for a stream that already redacts (or is not a stream).
 */
export function redactWrites(stream: WritableOutput | undefined): void {
  if (typeof stream?.write !== 'function') return
  const original = stream.write
  if (redacting.has(original)) return
  const redactor = createRedactor()
  const write = function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
    let clean = chunk
    if (typeof chunk === 'string') clean = redactor.redact(chunk)
    else if (chunk instanceof Uint8Array) {
      const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8')
      const redacted = redactor.redact(text)
      // Bytes that are not text (or hold no secret) are written as they came.
      if (redacted !== text) clean = Buffer.from(redacted, 'utf8')
    }
    return original.call(this ?? stream, clean, ...rest)
  }
  redacting.add(write)
  stream.write = write
}

/** {@link redactWrites} for the process's stdout (unless `stdout` is false: it carries a protocol) and stderr. */
export function redactProcessOutput(options: { stdout?: boolean } = {}): void {
  if (options.stdout !== false) redactWrites(process.stdout as unknown as WritableOutput)
  redactWrites(process.stderr as unknown as WritableOutput)
}

/**
 * {@link redactWrites} for the streams Vitest prints to (its logger's: every reporter's lines, test errors, console
 * output of tests), called by each benchmark's globalSetup.
 */
export function redactLoggerOutput(logger: { outputStream?: unknown; errorStream?: unknown } | undefined): void {
  redactWrites(logger?.outputStream as WritableOutput | undefined)
  redactWrites(logger?.errorStream as WritableOutput | undefined)
}
