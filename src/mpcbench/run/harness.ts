import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { z } from 'zod'
import { ConfigError } from '../../core/errors.ts'
import { loadModelConfig, type ModelConfig } from '../config/model-config.ts'
import { loadPromptConfig, type PromptConfig } from '../config/prompt-config.ts'
import { DEFAULT_AGENT_TEMPERATURE, mpcbenchSettingsFromEnv } from '../settings.ts'
import type { ToolProfile } from '../workplace/tool-profiles.ts'
import type { JudgeInputFormat } from '../judge/judge-input.ts'

/**
 * The files upstream MPCBench joins (in this order, blank ones skipped, `"\n\n"` between) into the developer message
 * of its agent: `llm_context/{instructions_about_sources,api_usage_guidelines,examples_of_tool_calls}.md`.
 */
export const LLM_CONTEXT_FILES = ['instructions_about_sources.md', 'api_usage_guidelines.md', 'examples_of_tool_calls.md'] as const

/** The developer message of a run and where it came from. */
export interface DeveloperMessage {
  text: string
  /** The `llm_context` folder, or `prompt config {file}` for `evaluation.agent.developer_message`. */
  source: string
}

/**
 * The developer message in an `llm_context` folder: its {@link LLM_CONTEXT_FILES} that exist, joined as upstream
 * does; `undefined` when the folder has none of them or they are all empty.
 */
export function readLlmContext(dir: string): DeveloperMessage | undefined {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined
  const parts = LLM_CONTEXT_FILES.map((name) => join(dir, name))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8'))
    .filter((text) => text !== '')
  return parts.length === 0 ? undefined : { text: parts.join('\n\n'), source: dir }
}

/** The harness settings of MPCBench agent runs, as upstream runs its agents unless configured otherwise. */
export interface MpcbenchHarness {
  toolProfile: ToolProfile
  promptConfigFile: string
  prompts: PromptConfig
  /** The named model config (`--model-config`, `MPCBENCH_MODEL_CONFIG`: it must exist), else `model_config.json` of the root, read when present. */
  modelConfigFile: string
  modelConfig: ModelConfig | undefined
  systemMessage: string
  judgeSystemPrompt: string
  /** `evaluation.judge.input_format` of the prompt config (`upstream` when absent, as in upstream's file). */
  judgeInputFormat: JudgeInputFormat
  developerMessage: DeveloperMessage | undefined
  /** `agent_temperature` of the model config, else {@link DEFAULT_AGENT_TEMPERATURE}. */
  temperature: number
  /** The named turn cap (`MPCBENCH_MAX_TURNS`, default `MPCBENCH_TURN_CAP`). */
  maxTurns: number
}

/** Per-command overrides of {@link resolveHarness}; each wins over its environment variable. */
export interface HarnessOverrides {
  tools?: ToolProfile
  promptConfig?: string
  modelConfig?: string
  llmContext?: string
  maxTurns?: number
  /** Scenario data folder; its `llm_context/` is the last place a developer message is looked for. */
  dataDir?: string
}

const DeveloperMessageField = z.looseObject({ evaluation: z.looseObject({ agent: z.looseObject({ developer_message: z.string().optional() }) }) })

/**
 * Resolves the harness of a run from `root` (where `prompt_config.json` and `model_config.json` live), the
 * MPCBench settings of `env` and per-command overrides. The developer message comes from, first found: the
 * `--llm-context` / `MPCBENCH_LLM_CONTEXT` folder (which must exist), the prompt config's
 * `evaluation.agent.developer_message`, `llm_context/` beside the prompt config, `llm_context/` in the data folder.
 */
export function resolveHarness(root: string, env?: Record<string, string | undefined>, overrides: HarnessOverrides = {}): MpcbenchHarness {
  const settings = mpcbenchSettingsFromEnv(env)
  const promptConfigFile = resolve(root, overrides.promptConfig ?? settings.promptConfig ?? 'prompt_config.json')
  if (!existsSync(promptConfigFile)) {
    throw new ConfigError(`No prompt config at ${promptConfigFile}`, {
      hint: 'Run from the project root, or pass --prompt-config FILE / set MPCBENCH_PROMPT_CONFIG (upstream MPCBench prompt_config.json works).',
    })
  }
  const prompts = loadPromptConfig(promptConfigFile)
  const namedModelConfig = overrides.modelConfig ?? settings.modelConfig
  const modelConfigFile = resolve(root, namedModelConfig ?? 'model_config.json')
  if (namedModelConfig !== undefined && !existsSync(modelConfigFile)) {
    // Only the default file may be absent: a named one that is missing would silently run the default models.
    const by = overrides.modelConfig !== undefined ? `--model-config ${namedModelConfig}` : `MPCBENCH_MODEL_CONFIG=${namedModelConfig}`
    throw new ConfigError(`No model config at ${modelConfigFile} (named by ${by})`, {
      hint: `Point ${overrides.modelConfig !== undefined ? '--model-config' : 'MPCBENCH_MODEL_CONFIG'} at an existing model config file (upstream MPCBench's model_config.json works), or leave it out to use model_config.json in ${root} when there is one.`,
    })
  }
  const modelConfig = existsSync(modelConfigFile) ? loadModelConfig(modelConfigFile) : undefined

  let developerMessage: DeveloperMessage | undefined
  const explicit = overrides.llmContext ?? settings.llmContext
  if (explicit !== undefined) {
    const dir = resolve(root, explicit)
    developerMessage = readLlmContext(dir)
    if (developerMessage === undefined) {
      throw new ConfigError(`No llm_context files in ${dir}`, {
        hint: `Point --llm-context / MPCBENCH_LLM_CONTEXT at a folder holding ${LLM_CONTEXT_FILES.join(', ')}, or unset it.`,
      })
    }
  } else {
    const inConfig = DeveloperMessageField.safeParse(prompts)
    const text = inConfig.success ? inConfig.data.evaluation.agent.developer_message : undefined
    developerMessage =
      text !== undefined && text !== ''
        ? { text, source: `prompt config ${promptConfigFile}` }
        : (readLlmContext(join(dirname(promptConfigFile), 'llm_context')) ??
          (overrides.dataDir === undefined ? undefined : readLlmContext(join(resolve(root, overrides.dataDir), 'llm_context'))))
  }

  return {
    toolProfile: overrides.tools ?? settings.toolProfile,
    promptConfigFile,
    prompts,
    modelConfigFile,
    modelConfig,
    systemMessage: prompts.evaluation.agent.system_message,
    judgeSystemPrompt: prompts.evaluation.judge.system_prompt,
    judgeInputFormat: prompts.evaluation.judge.input_format ?? 'upstream',
    developerMessage,
    temperature: modelConfig?.agent_temperature ?? DEFAULT_AGENT_TEMPERATURE,
    maxTurns: overrides.maxTurns ?? settings.maxTurns,
  }
}
