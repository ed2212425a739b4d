import { z } from 'zod'
import { readJsonFile } from '../core/parse.ts'

/** USD per one million tokens. */
export const ModelPriceSchema = z.object({
  inputPerMillion: z.number().nonnegative(),
  outputPerMillion: z.number().nonnegative(),
})
export type ModelPrice = z.infer<typeof ModelPriceSchema>

/** Prices by model id; keys are full ids (`openai/gpt-4.1`) or bare model names (`gpt-4.1`). */
export const PriceTableSchema = z.record(z.string(), ModelPriceSchema)
export type PriceTable = z.infer<typeof PriceTableSchema>

/** The date {@link DEFAULT_PRICES} were taken from the providers' public price pages. Check before trusting costs. */
export const PRICES_AS_OF = '2025-10-01'

/**
 * Standard (non-batch, non-cached-input) list prices, USD per 1M tokens, as of {@link PRICES_AS_OF}.
 * Override or extend with the `prices` option or a JSON file (`BENCH_PRICES_FILE`) shaped like {@link PriceTableSchema}.
 */
export const DEFAULT_PRICES: PriceTable = {
  'openai/gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'openai/gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'openai/gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'openai/gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'openai/gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'openai/o3': { inputPerMillion: 2, outputPerMillion: 8 },
  'openai/o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  'openai/gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10 },
  'openai/gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2 },
  'anthropic/claude-sonnet-4-5': { inputPerMillion: 3, outputPerMillion: 15 },
  'anthropic/claude-haiku-4-5': { inputPerMillion: 1, outputPerMillion: 5 },
  'anthropic/claude-opus-4-1': { inputPerMillion: 15, outputPerMillion: 75 },
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

/** Cost in USD of one call, or null when the model has no known price. */
export function costUsd(modelId: string, promptTokens: number, completionTokens: number, prices: PriceTable = DEFAULT_PRICES): number | null {
  const price = priceOf(modelId, prices)
  if (price === null) return null
  return (promptTokens * price.inputPerMillion + completionTokens * price.outputPerMillion) / 1_000_000
}
