import type { Scenario } from '../../tasks/scenario.ts'
import type { GeneratedWorldState, GeneratorRecord } from '../../tasks/world-state.ts'
import { addNoise, noiseCount } from './noise.ts'
import { expandSubScenario } from './recipes/expand-sub-scenario.ts'
import { seedIssue } from './recipes/seed-issue.ts'
import { WorldBuilder } from './world-builder.ts'

/** Bumped whenever the procedural output changes for the same scenario, seed and scale (forces regeneration). */
export const PROCEDURAL_VERSION = 2

/**
 * Expands a scenario into a world state, deterministically from `seed`: each sub-scenario becomes concrete
 * events in the scenario's time zone, every Jira seed becomes an issue, and `noiseCount(noise_level, scale)`
 * noise scenarios are added.
 */
export function buildProceduralWorld(scenario: Scenario, seed: number, scale: number): GeneratedWorldState & { generator: GeneratorRecord } {
  const b = new WorldBuilder(scenario, seed)
  const expansions = scenario.sub_scenarios.map((sub) => expandSubScenario(b, sub))
  const claimed = new Set(b.events.flatMap((e) => (e.source === 'jira' ? [e.issue_key] : [])))
  const seedsFrom = b.events.length
  for (const project of scenario.projects) {
    for (const seedIssueDef of project.jira_seeds ?? []) {
      if (!claimed.has(seedIssueDef.issue_key)) seedIssue(b, seedIssueDef, project)
    }
  }
  const seedsTo = b.events.length
  const noise = addNoise(b, noiseCount(scenario.noise_level, scale))
  for (const expansion of expansions) expansion.finalize?.()

  const { timezone, workday_start, workday_end } = scenario.global_settings
  return {
    scenario_id: scenario.scenario_id,
    description: scenario.description,
    company: b.company,
    noise_level: scenario.noise_level,
    depth: scenario.depth,
    global_settings: { timezone, workday_start, workday_end, reference_date: b.today },
    org_units: scenario.org_units,
    people: scenario.people.map(({ id, name, email, team, role }) => ({ id, name, email, team, role })),
    projects: scenario.projects,
    sub_scenarios_expanded: expansions.map(({ from, to, finalize: _finalize, ...rest }) => ({ ...rest, events: b.events.slice(from, to) })),
    noise_scenarios: noise.map(({ from, to, ...rest }) => ({ ...rest, events: b.events.slice(from, to) })),
    background_events: b.events.slice(seedsFrom, seedsTo),
    generator: { name: 'procedural', version: PROCEDURAL_VERSION, seed, scale },
  }
}
