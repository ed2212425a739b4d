import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PLAIN_SCENARIO_ID } from '../tasks/file-names.ts'
import { SOURCES, type SourceName } from './validate-source.ts'

/**
 * Reading upstream MPCBench v1 generation logs (`generator/logs/llm/{scenario}__{part}__llm.json`): each holds the
 * request of one generator call and its `response.raw_message.content`, the generated JSON as a string. Upstream
 * never committed its `data/` folder; these logs are how its data can be rebuilt (`agent-bench import-upstream`).
 */

/** The seven parts of a scenario's data: its world state and its six sources. */
export const UPSTREAM_PARTS = ['world_state', ...SOURCES] as const

/** One of {@link UPSTREAM_PARTS}. */
export type UpstreamPart = (typeof UPSTREAM_PARTS)[number]

/** One log file: a generation call with its parsed output, or why it is not one. */
export type UpstreamLogEntry =
  | { kind: 'generation'; file: string; scenarioId: string; part: UpstreamPart; timestamp: string; content: unknown; request: unknown }
  /** `failed`: a broken generation log (not JSON, no reply, a bad scenario id); not a failure: another kind of log. */
  | { kind: 'skipped'; file: string; reason: string; failed: boolean }

/** The files of one logged scenario: its world state and its six sources, each the parsed generated JSON. */
export interface UpstreamScenarioLog {
  scenarioId: string
  worldState: Record<string, unknown>
  sources: Record<SourceName, unknown>
}

/**
 * Upstream's reading of a reply: `strip()`; when it starts with a ``` line, drop that line and a trailing ``` line;
 * `json.loads`. Throws on text that is not JSON.
 */
export function parseGeneratedText(text: string): unknown {
  let body = text.trim()
  if (body.startsWith('```')) {
    const lines = body.split('\n').slice(1)
    if (lines.at(-1)?.trim().startsWith('```')) lines.pop()
    body = lines.join('\n')
  }
  return JSON.parse(body)
}

