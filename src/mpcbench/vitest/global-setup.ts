import type { TestProject } from 'vitest/node'
import './provided-context.ts'
import { benchIncluded, benchLeftOut } from '../../core/bench-only.ts'
import { BenchError } from '../../core/errors.ts'
import { redactLoggerOutput } from '../../core/redact-output.ts'
import { mpcbenchInputs, prepareOptionsFromEnv } from '../settings.ts'

/**
 * MPCBench globalSetup of the `bench` project: generates the data of every scenario (or those named by
 * `MPCBENCH_SCENARIOS`) whose files are missing or stale, with the procedural generator (or
 * `MPCBENCH_GENERATOR=llm`), then provides the data folder as `mpcbenchDataDir`. The scenarios and data folders are
 * the project's, else the package's own (see `mpcbenchInputs`).
 * In watch mode the same check runs before every rerun, so a scenario edit regenerates that scenario's data
 * (and only when its inputs changed). A scenario that cannot be prepared fails only its own tests (its error is
 * provided as `mpcbenchScenarioErrors`); the other scenarios, and the other benchmarks, run.
 * With `BENCH_ONLY` leaving MPCBench out (`agent-bench arte` sets `BENCH_ONLY=arte`) it prepares nothing, and the
 * MPCBench tests of such a run fail saying so (`mpcbenchNotPrepared`).
 *
 * A failure of the setup itself (a bad `BENCH_ONLY` or `MPCBENCH_*` variable) is printed here, before any test runs,
 * as its message and fix line, and given to the tests as `mpcbenchNotPrepared`, so the MPCBench tests fail with it. It
 * is not thrown: Vitest would then print "No test files found" first, and the error after it with its stack.
 */
export default async function setup(project: TestProject): Promise<void> {
  // Everything Vitest prints in this run (reporters, test errors, console output) goes through the one redactor.
  redactLoggerOutput(project.vitest?.logger)
  try {
    await prepare(project)
  } catch (error) {
    reportFailure(project, error)
  }
}

async function prepare(project: TestProject): Promise<void> {
  if (!benchIncluded('mpcbench')) {
    // An ART-E-only run (BENCH_ONLY=arte): no scenario check, no generation (and no model calls with
    // MPCBENCH_GENERATOR=llm); the MPCBench variables are not even read, so none of them can fail such a run.
    project.provide('mpcbenchDataDir', '')
    project.provide('mpcbenchScenarioErrors', {})
    project.provide('mpcbenchNotPrepared', benchLeftOut('mpcbench'))
    return
  }
  // Setup messages go to stderr, so stdout stays the reporters' (e.g. `--reporter=junit` to stdout is valid XML).
  const { root } = project.config
  const inputs = mpcbenchInputs(root)
  const options = { ...prepareOptionsFromEnv(root), scenariosDir: inputs.scenariosDir, dataDir: inputs.dataDir, log: (line: string) => console.error(line) }
  // Loaded only when data is prepared: the generators are most of what this setup would load.
  const { prepareMpcbenchDataIsolated } = await import('../generate/prepare-data.ts')
  const { failed } = await prepareMpcbenchDataIsolated(options)
  project.provide('mpcbenchDataDir', options.dataDir)
  project.provide('mpcbenchScenarioErrors', failed)
  project.onTestsRerun(async () => {
    const rerun = await prepareMpcbenchDataIsolated(options)
    project.provide('mpcbenchScenarioErrors', rerun.failed)
  })
}

/** Prints why the setup failed (ours: message and fix; anything else: with its stack) and tells the tests. */
function reportFailure(project: TestProject, error: unknown): void {
  const { logger } = project.vitest
  project.provide('mpcbenchDataDir', '')
  project.provide('mpcbenchScenarioErrors', {})
  if (error instanceof BenchError) {
    logger.error(`\nMPCBench setup failed, so no MPCBench task can run:\n${error.message}\n`)
    project.provide('mpcbenchNotPrepared', `its globalSetup failed: ${error.problem.replace(/\.$/, '')} (fix: ${error.hint.replace(/\.$/, '')})`)
    return
  }
  logger.error('\nMPCBench setup failed, so no MPCBench task can run:')
  logger.printError(error, { fullStack: true })
  project.provide('mpcbenchNotPrepared', `its globalSetup failed: ${error instanceof Error ? error.message : String(error)}`)
}
