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
 * (Re)generates the data of each scenario whose files are missing or stale (see `generateScenario`) and logs
 * one line per scenario: `mpcbench: lumen_robotics generated (procedural)` or `... skipped (up to date)`.
 */
export async function prepareMpcbenchData(options: PrepareDataOptions): Promise<GenerateScenarioResult[]> {
  const log = options.log ?? ((line: string) => console.log(line))
  const available = listScenarioIds(options.scenariosDir)
  const ids = options.scenarioIds ?? available
  const missing = ids.filter((id) => !available.includes(id))
  if (missing.length > 0) {
    throw new ConfigError(`No scenario file for ${missing.map((id) => JSON.stringify(id)).join(', ')} in ${options.scenariosDir}`, {
      hint: `Use ids of files in ${options.scenariosDir} (${available.join(', ') || 'none'}), e.g. MPCBENCH_SCENARIOS=${available[0] ?? 'scenario_id'}.`,
    })
  }
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
  log(
    result.kind === 'skipped'
      ? `mpcbench: ${id} skipped (up to date)`
      : `mpcbench: ${id} generated (${result.generator}: ${generated.join(', ')})`,
  )
  return result
}

/**
 * Like {@link prepareMpcbenchData}, but a scenario that cannot be prepared (an invalid scenario file, a failed
 * generation) does not stop the others: its error message is returned under its id, so only its tests fail.
 */
export async function prepareMpcbenchDataIsolated(options: PrepareDataOptions): Promise<{ results: GenerateScenarioResult[]; failed: Record<string, string> }> {
  const log = options.log ?? ((line: string) => console.log(line))
  const ids = options.scenarioIds ?? listScenarioIds(options.scenariosDir)
  const available = listScenarioIds(options.scenariosDir)
  const results: GenerateScenarioResult[] = []
  const failed: Record<string, string> = {}
  for (const id of ids) {
    if (!available.includes(id)) {
      failed[id] = `No scenario file for ${JSON.stringify(id)} in ${options.scenariosDir}`
      log(`mpcbench: ${id} FAILED: ${failed[id]}`)
      continue
    }
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

