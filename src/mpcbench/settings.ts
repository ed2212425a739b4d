import { z } from 'zod'
import { DEFAULT_AGENT_MAX_RETRIES, DEFAULT_AGENT_TIMEOUT_MS } from '../agent/trace.ts'
import { ConfigError } from '../core/errors.ts'
import { type HistorySettings, historySettingsFromEnv } from '../core/run-history.ts'

type Env = Record<string, string | undefined>

/** A whole number of at least `min` written as text (an environment variable). */
const wholeNumber = (min: number) =>
  z
    .string()
    .regex(/^\d+$/, `expected a whole number >= ${min}`)
    .transform(Number)
    .pipe(z.int().min(min, `expected a whole number >= ${min}`))

/** The MPCBench variables this module reads (unset or blank = the default). */
export const MpcbenchEnvSchema = z.object({
  MPCBENCH_AGENT_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  MPCBENCH_AGENT_TIMEOUT_MS: wholeNumber(1).default(DEFAULT_AGENT_TIMEOUT_MS),
  MPCBENCH_AGENT_MAX_RETRIES: wholeNumber(0).default(DEFAULT_AGENT_MAX_RETRIES),
  /** `BENCH_TRIALS`: runs per task x agent (default 1); with more, tests are named `... [trial=j]`. */
  BENCH_TRIALS: wholeNumber(1).default(1),
})

/** The external agent under test (`MPCBENCH_AGENT_URL`), POSTed `{taskId, userPrompt, tools: {mcpUrl}}` per task. */
export interface MpcbenchAgentSettings {
  url: string
  /** `MPCBENCH_AGENT_TIMEOUT_MS`: bound on one POST. */
  timeoutMs: number
  /** `MPCBENCH_AGENT_MAX_RETRIES`: retries of a POST that failed with a network error, a timeout, 408, 429 or 5xx. */
  maxRetries: number
}

/** MPCBench settings read from the environment. */
export interface MpcbenchSettings {
  /** The external agent under test, or undefined to run the models of `BENCH_AGENT_MODEL` / `model_config.json`. */
  agent: MpcbenchAgentSettings | undefined
  /** `BENCH_TRIALS`: runs per task x agent. */
  trials: number
}

/** Reads {@link MpcbenchSettings} from `env`; a bad value is a `ConfigError` naming the variable and the fix. */
export function mpcbenchSettingsFromEnv(env: Env = process.env): MpcbenchSettings {
  const present: Record<string, string> = {}
  for (const name of Object.keys(MpcbenchEnvSchema.shape)) {
    const value = env[name]?.trim()
    if (value !== undefined && value !== '') present[name] = value
  }
  const parsed = MpcbenchEnvSchema.safeParse(present)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const name = String(issue?.path[0] ?? 'environment')
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(present[name])}: ${issue?.message ?? 'invalid value'}.`, {
      hint: `Correct ${name}, or unset it for the default.`,
      cause: parsed.error,
    })
  }
  const { MPCBENCH_AGENT_URL: url, MPCBENCH_AGENT_TIMEOUT_MS: timeoutMs, MPCBENCH_AGENT_MAX_RETRIES: maxRetries, BENCH_TRIALS: trials } = parsed.data
  return { agent: url === undefined ? undefined : { url, timeoutMs, maxRetries }, trials }
}

/** File name of an MPCBench run's summary in its history folder (`evaluation/history/{run id}/`). */
export const MPCBENCH_HISTORY_FILE = 'mpcbench-summary.json'

/** `BENCH_HISTORY_DIR` (default `evaluation/history`, relative to `root`) and `BENCH_HISTORY_KEEP` (default 20, 0 = off). */
export function mpcbenchHistorySettings(env: Env = process.env, root = process.cwd()): HistorySettings {
  return historySettingsFromEnv(env, root)
}

/**
 * The trial numbers of one task x agent: `[undefined]` for one trial (plain test names), else `[1, ..., k]`
 * (tests named `... [trial=j]`).
 */
export function trialNumbers(trials: number): Array<number | undefined> {
  return trials <= 1 ? [undefined] : Array.from({ length: trials }, (_, i) => i + 1)
}
