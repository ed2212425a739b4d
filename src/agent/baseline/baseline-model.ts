import type { ChatModel } from '../../llm/types.ts'

/** Creates the built-in deterministic non-LLM `baseline` agent (placeholder). */
export function createBaselineModel(): ChatModel {
  return {
    id: 'baseline',
    kind: 'baseline',
    async complete() {
      throw new Error('baseline: not implemented yet')
    },
  }
}
