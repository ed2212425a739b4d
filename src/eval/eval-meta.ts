/** One scorer's result on one case, as stored in the test meta. */
export interface EvalScore {
  /** The scorer function's name (`scorer1`, `scorer2`, ... for anonymous ones). */
  name: string
  score: number
  reason?: string
}

/** The meta `describeEval` puts on each test (`testCase.meta().eval`) once it is scored, for reporters. Structured-clone-safe. */
export interface EvalTestMeta {
  /** The `describeEval` name. */
  suite: string
  /** The case id (`EvalCase.id`), or the test name when the case has none: the results row's id. */
  id: string
  /** Which trial (1-based; 1 for a run of one trial). */
  trial: number
  scores: EvalScore[]
  /** Mean of `scores`. */
  mean: number
  /** The mean needed to pass. */
  threshold: number
  /** `mean >= threshold`. */
  passed: boolean
  /** How long the task and the scorers took (ms); for a resumed case, what its earlier run took. */
  durationMs: number
  /** The case's input, expected value and the task's output, as stored (JSON, strings capped; see `storedValue`). */
  input?: unknown
  expected?: unknown
  output?: unknown
  /** With `BENCH_RESUME=1`: the run whose finished result this is (the task was not called). */
  resumedFrom?: string
  /** With OpenTelemetry on (`OTEL_EXPORTER_OTLP_ENDPOINT`): the trace id of the case's `invoke_agent` span. */
  otelTraceId?: string
}

/**
 * The meta of each test when it is declared (`testCase.meta().evalCase`): what the eval reporter needs to count a case
 * whose test never got `eval` (the task threw, timed out, or never ran). Structured-clone-safe.
 */
export interface EvalPlannedCase {
  suite: string
  id: string
  trial: number
  /** Trials per case in this eval. */
  trials: number
  threshold: number
  /** The scorers' names, in order. */
  scorers: string[]
  input?: unknown
  expected?: unknown
}

// TaskMeta is declared in '@vitest/runner' (Vitest augments it there too); 'vitest' only re-exports it. An augmentation
// of the re-export gives TypeScript a second copy of the interface, so which one a file sees depends on the program's
// file order (an eval file before a reporter: no `meta().eval` in the reporter, or Vitest's own fields missing).
declare module '@vitest/runner' {
  interface TaskMeta {
    /** Set by tests of `describeEval` once scored. */
    eval?: EvalTestMeta
    /** Set when a test of `describeEval` is declared. */
    evalCase?: EvalPlannedCase
  }
}
