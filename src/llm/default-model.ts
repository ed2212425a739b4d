import { z } from 'zod'
import { ConfigError } from '../core/errors.ts'
import { parseWith } from '../core/parse.ts'
import { DEFAULT_CALL_LOG_DIR, DEFAULT_CALL_LOG_KEEP } from './call-log.ts'
import { DEFAULT_TIMEOUT_MS } from './openai-chat-model.ts'
import { type PriceTable, loadPriceTable } from './pricing.ts'
import { type Env, envValue } from './providers.ts'
import { type CacheMode, CacheModeSchema, DEFAULT_CACHE_DIR } from './response-cache.ts'
import { DEFAULT_RETRY_POLICY } from './retry.ts'

/** Default model per key variable, tried in this order. */
export const DEFAULT_MODEL_BY_KEY: ReadonlyArray<readonly [variable: string, model: string]> = [
  ['OPENAI_API_KEY', 'openai/gpt-4.1-mini'],
  ['ANTHROPIC_API_KEY', 'anthropic/claude-sonnet-4-5'],
  ['GEMINI_API_KEY', 'google/gemini-2.5-flash'],
]

/**
 * The agent model to use when none is given:
 * 1. `BENCH_AGENT_MODEL` when set;
 * 2. else, when `OPENAI_BASE_URL` is set, a {@link ConfigError} (we cannot guess which model a custom server serves);
 * 3. else the first of `OPENAI_API_KEY` → `openai/gpt-4.1-mini`, `ANTHROPIC_API_KEY` → `anthropic/claude-sonnet-4-5`,
 *    `GEMINI_API_KEY` → `google/gemini-2.5-flash` whose variable is set;
 * 4. else `baseline`, the offline non-LLM agent.
 */
export function defaultAgentModel(env: Env = process.env): string {
  const explicit = envValue(env, 'BENCH_AGENT_MODEL')
  if (explicit !== undefined) return explicit
  if (envValue(env, 'OPENAI_BASE_URL') !== undefined) {
    throw new ConfigError('OPENAI_BASE_URL is set but BENCH_AGENT_MODEL is not, so the model to ask that server for is unknown', {
      hint: 'Set BENCH_AGENT_MODEL to the model id the server serves (e.g. `llama3.1:8b`), or unset OPENAI_BASE_URL.',
    })
  }
  for (const [variable, model] of DEFAULT_MODEL_BY_KEY) if (envValue(env, variable) !== undefined) return model
  return 'baseline'
}

/** Model settings that come from the environment; every field is optional in `createModel`. */
export interface ModelSettings {
  cache: { mode: CacheMode; dir: string }
  /** false disables the call log. */
  callLogDir: string | false
  /** Call log files a folder keeps across runs (the oldest go first); 0 keeps all. */
  callLogKeep: number
  timeoutMs: number
  maxRetries: number
  /** Extra prices (merged over the defaults), from `BENCH_PRICES_FILE`. */
  prices: PriceTable | undefined
}

/** The model client's variables, parsed once by {@link modelSettingsFromEnv}. */
export const EnvSettingsSchema = z.object({
  BENCH_CACHE: CacheModeSchema.default('off'),
  BENCH_CACHE_DIR: z.string().default(DEFAULT_CACHE_DIR),
  BENCH_LLM_LOG_DIR: z.string().default(DEFAULT_CALL_LOG_DIR),
  BENCH_LLM_LOG_KEEP: z.coerce.number().int().nonnegative().default(DEFAULT_CALL_LOG_KEEP),
  BENCH_LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(DEFAULT_TIMEOUT_MS),
  BENCH_LLM_MAX_RETRIES: z.coerce.number().int().nonnegative().default(DEFAULT_RETRY_POLICY.maxRetries),
  BENCH_PRICES_FILE: z.string().optional(),
})

/**
 * Reads model settings from the environment:
 * `BENCH_CACHE` (`off`|`read-write`|`replay`, default `off`), `BENCH_CACHE_DIR` (default `fixtures/cassettes`),
 * `BENCH_LLM_LOG_DIR` (default `evaluation/logs/llm`; `off` disables the call log),
 * `BENCH_LLM_LOG_KEEP` (call log files kept in that folder across runs, oldest removed first; default 200, 0 = all),
 * `BENCH_LLM_TIMEOUT_MS` (default 120000), `BENCH_LLM_MAX_RETRIES` (default 4),
 * `BENCH_PRICES_FILE` (a JSON price table merged over the defaults).
 */
export function modelSettingsFromEnv(env: Env = process.env): ModelSettings {
  const present: Record<string, string> = {}
  for (const name of Object.keys(EnvSettingsSchema.shape)) {
    const value = envValue(env, name)
    if (value !== undefined) present[name] = value
  }
  let parsed: z.output<typeof EnvSettingsSchema>
  try {
    parsed = parseWith(EnvSettingsSchema, present, 'environment')
  } catch (error) {
    throw new ConfigError((error as Error).message.split('\n  Fix:')[0] ?? 'Invalid environment', {
      hint: 'BENCH_CACHE is off, read-write or replay; BENCH_LLM_TIMEOUT_MS, BENCH_LLM_MAX_RETRIES and BENCH_LLM_LOG_KEEP are whole numbers.',
      cause: error,
    })
  }
  return {
    cache: { mode: parsed.BENCH_CACHE, dir: parsed.BENCH_CACHE_DIR },
    callLogDir: parsed.BENCH_LLM_LOG_DIR === 'off' ? false : parsed.BENCH_LLM_LOG_DIR,
    callLogKeep: parsed.BENCH_LLM_LOG_KEEP,
    timeoutMs: parsed.BENCH_LLM_TIMEOUT_MS,
    maxRetries: parsed.BENCH_LLM_MAX_RETRIES,
    prices: parsed.BENCH_PRICES_FILE === undefined ? undefined : loadPriceTable(parsed.BENCH_PRICES_FILE),
  }
}
