import type { MpcbenchTestMeta } from './mpcbench-meta.ts'

declare module 'vitest' {
  interface TaskMeta {
    /** Set by MPCBench tests (`bench/{planning,email_reply,document_generation}`). */
    mpcbench?: MpcbenchTestMeta
  }
}

export type { MpcbenchTestMeta }
