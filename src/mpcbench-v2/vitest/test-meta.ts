import type { MpcbenchV2TestMeta } from '../scoring/mpcbench-v2-meta.ts'

// Augments the module that declares TaskMeta, not its re-export in 'vitest': see src/eval/eval-meta.ts.
declare module '@vitest/runner' {
  interface TaskMeta {
    /** Set by MPCBench v2 tests (`bench/mpcbench-v2/level{1,2,3}.eval.ts`). */
    mpcbenchV2?: MpcbenchV2TestMeta
  }
}

export type { MpcbenchV2TestMeta }
