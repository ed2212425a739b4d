import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { siblingModule } from '../../core/sibling-module.ts'
import { type ParsableMessage, parseMessage, type PendingMessage } from './parse-message.ts'
import type { ReadOutcome } from './parse-raw-email.ts'

export type { FileMessage, PendingMessage, RawMessage } from './parse-message.ts'

/** Messages per chunk (the unit of work a thread claims). */
const PARSE_CHUNK = 64
/**
 * Chunks handed to each worker ahead of the reader: enough for the workers to keep reading and parsing while the
 * importing thread inserts a whole unit (a maildir's top folder, about 1,500 messages in the Enron sample).
 */
const WORKER_DEPTH = 32
/** Claim slots, reused round-robin by chunk number (more than the chunks handed out at any time). */
const CLAIM_SLOTS = 4096

/**
 * The worker: plain JavaScript that loads {@link parseMessage} (`parse-message.js` beside this file in the built
 * package; from the TypeScript sources, a bundle of it, see `siblingModule`).
 * It takes the chunks it is sent in order; a chunk is parsed by whichever thread claims it first (its slot holds
 * `chunk number + 1` until claimed, then 0), so a worker skips the chunks the importing thread took meanwhile.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const ready = import(workerData.parseMessage).then((module) => module.parseMessage)
const claims = new Int32Array(workerData.claims)
const queue = []
let running = false
async function run() {
  running = true
  const parseMessage = await ready
  while (queue.length > 0) {
    const { id, messages } = queue.shift()
    if (Atomics.compareExchange(claims, id % claims.length, id + 1, 0) !== id + 1) continue
    const results = []
    for (const message of messages) results.push(await parseMessage(message))
    parentPort.postMessage({ id, results })
  }
  running = false
}
parentPort.on('message', (chunk) => {
  queue.push(chunk)
  if (!running) run()
})
`

/** Worker threads a pool uses by default: one per core but one (the importing thread inserts), 1 to 4. */
export function defaultParseWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1))
}

/** A chunk of messages in {@link ParsePool.parseInOrder}. */
interface Chunk {
  id: number
  pending: PendingMessage[]
  parsable: ParsableMessage[]
  /** Set when parsed here, or when a worker's result came back. */
  results: ReadOutcome[] | undefined
}

/**
 * Reads (for file messages) and parses messages on worker threads and on the calling thread, so that reading and
 * MIME parsing run beside the inserts of the importing thread; each message goes through {@link parseMessage} (the
 * fast path for simple mail, postal-mime for the rest). Results come back in the order given. With 0 workers all
 * work is done on the calling thread.
 */
export class ParsePool {
  readonly #workers: Worker[] = []
  readonly #claims = new Int32Array(new SharedArrayBuffer(CLAIM_SLOTS * Int32Array.BYTES_PER_ELEMENT))
  readonly #waiting = new Map<number, { resolve: (results: ReadOutcome[]) => void; reject: (error: Error) => void }>()
  readonly #arrived = new Map<number, ReadOutcome[]>()
  #nextId = 0
  #failure: Error | undefined
  #parsedByWorkers = 0

  constructor(workers: number) {
    if (workers <= 0) return
    const workerData = { parseMessage: siblingModule(import.meta.url, 'parse-message'), claims: this.#claims.buffer }
    for (let i = 0; i < workers; i++) {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData })
      worker.on('message', ({ id, results }: { id: number; results: ReadOutcome[] }) => {
        this.#parsedByWorkers++
        const waiting = this.#waiting.get(id)
        if (waiting === undefined) this.#arrived.set(id, results)
        else waiting.resolve(results)
        this.#waiting.delete(id)
      })
      worker.on('error', (error) => this.#fail(error))
      worker.on('exit', (code) => {
        if (code !== 0) this.#fail(new Error(`MIME parse worker exited with code ${code}`))
      })
      this.#workers.push(worker)
    }
  }

