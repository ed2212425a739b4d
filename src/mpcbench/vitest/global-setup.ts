import type { TestProject } from 'vitest/node'
import './provided-context.ts'
import { prepareMpcbenchData, prepareOptionsFromEnv } from '../generate/prepare-data.ts'

/**
 * MPCBench globalSetup of the `bench` project: generates the data of every scenario (or those named by
 * `MPCBENCH_SCENARIOS`) whose files are missing or stale, with the procedural generator (or
 * `MPCBENCH_GENERATOR=llm`), then provides the data folder as `mpcbenchDataDir`.
 * In watch mode the same check runs before every rerun, so a scenario edit regenerates that scenario's data
 * (and only when its inputs changed).
 */
export default async function setup(project: TestProject): Promise<void> {
  // Setup messages go to stderr, so stdout stays the reporters' (e.g. `--reporter=junit` to stdout is valid XML).
  const options = { ...prepareOptionsFromEnv(project.config.root), log: (line: string) => console.error(line) }
  await prepareMpcbenchData(options)
  project.provide('mpcbenchDataDir', options.dataDir)
  project.onTestsRerun(async () => {
    await prepareMpcbenchData(options)
  })
}
