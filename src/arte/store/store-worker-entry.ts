import { parentPort, workerData } from 'node:worker_threads'
import { EmailStore } from './email-store.ts'
import type { StoreWorkerData, StoreWorkerReply, StoreWorkerRequest } from './store-worker-protocol.ts'
import { serializeError } from './store-worker-protocol.ts'

// The worker thread of `EmailStoreWorker`: one read-only store, one request at a time, in arrival order.
const port = parentPort
if (port === null) throw new Error('store-worker-entry runs as a worker thread of EmailStoreWorker')
const { file } = workerData as StoreWorkerData
let store: EmailStore
try {
  store = EmailStore.open(file, { readonly: true })
} catch (error) {
  port.postMessage({ kind: 'failed', error: serializeError(error) } satisfies StoreWorkerReply)
  throw error
}
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
