import { z } from 'zod'
import { readJsonFile } from '../core/parse.ts'

/** USD per one million tokens. */
export const ModelPriceSchema = z.object({
  inputPerMillion: z.number().nonnegative(),
  outputPerMillion: z.number().nonnegative(),
  /**
   * Input tokens the provider served from its prompt cache (`prompt_tokens_details.cached_tokens`). Without it, the cost
   * of a call that reports cached input tokens is unknown (null): its discount is not known.
   */
  cachedInputPerMillion: z.number().nonnegative().optional(),
})
export type ModelPrice = z.infer<typeof ModelPriceSchema>

/** Prices by model id; keys are full ids (`openai/gpt-4.1`) or bare model names (`gpt-4.1`). */
export const PriceTableSchema = z.record(z.string(), ModelPriceSchema)
export type PriceTable = z.infer<typeof PriceTableSchema>

/** The date {@link DEFAULT_PRICES} were taken from the providers' public price pages. Check before trusting costs. */
export const PRICES_AS_OF = '2025-10-01'

/**
 * Standard (non-batch) list prices, USD per 1M tokens, as of {@link PRICES_AS_OF}, with the price of cached input
 * (prompt cache reads) where the provider lists one for its OpenAI-compatible API.
 * Override or extend with the `prices` option or a JSON file (`BENCH_PRICES_FILE`) shaped like {@link PriceTableSchema}.
 */
export const DEFAULT_PRICES: PriceTable = {
  'openai/gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  'openai/gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6, cachedInputPerMillion: 0.1 },
  'openai/gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4, cachedInputPerMillion: 0.025 },
  'openai/gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10, cachedInputPerMillion: 1.25 },
  'openai/gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6, cachedInputPerMillion: 0.075 },
  'openai/o3': { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  'openai/o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4, cachedInputPerMillion: 0.275 },
  'openai/gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.125 },
  'openai/gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2, cachedInputPerMillion: 0.025 },
  'anthropic/claude-sonnet-4-5': { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 },
  'anthropic/claude-haiku-4-5': { inputPerMillion: 1, outputPerMillion: 5, cachedInputPerMillion: 0.1 },
  'anthropic/claude-opus-4-1': { inputPerMillion: 15, outputPerMillion: 75, cachedInputPerMillion: 1.5 },
  'google/gemini-2.5-pro': { inputPerMillion: 1.25, outputPerMillion: 10 },
  'google/gemini-2.5-flash': { inputPerMillion: 0.3, outputPerMillion: 2.5 },
}

/** Reads a price table JSON file (`{"openai/gpt-4.1": {"inputPerMillion": 2, "outputPerMillion": 8}}`). */
export function loadPriceTable(file: string): PriceTable {
  return readJsonFile(PriceTableSchema, file, 'price table')
}

/** The price of a model: an exact id match first, then the id without its provider prefix; null when unknown. */
export function priceOf(modelId: string, prices: PriceTable = DEFAULT_PRICES): ModelPrice | null {
  if (Object.hasOwn(prices, modelId)) return prices[modelId] ?? null
  const slash = modelId.indexOf('/')
  if (slash > 0) {
    const bare = modelId.slice(slash + 1)
    if (Object.hasOwn(prices, bare)) return prices[bare] ?? null
  }
  return null
}

/**
 * Cost in USD of one call: `cachedPromptTokens` of its `promptTokens` (served from the provider's prompt cache) at
 * `cachedInputPerMillion`, the rest at `inputPerMillion`. Null when the model has no known price, or when some input
 * was cached and the model has no cached-input price.
 */
export function costUsd(
  modelId: string,
  promptTokens: number,
  completionTokens: number,
  prices: PriceTable = DEFAULT_PRICES,
  cachedPromptTokens = 0,
): number | null {
  const price = priceOf(modelId, prices)
  if (price === null) return null
  const cached = Math.min(Math.max(0, cachedPromptTokens), promptTokens)
  if (cached > 0 && price.cachedInputPerMillion === undefined) return null
  return ((promptTokens - cached) * price.inputPerMillion + cached * (price.cachedInputPerMillion ?? 0) + completionTokens * price.outputPerMillion) / 1_000_000
}
