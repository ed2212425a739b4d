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

declare module 'vitest' {
  interface TaskMeta {
    /** Set by tests of `describeEval`. */
    eval?: EvalTestMeta
  }
}
