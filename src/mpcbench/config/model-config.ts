import { z } from 'zod'
import { readJsonFile } from '../../core/parse.ts'
import { warnUnknownKeys } from './unknown-keys.ts'

const ModelConfigFields = z.looseObject({
  agent_models: z.array(z.string().min(1)).min(1),
  judge_models: z.array(z.string().min(1)).min(1),
  data_generation_model: z.string().min(1),
  /** Sampling temperature of the agents (ours; upstream always sends 0, our default too). */
  agent_temperature: z.number().min(0).max(2).optional(),
})

/** The keys a model config may hold: its fields and upstream's first name of the generator, `world_state_model`. */
export const MODEL_CONFIG_KEYS: ReadonlyArray<string> = [...Object.keys(ModelConfigFields.shape), 'world_state_model']

/**
 * `model_config.json`: which models run as agents, which judge, and which generates data.
 * Upstream's first layout named the generator `world_state_model`; it is accepted as `data_generation_model`.
 */
export const ModelConfigSchema = z.preprocess((value) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const record = value as Record<string, unknown>
  if (record.data_generation_model === undefined && typeof record.world_state_model === 'string') {
    return { ...record, data_generation_model: record.world_state_model }
  }
  return value
}, ModelConfigFields)
export type ModelConfig = z.infer<typeof ModelConfigSchema>

/**
 * Reads and parses a model config file. A key it does not know is kept but warned about once per file, with the
 * closest known key (`agent_temprature`: did you mean `agent_temperature`?).
 */
export function loadModelConfig(file: string): ModelConfig {
  const config = readJsonFile(ModelConfigSchema, file, 'model config')
  warnUnknownKeys(config, MODEL_CONFIG_KEYS, 'model config', file)
  return config
}
