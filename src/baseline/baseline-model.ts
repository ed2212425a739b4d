import type { CallOptions, ChatModel, ChatRequest, ChatResult } from '../llm/types.ts'
import { readConversation } from './conversation.ts'
import { BASELINE_MODEL_NAME, toChatResult } from './step.ts'
import type { Strategy } from './strategy.ts'
import { traceChat } from '../otel/tracing.ts'

/** The model id users pass to pick the baseline. */
export const BASELINE_MODEL_ID = 'baseline'

/**
 * Creates the built-in deterministic non-LLM `baseline` agent. It implements {@link ChatModel} so it
 * runs through the same tool loop as a real model, but it keeps no state: each `complete` call reads
 * the message history and the offered tools and decides the next step. Replies carry the model name
 * `baseline (non-LLM)` and rationales starting with `baseline heuristic`; usage is zero tokens, cost 0.
 *
 * The engine knows no benchmark: each benchmark passes its strategies, tried in order; the first whose
 * tools are offered works the request.
 */
export function createBaselineModel(strategies: ReadonlyArray<Strategy>): ChatModel {
  return {
    id: BASELINE_MODEL_ID,
    kind: 'baseline',
    // Its `chat` spans (OpenTelemetry) name it as the provider: `gen_ai.provider.name` `vitest-agent-bench.baseline`.
    complete: (request: ChatRequest, options?: CallOptions): Promise<ChatResult> =>
      traceChat({ provider: BASELINE_PROVIDER_NAME, model: BASELINE_MODEL_ID, request }, async () => {
        options?.signal?.throwIfAborted()
        const conversation = readConversation(request)
        const turn = conversation.assistantTurns + 1
        const strategy = strategies.find((s) => s.appliesTo(conversation.tools))
        if (strategy === undefined) {
          const offered = [...conversation.tools]
          return toChatResult(
            {
              kind: 'text',
              text: `${BASELINE_MODEL_NAME} cannot help with this request: it only knows the tools of its strategies (${strategies.map((s) => s.name).join(', ') || 'none'}), and ${offered.length === 0 ? 'no tool was offered' : `the offered tools were ${offered.join(', ')}`}.`,
            },
            turn,
          )
        }
        return toChatResult(strategy.next(conversation), turn)
      }),
  }
}

/** The `gen_ai.provider.name` of the offline agents' `chat` spans: they are no LLM provider, so the harness names itself. */
export const BASELINE_PROVIDER_NAME = 'vitest-agent-bench.baseline'
