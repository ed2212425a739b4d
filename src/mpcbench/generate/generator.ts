import type { SourceName } from '../workplace/validate-source.ts'
import type { PromptConfig } from '../config/prompt-config.ts'
import type { Scenario } from '../tasks/scenario.ts'
import type { GeneratorRecord, WorldState } from '../tasks/world-state.ts'

/** One generated source file's content (`{scenario_id}_{source}.json`); which generator made it is recorded in `{scenario_id}.generation.json`. */
export type SourceData = Record<string, unknown>

/** What a generator may use besides the scenario. */
export interface GenerationContext {
  /** Seed of the procedural generator (the llm generator records it only). */
  seed: number
  /** Multiplies the number of noise scenarios (procedural only). */
  scale: number
  prompts: PromptConfig
  /** JSON Schema of each source file (`schemas/{source}_schema.json`). */
  sourceSchemas: Record<SourceName, Record<string, unknown>>
  /** JSON Schema of the world state (`schemas/world_state_schema.json`). */
  worldStateSchema: Record<string, unknown>
  signal?: AbortSignal
}

/** Turns a scenario into a world state (step 1) and the world state into the six sources (step 2). */
export interface Generator {
  /** The record written into every file this generator makes. */
  readonly record: GeneratorRecord
  /**
   * Whether the same inputs always give the same files (procedural): such a generator's files are rebuilt on every
   * run and rewritten when they differ, so a change to its code regenerates them without a version bump.
   */
  readonly reproducible: boolean
  worldState(scenario: Scenario, ctx: GenerationContext): Promise<WorldState>
  source(name: SourceName, scenario: Scenario, world: WorldState, ctx: GenerationContext): Promise<SourceData>
}
