import { mkdirSync } from 'node:fs'
import { writeJsonAtomic } from '../core/atomic-write.ts'
import { parseWith } from '../core/parse.ts'
import { groupByScenario, scanUpstreamLogs, UPSTREAM_PARTS, type UpstreamPart, upstreamWorldState } from './workplace/upstream-logs.ts'
import { SOURCES, validateSource } from './workplace/validate-source.ts'
import { Workplace, sourceFilePath } from './workplace/workplace.ts'
import { WorldStateSchema } from './world-state.ts'

/** Options of {@link importUpstream}. */
export interface ImportUpstreamOptions {
  /** Upstream's `generator/logs/llm/` folder. */
  logs: string
  /** Where `{ID}_world_state.json` and `{ID}_{source}.json` are written. */
  out: string
  /** Only these scenarios (default: every complete one). */
  scenarioIds?: ReadonlyArray<string>
}

/** What {@link importUpstream} did: scenarios written, and every log or scenario left out with the reason. */
export interface ImportUpstreamResult {
  imported: Array<{ scenarioId: string; files: string[] }>
  /** Log files that are not generation calls (or not readable). */
  skippedLogs: Array<{ file: string; reason: string }>
  /** Scenarios not written: missing parts, or data that does not validate. */
  skippedScenarios: Array<{ scenarioId: string; reason: string }>
}

/**
 * Rebuilds upstream MPCBench data files from its generation logs, as upstream's generators wrote them: the parsed
 * `response` of each of the seven logs of a scenario (world state per {@link upstreamWorldState}), each source
 * validated against `schemas/{source}_schema.json`, the world state against our world-state schema, and the whole
 * loaded into a `Workplace` before anything of the scenario is written. Never throws for a bad log or scenario:
 * it is reported in the result.
 */
export function importUpstream(options: ImportUpstreamOptions): ImportUpstreamResult {
  const entries = scanUpstreamLogs(options.logs)
  const result: ImportUpstreamResult = { imported: [], skippedLogs: [], skippedScenarios: [] }
  for (const entry of entries) if (entry.kind === 'skipped') result.skippedLogs.push({ file: entry.file, reason: entry.reason })
  const byScenario = groupByScenario(entries)
  const wanted = options.scenarioIds ?? [...byScenario.keys()].sort()
  for (const scenarioId of wanted) {
    const parts = byScenario.get(scenarioId)
    if (parts === undefined) {
      result.skippedScenarios.push({ scenarioId, reason: `no generation logs for ${scenarioId} in ${options.logs}` })
      continue
    }
    const missing = UPSTREAM_PARTS.filter((part) => parts[part] === undefined)
    if (missing.length > 0) {
      result.skippedScenarios.push({ scenarioId, reason: `incomplete: no ${missing.join(', ')} log` })
      continue
    }
    const data = {} as Record<UpstreamPart, unknown>
    try {
      const worldState = upstreamWorldState(parts.world_state!)
      parseWith(WorldStateSchema, worldState, 'world state', parts.world_state!.file)
      data.world_state = worldState
      for (const source of SOURCES) data[source] = validateSource(source, parts[source]!.content, parts[source]!.file)
      const global = (worldState.global_settings ?? {}) as { timezone?: string; workday_start?: string; workday_end?: string }
      Workplace.fromSources(data as Record<(typeof SOURCES)[number], unknown>, { timezone: global.timezone, workdayStart: global.workday_start, workdayEnd: global.workday_end })
    } catch (error) {
      result.skippedScenarios.push({ scenarioId, reason: error instanceof Error ? error.message : String(error) })
      continue
    }
    mkdirSync(options.out, { recursive: true })
    const files: string[] = []
    for (const part of UPSTREAM_PARTS) {
      const file = sourceFilePath(options.out, scenarioId, part)
      writeJsonAtomic(file, data[part])
      files.push(file)
    }
    result.imported.push({ scenarioId, files })
  }
  return result
}
