import { z } from 'zod'
import { DEFAULT_AGENT_MAX_RETRIES, DEFAULT_AGENT_TIMEOUT_MS } from '../agent/trace.ts'
import { ConfigError } from '../core/errors.ts'

type Env = Record<string, string | undefined>

const wholeNumber = (min: number) => z.coerce.number().int().min(min)

/** The MPCBench variables this module reads (unset or blank = the default). */
const MpcbenchEnvSchema = z.object({
  MPCBENCH_AGENT_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  MPCBENCH_AGENT_TIMEOUT_MS: wholeNumber(1).default(DEFAULT_AGENT_TIMEOUT_MS),
  MPCBENCH_AGENT_MAX_RETRIES: wholeNumber(0).default(DEFAULT_AGENT_MAX_RETRIES),
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
}

/** Reads {@link MpcbenchSettings} from `env`; a bad value is a `ConfigError` naming the variable. */
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
  const { MPCBENCH_AGENT_URL: url, MPCBENCH_AGENT_TIMEOUT_MS: timeoutMs, MPCBENCH_AGENT_MAX_RETRIES: maxRetries } = parsed.data
  return { agent: url === undefined ? undefined : { url, timeoutMs, maxRetries } }
}
