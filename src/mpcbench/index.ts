/**
 * `vitest-agent-bench/mpcbench`: MPCBench's parts for your own harness, without Vitest: the workplace (six sources
 * and their tools), scenarios and tasks, generation, one task run with its judges, upstream data import. The tests
 * (`defineMpcbenchBench`) are in `vitest-agent-bench/vitest`, the reporter in `vitest-agent-bench/reporters/mpcbench`.
 */

export { createWorkplaceTools, DEFAULT_TOOL_PROFILE, loadWorkplace, TOOL_PROFILES, type ToolProfile, Workplace } from './workplace/index.ts'
export { importUpstream } from './upstream/import-upstream.ts'
export { resolveHarness } from './run/harness.ts'
export { loadScenario, type Scenario, ScenarioSchema } from './tasks/scenario.ts'
export { generateScenario } from './generate/generate-scenario.ts'
export { loadTask, type Task, TaskSchema } from './tasks/task.ts'
export { runAndJudge, runTask } from './run/run-task.ts'
export { createJudge } from './judge/create-judge.ts'
export type { Judge } from './judge/judge.ts'
export type { MpcbenchTestMeta } from './run/mpcbench-meta.ts'