  /**
   * Parses `messages` and yields each with its outcome, in the order given. Chunks are handed to the workers ahead
   * of time (up to {@link WORKER_DEPTH} a worker), so that they read and parse while the caller inserts between
   * results; whenever the caller would wait for a chunk, this thread parses the first chunk no thread has claimed.
   * Stop early by breaking out of the loop.
   */
  async *parseInOrder(messages: Iterable<PendingMessage> | AsyncIterable<PendingMessage>): AsyncGenerator<{ fileName: string; outcome: ReadOutcome }> {
    const iterator: Iterator<PendingMessage> | AsyncIterator<PendingMessage> =
      Symbol.asyncIterator in messages ? messages[Symbol.asyncIterator]() : messages[Symbol.iterator]()
    const chunks: Chunk[] = []
    const lookahead = this.#workers.length === 0 ? 1 : WORKER_DEPTH * this.#workers.length
    let exhausted = false
    const fill = async (): Promise<void> => {
      while (!exhausted && chunks.length < lookahead) {
        const pending: PendingMessage[] = []
        while (pending.length < PARSE_CHUNK) {
          const next = await iterator.next()
          if (next.done === true) {
            exhausted = true
            break
          }
          pending.push(next.value)
        }
        if (pending.length === 0) break
        const id = this.#nextId++
        const parsable = pending.filter((message): message is ParsableMessage => !('unreadable' in message))
        chunks.push({ id, pending, parsable, results: undefined })
        Atomics.store(this.#claims, id % CLAIM_SLOTS, id + 1)
        this.#workers[id % this.#workers.length]?.postMessage({ id, messages: parsable })
      }
    }
    try {
      for (;;) {
        await fill()
        const head = chunks[0]
        if (head === undefined) break
        if (head.results === undefined) {
          const mine = chunks.find((chunk) => chunk.results === undefined && this.#claim(chunk))
          if (mine !== undefined) {
            mine.results = await this.#parseHere(mine.parsable)
            // Let the workers' results in (they arrive as events), so that the head is taken as soon as it is done.
            if (this.#workers.length > 0) await new Promise((resolve) => setImmediate(resolve))
            continue
          }
          head.results = await this.#workerResults(head.id)
        }
        chunks.shift()
        const results = head.results
        let i = 0
        for (const message of head.pending) {
          const outcome: ReadOutcome =
            'unreadable' in message ? { kind: 'failed', reason: message.unreadable } : (results[i++] ?? { kind: 'failed', reason: 'not parsed' })
          yield { fileName: message.fileName, outcome }
        }
      }
    } finally {
      // Chunks not started stay unclaimed; the workers skip them.
      for (const chunk of chunks) this.#claim(chunk)
      for (const chunk of chunks) {
        this.#waiting.delete(chunk.id)
        this.#arrived.delete(chunk.id)
      }
      await iterator.return?.()
    }
  }

  /** Chunks whose results came from a worker thread so far (the rest were parsed on the calling thread). */
  get parsedByWorkers(): number {
    return this.#parsedByWorkers
  }

  /** Claims `chunk` for this thread; false when a worker has it. */
  #claim(chunk: Chunk): boolean {
    const open = chunk.id + 1
    return Atomics.compareExchange(this.#claims, chunk.id % CLAIM_SLOTS, open, 0) === open
  }

  async #parseHere(messages: ReadonlyArray<ParsableMessage>): Promise<ReadOutcome[]> {
    const outcomes: ReadOutcome[] = []
    for (const message of messages) outcomes.push(await parseMessage(message))
    return outcomes
  }

  /** The results of chunk `id`, which a worker has claimed. */
  #workerResults(id: number): Promise<ReadOutcome[]> {
    const arrived = this.#arrived.get(id)
    if (arrived !== undefined) {
      this.#arrived.delete(id)
      return Promise.resolve(arrived)
    }
    if (this.#failure !== undefined) return Promise.reject(this.#failure)
    return new Promise<ReadOutcome[]>((resolve, reject) => this.#waiting.set(id, { resolve, reject }))
  }

  /** Stops the workers; pending parses fail. */
  async close(): Promise<void> {
    this.#fail(new Error('MIME parse pool closed'))
    await Promise.all(this.#workers.map((worker) => worker.terminate()))
  }

  #fail(error: Error): void {
    this.#failure ??= error
    for (const { reject } of this.#waiting.values()) reject(error)
    this.#waiting.clear()
  }
}
