import type { CallOptions, ChatModel, ChatResult } from '../llm/types.ts'
import { traceChat } from '../otel/tracing.ts'
import { BASELINE_PROVIDER_NAME } from './baseline-model.ts'

/** The model id users pass to pick the `null` agent (`BENCH_AGENT_MODEL=null`). */
export const NULL_MODEL_ID = 'null'

/** The model name every `null` reply carries, so no output can pass for an LLM's. */
export const NULL_MODEL_NAME = 'null (non-LLM)'

/** The rationale of every `null` answer. */
export const NULL_RATIONALE = 'null agent (not an LLM): answers every task with an empty answer and calls no tool, to check the graders'

/**
 * Creates the built-in `null` agent: it answers every request at once with an empty answer
 * (`{"final_answer": "", "rationale": ...}`) and calls no tool. It is not an LLM (`kind: 'baseline'`, the kind of
 * every built-in offline agent). A task it passes measures nothing: the reporters list such tasks as grader suspects.
 */
export function createNullModel(): ChatModel {
  return {
    id: NULL_MODEL_ID,
    kind: 'baseline',
    complete: (request, options?: CallOptions): Promise<ChatResult> =>
      traceChat({ provider: BASELINE_PROVIDER_NAME, model: NULL_MODEL_ID, request }, async () => {
        options?.signal?.throwIfAborted()
        return {
          message: { role: 'assistant', content: JSON.stringify({ final_answer: '', rationale: NULL_RATIONALE }), refusal: null },
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 1 },
          model: NULL_MODEL_NAME,
          finishReason: 'stop',
          cached: false,
        }
      }),
  }
}
