import type { JudgeInput } from './judge-input.ts'
import type { JudgeKind, JudgeOutcome } from './judge-result.ts'

/** Options of one judging call. */
export interface JudgeOptions {
  /** Cancels the judge's model calls. */
  signal?: AbortSignal
  /** Epoch ms by which each of the judge's model calls must end (see `CallOptions.deadline`). */
  deadline?: number
  /** The response cache scope of the judge's model calls (see `CallOptions.cacheScope`). */
  cacheScope?: string
}

/**
 * Scores one judge input on the two MPCBench axes. Implementations: the LLM judge ({@link createLlmJudge})
 * and the offline `rules` judge ({@link createRulesJudge}), which is not an LLM.
 */
export interface Judge {
  /** The judge model id as the user gave it (`openai/gpt-4.1`, `rules`). */
  readonly id: string
  readonly kind: JudgeKind
  judge(input: JudgeInput, options?: JudgeOptions): Promise<JudgeOutcome>
}
