import type { ArtePlannedTask, ArteTestMeta } from '../results/arte-meta.ts'

// Augments the module that declares TaskMeta, not its re-export in 'vitest': see src/eval/eval-meta.ts.
declare module '@vitest/runner' {
  interface TaskMeta {
    /** Set by ART-E tests (`bench/arte`). */
    arte?: ArteTestMeta
    /** Set when an ART-E test is declared: the task it runs, for accounting when `arte` never gets set. */
    arteTask?: ArtePlannedTask
  }
}

export type { ArteTestMeta }
