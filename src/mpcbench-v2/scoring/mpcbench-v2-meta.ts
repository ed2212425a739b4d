import type { Level } from '../data/schemas.ts'
import type { SchedulingOutcome } from '../harness/run-scheduling-agent.ts'
import type { ResultsRow } from './results-row.ts'

/** What an MPCBench v2 test records (structured-clone safe): upstream's results row and how the run went. */
export interface MpcbenchV2TestMeta {
  level: Level
  /** The world's id (`world_level1_exp1`): which data the row belongs to. */
  worldId: string
  /** The model id as given (`openai/gpt-4o`, `baseline`). */
  model: string
  /** `llm`, or `baseline` for the non-LLM agent. */
  modelKind: 'llm' | 'baseline'
  instanceId: string
  /** 1-based trial (`BENCH_TRIALS`). */
  trial: number
  /** The results row in upstream's format. */
  row: ResultsRow
  /** How the agent run ended; absent when the run failed before the agent ran (then `row.error` says why). */
  outcome?: SchedulingOutcome
  /** With OpenTelemetry on: the trace id of the instance's `invoke_agent` span. */
  otelTraceId?: string
}
