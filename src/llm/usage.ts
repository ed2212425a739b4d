import type { CompletionUsage } from 'openai/resources/completions'
import { type Usage, addUsage, emptyUsage } from './types.ts'

/** Sums usages (e.g. the traces of a run); an unknown cost anywhere makes the total cost unknown. */
export function sumUsage(usages: Iterable<Usage>): Usage {
  let total = emptyUsage()
  for (const usage of usages) total = addUsage(total, usage)
  return total
}

/** `$0.0123` for a known cost, `unknown` for null (a model without a price). */
export function formatCost(costUsd: number | null): string {
  if (costUsd === null) return 'unknown'
  return `$${costUsd < 0.01 && costUsd > 0 ? costUsd.toPrecision(2) : costUsd.toFixed(2)}`
}

/**
 * How much of a usage was paid and how much replayed from the response cache, e.g.
 * `; 2 call(s) paid, 8 replayed from the cache (10,500 tokens, $0.0210 not paid)`; empty when nothing was cached.
 */
export function formatCachedPart(usage: Usage): string {
  const cached = usage.cached
  if (cached === undefined || cached.calls === 0) return ''
  const saved = cached.costUsd === null ? 'unknown cost' : `${formatCost(cached.costUsd)} not paid`
  return `; ${(usage.calls - cached.calls).toLocaleString('en-US')} call(s) paid, ${cached.calls.toLocaleString('en-US')} replayed from the cache (${cached.totalTokens.toLocaleString('en-US')} tokens, ${saved})`
}

/** The cost of the calls that were sent (the total minus what was replayed from the cache); null when unknown. */
export function paidCostUsd(usage: Usage): number | null {
  if (usage.costUsd === null) return null
  if (usage.cached === undefined) return usage.costUsd
  return usage.cached.costUsd === null ? null : Math.max(0, usage.costUsd - usage.cached.costUsd)
}

/** The billed token counts of one chat completion, read from its `usage`. */
export interface ResponseTokens {
  promptTokens: number
  /** Output tokens, reasoning included. */
  completionTokens: number
  totalTokens: number
  /** The part of `promptTokens` served from the provider's prompt cache (priced apart). */
  cachedPromptTokens: number
  /** False when the response carried no usage (or no token counts): its tokens are not known, nor its cost. */
  reported: boolean
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined)

/**
 * Reads a response's `usage`. Reasoning tokens are output tokens: a server that reports them apart from
 * `completion_tokens` (its `total_tokens` is prompt + completion + reasoning) has them added to the completion tokens,
 * as OpenAI counts them. A response without token counts is `reported: false`, with zeros.
 */
export function responseTokens(usage: CompletionUsage | null | undefined): ResponseTokens {
  const prompt = count(usage?.prompt_tokens)
  const completionReported = count(usage?.completion_tokens)
  if (prompt === undefined || completionReported === undefined) {
    return {
      promptTokens: prompt ?? 0,
      completionTokens: completionReported ?? 0,
      totalTokens: count(usage?.total_tokens) ?? 0,
      cachedPromptTokens: 0,
      reported: false,
    }
  }
  const total = count(usage?.total_tokens)
  const reasoning = count(usage?.completion_tokens_details?.reasoning_tokens) ?? 0
  const completion = reasoning > 0 && total === prompt + completionReported + reasoning ? completionReported + reasoning : completionReported
  return {
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: total ?? prompt + completion,
    cachedPromptTokens: Math.min(prompt, count(usage?.prompt_tokens_details?.cached_tokens) ?? 0),
    reported: true,
  }
}
