import type { Readable, Writable } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { type JSONRPCMessage, JSONRPCMessageSchema, type RequestId } from '@modelcontextprotocol/sdk/types.js'

/** The largest JSON-RPC message (one line, in bytes) `agent-bench mcp` reads: 4 MiB, as over Streamable HTTP. */
export const DEFAULT_MCP_MAX_MESSAGE_BYTES = 4 * 1024 * 1024

/** JSON-RPC error codes the transport answers with itself. */
const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600

/** How many leading bytes of a too-large line are kept to find its `id`. */
const HEAD_BYTES = 512

/** Options of {@link LimitedStdioTransport}. */
export interface LimitedStdioTransportOptions {
  /** A longer line is answered with a JSON-RPC error and skipped. @default DEFAULT_MCP_MAX_MESSAGE_BYTES */
  maxMessageBytes?: number
}

/**
 * MCP over stdio (newline-delimited JSON-RPC) with an input limit: a line longer than `maxMessageBytes` is skipped as
 * it streams in (never buffered whole) and answered with a JSON-RPC error (its `id` when found at its start), and a
 * line that is not JSON-RPC is answered with a parse or invalid-request error; the connection stays usable either
 * way. It also knows which requests are still unanswered, so the server can finish them before exiting
 * ({@link settled}).
 */
export class LimitedStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  readonly #stdin: Readable
  readonly #stdout: Writable
  readonly #max: number
  /** The bytes of the line being read. */
  #chunks: Buffer[] = []
  #size = 0
  /** The line being read is too long: its first bytes and its size so far; the rest is dropped. */
  #skipping: { head: Buffer; bytes: number } | undefined
  /** Requests passed on and not answered yet. */
  readonly #unanswered = new Set<RequestId>()
  /** Writes not yet handed to the operating system. */
  readonly #writing = new Set<Promise<void>>()
  #stdoutGone = false
  #whenIdle: Array<() => void> = []
  #closed = false

  constructor(stdin: Readable, stdout: Writable, options: LimitedStdioTransportOptions = {}) {
    this.#stdin = stdin
    this.#stdout = stdout
    this.#max = options.maxMessageBytes ?? DEFAULT_MCP_MAX_MESSAGE_BYTES
  }

  readonly #onData = (chunk: Buffer | string): void => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
    for (let at = rest.indexOf(10); at !== -1; at = rest.indexOf(10)) {
      this.#take(rest.subarray(0, at))
      this.#endLine()
      rest = rest.subarray(at + 1)
    }
    if (rest.length > 0) this.#take(rest)
  }

  readonly #onStdinError = (error: Error): void => {
    this.onerror?.(error)
  }

  readonly #onStdoutError = (error: Error): void => {
    // The client is gone (EPIPE): nothing more can be answered.
    this.#stdoutGone = true
    this.onerror?.(error)
    this.#checkIdle()
  }

  /** Adds `part` to the line being read, or drops it once the line is too long. */
  #take(part: Buffer): void {
    if (this.#skipping !== undefined) {
      this.#skipping.bytes += part.length
      return
    }
    this.#chunks.push(part)
    this.#size += part.length
    if (this.#size > this.#max) {
      const all = Buffer.concat(this.#chunks)
      this.#skipping = { head: Buffer.from(all.subarray(0, HEAD_BYTES)), bytes: all.length }
      this.#chunks = []
      this.#size = 0
    }
  }

  #endLine(): void {
    const skipped = this.#skipping
    if (skipped !== undefined) {
      this.#skipping = undefined
      const id = idAtStart(skipped.head.toString('utf8'))
      const message = `Message too large: ${skipped.bytes.toLocaleString('en-US')} bytes, over the limit of ${this.#max.toLocaleString('en-US')} bytes (agent-bench mcp --max-message-bytes); it was not read.`
      this.#reply(errorReply(id, INVALID_REQUEST, message))
      return
    }
    const line = Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, '')
    this.#chunks = []
    this.#size = 0
    if (line.trim() === '') return
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch (error) {
      this.#reply(errorReply(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`))
      return
    }
    const parsed = JSONRPCMessageSchema.safeParse(json)
    if (!parsed.success) {
      const id = (json as { id?: unknown } | null)?.id
      this.#reply(errorReply(typeof id === 'string' || typeof id === 'number' ? id : null, INVALID_REQUEST, 'Invalid request: not a JSON-RPC 2.0 message.'))
      return
    }
    const message = parsed.data
    if ('method' in message && 'id' in message) this.#unanswered.add(message.id)
    this.onmessage?.(message)
  }

  #reply(message: JSONRPCMessage): void {
    void this.#write(message)
  }

  #write(message: JSONRPCMessage): Promise<void> {
    if (this.#stdoutGone || this.#stdout.destroyed) {
      this.#stdoutGone = true
      return Promise.resolve()
    }
    const written = new Promise<void>((resolve) => {
      this.#stdout.write(`${JSON.stringify(message)}\n`, () => resolve())
    })
    this.#writing.add(written)
    void written.then(() => {
      this.#writing.delete(written)
      this.#checkIdle()
    })
    return written
  }

  #checkIdle(): void {
    if ((this.#unanswered.size > 0 && !this.#stdoutGone) || (this.#writing.size > 0 && !this.#stdoutGone)) return
    const waiting = this.#whenIdle
    this.#whenIdle = []
    for (const resolve of waiting) resolve()
  }

  async start(): Promise<void> {
    this.#stdin.on('data', this.#onData)
    this.#stdin.on('error', this.#onStdinError)
    this.#stdout.on('error', this.#onStdoutError)
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (('result' in message || 'error' in message) && 'id' in message && message.id !== undefined) this.#unanswered.delete(message.id)
    await this.#write(message)
    this.#checkIdle()
  }

  /**
   * Resolves when every request read so far is answered and every reply is written (or the client is gone), or
   * after `timeoutMs`: what a server waits for when stdin ends, so no reply is dropped.
   */
  settled(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs)
      timer.unref()
      this.#whenIdle.push(() => {
        clearTimeout(timer)
        resolve()
      })
      this.#checkIdle()
    })
  }

  /** Whether stdout failed (the client closed its end). */
  get clientGone(): boolean {
    return this.#stdoutGone
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#stdin.off('data', this.#onData)
    this.#stdin.off('error', this.#onStdinError)
    this.#stdout.off('error', this.#onStdoutError)
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause()
    this.#chunks = []
    this.onclose?.()
  }
}

/** The `id` of a JSON-RPC request from the start of its line (`{"jsonrpc":"2.0","id":7,...`), or `null`. */
function idAtStart(head: string): RequestId | null {
  const match = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head)
  if (match?.[1] === undefined) return null
  // An `"id"` after `"params"` may be a tool argument's, not the request's.
  const params = head.indexOf('"params"')
  if (params !== -1 && params < match.index) return null
  try {
    return JSON.parse(match[1]) as RequestId
  } catch {
    return null
  }
}

function errorReply(id: RequestId | null, code: number, message: string): JSONRPCMessage {
  // JSON-RPC answers an unreadable request with `id: null`; the SDK's schema types ids as string | number.
  return { jsonrpc: '2.0', id: id as RequestId, error: { code, message } }
}
