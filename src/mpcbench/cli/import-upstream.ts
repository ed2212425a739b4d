import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import { assertFlagPathExists } from '../../cli/flag-value-error.ts'
import { defineCommand } from '../../cli/define-command.ts'
import { importUpstream } from '../upstream/import-upstream.ts'

/** `agent-bench import-upstream`: upstream MPCBench data files from its generation logs. */
export const command = defineCommand({
  name: 'import-upstream',
  summary: "MPCBench: rebuild upstream MPCBench's data files from its generation logs",
  description: `Upstream MPCBench committed the logs of its data generator (generator/logs/llm/*.json), not its data. For every
scenario with all seven logs (world_state, slack, gmail, calendar, contacts, jira, drive) this writes
{out}/{ID}_world_state.json and {out}/{ID}_{source}.json from the logged responses, as upstream's generators wrote
them, after validating each file and loading the scenario. Logs that are not generation calls and scenarios that are
incomplete are listed and skipped. Every good scenario is written; each bad file (a broken generation log, a
scenario id that is not a plain name, a scenario whose data does not validate) is listed under "failed", and the
exit code is then 1. Exit 1 also when a --scenario-id could not be imported, else 0.`,
  options: {
    logs: { type: 'string', value: 'DIR', description: "upstream's generator/logs/llm folder", required: true },
    out: { type: 'string', value: 'DIR', description: 'output data folder, e.g. data/upstream', required: true },
    'scenario-id': { type: 'string', value: 'ID', description: 'only this scenario (default: every complete scenario)', multiple: true },
  },
  epilog: `Then: agent-bench tool --data-dir DIR --scenario-id ID --name Slack_search_messages --args '{"search_query":"sync"}'`,
  async run({ values: flags }) {
    const logs = resolve(flags.logs as string)
    const out = resolve(flags.out as string)
    assertFlagPathExists('--logs', logs, 'Log folder', "Pass --logs with upstream MPCBench's generator/logs/llm folder.")
    if (!existsSync(logs) || !statSync(logs).isDirectory()) {
      throw new ConfigError(`No log folder at ${logs}`, { hint: "Pass --logs with upstream MPCBench's generator/logs/llm folder." })
    }
    const result = importUpstream({ logs, out, ...(flags['scenario-id'] === undefined ? {} : { scenarioIds: flags['scenario-id'] }) })
    const failed = new Set(result.failures.map((failure) => failure.file))
    for (const { file, reason } of result.skippedLogs) if (!failed.has(file)) console.error(`skipped log ${file}: ${reason}`)
    for (const { scenarioId, reason } of result.skippedScenarios) console.error(`skipped scenario ${scenarioId}: ${reason}`)
    for (const { scenarioId } of result.imported) console.log(`imported ${scenarioId}`)
    const otherLogs = result.skippedLogs.length - result.failures.filter((failure) => result.skippedLogs.some((log) => log.file === failure.file)).length
    console.log(
      `${result.imported.length} scenario(s) written to ${out}; ${result.skippedScenarios.length} skipped, ${otherLogs} log(s) not generation calls, ${result.failures.length} failed`,
    )
    if (result.failures.length > 0) {
      console.error(`failed (${result.failures.length}):`)
      for (const { file, reason } of result.failures) console.error(`  ${file}: ${reason}`)
    }
    return result.failures.length > 0 || (flags['scenario-id'] !== undefined && result.skippedScenarios.length > 0) ? 1 : 0
  },
})
