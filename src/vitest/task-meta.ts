import type { ArteTestMeta } from '../arte/arte-meta.ts'
import type { MpcbenchTestMeta } from '../mpcbench/mpcbench-meta.ts'

declare module 'vitest' {
  interface TaskMeta {
    /** Set by ART-E tests (`bench/arte`). */
    arte?: ArteTestMeta
    /** Set by MPCBench tests (`bench/{planning,email_reply,document_generation}`). */
    mpcbench?: MpcbenchTestMeta
  }
}

export type { ArteTestMeta, MpcbenchTestMeta }
