import type { SourceName } from '../workplace/validate-source.ts'
import type { Scenario } from '../tasks/scenario.ts'
import type { GeneratorRecord, WorldEvent, WorldState } from '../tasks/world-state.ts'
import type { GenerationContext, Generator, SourceData } from './generator.ts'
import { projectSource, worldEvents } from './procedural/sources.ts'
import { PROCEDURAL_VERSION, buildProceduralWorld } from './procedural/world.ts'

/**
 * The seeded, offline generator: same scenario, seed and scale give byte-identical files.
 * Sources are projections of the world state's events, so they agree with it by construction.
 */
export class ProceduralGenerator implements Generator {
  readonly record: GeneratorRecord
  readonly reproducible = true
  readonly #seed: number
  readonly #scale: number
  #eventsFor: { world: WorldState; events: WorldEvent[] } | undefined

  constructor(options: { seed: number; scale: number }) {
    this.#seed = options.seed
    this.#scale = options.scale
    this.record = { name: 'procedural', version: PROCEDURAL_VERSION, seed: options.seed, scale: options.scale }
  }

  async worldState(scenario: Scenario, _ctx: GenerationContext): Promise<WorldState> {
    return buildProceduralWorld(scenario, this.#seed, this.#scale)
  }

  async source(name: SourceName, _scenario: Scenario, world: WorldState, _ctx: GenerationContext): Promise<SourceData> {
    if (this.#eventsFor?.world !== world) this.#eventsFor = { world, events: worldEvents(world) }
    return projectSource(name, world, this.#eventsFor.events) as unknown as SourceData
  }
}
