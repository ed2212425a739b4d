/** One scorer's result on one case, as stored in the test meta. */
export interface EvalScore {
  /** The scorer function's name (`scorer1`, `scorer2`, ... for anonymous ones). */
  name: string
  score: number
  reason?: string
}

/** The meta `describeEval` puts on each test (`testCase.meta().eval`), for reporters. Structured-clone-safe. */
export interface EvalTestMeta {
  /** The `describeEval` name. */
  suite: string
  scores: EvalScore[]
  /** Mean of `scores`. */
  mean: number
  /** The mean needed to pass. */
  threshold: number
}

// TaskMeta is declared in '@vitest/runner' (Vitest augments it there too); 'vitest' only re-exports it. An augmentation
// of the re-export gives TypeScript a second copy of the interface, so which one a file sees depends on the program's
// file order (an eval file before a reporter: no `meta().eval` in the reporter, or Vitest's own fields missing).
declare module '@vitest/runner' {
  interface TaskMeta {
    /** Set by tests of `describeEval`. */
    eval?: EvalTestMeta
  }
}
