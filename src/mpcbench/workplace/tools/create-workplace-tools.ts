import type { AnyTool } from '../../../tools/define-tool.ts'
import type { Workplace } from '../workplace.ts'
import { findFreeSlotsTool, listEventsTool } from './calendar.ts'
import { searchContactsTool } from './contacts.ts'
import { driveReadFileTool, driveSearchTool } from './drive.ts'
import { getThreadTool, searchThreadsTool } from './gmail.ts'
import { searchIssuesTool } from './jira.ts'
import { slackSearchMessagesTool } from './slack.ts'

/** Dotted names of the workplace tools, as upstream MPCBench names them (on the wire, `.` becomes `__`). */
export const WORKPLACE_TOOL_NAMES = [
  'Slack.search_messages',
  'GoogleContacts.SearchContactsByName',
  'GoogleCalendar.ListEvents',
  'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
  'Gmail.SearchThreads',
  'Gmail.GetThread',
  'GoogleDrive.gdrive_search',
  'GoogleDrive.gdrive_read_file',
  'Jira.SearchIssuesWithJql',
] as const

/** One of {@link WORKPLACE_TOOL_NAMES}. */
export type WorkplaceToolName = (typeof WORKPLACE_TOOL_NAMES)[number]

/**
 * The nine workplace tools of the `extended` profile over one workplace, in {@link WORKPLACE_TOOL_NAMES} order.
 * Results are plain JSON (`tool-results.ts`); bad arguments throw `WorkplaceToolError` or `JqlError`.
 */
export function createExtendedTools(workplace: Workplace): AnyTool[] {
  return [
    slackSearchMessagesTool(workplace),
    searchContactsTool(workplace),
    listEventsTool(workplace),
    findFreeSlotsTool(workplace),
    searchThreadsTool(workplace),
    getThreadTool(workplace),
    driveSearchTool(workplace),
    driveReadFileTool(workplace),
    searchIssuesTool(workplace),
  ]
}
