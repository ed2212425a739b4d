import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import { assertFlagPathExists } from '../../cli/flag-value-error.ts'
import { redact } from '../../core/redact.ts'
import type { OptionSpec } from '../../cli/define-command.ts'
import type { Judge } from '../judge/judge.ts'
import type { JudgeOutcome } from '../judge/judge-result.ts'
import { modelDisplayName } from '../run/mpcbench-meta.ts'
import { loadPromptConfig } from '../config/prompt-config.ts'
import type { PromptConfig } from '../config/prompt-config.ts'
import type { RunOutcome } from '../run/run-log.ts'
import { defaultInput } from '../../core/package-root.ts'
import type { HarnessOverrides } from '../run/harness.ts'
import { dataDirFlag, mpcbenchConfigs, packageInputsLine, toolProfileFlag } from '../settings.ts'

/**
 * Prints, on stderr, the one line naming the inputs a command took from the package because the current folder has
 * none (see `packageInputsLine`); nothing when there are none.
 */
export function reportPackageInputs(labels: ReadonlyArray<string>): void {
  const line = packageInputsLine(labels)
  if (line !== undefined) console.error(line)
}

/**
 * Prints, on stderr, why an agent run failed, as a bench test's failure says it: an `error` outcome's code and
 * message with its `Fix:` line (an external agent's HTTP status and body, a timeout...), or an `aborted` outcome's
 * reason, redacted; nothing for a run that answered or reached the turn cap.
 */
export function reportAgentFailure(agent: string, outcome: RunOutcome): void {
  if (outcome.kind === 'error') console.error(redact(`agent ${agent} failed: ${outcome.code}: ${outcome.message}`))
  if (outcome.kind === 'aborted') console.error(redact(`agent ${agent} was aborted: ${outcome.reason}`))
}

/** Loads `file` (resolved against the working directory), else `prompt_config.json` of the working directory or, failing that, of the package (said on stderr). */
export function loadPromptConfigFlag(file: string | undefined): PromptConfig {
  const path = file === undefined ? defaultInput('prompt_config.json') : resolve(file)
  if (file !== undefined)
    assertFlagPathExists(
      '--prompt-config',
      path,
      'Prompt config',
      'Pass an existing prompt config file to --prompt-config, or leave it out for prompt_config.json.',
    )
  if (!existsSync(path)) {
    throw new ConfigError(`No prompt config at ${path}`, { hint: 'Run from the project root or pass --prompt-config FILE.' })
  }
  if (path !== resolve(file ?? 'prompt_config.json')) reportPackageInputs(['prompt_config.json'])
  return loadPromptConfig(path)
}

/** A `--task FILE` flag: that file, else (the current folder has none) the package's file at that path, e.g. `tasks/planning/x.json`. */
export function taskFlag(file: string): { path: string; fromPackage: string[] } {
  const path = defaultInput(file)
  return { path, fromPackage: path === resolve(file) ? [] : [file] }
}

/** What a command that runs an agent reads (see {@link commandInputs}). */
export interface CommandInputs {
  dataDir: string
  /** The harness flags, over the package's configs where the current folder has none and nothing names one. */
  overrides: HarnessOverrides
  /** The inputs that are the package's own copies (`data/`, `prompt_config.json`, `model_config.json`). */
  fromPackage: string[]
}

/**
 * The data folder and harness overrides of `run-task` / `run-and-judge`: what the flags name; else what the
 * environment names (`MPCBENCH_PROMPT_CONFIG`, `MPCBENCH_MODEL_CONFIG`, read by `resolveHarness`); else the current
 * folder's `data/`, `prompt_config.json` and `model_config.json`; else the package's (`dataDirFlag`, `mpcbenchConfigs`).
 */
