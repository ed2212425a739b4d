/**
 * `vitest-agent-bench/mpcbench-v2`: MPCBench v2 (upstream e398410, scheduling levels 1-3) for your own harness,
 * without Vitest: upstream's data files, its 11 scheduling tools, its agent loop on one instance, and its F1 / exact
 * match scoring. The tests (`defineMpcbenchV2Tests`) are in `vitest-agent-bench/vitest`, the reporter in
 * `vitest-agent-bench/reporters/mpcbench-v2`.
 */

export { type LevelData, type LevelFiles, loadInstances, loadLevel, loadOracle, loadWorld } from './data/load-data.ts'
export type { Instance, Level, OracleRow, World } from './data/schemas.ts'
export { createSchedulingTools, SCHEDULING_TOOL_NAMES, type SchedulingSources, type SchedulingToolName } from './tools/scheduling-tools.ts'
export { type InstanceResult, runInstance, type RunInstanceOptions } from './harness/run-instance.ts'
export { runSchedulingAgent, type RunSchedulingAgentOptions, type SchedulingRun } from './harness/run-scheduling-agent.ts'
export { calculateF1, goldCandidates, type SchedulingMetrics } from './scoring/metrics.ts'
export { type LevelSummary, summarizeLevel } from './scoring/summary.ts'
export type { MpcbenchV2TestMeta } from './scoring/mpcbench-v2-meta.ts'
