import { BenchError, ConfigError } from '../../core/errors.ts'
import type { EmailHit, EmailRecord, EmailScope, EmailSearch, ReadOptions } from './email-store.ts'
import { SchemaVersionError } from './schema.ts'

/** What `EmailStoreWorker` passes to its worker thread. */
export interface StoreWorkerData {
  file: string
}

/** A call of the worker's store. */
export type StoreWorkerRequest =
  | { op: 'search'; id: number; query: EmailSearch; scope: EmailScope }
  | { op: 'read'; id: number; messageId: string; scope: EmailScope; options?: ReadOptions | undefined }

/** An error as it crosses the thread boundary (classes do not survive structured cloning). */
export interface SerializedError {
  name: string
  message: string
  code?: string | undefined
  hint?: string | undefined
}

/** What the worker posts back. */
export type StoreWorkerReply =
  | { kind: 'ready' }
  | { kind: 'failed'; error: SerializedError }
  | { kind: 'done'; id: number; value: EmailHit[] | EmailRecord | undefined }
  | { kind: 'error'; id: number; error: SerializedError }

export function serializeError(error: unknown): SerializedError {
  if (error instanceof BenchError) return { name: error.name, message: error.problem, code: error.code, hint: error.hint }
  if (error instanceof Error) return { name: error.name, message: error.message }
  return { name: 'Error', message: String(error) }
}

/** The error again, as the class the store threw when it is one of ours (so callers can tell them apart). */
export function deserializeError(error: SerializedError): Error {
  const hint = error.hint ?? 'See the message.'
  if (error.code === 'ERR_SCHEMA_VERSION') return new SchemaVersionError(error.message, { hint })
  if (error.code === 'ERR_CONFIG') return new ConfigError(error.message, { hint })
  if (error.code !== undefined) return new BenchError(error.code, error.message, { hint })
  const rebuilt = new Error(error.message)
  rebuilt.name = error.name
  return rebuilt
}
