import type { ChatCompletionMessage, ChatResult } from '../llm/types.ts'
import { toWireName } from '../tools/define-tool.ts'

/** The model name every baseline reply carries, so no output can pass for an LLM's. */
export const BASELINE_MODEL_NAME = 'baseline (non-LLM)'

/** One tool call the baseline wants to make. */
export interface PlannedCall {
  /** Display name (`Slack.search_messages`); sent as its wire name. */
  name: string
  arguments: Record<string, unknown>
}

/** What the baseline does next. */
export type BaselineStep =
  /** Call tools (in parallel, in this order); `note` goes in the assistant content. */
  | { kind: 'call'; calls: PlannedCall[]; note: string }
  /** Answer as MPCBench expects: assistant content `{"final_answer", "rationale"}`. */
  | { kind: 'json-answer'; finalAnswer: string; rationale: string }
  /** Plain text reply (used when no known tool is offered). */
  | { kind: 'text'; text: string }

/** Prefix of every rationale and note, marking the reply as the non-LLM baseline's. */
export const HEURISTIC = 'baseline heuristic'

/**
 * Turns a step into the assistant reply the loop sees. Tool call ids are derived from the
 * turn and position (`baseline-t2-c0`), so identical histories give identical replies.
 */
export function toChatResult(step: BaselineStep, turn: number): ChatResult {
  let message: ChatCompletionMessage
  let finishReason: string
  if (step.kind === 'call') {
    message = {
      role: 'assistant',
      content: `${HEURISTIC}: ${step.note}`,
      refusal: null,
      tool_calls: step.calls.map((call, index) => ({
        id: `baseline-t${turn}-c${index}`,
        type: 'function',
        function: { name: toWireName(call.name), arguments: JSON.stringify(call.arguments) },
      })),
    }
    finishReason = 'tool_calls'
  } else if (step.kind === 'json-answer') {
    const rationale = step.rationale.startsWith(HEURISTIC) ? step.rationale : `${HEURISTIC}: ${step.rationale}`
    message = { role: 'assistant', content: JSON.stringify({ final_answer: step.finalAnswer, rationale }), refusal: null }
    finishReason = 'stop'
  } else {
    message = { role: 'assistant', content: step.text, refusal: null }
    finishReason = 'stop'
  }
  return {
    message,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 1 },
    model: BASELINE_MODEL_NAME,
    finishReason,
    cached: false,
  }
}
