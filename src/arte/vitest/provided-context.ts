declare module 'vitest' {
  interface ProvidedContext {
    /** SQLite email store built (or reused) by the ART-E globalSetup. */
    arteDbPath: string
    /** ART-E dataset file selected by the globalSetup. */
    arteDatasetPath: string
    /** Id of this ART-E run (one per Vitest run or shard), recorded with every stored trace. */
    arteRunId: string
    /** Set when the globalSetup prepared nothing because `BENCH_ONLY` leaves ART-E out: why. */
    arteNotPrepared?: string
    /**
     * Whether a reporter of the run may read the annotations of passed tests (see `annotationsRead`); when false the
     * ART-E tests annotate only their failed tests. Unset (an older setup) counts as true.
     */
    arteAnnotations?: boolean
  }
}

export {}
