declare module 'vitest' {
  interface ProvidedContext {
    /** Folder holding `{scenario_id}_{source}.json` files, prepared by the MPCBench globalSetup. */
    mpcbenchDataDir: string
  }
}

export {}
