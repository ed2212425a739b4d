import { z } from 'zod'
import { ConfigError } from '../core/errors.ts'
import { DEFAULT_TOOL_PROFILE, TOOL_PROFILES, type ToolProfile } from './workplace/tool-profiles.ts'

type Env = Record<string, string | undefined>

/**
 * The turn cap of MPCBench agent runs. Upstream's agent loop has no cap; 50 turns is far above what its runs use,
 * so a capped run (outcome `max-turns`, recorded as such) means a looping agent, not a cut-short one.
 */
export const MPCBENCH_TURN_CAP = 50

/** Sampling temperature of MPCBench agents unless `model_config.json` sets `agent_temperature` (upstream sends 0). */
export const DEFAULT_AGENT_TEMPERATURE = 0

const blankAsUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : typeof value === 'string' ? value.trim() : value)

/**
 * MPCBench run settings from the environment, parsed once (CLI flags override them per command):
 * - `MPCBENCH_TOOLS`: the tool profile, `upstream-v1` (default) or `extended`;
 * - `MPCBENCH_PROMPT_CONFIG` / `MPCBENCH_MODEL_CONFIG`: prompt and model config files (default `prompt_config.json`,
 *   `model_config.json` in the project root); upstream's files work as they are;
 * - `MPCBENCH_LLM_CONTEXT`: a folder of `llm_context/*.md` files for the agent's developer message (default: an
 *   `llm_context/` folder beside the prompt config, else none);
 * - `MPCBENCH_MAX_TURNS`: the agent turn cap (default {@link MPCBENCH_TURN_CAP}).
 */
export const MpcbenchSettingsSchema = z.object({
  MPCBENCH_TOOLS: z.preprocess(blankAsUndefined, z.enum(TOOL_PROFILES).default(DEFAULT_TOOL_PROFILE)),
  MPCBENCH_PROMPT_CONFIG: z.preprocess(blankAsUndefined, z.string().optional()),
  MPCBENCH_MODEL_CONFIG: z.preprocess(blankAsUndefined, z.string().optional()),
  MPCBENCH_LLM_CONTEXT: z.preprocess(blankAsUndefined, z.string().optional()),
  MPCBENCH_MAX_TURNS: z.preprocess(blankAsUndefined, z.coerce.number().int().min(1).default(MPCBENCH_TURN_CAP)),
})

/** MPCBench settings; see {@link MpcbenchSettingsSchema}. */
export interface MpcbenchSettings {
  toolProfile: ToolProfile
  promptConfig: string | undefined
  modelConfig: string | undefined
  llmContext: string | undefined
  maxTurns: number
}

/** Reads {@link MpcbenchSettings} from `env`; a bad value is a `ConfigError` naming the variable and its choices. */
export function mpcbenchSettingsFromEnv(env: Env = process.env): MpcbenchSettings {
  const result = MpcbenchSettingsSchema.safeParse(env)
  if (!result.success) {
    const issue = result.error.issues[0]
    const name = String(issue?.path[0] ?? 'MPCBENCH_*')
    const hints: Record<string, string> = {
      MPCBENCH_TOOLS: `Set MPCBENCH_TOOLS to one of ${TOOL_PROFILES.join(', ')}, or unset it for ${DEFAULT_TOOL_PROFILE}.`,
      MPCBENCH_MAX_TURNS: `Set MPCBENCH_MAX_TURNS to a whole number >= 1, or unset it for ${MPCBENCH_TURN_CAP}.`,
    }
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: ${issue?.message ?? 'invalid value'}`, {
      hint: hints[name] ?? `Fix or unset ${name}.`,
      cause: result.error,
    })
  }
  const s = result.data
  return {
    toolProfile: s.MPCBENCH_TOOLS,
    promptConfig: s.MPCBENCH_PROMPT_CONFIG,
    modelConfig: s.MPCBENCH_MODEL_CONFIG,
    llmContext: s.MPCBENCH_LLM_CONTEXT,
    maxTurns: s.MPCBENCH_MAX_TURNS,
  }
}

let fromProcessEnv: MpcbenchSettings | undefined

/** {@link mpcbenchSettingsFromEnv} of `process.env`, parsed once per process. */
export function mpcbenchSettings(): MpcbenchSettings {
  fromProcessEnv ??= mpcbenchSettingsFromEnv(process.env)
  return fromProcessEnv
}

/** A `--tools` flag value (or, when absent, the setting) as a profile; an unknown name is a `ConfigError`. */
export function toolProfileFlag(value: string | undefined, fallback: ToolProfile = mpcbenchSettings().toolProfile): ToolProfile {
  if (value === undefined) return fallback
  if ((TOOL_PROFILES as ReadonlyArray<string>).includes(value)) return value as ToolProfile
  throw new ConfigError(`Unknown tool profile --tools ${JSON.stringify(value)}`, { hint: `Use --tools ${TOOL_PROFILES.join(' or --tools ')}.` })
}
