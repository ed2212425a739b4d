import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseWith } from '../../core/parse.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { repoRoot } from '../generate/generate-scenario.ts'
import { ModelConfigSchema, loadModelConfig } from './model-config.ts'
import { PromptConfigSchema, loadPromptConfig } from './prompt-config.ts'

describe('prompt and model configs', () => {
  it('parses our prompt_config.json, with a prompt for every generator step', () => {
    const config = loadPromptConfig(join(repoRoot, 'prompt_config.json'))
    for (const step of ['world_state', 'slack', 'gmail', 'calendar', 'contacts', 'jira', 'drive'] as const) {
      expect(config.generator[step].system_prompt.length).toBeGreaterThan(100)
    }
    expect(config.evaluation.judge.system_prompt).toContain('source_grounded_reasoning')
    expect(config.evaluation.agent.system_message).toContain('final_answer')
  })

  it('parses our model_config.json', () => {
    const config = loadModelConfig(join(repoRoot, 'model_config.json'))
    expect(config.data_generation_model).toMatch(/\S/)
    expect(config.agent_models).toContain('baseline')
  })

  it('names the missing prompt', () => {
    const config = loadPromptConfig(join(repoRoot, 'prompt_config.json'))
    const { jira: _jira, ...generator } = config.generator
    expect(() => parseWith(PromptConfigSchema, { ...config, generator }, 'prompt config', 'prompt_config.json')).toThrow(
      /Invalid prompt config prompt_config\.json:\n {2}generator\.jira: /,
    )
  })

  it('requires at least one agent model', () => {
    expect(() => parseWith(ModelConfigSchema, { agent_models: [], judge_models: ['j'], data_generation_model: 'g' }, 'model config')).toThrow(/agent_models/)
  })
})

describeWithSharedData('upstream prompt and model configs', () => {
  it('parses upstream prompt_config.json', () => {
    const config = loadPromptConfig(sharedDataPath('mpcbench', 'v1_eb0b7ca', 'prompt_config.json'))
    expect(config.generator.slack.user_prompt_template).toContain('{')
  })

  it('parses upstream model_config.json', () => {
    expect(loadModelConfig(sharedDataPath('mpcbench', 'v1_eb0b7ca', 'model_config.json')).data_generation_model).toBe('gpt-5.1')
  })

  it("reads the first layout's world_state_model as data_generation_model", () => {
    const config = loadModelConfig(sharedDataPath('mpcbench', 'v1_cdf38c1', 'evaluation', 'model_config.json'))
    expect(config.data_generation_model).toBe('gpt-4o-mini')
  })
})