/** The first complete JSON object in `text` (upstream embeds the scenario in its prompt, followed by instructions). */
export function firstJsonObject(text: string): unknown {
  const start = text.indexOf('{')
  if (start < 0) return undefined
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
    } else if (ch === '"') inString = true
    else if (ch === '{') depth++
    else if (ch === '}' && --depth === 0) {
      try {
        return JSON.parse(text.slice(start, i + 1))
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Reads one log file; anything that is not a generator call with a JSON reply comes back as `skipped` with the reason. */
export function readUpstreamLog(file: string): UpstreamLogEntry {
  let log: unknown
  try {
    log = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    return { kind: 'skipped', file, reason: `not JSON (${(error as Error).message})`, failed: true }
  }
  if (!isRecord(log)) return { kind: 'skipped', file, reason: 'not a JSON object', failed: true }
  const context = isRecord(log.context) ? log.context : {}
  const component = typeof context.component === 'string' ? context.component : undefined
  const part = UPSTREAM_PARTS.find((p) => component === `${p}_generator`)
  if (part === undefined)
    return { kind: 'skipped', file, reason: `not a generation call (context.component ${JSON.stringify(component ?? null)})`, failed: false }
  const fromName = /([^/\\]+?)__[a-z_]+__llm\.json$/.exec(file)?.[1]
  const scenarioId = typeof context.scenario_id === 'string' && context.scenario_id !== '' ? context.scenario_id : fromName
  if (scenarioId === undefined) return { kind: 'skipped', file, reason: 'no context.scenario_id and no {scenario}__{part}__llm.json file name', failed: true }
  if (!PLAIN_SCENARIO_ID.test(scenarioId))
    return {
      kind: 'skipped',
      file,
      reason: `scenario id ${JSON.stringify(scenarioId)} is not a plain name (letters, digits, \`_\`, \`-\`, single dots inside; no \`..\` or path)`,
      failed: true,
    }
  const response = isRecord(log.response) ? log.response : {}
  const message = isRecord(response.raw_message) ? response.raw_message : {}
  const content = message.content
  let parsed: unknown
  if (typeof content === 'string') {
    try {
      parsed = parseGeneratedText(content)
    } catch (error) {
      return { kind: 'skipped', file, reason: `response.raw_message.content is not JSON (${(error as Error).message})`, failed: true }
    }
  } else if (isRecord(content)) parsed = content
  else return { kind: 'skipped', file, reason: 'no response.raw_message.content', failed: true }
  return {
    kind: 'generation',
    file,
    scenarioId,
    part,
    timestamp: typeof context.timestamp === 'string' ? context.timestamp : '',
    content: parsed,
    request: log.request,
  }
}

/** Every `*.json` log in `logDir`, sorted by file name. */
export function scanUpstreamLogs(logDir: string): UpstreamLogEntry[] {
  if (!existsSync(logDir)) return []
  return readdirSync(logDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => readUpstreamLog(join(logDir, name)))
}

/** The generation logs of each scenario, by part (the latest by `context.timestamp` when a part was logged twice). */
export function groupByScenario(
  entries: ReadonlyArray<UpstreamLogEntry>,
): Map<string, Partial<Record<UpstreamPart, Extract<UpstreamLogEntry, { kind: 'generation' }>>>> {
  const byScenario = new Map<string, Partial<Record<UpstreamPart, Extract<UpstreamLogEntry, { kind: 'generation' }>>>>()
  for (const entry of entries) {
    if (entry.kind !== 'generation') continue
    const parts = byScenario.get(entry.scenarioId) ?? {}
    const previous = parts[entry.part]
    if (previous === undefined || entry.timestamp >= previous.timestamp) parts[entry.part] = entry
    byScenario.set(entry.scenarioId, parts)
  }
  return byScenario
}

/**
 * Upstream's world state as its generator wrote it: without `per_source_plans`, and with `scenario_id`,
 * `description`, `noise_level`, `depth` and `global_settings` taken from the scenario embedded in the request.
 */
export function upstreamWorldState(entry: Extract<UpstreamLogEntry, { kind: 'generation' }>): Record<string, unknown> {
  const generated = isRecord(entry.content) ? { ...entry.content } : {}
  delete generated.per_source_plans
  const request = isRecord(entry.request) ? entry.request : {}
  const messages = Array.isArray(request.messages) ? request.messages : []
  const user = messages.find((m): m is Record<string, unknown> => isRecord(m) && m.role === 'user')
  const scenario = typeof user?.content === 'string' ? firstJsonObject(user.content) : undefined
  if (isRecord(scenario)) {
    for (const key of ['scenario_id', 'description', 'noise_level', 'depth', 'global_settings']) {
      if (Object.hasOwn(scenario, key)) generated[key] = scenario[key]
    }
  }
  return generated
}

/** Scenario ids in `logDir` that have all seven logs (world state and six sources), sorted. */
export function completeScenarioIds(logDir: string): string[] {
  return [...groupByScenario(scanUpstreamLogs(logDir))]
    .filter(([, parts]) => UPSTREAM_PARTS.every((part) => parts[part] !== undefined))
    .map(([id]) => id)
    .sort()
}

/** Reads the seven logs of one scenario (world state as {@link upstreamWorldState} rebuilds it). */
export function readUpstreamScenario(logDir: string, scenarioId: string): UpstreamScenarioLog {
  const read = (part: UpstreamPart) => {
    const entry = readUpstreamLog(join(logDir, `${scenarioId}__${part}__llm.json`))
    if (entry.kind === 'skipped') throw new Error(`${entry.file}: ${entry.reason}`)
    return entry
  }
  const sources = {} as Record<SourceName, unknown>
  for (const source of SOURCES) sources[source] = read(source).content
  return { scenarioId, worldState: upstreamWorldState(read('world_state')), sources }
}
