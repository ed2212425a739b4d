import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import type { Judge } from '../judge/judge.ts'
import type { JudgeOutcome } from '../judge/judge-result.ts'
import { modelDisplayName } from '../vitest/mpcbench-meta.ts'
import { loadPromptConfig } from '../prompt-config.ts'
import type { PromptConfig } from '../prompt-config.ts'
import { defaultInput } from '../../core/package-root.ts'
import type { HarnessOverrides } from '../harness.ts'
import { toolProfileFlag } from '../settings.ts'

/** Loads `file` (resolved against the working directory), else `prompt_config.json` of the working directory or, failing that, of the package. */
export function loadPromptConfigFlag(file: string | undefined): PromptConfig {
  const path = file === undefined ? defaultInput('prompt_config.json') : resolve(file)
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
