import { ConfigError } from '../../core/errors.ts'
import { FlagValueError, assertFlagPathExists } from '../../cli/flag-value-error.ts'
import type { McpFlagValues, McpToolSource, OpenedMcpTools } from '../../mcp/mcp-command.ts'
import type { AnyTool } from '../../tools/define-tool.ts'
import { resolveHarness } from '../run/harness.ts'
import { scenarioTools } from '../run/run-task.ts'
import { dataDirFlag, mpcbenchConfigs, toolProfileFlag } from '../settings.ts'
import { TOOL_PROFILES } from '../workplace/tool-profiles.ts'
import { reportPackageInputs } from './run-task-cli.ts'
import { scenarioFlagsProblem } from './scenario-flags.ts'

/** The `--tools` profiles `agent-bench mcp` accepts for MPCBench. */
export const MCP_TOOL_PROFILES = TOOL_PROFILES

/**
 * The workplace tools of a scenario for a `--tools` profile; without one, the profile of the settings (`MPCBENCH_TOOLS`,
 * default `upstream-v1`). A scenario without data in `dataDir` is a `ConfigError` naming `--scenario-id` and `--data-dir`.
 */
export function mcpScenarioTools(dataDir: string, scenarioId: string, profile: string | undefined): AnyTool[] {
  if (profile !== undefined && !(MCP_TOOL_PROFILES as readonly string[]).includes(profile)) {
    throw new FlagValueError(`Unknown \`--tools\` ${JSON.stringify(profile)}.`, {
      hint: `Pass one of ${MCP_TOOL_PROFILES.join(', ')}, or leave it out for the default profile.`,
    })
  }
  const noData = scenarioFlagsProblem(dataDir, scenarioId)
  if (noData !== undefined) throw new ConfigError(`${noData.problem.charAt(0).toUpperCase()}${noData.problem.slice(1)}.`, { hint: noData.hint })
  return scenarioTools(dataDir, scenarioId, toolProfileFlag(profile))
}

/**
 * The `instructions` an MPCBench agent gets, as `run-task` sends an external agent: the agent system message of the
 * prompt config (`MPCBENCH_PROMPT_CONFIG`, else `prompt_config.json` of the working directory or of the package, see
 * `mpcbenchConfigs`), then the developer message (`MPCBENCH_LLM_CONTEXT`, the prompt config's, or an `llm_context/`
 * folder) when there is one. `fromPackage` names the prompt config when it is the package's.
 */
export function mcpAgentInstructions(dataDir: string): { instructions: string; fromPackage: string[] } {
  const { promptConfig, fromPackage } = mpcbenchConfigs()
  const harness = resolveHarness(process.cwd(), undefined, { dataDir, ...(promptConfig === undefined ? {} : { promptConfig }) })
  return {
    instructions: harness.developerMessage === undefined ? harness.systemMessage : `${harness.systemMessage}\n\n${harness.developerMessage.text}`,
    fromPackage: fromPackage.filter((label) => label === 'prompt_config.json'),
  }
}

/**
 * `agent-bench mcp --data-dir DIR --scenario-id ID [--tools P]`: the MPCBench workplace tools of one scenario, with
 * the agent's prompt ({@link mcpAgentInstructions}) as the server's instructions.
 */
export const mpcbenchMcpToolSource: McpToolSource = {
  selectedBy: 'data-dir',
  synopsis: 'agent-bench mcp --data-dir DIR --scenario-id ID [--tools upstream-v1|extended] [--http PORT]   (MPCBench)',
  flags: {
    'data-dir': {
      arg: 'dir',
      description: "MPCBench: folder of the scenario data ({ID}_{source}.json files); data is the package's demo data when the current folder has no data/",
    },
    'scenario-id': { arg: 'id', description: 'MPCBench: the scenario whose six sources the tools read' },
    tools: { arg: 'profile', description: `MPCBench: tool profile, ${MCP_TOOL_PROFILES.join(' | ')} (default: MPCBENCH_TOOLS, else upstream-v1)` },
  },
  open(values: McpFlagValues): OpenedMcpTools {
    const scenarioId = values['scenario-id']
    if (typeof scenarioId !== 'string' || scenarioId.trim() === '') {
      throw new FlagValueError('`--data-dir` needs `--scenario-id`.', {
        hint: 'Pass e.g. --scenario-id scenario_01 (the prefix of its {ID}_{source}.json files).',
      })
    }
    const data = dataDirFlag(String(values['data-dir']))
    assertFlagPathExists('--data-dir', data.path, 'Scenario data folder', 'Pass the folder of the {scenario_id}_{source}.json files.')
    const profile = typeof values.tools === 'string' ? values.tools : undefined
    const tools = mcpScenarioTools(data.path, scenarioId.trim(), profile)
    const { instructions, fromPackage } = mcpAgentInstructions(data.path)
    reportPackageInputs([...data.fromPackage, ...fromPackage])
    return {
      tools,
      description: `the MPCBench workplace tools of scenario ${scenarioId} (${data.path})`,
      instructions,
      close: () => {},
    }
  },
}
