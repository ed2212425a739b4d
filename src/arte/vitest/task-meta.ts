import type { ArteTestMeta } from './arte-meta.ts'

declare module 'vitest' {
  interface TaskMeta {
    /** Set by ART-E tests (`bench/arte`). */
    arte?: ArteTestMeta
  }
}

export type { ArteTestMeta }
