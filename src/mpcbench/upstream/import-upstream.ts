import { mkdirSync } from 'node:fs'
import { writeJsonAtomic } from '../../core/atomic-write.ts'
import { parseWith } from '../../core/parse.ts'
import { groupByScenario, scanUpstreamLogs, UPSTREAM_PARTS, type UpstreamPart, upstreamWorldState } from '../workplace/upstream-logs.ts'
import { SOURCES, validateSource } from '../workplace/validate-source.ts'
import { Workplace, sourceFilePath } from '../workplace/workplace.ts'
import { WorldStateSchema } from '../tasks/world-state.ts'

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
  /** Scenarios not written: missing parts, or data that does not validate (or could not be written). */
  skippedScenarios: Array<{ scenarioId: string; reason: string }>
  /**
   * What went wrong, one entry per bad file or scenario: a broken generation log (not JSON, no reply, a scenario id
   * that is not a plain name), a scenario whose data does not validate, a scenario that could not be written. Empty
   * when everything read was good; logs of other kinds and incomplete scenarios are skipped, not failures.
   */
  failures: Array<{ file: string; reason: string }>
}

/**
 * Rebuilds upstream MPCBench data files from its generation logs, as upstream's generators wrote them: the parsed
 * `response` of each of the seven logs of a scenario (world state per {@link upstreamWorldState}), each source
 * validated against `schemas/{source}_schema.json`, the world state against our world-state schema, and the whole
 * loaded into a `Workplace` before anything of the scenario is written. Never throws for a bad log or scenario:
 * it is reported in the result (`failures`), and every good scenario is written.
 */
export function importUpstream(options: ImportUpstreamOptions): ImportUpstreamResult {
  const entries = scanUpstreamLogs(options.logs)
  const result: ImportUpstreamResult = { imported: [], skippedLogs: [], skippedScenarios: [], failures: [] }
  for (const entry of entries) {
    if (entry.kind !== 'skipped') continue
    result.skippedLogs.push({ file: entry.file, reason: entry.reason })
    if (entry.failed) result.failures.push({ file: entry.file, reason: entry.reason })
  }
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
      Workplace.fromSources(data as Record<(typeof SOURCES)[number], unknown>, {
        timezone: global.timezone,
        workdayStart: global.workday_start,
        workdayEnd: global.workday_end,
      })
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      result.skippedScenarios.push({ scenarioId, reason })
      result.failures.push({ file: `${options.logs}/${scenarioId}__*__llm.json`, reason })
      continue
    }
    // One scenario that cannot be written (a bad id from --scenario-id, a full disk) fails alone: the others are written.
    const files: string[] = []
    try {
      mkdirSync(options.out, { recursive: true })
      for (const part of UPSTREAM_PARTS) {
        const file = sourceFilePath(options.out, scenarioId, part)
        writeJsonAtomic(file, data[part])
        files.push(file)
      }
    } catch (error) {
      const reason = `not written: ${error instanceof Error ? error.message : String(error)}`
      result.skippedScenarios.push({ scenarioId, reason })
      result.failures.push({ file: files.at(-1) ?? options.out, reason })
      continue
    }
    result.imported.push({ scenarioId, files })
  }
  return result
}