export function commandInputs(
  flags: { 'data-dir'?: string; tools?: string; 'prompt-config'?: string; 'model-config'?: string; 'llm-context'?: string },
  maxTurns?: number,
  cwd: string = process.cwd(),
): CommandInputs {
  const data = dataDirFlag(flags['data-dir'], cwd)
  // A path a flag names that does not exist is a bad command line (exit 2), before anything runs.
  if (flags['data-dir'] !== undefined)
    assertFlagPathExists(
      '--data-dir',
      data.path,
      'Scenario data folder',
      'Pass the folder of the {scenario_id}_{source}.json files, or leave --data-dir out for data/.',
    )
  for (const [flag, what] of [
    ['prompt-config', 'Prompt config'],
    ['model-config', 'Model config'],
    ['llm-context', 'LLM context folder'],
  ] as const) {
    const value = flags[flag]
    if (value !== undefined)
      assertFlagPathExists(`--${flag}`, resolve(cwd, value), what, `Pass an existing path to --${flag}, or leave it out for the default.`)
  }
  const configs = mpcbenchConfigs(cwd)
  const promptConfig = flags['prompt-config'] === undefined ? configs.promptConfig : undefined
  const modelConfig = flags['model-config'] === undefined ? configs.modelConfig : undefined
  const dataDir = data.path
  return {
    dataDir,
    overrides: {
      ...(promptConfig === undefined ? {} : { promptConfig }),
      ...(modelConfig === undefined ? {} : { modelConfig }),
      ...harnessOverrides(flags, dataDir, maxTurns),
    },
    fromPackage: [...data.fromPackage, ...configs.fromPackage.filter((label) => (label === 'prompt_config.json' ? promptConfig : modelConfig) !== undefined)],
  }
}

/** One line describing a judge outcome, for command output; the `rules` judge is marked `(not an LLM)`. */
export function describeJudgeOutcome(judge: Pick<Judge, 'id' | 'kind'>, outcome: JudgeOutcome): string {
  const name = modelDisplayName(judge.id, judge.kind)
  if (outcome.kind === 'judge-error') return `judge ${name}: ERROR ${outcome.code}: ${outcome.message}`
  const { answer_requirements_satisfaction: ars, source_grounded_reasoning: sgr } = outcome.scores
  const show = (score: number | null): string => (score === null ? 'unjudged' : `${score}/5`)
  return `judge ${name}: answer_requirements_satisfaction ${show(ars.score)}, source_grounded_reasoning ${show(sgr.score)}`
}

/** The harness flags (`--tools`, `--prompt-config`, `--model-config`, `--llm-context`, `--max-turns`) as overrides of `resolveHarness`. */
export function harnessOverrides(
  flags: { tools?: string; 'prompt-config'?: string; 'model-config'?: string; 'llm-context'?: string },
  dataDir: string,
  maxTurns?: number,
): HarnessOverrides {
  return {
    dataDir,
    ...(flags.tools === undefined ? {} : { tools: toolProfileFlag(flags.tools) }),
    ...(flags['prompt-config'] === undefined ? {} : { promptConfig: flags['prompt-config'] }),
    ...(flags['model-config'] === undefined ? {} : { modelConfig: flags['model-config'] }),
    ...(flags['llm-context'] === undefined ? {} : { llmContext: flags['llm-context'] }),
    ...(maxTurns === undefined ? {} : { maxTurns }),
  }
}

/** The harness options `run-task` and `run-and-judge` share (see `harness.ts`). */
export const HARNESS_OPTIONS = {
  'data-dir': {
    type: 'string',
    value: 'DIR',
    description: "folder of the scenario data (default: data/, the package's when the current folder has none)",
    default: 'data',
  },
  'log-dir': { type: 'string', value: 'DIR', description: 'output folder (default: MPCBENCH_LOG_DIR, else evaluation/logs)' },
  tools: {
    type: 'string',
    value: 'PROFILE',
    description: "tool profile: upstream-v1 (upstream MPCBench's tools) or extended (default: MPCBENCH_TOOLS, else upstream-v1)",
  },
  'prompt-config': {
    type: 'string',
    value: 'FILE',
    description: "system prompts (default: MPCBENCH_PROMPT_CONFIG, else prompt_config.json here, else the package's; upstream's file works)",
  },
  'model-config': {
    type: 'string',
    value: 'FILE',
    description: "agent_temperature, models (default: MPCBENCH_MODEL_CONFIG, else model_config.json here, else the package's)",
  },
  'llm-context': {
    type: 'string',
    value: 'DIR',
    description:
      'folder of llm_context/*.md for the developer message (default: MPCBENCH_LLM_CONTEXT, else llm_context/ beside the prompt config or in the data folder)',
  },
  'max-turns': { type: 'string', value: 'N', description: 'turn cap; reaching it is the max-turns outcome (default: MPCBENCH_MAX_TURNS, else 50)' },
} as const satisfies Record<string, OptionSpec>
