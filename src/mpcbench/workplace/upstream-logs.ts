import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SOURCES, type SourceName } from './validate-source.ts'

/**
 * Reading upstream MPCBench v1 generation logs (`generator/logs/llm/{scenario}__{source}__llm.json`),
 * whose `response.raw_message.content` is the generated JSON as a string. Used by tests over `../shared/data`.
 */

/** The files of one logged scenario: its world state and its six sources, each the parsed generated JSON. */
export interface UpstreamScenarioLog {
  scenarioId: string
  worldState: Record<string, unknown>
  sources: Record<SourceName, unknown>
}

const PARTS = ['world_state', ...SOURCES] as const

/** The generated JSON of one log file. */
export function readGeneratedContent(file: string): unknown {
  const log = JSON.parse(readFileSync(file, 'utf8')) as { response?: { raw_message?: { content?: unknown } } }
  const content = log.response?.raw_message?.content
  if (typeof content === 'string') return JSON.parse(content)
  if (content !== null && typeof content === 'object') return content
  throw new Error(`${file}: response.raw_message.content is neither a JSON string nor an object`)
}

/** Scenario ids in `logDir` that have all seven logs (world state and six sources), sorted. */
export function completeScenarioIds(logDir: string): string[] {
  if (!existsSync(logDir)) return []
  const parts = new Map<string, Set<string>>()
  for (const name of readdirSync(logDir)) {
    const match = /^(.+)__([a-z_]+)__llm\.json$/.exec(name)
    if (match === null) continue
    const set = parts.get(match[1] as string) ?? new Set<string>()
    set.add(match[2] as string)
    parts.set(match[1] as string, set)
  }
  return [...parts]
    .filter(([, set]) => PARTS.every((part) => set.has(part)))
    .map(([id]) => id)
    .sort()
}

/** Reads the seven logs of one scenario. */
export function readUpstreamScenario(logDir: string, scenarioId: string): UpstreamScenarioLog {
  const read = (part: string) => readGeneratedContent(join(logDir, `${scenarioId}__${part}__llm.json`))
  const sources = {} as Record<SourceName, unknown>
  for (const source of SOURCES) sources[source] = read(source)
  return { scenarioId, worldState: read('world_state') as Record<string, unknown>, sources }
}
