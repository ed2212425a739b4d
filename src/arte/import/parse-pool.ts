import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { type ParsedMime, parseRawEmail, READ_HEADERS, type ReadOutcome, readParsedEmail, unparseable } from './parse-raw-email.ts'
import { parseSimpleEmail } from './parse-simple-email.ts'

/** One message to parse: its bytes (or text) and the name it is reported under. */
export interface RawMessage {
  raw: Uint8Array | string
  fileName: string
}

/** A message read by an importer: its raw text, or why it could not be read. */
export type PendingMessage = RawMessage | { fileName: string; unreadable: string }

/** Messages per parse request. */
const PARSE_CHUNK = 64
/** Parse requests in flight per worker (as many with no worker, parsing on the calling thread). */
const PARSE_DEPTH = 3

type WorkerResult = { ok: true; parsed: ParsedMime } | { ok: false; message: string }

/**
 * The worker: plain JavaScript (no TypeScript loader in worker threads), so it only runs postal-mime and returns
 * the fields an import reads; {@link readParsedEmail} turns them into emails on the calling thread, as in-thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const readHeaders = new Set(workerData.readHeaders)
const postalMime = import(workerData.postalMime).then((module) => module.default)
parentPort.on('message', async ({ id, raws }) => {
  const PostalMime = await postalMime
  const results = []
  for (const raw of raws) {
    try {
      const p = await PostalMime.parse(raw)
      results.push({ ok: true, parsed: { messageId: p.messageId, subject: p.subject, from: p.from, to: p.to, cc: p.cc, bcc: p.bcc,
        text: p.text, html: p.html, headers: p.headers.filter((header) => readHeaders.has(header.key)) } })
    } catch (error) {
      results.push({ ok: false, message: error instanceof Error ? error.message : String(error) })
    }
  }
  parentPort.postMessage({ id, results })
})
`

/** The ES module postal-mime resolves to for `import` (its `require` entry is `dist/postal-mime.cjs`, beside `src/`). */
function postalMimeModuleUrl(): string {
  const cjs = createRequire(import.meta.url).resolve('postal-mime')
  return new URL('../src/postal-mime.js', pathToFileURL(cjs)).href
}

/** Worker threads a pool uses by default: one per core but one (the importing thread inserts), 1 to 4. */
export function defaultParseWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1))
}

/**
 * Parses raw messages: the simple ones (see {@link parseSimpleEmail}, most of Enron) on the calling thread, the
 * others with postal-mime on worker threads, so MIME parsing runs beside the inserts of the importing thread. The
 * workers start when the first message needs postal-mime. Results come back in the order given. With 0 workers
 * everything is parsed on the calling thread.
 */
export class ParsePool {
  readonly #workerCount: number
  readonly #workers: Worker[] = []
  readonly #pending = new Map<number, { resolve: (results: WorkerResult[]) => void; reject: (error: Error) => void }>()
  #nextId = 0
  #nextWorker = 0
  #failure: Error | undefined
  #fastPath = 0
  #parsed = 0

  constructor(workers: number) {
    this.#workerCount = Math.max(0, workers)
  }

