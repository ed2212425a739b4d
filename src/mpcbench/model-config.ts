import { z } from 'zod'
import { readJsonFile } from '../core/parse.ts'

/**
 * `model_config.json`: which models run as agents, which judge, and which generates data.
 * Upstream's first layout named the generator `world_state_model`; it is accepted as `data_generation_model`.
 */
export const ModelConfigSchema = z.preprocess(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
    const record = value as Record<string, unknown>
    if (record.data_generation_model === undefined && typeof record.world_state_model === 'string') {
      return { ...record, data_generation_model: record.world_state_model }
    }
    return value
  },
  z.looseObject({
    agent_models: z.array(z.string().min(1)).min(1),
    judge_models: z.array(z.string().min(1)).min(1),
    data_generation_model: z.string().min(1),
    /** Sampling temperature of the agents (ours; upstream always sends 0, our default too). */
    agent_temperature: z.number().min(0).max(2).optional(),
  }),
)
export type ModelConfig = z.infer<typeof ModelConfigSchema>

/** Reads and parses a model config file. */
export function loadModelConfig(file: string): ModelConfig {
  return readJsonFile(ModelConfigSchema, file, 'model config')
}
