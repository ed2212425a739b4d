import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fg from 'fast-glob'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { repoRoot } from '../generate/generate-scenario.ts'
import { MODEL_CONFIG_KEYS, loadModelConfig } from './model-config.ts'
import { unknownKeys } from './unknown-keys.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('loadModelConfig on unknown keys', () => {
  it('keeps the config but warns once, naming the key, the file and the closest known key', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const file = join(mkdtempSync(join(tmpdir(), 'model-config-')), 'model_config.json')
    writeFileSync(file, JSON.stringify({ agent_models: ['baseline'], judge_models: ['rules'], data_generation_model: 'x', agent_temprature: 0.7 }))
    expect(loadModelConfig(file).agent_temperature).toBeUndefined()
    loadModelConfig(file)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toContain(
      `the model config file ${file} has key(s) this benchmark does not read: "agent_temprature" (did you mean "agent_temperature"?)`,
    )
  })

  it("finds no unknown key (nothing to warn about) in this project's model config", () => {
    expect(unknownKeys(JSON.parse(readFileSync(join(repoRoot, 'model_config.json'), 'utf8')), MODEL_CONFIG_KEYS)).toEqual([])
  })
})

describeWithSharedData("upstream MPCBench's model configs", () => {
  it("have no unknown key (upstream's first layout names the generator world_state_model)", () => {
    const files = fg.sync('**/model_config.json', { cwd: sharedDataPath('mpcbench'), absolute: true })
    expect(files.length).toBeGreaterThanOrEqual(2)
    for (const file of files) {
      expect(unknownKeys(JSON.parse(readFileSync(file, 'utf8')), MODEL_CONFIG_KEYS), file).toEqual([])
      expect(loadModelConfig(file).data_generation_model).toMatch(/\S/)
    }
  })
})
