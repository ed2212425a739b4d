import { parentPort, workerData } from 'node:worker_threads'
import { EmailStore } from './email-store.ts'
import type { StoreWorkerData, StoreWorkerReply, StoreWorkerRequest } from './store-worker-protocol.ts'
import { serializeError } from './store-worker-protocol.ts'

// The worker thread of `EmailStoreWorker`: one read-only store, one request at a time, in arrival order.
const port = parentPort
if (port === null) throw new Error('store-worker-entry runs as a worker thread of EmailStoreWorker')
const { file } = workerData as StoreWorkerData
let opened: EmailStore | undefined
try {
  opened = EmailStore.open(file, { readonly: true })
} catch (error) {
  // Reported as a message only: a thrown error would reach the parent as an 'error' event too, perhaps first, as a
  // plain clone that lost its class. The parent terminates this thread when it reads the message.
  port.postMessage({ kind: 'failed', error: serializeError(error) } satisfies StoreWorkerReply)
}
if (opened !== undefined) serve(opened, port)

function serve(store: EmailStore, port: NonNullable<typeof parentPort>): void {
  port.postMessage({ kind: 'ready' } satisfies StoreWorkerReply)
  port.on('message', (request: StoreWorkerRequest) => {
    let reply: StoreWorkerReply
    try {
      const value = request.op === 'search' ? store.search(request.query, request.scope) : store.read(request.messageId, request.scope, request.options)
      reply = { kind: 'done', id: request.id, value }
    } catch (error) {
      reply = { kind: 'error', id: request.id, error: serializeError(error) }
    }
    port.postMessage(reply)
  })
}
