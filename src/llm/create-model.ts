import { ConfigError } from '../core/errors.ts'
import { CallLog } from './call-log.ts'
import { modelSettingsFromEnv } from './default-model.ts'
import { createOpenAIChatModel } from './openai-chat-model.ts'
import { DEFAULT_PRICES, type PriceTable } from './pricing.ts'
import { PLACEHOLDER_API_KEY, PROVIDERS, resolveModel } from './providers.ts'
import { type CacheMode, ResponseCache } from './response-cache.ts'
import type { RetryPolicy } from './retry.ts'
import type { ChatModel } from './types.ts'

/**
 * Ids of the built-in agents that are not LLMs (see `createAgentModel`): `baseline` (heuristics over the tools) and
 * `null` (an empty answer, no tool call; it checks the graders).
 */
export const BUILT_IN_AGENT_IDS: ReadonlyArray<string> = ['baseline', 'null']

/** Options of {@link createModel}; each falls back to the environment (see `modelSettingsFromEnv`). */
export interface CreateModelOptions {
  /** Where keys and settings are read. @default process.env */
  env?: Record<string, string | undefined>
  /** @default BENCH_CACHE / BENCH_CACHE_DIR, else `{mode: 'off', dir: 'fixtures/cassettes'}` */
  cache?: { mode: CacheMode; dir?: string }
  /** Folder of per-call JSON logs; false disables. @default BENCH_LLM_LOG_DIR, else `evaluation/logs/llm` */
  callLogDir?: string | false
  /** Per-request timeout. @default BENCH_LLM_TIMEOUT_MS, else 120000 */
  timeoutMs?: number
  /** @default BENCH_LLM_MAX_RETRIES, else 4 */
  maxRetries?: number
  /** Backoff spacing (tests shorten it). @default 1 s base doubling to 30 s, jittered */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>
  /** Prices merged over `DEFAULT_PRICES` (and over `BENCH_PRICES_FILE`). */
  prices?: PriceTable
}

/**
 * Creates the LLM for an id (`openai/gpt-4.1`, `anthropic/...`, `google/...`, or a bare id for `OPENAI_BASE_URL`):
 * a model behind the `openai` SDK, with retries, the response cache and the call log. A missing key throws a `ConfigError` naming the variable,
 * except in cache `replay` mode, which needs no key.
 */
export function createModel(id: string, options: CreateModelOptions = {}): ChatModel {
  if (BUILT_IN_AGENT_IDS.includes(id)) {
    throw new ConfigError(`\`${id}\` is a built-in non-LLM agent, not a model createModel can reach`, {
      hint: 'Create agents with `createAgentModel(id, { baselineStrategies })`, which knows the built-in agents.',
    })
  }
  const env = options.env ?? process.env
  const settings = modelSettingsFromEnv(env)
  const cacheMode = options.cache?.mode ?? settings.cache.mode
  // Replay makes no HTTP call, so it runs without a key (e.g. in CI).
  const target = resolveModel(id, env, { requireKey: cacheMode !== 'replay' })
  const cacheDir = options.cache?.dir ?? settings.cache.dir
  const callLogDir = options.callLogDir ?? settings.callLogDir
  const secrets = [...Object.values(PROVIDERS).map((provider) => env[provider.keyVariable]), target.apiKey].filter(
    (value): value is string => value !== undefined && value.trim() !== '' && value !== PLACEHOLDER_API_KEY,
  )
  return createOpenAIChatModel({
    target,
    timeoutMs: options.timeoutMs ?? settings.timeoutMs,
    retry: { ...options.retry, maxRetries: options.maxRetries ?? settings.maxRetries },
    prices: { ...DEFAULT_PRICES, ...settings.prices, ...options.prices },
    ...(cacheMode === 'off' ? {} : { cache: new ResponseCache(cacheMode, cacheDir) }),
    ...(callLogDir === false ? {} : { callLog: new CallLog(callLogDir, secrets, { keep: settings.callLogKeep }) }),
  })
}
