import { resolve } from 'node:path'
import { ConfigError } from '../../core/errors.ts'
import type { McpFlagValues, McpToolSource, OpenedMcpTools } from '../../mcp/mcp-command.ts'
import { defaultInput } from '../../core/package-root.ts'
import type { AnyTool } from '../../tools/define-tool.ts'
import { resolveHarness } from '../harness.ts'
import { scenarioTools } from '../run-task.ts'
import { mpcbenchSettingsFromEnv, toolProfileFlag } from '../settings.ts'
import { TOOL_PROFILES } from '../workplace/tool-profiles.ts'

/** The `--tools` profiles `agent-bench mcp` accepts for MPCBench. */
export const MCP_TOOL_PROFILES = TOOL_PROFILES

/** The workplace tools of a scenario for a `--tools` profile; without one, the profile of the settings (`MPCBENCH_TOOLS`, default `upstream-v1`). */
export function mcpScenarioTools(dataDir: string, scenarioId: string, profile: string | undefined): AnyTool[] {
  if (profile !== undefined && !(MCP_TOOL_PROFILES as readonly string[]).includes(profile)) {
    throw new ConfigError(`Unknown \`--tools\` ${JSON.stringify(profile)}.`, { hint: `Pass one of ${MCP_TOOL_PROFILES.join(', ')}, or leave it out for the default profile.` })
  }
  return scenarioTools(dataDir, scenarioId, toolProfileFlag(profile))
}

/**
 * The `instructions` an MPCBench agent gets, as `run-task` sends an external agent: the agent system message of the
 * prompt config (`MPCBENCH_PROMPT_CONFIG`, else `prompt_config.json` of the working directory or of the package),
 * then the developer message (`MPCBENCH_LLM_CONTEXT`, the prompt config's, or an `llm_context/` folder) when there is one.
 */
export function mcpAgentInstructions(dataDir: string): string {
  const named = mpcbenchSettingsFromEnv().promptConfig !== undefined
  const harness = resolveHarness(process.cwd(), undefined, { dataDir, ...(named ? {} : { promptConfig: defaultInput('prompt_config.json') }) })
  return harness.developerMessage === undefined ? harness.systemMessage : `${harness.systemMessage}\n\n${harness.developerMessage.text}`
}

/**
 * `agent-bench mcp --data-dir DIR --scenario-id ID [--tools P]`: the MPCBench workplace tools of one scenario, with
 * the agent's prompt ({@link mcpAgentInstructions}) as the server's instructions.
 */
export const mpcbenchMcpToolSource: McpToolSource = {
  selectedBy: 'data-dir',
  synopsis: 'agent-bench mcp --data-dir DIR --scenario-id ID [--tools upstream-v1|extended] [--http PORT]   (MPCBench)',
  flags: {
    'data-dir': { arg: 'dir', description: 'MPCBench: folder of the scenario data ({ID}_{source}.json files)' },
    'scenario-id': { arg: 'id', description: 'MPCBench: the scenario whose six sources the tools read' },
    tools: { arg: 'profile', description: `MPCBench: tool profile, ${MCP_TOOL_PROFILES.join(' | ')} (default: MPCBENCH_TOOLS, else upstream-v1)` },
  },
  open(values: McpFlagValues): OpenedMcpTools {
    const scenarioId = values['scenario-id']
    if (typeof scenarioId !== 'string' || scenarioId.trim() === '') {
      throw new ConfigError('`--data-dir` needs `--scenario-id`.', { hint: 'Pass e.g. --scenario-id scenario_01 (the prefix of its {ID}_{source}.json files).' })
    }
    const dataDir = resolve(String(values['data-dir']))
    const profile = typeof values.tools === 'string' ? values.tools : undefined
    return {
      tools: mcpScenarioTools(dataDir, scenarioId.trim(), profile),
      description: `the MPCBench workplace tools of scenario ${scenarioId} (${dataDir})`,
      instructions: mcpAgentInstructions(dataDir),
      close: () => {},
    }
  },
}
