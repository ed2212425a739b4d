import type { Usage } from '../../llm/types.ts'
import type { TaskType } from '../task.ts'
import type { ToolProfile } from '../workplace/tool-profiles.ts'

/** One judge's verdict on one MPCBench test, as test meta (plain JSON). */
export type MpcbenchJudgeMeta = {
  /** Judge model id as given (`rules`, `openai/gpt-4.1`). */
  judgeModel: string
  /** `rules` is the offline judge and is not an LLM. */
  judgeKind: 'llm' | 'rules'
  judgeInputFile: string
  judgeResultFile: string
  /** Tokens and cost of this judge's calls (zero for `rules`). */
  usage: Usage
} & (
  /** A score is `null` when the judge could not judge that axis (see `ResultAxisScoreSchema`). */
  | { kind: 'scored'; answerRequirementsSatisfaction: number | null; sourceGroundedReasoning: number | null }
  | { kind: 'judge-error'; code: string; message: string }
)

/** Test meta of one MPCBench test (`task.meta.mpcbench`), read by `reporters/mpcbench.ts`. Plain JSON. */
export interface MpcbenchTestMeta {
  taskId: string
  taskType: TaskType | null
  scenarioId: string
  /** Agent model id as given (`baseline`, `openai/gpt-4.1`). */
  agentModel: string
  agentModelKind: 'llm' | 'baseline'
  /** How the agent run ended (`answered`, `max-turns`, `error`, `aborted`). */
  agentOutcome: 'answered' | 'max-turns' | 'error' | 'aborted'
  toolCalls: number
  turns: number
  durationMs: number
  costUsd: number | null
  totalTokens: number
  /** Tokens and cost of the agent's calls (zero for `baseline`). */
  usage: Usage
  runLogFile: string
  /** The tool profile of the run (`upstream-v1`, `extended`). */
  toolProfile?: ToolProfile
  judges: MpcbenchJudgeMeta[]
  /** The agent's final answer was empty (e.g. the `null` agent): a pass then points at the grader. */
  emptyAnswer?: boolean
  /** Which run of the task × agent this is, 1-based (`BENCH_TRIALS`); absent means 1. */
  trial?: number
}

/**
 * What is known of an MPCBench test when it is declared (`task.meta.mpcbenchTask`), so the reporter can count a test
 * that timed out, failed before setting `mpcbench`, or never ran. Plain JSON.
 */
export interface MpcbenchPlannedTask {
  taskId: string
  taskType: TaskType | null
  scenarioId: string
  agentModel: string
  agentModelKind: 'llm' | 'baseline'
}

/**
 * A model id as shown in annotations and command output: the offline models that are not LLMs (the `baseline`
 * agent, the `rules` judge) read `baseline (not an LLM)`, `rules (not an LLM)`; LLM ids are shown as given.
 */
export function modelDisplayName(id: string, kind: 'llm' | 'baseline' | 'rules'): string {
  return kind === 'llm' ? id : `${id} (not an LLM)`
}
