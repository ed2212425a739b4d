import { ConfigError } from '../../core/errors.ts'
import { BUILT_IN_AGENT_IDS, createModel } from '../../llm/create-model.ts'
import type { ChatModel } from '../../llm/types.ts'
import type { JudgeInputFormat } from './judge-input.ts'
import type { Judge } from './judge.ts'
import { createLlmJudge } from './llm-judge.ts'
import { RULES_JUDGE_ID, createRulesJudge } from './rules-judge.ts'

/** Options of {@link createJudge}. */
export interface CreateJudgeOptions {
  /** The judge system prompt (`evaluation.judge.system_prompt` of `prompt_config.json`); unused by `rules`. */
  systemPrompt: string
  /**
   * Makes the chat model of an LLM judge.
   * @default (id) => createModel(id)
   */
  makeModel?: (id: string) => ChatModel
  /**
   * Attempts an LLM judge gets to return valid JSON.
   * @default 2
   */
  maxAttempts?: number
  /**
   * How an LLM judge is shown the judge input (`evaluation.judge.input_format` of `prompt_config.json`); see
   * `LlmJudgeOptions.inputFormat`.
   * @default 'upstream'
   */
  inputFormat?: JudgeInputFormat
}

/**
 * The judge named `id`: `rules` is the offline non-LLM judge; anything else is an LLM judge over `createModel(id)`.
 * The non-LLM `baseline` agent cannot judge (its results would be labelled as an LLM's): that is a `ConfigError`.
 */
export function createJudge(id: string, options: CreateJudgeOptions): Judge {
  if (id === RULES_JUDGE_ID) return createRulesJudge()
  if (BUILT_IN_AGENT_IDS.includes(id)) throw nonLlmJudgeError(id, id)
  const model = (options.makeModel ?? ((modelId: string) => createModel(modelId)))(id)
  if (model.kind !== 'llm') throw nonLlmJudgeError(id, model.kind)
  return createLlmJudge({
    model,
    systemPrompt: options.systemPrompt,
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    ...(options.inputFormat === undefined ? {} : { inputFormat: options.inputFormat }),
  })
}

function nonLlmJudgeError(id: string, kind: string): ConfigError {
  return new ConfigError(`Judge model ${JSON.stringify(id)} is the non-LLM ${kind} agent, which cannot judge`, {
    hint: `Use the offline judge \`${RULES_JUDGE_ID}\` (BENCH_JUDGE_MODEL=${RULES_JUDGE_ID}, --model ${RULES_JUDGE_ID}) or an LLM model id.`,
  })
}
