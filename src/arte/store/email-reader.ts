import type { EmailHit, EmailRecord, EmailScope, EmailSearch, ReadOptions } from './email-store.ts'

/**
 * What the ART-E tools need of an email store: scoped search and read. {@link EmailStore} answers on the calling
 * thread; {@link EmailStoreWorker} answers from a worker thread within a time budget per call.
 */
export interface EmailReader {
  search(query: EmailSearch, scope: EmailScope): EmailHit[] | Promise<EmailHit[]>
  read(messageId: string, scope: EmailScope, options?: ReadOptions): EmailRecord | undefined | Promise<EmailRecord | undefined>
}
