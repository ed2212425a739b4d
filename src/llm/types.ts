import type { ChatCompletionFunctionTool, ChatCompletionMessage, ChatCompletionMessageParam } from 'openai/resources/chat/completions'

export type { ChatCompletionFunctionTool, ChatCompletionMessage, ChatCompletionMessageParam }

/** Token counts and cost of one or more calls. `costUsd` is null when the model has no known price. */
export interface Usage {
  promptTokens: number
  completionTokens: number
  totalTokens: number
  costUsd: number | null
  /** Number of model calls summed into this usage. */
  calls: number
  /**
   * The part of the above that was replayed from the response cache (no request was sent, nothing was paid);
   * absent when no call was cached. Paid = the totals minus this.
   */
  cached?: CachedUsage
}

/** Tokens, priced cost and calls of the cached (replayed) calls inside a {@link Usage}. */
export interface CachedUsage {
  promptTokens: number
  completionTokens: number
  totalTokens: number
  costUsd: number | null
  calls: number
}

/** A usage of zero calls. */
export function emptyUsage(): Usage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 }
}

function addCounts<T extends CachedUsage>(a: T, b: CachedUsage): CachedUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
    calls: a.calls + b.calls,
  }
}

/** Sums two usages; an unknown cost on either side makes the sum's cost unknown. Cached parts are summed apart. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = addCounts(a, b)
  if (a.cached !== undefined || b.cached !== undefined) {
    const none: CachedUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 }
    sum.cached = addCounts(a.cached ?? none, b.cached ?? none)
  }
  return sum
}

/** Structured output: the reply must be JSON matching `schema`. */
export interface JsonSchemaResponseFormat {
  type: 'json_schema'
  name: string
  schema: Record<string, unknown>
  /**
   * Ask for strict structured outputs (the reply is guaranteed to match `schema`, which must then be in the strict
   * form: every property required, `additionalProperties: false`). Sent only to `openai/` models (other
   * OpenAI-compatible servers may refuse the field); elsewhere the schema is a hint and the reply is validated as usual.
   * @default false
   */
  strict?: boolean
}

/** One chat-completions request, independent of provider. */
export interface ChatRequest {
  messages: ChatCompletionMessageParam[]
  tools?: ChatCompletionFunctionTool[]
  /** Sent as `tool_choice` with `tools` (never without them); none sent when absent. */
  toolChoice?: 'auto' | 'none' | 'required'
  temperature?: number
  maxTokens?: number
  /**
   * The request field `maxTokens` goes in. Left out: `max_completion_tokens` for `openai/` models (reasoning models
   * reject `max_tokens`), `max_tokens` elsewhere. A harness that reproduces another's requests names it.
   */
  maxTokensParameter?: 'max_tokens' | 'max_completion_tokens'
  /** `json_object` asks for any JSON object; a JSON Schema asks for structured output where the provider supports it. */
  responseFormat?: { type: 'json_object' } | JsonSchemaResponseFormat
  /** Free-form label written to the call log (e.g. `agent`, `judge`, `generator:slack`). */
  purpose?: string
}

/** The assistant's reply to a {@link ChatRequest}. */
export interface ChatResult {
  message: ChatCompletionMessage
  usage: Usage
  /** The model id the server reports (may differ from the requested alias). */
  model: string
  finishReason: string | null
  /** Whether the reply came from the response cache (no HTTP call was made). */
  cached: boolean
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call, including any retry wait. */
  signal?: AbortSignal
  /**
   * Epoch milliseconds by which the call must end, attempts and retry waits included (e.g. derived from the test
   * timeout): each attempt's timeout is cut to the time left, and no retry starts without time left.
   */
  deadline?: number
  /**
   * Keeps this call's recorded response (`BENCH_CACHE`) apart from the same request's in other scopes: each trial of
   * `BENCH_TRIALS` after the first is one (`trial-2`, ..., see `trialCacheScope`), so no trial replays another's.
   */
  cacheScope?: string
}

/**
 * Anything that answers chat requests: an LLM behind an OpenAI-compatible API,
 * or the built-in non-LLM `baseline`.
 */
export interface ChatModel {
  /** The model id as the user gave it, e.g. `openai/gpt-4.1` or `baseline`. */
  readonly id: string
  /** `llm` for a real model; `baseline` for the deterministic non-LLM agent. Shown in every output. */
  readonly kind: 'llm' | 'baseline'
  complete(request: ChatRequest, options?: CallOptions): Promise<ChatResult>
}
