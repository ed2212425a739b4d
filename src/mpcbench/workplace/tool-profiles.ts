import { z } from 'zod'
import type { AnyTool } from '../../tools/define-tool.ts'
import { createExtendedTools } from './tools/create-workplace-tools.ts'
import { createUpstreamV1Tools } from './upstream-v1/tools.ts'
import type { Workplace } from './workplace.ts'

/**
 * The tool profiles: tables of workplace tool definitions over the same loaded sources (see `README.md` here).
 * - `upstream-v1`: upstream MPCBench's tool backend at commit eb0b7ca, quirks included (the default of MPCBench runs);
 * - `extended`: this project's tools (JQL subset, Slack modifiers, weekday-only DST-correct free slots, richer results).
 */
export const TOOL_PROFILES = ['upstream-v1', 'extended'] as const

/** One of {@link TOOL_PROFILES}. */
export type ToolProfile = (typeof TOOL_PROFILES)[number]

/** The zod schema of a profile name, for settings and CLI flags. */
export const ToolProfileSchema = z.enum(TOOL_PROFILES)

/** The profile MPCBench runs use unless `MPCBENCH_TOOLS` or `--tools` says otherwise. */
export const DEFAULT_TOOL_PROFILE: ToolProfile = 'upstream-v1'

/**
 * The nine workplace tools of a tool profile over one workplace. The default here is `extended` (this library's own
 * tools); MPCBench runs pass their setting, whose default is {@link DEFAULT_TOOL_PROFILE}.
 */
export function createWorkplaceTools(workplace: Workplace, profile: ToolProfile = 'extended'): AnyTool[] {
  return profile === 'upstream-v1' ? createUpstreamV1Tools(workplace) : createExtendedTools(workplace)
}
