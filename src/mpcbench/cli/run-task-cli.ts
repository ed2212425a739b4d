import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { ParseArgsConfig } from 'node:util'
import { ConfigError } from '../../core/errors.ts'
import type { Judge } from '../judge/judge.ts'
import type { JudgeOutcome } from '../judge/judge-result.ts'
import { modelDisplayName } from '../vitest/mpcbench-meta.ts'
import { loadPromptConfig } from '../prompt-config.ts'
import type { PromptConfig } from '../prompt-config.ts'
import type { HarnessOverrides } from '../harness.ts'
import { toolProfileFlag } from '../settings.ts'

/** Parses a command's flags; an unknown or malformed flag is a {@link ConfigError} that points at `--help`. */
export function parseCommandArgs<const O extends NonNullable<ParseArgsConfig['options']>>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values
  } catch (error) {
    throw new ConfigError((error as Error).message, { hint: `Run \`agent-bench ${command} --help\` for the options.`, cause: error })
  }
}

/** A required flag's value, or a {@link ConfigError} naming the flag. */
export function requireFlag(command: string, name: string, value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new ConfigError(`agent-bench ${command} needs --${name}`, { hint: `Pass --${name} (see \`agent-bench ${command} --help\`).` })
  }
  return value
}

/** Loads `prompt_config.json` (or `file`), resolved against the working directory. */
export function loadPromptConfigFlag(file: string | undefined): PromptConfig {
  const path = resolve(file ?? 'prompt_config.json')
  if (!existsSync(path)) {
    throw new ConfigError(`No prompt config at ${path}`, { hint: 'Run from the project root or pass --prompt-config FILE.' })
  }
  return loadPromptConfig(path)
}

/** One line describing a judge outcome, for command output; the `rules` judge is marked `(not an LLM)`. */
export function describeJudgeOutcome(judge: Pick<Judge, 'id' | 'kind'>, outcome: JudgeOutcome): string {
  const name = modelDisplayName(judge.id, judge.kind)
  if (outcome.kind === 'judge-error') return `judge ${name}: ERROR ${outcome.code}: ${outcome.message}`
  const { answer_requirements_satisfaction: ars, source_grounded_reasoning: sgr } = outcome.scores
  return `judge ${name}: answer_requirements_satisfaction ${ars.score}/5, source_grounded_reasoning ${sgr.score}/5`
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
