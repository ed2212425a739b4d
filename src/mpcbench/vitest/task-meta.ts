import type { MpcbenchPlannedTask, MpcbenchTestMeta } from '../run/mpcbench-meta.ts'

// Augments the module that declares TaskMeta, not its re-export in 'vitest': see src/eval/eval-meta.ts.
declare module '@vitest/runner' {
  interface TaskMeta {
    /** Set by MPCBench tests (`bench/{planning,email_reply,document_generation}`). */
    mpcbench?: MpcbenchTestMeta
    /** Set when an MPCBench test is declared, for accounting when `mpcbench` never gets set. */
    mpcbenchTask?: MpcbenchPlannedTask
    /** Set on the failing placeholder test of a task file that cannot be loaded, so the summary counts it. */
    mpcbenchInvalidTask?: { taskFile: string; taskType: string }
  }
}

export type { MpcbenchTestMeta }