  /** How many messages were parsed, and how many of them took the fast path (no postal-mime). */
  get stats(): { parsed: number; fastPath: number } {
    return { parsed: this.#parsed, fastPath: this.#fastPath }
  }

  #startWorkers(): void {
    const workerData = { postalMime: postalMimeModuleUrl(), readHeaders: [...READ_HEADERS] }
    for (let i = 0; i < this.#workerCount; i++) {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData })
      worker.on('message', ({ id, results }: { id: number; results: WorkerResult[] }) => {
        this.#pending.get(id)?.resolve(results)
        this.#pending.delete(id)
      })
      worker.on('error', (error) => this.#fail(error))
      worker.on('exit', (code) => {
        if (code !== 0) this.#fail(new Error(`MIME parse worker exited with code ${code}`))
      })
      this.#workers.push(worker)
    }
  }

  /** Parses `messages` (the fast path here, the rest on one worker; spread work by calling with slices). */
  async parse(messages: ReadonlyArray<RawMessage>): Promise<ReadOutcome[]> {
    if (this.#failure !== undefined) throw this.#failure
    const outcomes: Array<ReadOutcome | undefined> = messages.map(({ raw, fileName }) => parseSimpleEmail(raw, fileName))
    const rest: number[] = []
    outcomes.forEach((outcome, i) => {
      if (outcome === undefined) rest.push(i)
    })
    this.#parsed += messages.length
    this.#fastPath += messages.length - rest.length
    if (rest.length === 0) return outcomes as ReadOutcome[]
    const slow = rest.map((i) => messages[i] as RawMessage)
    const parsed = await this.#parseWithPostalMime(slow)
    rest.forEach((index, i) => {
      outcomes[index] = parsed[i]
    })
    return outcomes as ReadOutcome[]
  }

  async #parseWithPostalMime(messages: ReadonlyArray<RawMessage>): Promise<ReadOutcome[]> {
    if (this.#workerCount > 0 && this.#workers.length === 0) this.#startWorkers()
    const worker = this.#workers[this.#nextWorker++ % Math.max(1, this.#workers.length)]
    if (worker === undefined) return Promise.all(messages.map(({ raw, fileName }) => parseRawEmail(raw, fileName)))
    const id = this.#nextId++
    const results = await new Promise<WorkerResult[]>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject })
      worker.postMessage({ id, raws: messages.map((message) => message.raw) })
    })
    return results.map((result, i) => (result.ok ? readParsedEmail(result.parsed, messages[i]?.fileName ?? '') : unparseable(new Error(result.message))))
  }

  /**
   * Parses `messages` in order, keeping a few chunks in flight so that workers parse while the caller (who may
   * insert between results) works; yields each message with its outcome, in the order given. Stop early by
   * breaking out of the loop.
   */
  async *parseInOrder(messages: Iterable<PendingMessage> | AsyncIterable<PendingMessage>): AsyncGenerator<{ fileName: string; outcome: ReadOutcome }> {
    const queue: Array<{ pending: PendingMessage[]; results: Promise<ReadOutcome[]> }> = []
    const submit = (pending: PendingMessage[]): void => {
      const results = this.parse(pending.filter((message): message is RawMessage => 'raw' in message))
      results.catch(() => undefined) // awaited in order below; this keeps a failure of a later chunk from going unhandled
      queue.push({ pending, results })
    }
    const depth = PARSE_DEPTH * Math.max(1, this.#workerCount)
    const drain = async function* (): AsyncGenerator<{ fileName: string; outcome: ReadOutcome }> {
      const head = queue.shift()
      if (head === undefined) return
      const results = await head.results
      let i = 0
      for (const message of head.pending) {
        const outcome: ReadOutcome =
          'raw' in message ? (results[i++] ?? { kind: 'failed', reason: 'not parsed' }) : { kind: 'failed', reason: message.unreadable }
        yield { fileName: message.fileName, outcome }
      }
    }
    try {
      let chunk: PendingMessage[] = []
      for await (const message of messages) {
        chunk.push(message)
        if (chunk.length < PARSE_CHUNK) continue
        submit(chunk)
        chunk = []
        if (queue.length >= depth) yield* drain()
      }
      if (chunk.length > 0) submit(chunk)
      while (queue.length > 0) yield* drain()
    } finally {
      await Promise.allSettled(queue.map((entry) => entry.results))
    }
  }

  /** Stops the workers; pending parses fail. */
  async close(): Promise<void> {
    this.#fail(new Error('MIME parse pool closed'))
    await Promise.all(this.#workers.map((worker) => worker.terminate()))
  }

  #fail(error: Error): void {
    this.#failure ??= error
    for (const { reject } of this.#pending.values()) reject(error)
    this.#pending.clear()
  }
}
