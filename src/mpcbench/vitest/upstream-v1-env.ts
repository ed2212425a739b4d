import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The environment the upstream v1 benches resolve their harness from: unless `MPCBENCH_PROMPT_CONFIG` is set, upstream's
 * own `prompt_config.json` in `upstreamDir` (its agent system message and judge prompt; its `llm_context/` beside it
 * gives the developer message). Scores of upstream's tasks compare with upstream's only under upstream's prompts; this
 * project's `prompt_config.json` holds its own, shorter ones. The model matrix stays the user's.
 */
export function upstreamV1Env(upstreamDir: string, env: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  const promptConfig = join(upstreamDir, 'prompt_config.json')
  if ((env.MPCBENCH_PROMPT_CONFIG ?? '') !== '' || !existsSync(promptConfig)) return env
  return { ...env, MPCBENCH_PROMPT_CONFIG: promptConfig }
}
