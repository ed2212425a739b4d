import { defineCommand } from '../../cli/define-command.ts'
import { type AnyTool, parseToolArguments, wireNameOf } from '../../tools/define-tool.ts'
import { dataDirFlag, toolProfileFlag } from '../settings.ts'
import { createWorkplaceTools, type ToolProfile } from '../workplace/tool-profiles.ts'
import { loadWorkplace } from '../workplace/workplace.ts'
import { reportPackageInputs } from './run-task-cli.ts'
import { scenarioFlagsProblem } from './scenario-flags.ts'

/** What one tool call gave: its result, a tool-level error (still a result), or a usage problem (exit 2). */
export type ToolCallOutcome =
  | { kind: 'result'; result: unknown }
  | { kind: 'tool-error'; status: 'invalid-arguments' | 'tool-error'; message: string }
  | { kind: 'usage-error'; message: string }

/** The tool of `tools` named `name`: its dotted name or its wire name. */
export function findTool(tools: ReadonlyArray<AnyTool>, name: string): AnyTool | undefined {
  return tools.find((tool) => tool.name === name) ?? tools.find((tool) => wireNameOf(tool) === name)
}

/** Options of {@link callScenarioTool}. */
export interface CallScenarioToolOptions {
  dataDir: string
  scenarioId: string
  profile: ToolProfile
  name: string
  /** The arguments, as JSON text. */
  args: string
}

/**
 * Calls one workplace tool of a scenario as the agent loop would (argument preparation, zod parsing, handler), and
 * says what came back. Missing scenario files, an unknown tool and arguments that are not a JSON object are usage
 * errors; bad arguments and failing tools are tool-level errors, as the model would see them.
 */
export async function callScenarioTool(options: CallScenarioToolOptions): Promise<ToolCallOutcome> {
  const noData = scenarioFlagsProblem(options.dataDir, options.scenarioId)
  if (noData !== undefined) return { kind: 'usage-error', message: `${noData.problem}. ${noData.hint}` }
  const tools = createWorkplaceTools(loadWorkplace(options.dataDir, options.scenarioId), options.profile)
  const tool = findTool(tools, options.name)
  if (tool === undefined) {
    return {
      kind: 'usage-error',
      message: `unknown tool ${JSON.stringify(options.name)} in profile ${options.profile}. Tools: ${tools.map((t) => `${t.name} (${wireNameOf(t)})`).join(', ')}.`,
    }
  }
  let args: unknown
  try {
    args = JSON.parse(options.args)
  } catch (error) {
    return { kind: 'usage-error', message: `--args is not JSON (${(error as Error).message}). Pass a JSON object, e.g. --args '{"name": "Alice"}'.` }
  }
  const parsed = parseToolArguments(tool, args)
  if (!parsed.success) {
    return {
      kind: 'tool-error',
      status: 'invalid-arguments',
      message: `invalid arguments for ${wireNameOf(tool)}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    }
  }
  try {
    const result = await tool.handler(parsed.data, {})
    return { kind: 'result', result: JSON.parse(JSON.stringify(result ?? null)) }
  } catch (error) {
    return { kind: 'tool-error', status: 'tool-error', message: `${wireNameOf(tool)} failed: ${error instanceof Error ? error.message : String(error)}` }
  }
}

/** `agent-bench tool`: call one workplace tool on a scenario's data and print its result as one JSON line. */
export const command = defineCommand({
  name: 'tool',
  summary: 'MPCBench: call one workplace tool on a scenario and print its result (debug tasks and data)',
  description: `Calls one workplace tool over data/{ID}_{source}.json (and {ID}_world_state.json when present) exactly as an
agent's call is handled, and prints the result as one JSON line on stdout (exit 0). A tool-level error (bad
arguments, a failing tool) is a result too: {"error": "...", "status": "invalid-arguments" | "tool-error"}.
An unknown tool or profile, a missing scenario or --args that is not JSON exits 2 with a message on stderr.`,
  options: {
    'scenario-id': { type: 'string', value: 'ID', description: 'scenario whose files the tool reads', required: true },
    name: {
      type: 'string',
      value: 'NAME',
      description:
        "tool name, dotted (GoogleCalendar.ListEvents) or the profile's wire name (GoogleCalendar_ListEvents for upstream-v1, GoogleCalendar__ListEvents for extended)",
      required: true,
    },
    args: { type: 'string', value: 'JSON', description: 'arguments object', default: '{}' },
    'data-dir': {
      type: 'string',
      value: 'DIR',
      description: "scenario data folder (default: data/, the package's when the current folder has none)",
      default: 'data',
    },
    tools: { type: 'string', value: 'PROFILE', description: 'upstream-v1 or extended (default: MPCBENCH_TOOLS, else upstream-v1)' },
  },
  epilog: `Example:
  agent-bench tool --scenario-id lumen_robotics --name Slack_search_messages --args '{"search_query": "sync"}'`,
  async run({ values: flags }) {
    const usage = (message: string): number => {
      console.error(`agent-bench tool: ${message}`)
      return 2
    }
    let profile: ToolProfile
    try {
      profile = toolProfileFlag(flags.tools)
    } catch (error) {
      return usage(`${(error as Error).message}.`)
    }
    const dataDir = dataDirFlag(flags['data-dir'])
    reportPackageInputs(dataDir.fromPackage)
    const outcome = await callScenarioTool({
      dataDir: dataDir.path,
      scenarioId: flags['scenario-id'] as string,
      profile,
      name: flags.name as string,
      args: flags.args ?? '{}',
    })
    if (outcome.kind === 'usage-error') return usage(outcome.message)
    const line = outcome.kind === 'result' ? outcome.result : { error: outcome.message, status: outcome.status }
    process.stdout.write(`${JSON.stringify(line)}\n`)
    return 0
  },
})
