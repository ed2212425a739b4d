import { existsSync, readdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import { type GenerateScenarioOptions, type GenerateScenarioResult, generateScenario } from './generate-scenario.ts'

/** Options of {@link prepareMpcbenchData}; the generation options are those of {@link generateScenario}. */
export interface PrepareDataOptions
  extends Pick<GenerateScenarioOptions, 'generator' | 'seed' | 'scale' | 'force' | 'model' | 'promptConfigPath' | 'modelConfigPath'> {
  /** Folder of `{scenario_id}.json` files. */
  scenariosDir: string
  /** Folder receiving the generated files. */
  dataDir: string
  /** Only these scenario ids. @default every `*.json` in `scenariosDir` */
  scenarioIds?: readonly string[]
  /** Receives one line per scenario. @default console.log */
  log?: (line: string) => void
}

/** The scenario ids of a folder (`*.json`, sorted). */
export function listScenarioIds(scenariosDir: string): string[] {
  if (!existsSync(scenariosDir)) return []
  return readdirSync(scenariosDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => basename(name, '.json'))
    .sort()
}

/**
 * The ids to prepare: `scenarioIds` (`MPCBENCH_SCENARIOS`) when given, else every scenario of the folder. A given id
 * with no `{id}.json` in the folder is a `ConfigError` listing the ids there: it is a misnamed id, not a scenario
 * that failed, and no test would fail for it.
 */
function selectedScenarioIds(options: Pick<PrepareDataOptions, 'scenariosDir' | 'scenarioIds'>): readonly string[] {
  const available = listScenarioIds(options.scenariosDir)
  const ids = options.scenarioIds ?? available
  const missing = ids.filter((id) => !available.includes(id))
  if (missing.length > 0) {
    throw new ConfigError(
      `No scenario file for ${missing.map((id) => JSON.stringify(id)).join(', ')} in ${options.scenariosDir} (MPCBENCH_SCENARIOS names the scenarios to prepare)`,
      {
        hint: `Set MPCBENCH_SCENARIOS to ids of files in ${options.scenariosDir} (${available.join(', ') || 'none'}), comma-separated, e.g. MPCBENCH_SCENARIOS=${available[0] ?? 'scenario_id'}; or unset it to prepare them all.`,
      },
    )
  }
  return ids
}

/**
 * (Re)generates the data of each scenario whose files are missing or stale (see `generateScenario`) and logs
 * one line per scenario: `mpcbench: lumen_robotics generated (procedural)` or `... skipped (up to date)`.
 */
export async function prepareMpcbenchData(options: PrepareDataOptions): Promise<GenerateScenarioResult[]> {
  const log = options.log ?? ((line: string) => console.log(line))
  const ids = selectedScenarioIds(options)
  const results: GenerateScenarioResult[] = []
  for (const id of ids) results.push(await prepareScenario(id, options, log))
  return results
}

async function prepareScenario(id: string, options: PrepareDataOptions, log: (line: string) => void): Promise<GenerateScenarioResult> {
  const result = await generateScenario({
    scenarioPath: join(options.scenariosDir, `${id}.json`),
    outDir: options.dataDir,
    generator: options.generator ?? 'procedural',
    ...pick(options, ['seed', 'scale', 'force', 'model', 'promptConfigPath', 'modelConfigPath']),
  })
  const generated = result.files.filter((f) => f.outcome.kind === 'generated').map((f) => f.name)
  log(result.kind === 'skipped' ? `mpcbench: ${id} skipped (up to date)` : `mpcbench: ${id} generated (${result.generator}: ${generated.join(', ')})`)
  return result
}

/**
 * Like {@link prepareMpcbenchData}, but a scenario that cannot be prepared (an invalid scenario file, a failed
 * generation) does not stop the others: its error message is returned under its id, so only its tests fail. An id of
 * `scenarioIds` with no scenario file still throws (see `selectedScenarioIds`).
 */
export async function prepareMpcbenchDataIsolated(options: PrepareDataOptions): Promise<{ results: GenerateScenarioResult[]; failed: Record<string, string> }> {
  const log = options.log ?? ((line: string) => console.log(line))
  const ids = selectedScenarioIds(options)
  const results: GenerateScenarioResult[] = []
  const failed: Record<string, string> = {}
  for (const id of ids) {
    try {
      results.push(await prepareScenario(id, options, log))
    } catch (error) {
      failed[id] = error instanceof Error ? error.message : String(error)
      log(`mpcbench: ${id} FAILED (its tests will fail; the others run): ${failed[id]}`)
    }
  }
  return { results, failed }
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {}
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key]
  return out
}
