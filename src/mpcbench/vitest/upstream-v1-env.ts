import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { loadModelConfig } from '../config/model-config.ts'
import { type ModelMatrix, resolveModelMatrix } from '../run/run-task-models.ts'
import { mpcbenchSettingsFromEnv } from '../settings.ts'

/**
 * The environment the upstream v1 benches resolve their harness from: unless `MPCBENCH_PROMPT_CONFIG` is set, upstream's
 * own `prompt_config.json` in `upstreamDir` (its agent system message and judge prompt; its `llm_context/` beside it
 * gives the developer message). Scores of upstream's tasks compare with upstream's only under upstream's prompts; this
 * project's `prompt_config.json` holds its own, shorter ones. The model matrix stays the user's, but for its judges
 * (see {@link upstreamV1Judges}).
 */
export function upstreamV1Env(upstreamDir: string, env: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  const promptConfig = join(upstreamDir, 'prompt_config.json')
  if ((env.MPCBENCH_PROMPT_CONFIG ?? '') !== '' || !existsSync(promptConfig)) return env
  return { ...env, MPCBENCH_PROMPT_CONFIG: promptConfig }
}

/**
 * The judges of the upstream v1 benches: upstream's `model_config.json` in `upstreamDir` (`judge_models: ["gpt-5.1"]`
 * at `eb0b7ca`, which `run_task_and_judge.py` judges with) in place of this project's, resolved as every judge list is
 * (`resolveModelMatrix`): `BENCH_JUDGE_MODEL` still wins, and with no LLM configured the offline `rules` judge runs.
 * Upstream's ids are kept as written: a bare id is an OpenAI model (`OPENAI_API_KEY`, `OPENAI_BASE_URL`), as
 * `MPCBENCH_MODEL_CONFIG` pointed at the same file reads it. `undefined`, the user's judges staying, when
 * `MPCBENCH_MODEL_CONFIG` names a model config (it then chooses the judges too) or `upstreamDir` has none.
 */
export function upstreamV1Judges(
  upstreamDir: string,
  env: Record<string, string | undefined> = process.env,
): Pick<ModelMatrix, 'judges' | 'judgesFrom'> | undefined {
  const modelConfig = join(upstreamDir, 'model_config.json')
  if (mpcbenchSettingsFromEnv(env).modelConfig !== undefined || !existsSync(modelConfig)) return undefined
  const { judges, judgesFrom } = resolveModelMatrix(loadModelConfig(modelConfig), env)
  return { judges, judgesFrom }
}
