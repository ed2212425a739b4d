import type { SubScenario } from '../../../tasks/scenario.ts'
import type { WorldBuilder } from '../world-builder.ts'

/** An expanded sub-scenario before its events are attached; `finalize` adds facts that depend on the whole world. */
export interface PendingExpansion {
  id: string
  type: string
  abstract_description: string
  timestamp: string
  start_time?: string
  end_time?: string
  participants: { id: string; email: string }[]
  event_description: string
  facts: Record<string, unknown>
  /** Index range of `builder.events` this expansion created. */
  from: number
  to: number
  finalize?: () => void
}

/** How one kind of sub-scenario becomes events: which sub-scenarios it takes (by `type` and hints), and the expansion. */
export interface Recipe {
  name: string
  /** Whether this recipe expands `sub`; `type` is `sub.type` in lower case. */
  matches(type: string, sub: SubScenario): boolean
  expand(b: WorldBuilder, sub: SubScenario): Omit<PendingExpansion, 'from' | 'to'>
}
