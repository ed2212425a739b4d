declare module 'vitest' {
  interface ProvidedContext {
    /** Folder holding `{scenario_id}_{source}.json` files, prepared by the MPCBench globalSetup. */
    mpcbenchDataDir: string
    /** Error messages of the scenarios the globalSetup could not prepare, by scenario id (their tests fail). */
    mpcbenchScenarioErrors: Record<string, string>
    /** Set when the globalSetup prepared nothing because `BENCH_ONLY` leaves MPCBench out: why. */
    mpcbenchNotPrepared?: string
  }
}

export {}
