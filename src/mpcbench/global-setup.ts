import type { TestProject } from 'vitest/node'
import '../vitest/provided-context.ts'
import { prepareMpcbenchData, prepareOptionsFromEnv } from './generate/prepare-data.ts'

/**
 * MPCBench globalSetup of the `bench` project: generates the data of every scenario (or those named by
 * `MPCBENCH_SCENARIOS`) whose files are missing or stale, with the procedural generator (or
 * `MPCBENCH_GENERATOR=llm`), then provides the data folder as `mpcbenchDataDir`.
 */
export default async function setup(project: TestProject): Promise<void> {
  const options = prepareOptionsFromEnv(project.config.root)
  await prepareMpcbenchData(options)
  project.provide('mpcbenchDataDir', options.dataDir)
}
