import { existsSync } from 'node:fs'
import { basename } from 'node:path'
import { scenarioDataIds } from '../run/run-task.ts'
import { SOURCES } from '../workplace/validate-source.ts'
import { sourceFilePath } from '../workplace/workplace.ts'

/**
 * Why `--data-dir` and `--scenario-id` (of `mcp`, `tool`: commands without a task) name no scenario data, in their
 * own terms: the scenario's missing `{ID}_{source}.json` files and the scenarios that have data in the folder.
 * `undefined` when its six source files are there.
 */
export function scenarioFlagsProblem(dataDir: string, scenarioId: string): { problem: string; hint: string } | undefined {
  const missing = SOURCES.map((source) => sourceFilePath(dataDir, scenarioId, source)).filter((file) => !existsSync(file))
  if (missing.length === 0) return undefined
  const id = JSON.stringify(scenarioId)
  const problem =
    missing.length === SOURCES.length
      ? `no scenario ${id} in --data-dir ${dataDir}: it has no ${scenarioId}_{source}.json files`
      : `scenario ${id} in --data-dir ${dataDir} lacks ${missing.map((file) => basename(file)).join(', ')}`
  const available = scenarioDataIds(dataDir)
  const hint =
    available.length > 0
      ? `Pass --scenario-id ${available.join(' or --scenario-id ')} (the scenarios with data there), or another --data-dir.`
      : `Pass --data-dir a folder of {ID}_{source}.json files (\`data\` is the package's demo data when the current folder has no data/), or generate this scenario's: agent-bench generate --scenario-id ${scenarioId}.`
  return { problem, hint }
}
