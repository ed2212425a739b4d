import { toWireName } from '../../tools/define-tool.ts'
import type { ToolProfile } from '../workplace/tool-profiles.ts'
import { pyGet, pyLen, pyTruthy } from '../workplace/upstream-v1/python.ts'
import { PythonNumber, pyStr } from '../../core/python-format.ts'
import { UPSTREAM_V1_WIRE_NAMES } from '../workplace/upstream-v1/tools.ts'

/**
 * The function name a tool is called by under a profile, for a call whose own is not recorded: upstream's for its
 * nine tools under `upstream-v1` (or no profile), else our wire name (`Slack__search_messages`).
 */
export function functionNameOf(toolName: string, profile: ToolProfile | undefined): string {
  return profile !== 'extended' && Object.hasOwn(UPSTREAM_V1_WIRE_NAMES, toolName)
    ? UPSTREAM_V1_WIRE_NAMES[toolName as keyof typeof UPSTREAM_V1_WIRE_NAMES]
    : toWireName(toolName)
}

const MAX_JQL_CHARS = 50

function jqlSummary(jql: unknown): string {
  // `len(jql) > 50` and `jql[:50]`: a string by code point, a list by item. Upstream's run died on any other value.
  if (typeof jql === 'string' && pyLen(jql) > MAX_JQL_CHARS) return `jql=${[...jql].slice(0, MAX_JQL_CHARS).join('')}...`
  if (Array.isArray(jql) && jql.length > MAX_JQL_CHARS) return `jql=${pyStr(jql.slice(0, MAX_JQL_CHARS))}...`
  return `jql=${pyStr(jql)}`
}

/** Python truthiness, of a {@link PythonNumber} too (`0.0` is false). */
function truthy(value: unknown): boolean {
  return value instanceof PythonNumber ? value.value !== 0 : pyTruthy(value)
}

function gmailSearchSummary(args: unknown): string {
  const subject = pyGet(args, 'subject', '')
  const sender = pyGet(args, 'sender', '')
  if (truthy(subject) && truthy(sender)) return `subject=${pyStr(subject)}, sender=${pyStr(sender)}`
  if (truthy(subject)) return `subject=${pyStr(subject)}`
  if (truthy(sender)) return `sender=${pyStr(sender)}`
  return 'no filters'
}

/**
 * The argument summary upstream's runner writes for one call (its `short_arg_summary`): one or two arguments per
 * tool, printed as Python's `str()` (a list as `['a', 'b']`, a missing argument as empty, `null` as `None`), a JQL
 * query cut at 50 characters with `...`, and for any other tool the whole arguments as a Python dict. Arguments that
 * are not an object (upstream's run failed on those) are printed as they are. `args` as Python's `json.loads` reads
 * the model's text: a {@link PythonNumber} prints as Python does (`45.0`).
 */
export function upstreamArgumentSummary(toolName: string, args: unknown): string {
  if (args === null || typeof args !== 'object' || Array.isArray(args) || args instanceof PythonNumber) return pyStr(args)
  const arg = (key: string, fallback: unknown = '') => pyStr(pyGet(args, key, fallback))
  switch (toolName) {
    case 'Slack.search_messages':
      return `search_query=${arg('search_query')}`
    case 'GoogleContacts.SearchContactsByName':
      return `name=${arg('name')}`
    case 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree':
      return `email_addresses=${arg('email_addresses', [])}`
    case 'GoogleCalendar.ListEvents':
      return `min_end_datetime=${arg('min_end_datetime')}, max_start_datetime=${arg('max_start_datetime')}`
    case 'Gmail.SearchThreads':
      return gmailSearchSummary(args)
    case 'Gmail.GetThread':
      return `thread_id=${arg('thread_id')}`
    case 'GoogleDrive.gdrive_search':
      return `query=${arg('query')}`
    case 'GoogleDrive.gdrive_read_file':
      return `file_id=${arg('file_id')}`
    case 'Jira.SearchIssuesWithJql':
      return jqlSummary(pyGet(args, 'jql', ''))
    default:
      return pyStr(args)
  }
}

const MAX_ARG_CHARS = 80

function genericValue(value: unknown): string {
  const text = typeof value === 'string' ? `'${value}'` : (JSON.stringify(value) ?? String(value))
  return text.length > MAX_ARG_CHARS ? `${text.slice(0, MAX_ARG_CHARS - 3)}...` : text
}

/**
 * Our summary for tools that are not upstream's (the `extended` profile's tools share upstream's names but not
 * their arguments): every argument as `key='value'` or JSON, each cut at 80 characters; arguments that were not a
 * JSON object shown as they came.
 */
export function genericArgumentSummary(args: unknown): string {
  if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
    return Object.entries(args as Record<string, unknown>)
      .map(([key, value]) => `${key}=${genericValue(value)}`)
      .join(', ')
  }
  return args === undefined ? '' : genericValue(args)
}

/** One recorded call, as {@link toolTraceSteps} reads it. */
export interface TracedCall {
  name: string
  arguments: unknown
  /** The arguments as Python's `json.loads` read the model's text, when that differs from `arguments` (`45.0`). */
  pythonArguments?: unknown
}

/**
 * The run log's `tool_trace_steps`, `Step N: Tool.name(summary)`: with upstream's tools (profile `upstream-v1`) the
 * summary upstream's runner writes ({@link upstreamArgumentSummary}, of `pythonArguments` when given), so a judge
 * reads the same lines; with any other profile (or none recorded) {@link genericArgumentSummary}.
 */
export function toolTraceSteps(calls: ReadonlyArray<TracedCall>, profile: ToolProfile | undefined): string[] {
  return calls.map((call, index) => {
    const summary =
      profile === 'upstream-v1'
        ? upstreamArgumentSummary(call.name, call.pythonArguments === undefined ? call.arguments : call.pythonArguments)
        : genericArgumentSummary(call.arguments)
    return `Step ${index + 1}: ${call.name}(${summary})`
  })
}
