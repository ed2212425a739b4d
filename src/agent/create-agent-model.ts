import { createBaselineModel } from '../baseline/baseline-model.ts'
import { NULL_MODEL_ID, createNullModel } from '../baseline/null-model.ts'
import type { Strategy } from '../baseline/strategy.ts'
import { type CreateModelOptions, createModel } from '../llm/create-model.ts'
import type { ChatModel } from '../llm/types.ts'

/** Options of {@link createAgentModel}. */
export interface CreateAgentModelOptions extends CreateModelOptions {
  /** The benchmark's strategies for the non-LLM `baseline` agent. */
  baselineStrategies: ReadonlyArray<Strategy>
}

/**
 * The agent for an id: `baseline` is the built-in non-LLM agent working the benchmark's strategies; `null` is the
 * built-in non-LLM agent that answers empty without calling a tool (a grader check); anything else is an LLM from {@link createModel}.
 */
export function createAgentModel(id: string, options: CreateAgentModelOptions): ChatModel {
  const { baselineStrategies, ...modelOptions } = options
  if (id === 'baseline') return createBaselineModel(baselineStrategies)
  if (id === NULL_MODEL_ID) return createNullModel()
  return createModel(id, modelOptions)
}
