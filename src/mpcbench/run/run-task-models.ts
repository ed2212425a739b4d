import { DEFAULT_MODEL_BY_KEY, defaultAgentModel } from '../../llm/default-model.ts'
import { RULES_JUDGE_ID } from '../judge/rules-judge.ts'

type Env = Record<string, string | undefined>

/** Where the models of a run came from, shown in reports. */
export type MatrixSource = 'env' | 'model_config' | 'offline-default'

/** The agent × judge matrix of an MPCBench run. */
export interface ModelMatrix {
  agents: string[]
  agentsFrom: MatrixSource
  judges: string[]
  judgesFrom: MatrixSource
}

function listFromEnv(env: Env, name: string): string[] | undefined {
  const value = env[name]?.trim()
  if (value === undefined || value === '') return undefined
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  return list.length === 0 ? undefined : [...new Set(list)]
}

/** Whether any LLM endpoint is configured: a provider key variable or `OPENAI_BASE_URL`. */
export function llmConfigured(env: Env = process.env): boolean {
  const variables = [...DEFAULT_MODEL_BY_KEY.map(([variable]) => variable), 'OPENAI_BASE_URL']
  return variables.some((variable) => (env[variable]?.trim() ?? '') !== '')
}

/**
 * The agents and judges to run (`overrides`, e.g. CLI flags, come first):
 * - agents: `BENCH_AGENT_MODEL` (comma-separated) when set; else `model_config.json` `agent_models` when an LLM
 *   is configured (a key variable or `OPENAI_BASE_URL`); else `defaultAgentModel(env)` (`baseline` offline).
 * - judges: `BENCH_JUDGE_MODEL` (comma-separated) when set; else `judge_models` when an LLM is configured;
 *   else `rules`, the offline judge (not an LLM).
 */
export function resolveModelMatrix(
  config: { agent_models: string[]; judge_models: string[] } | undefined,
  env: Env = process.env,
  /** Explicit lists (CLI flags), taking precedence over everything else. */
  overrides: { agents?: string[] | undefined; judges?: string[] | undefined } = {},
): ModelMatrix {
  const online = llmConfigured(env)
  const envAgents = overrides.agents ?? listFromEnv(env, 'BENCH_AGENT_MODEL')
  const envJudges = overrides.judges ?? listFromEnv(env, 'BENCH_JUDGE_MODEL')
  const agents: Pick<ModelMatrix, 'agents' | 'agentsFrom'> =
    envAgents !== undefined
      ? { agents: envAgents, agentsFrom: 'env' }
      : online && config !== undefined
        ? { agents: [...new Set(config.agent_models)], agentsFrom: 'model_config' }
        : { agents: [defaultAgentModel(env)], agentsFrom: 'offline-default' }
  const judges: Pick<ModelMatrix, 'judges' | 'judgesFrom'> =
    envJudges !== undefined
      ? { judges: envJudges, judgesFrom: 'env' }
      : online && config !== undefined
        ? { judges: [...new Set(config.judge_models)], judgesFrom: 'model_config' }
        : { judges: [RULES_JUDGE_ID], judgesFrom: 'offline-default' }
  return { ...agents, ...judges }
}
