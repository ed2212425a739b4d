import { z } from 'zod'
import { type AnyTool, defineTool } from '../../tools/define-tool.ts'
import { pyJsonDumps } from '../../core/python-format.ts'
import { PythonError, isDict, pyGet, pyLower, pyStr, pyType, truthy } from './python-values.ts'
import { injectTimezone } from './timezone.ts'

/**
 * What `read_policy_document` returns. Upstream changed it in commit 25e5bb0 (2026-02-11): before, `{doc_id, text,
 * tags}` (an unknown id gave empty text); from then on `{doc_id, title, text}` or `{doc_id, error}`. The rows upstream
 * recorded before that commit (gpt-4o, January 18 and February 2) were made with the `legacy` form.
 */
export type PolicyDocumentFormat = 'e398410' | 'legacy'

/** What the tools read: the sanitized world and instance (see `sanitize`), as upstream's `SimulatedAPI(world, instance)`. */
export interface SchedulingSources {
  world: Record<string, unknown>
  instance: Record<string, unknown>
  /** @default 'e398410' */
  policyDocumentFormat?: PolicyDocumentFormat
}

/** The 11 tool names of upstream's `SimulatedAPI`, in its `get_tool_definitions` order. */
export const SCHEDULING_TOOL_NAMES = [
  'get_current_time',
  'get_calendar_events',
  'list_policy_ids',
  'get_policy_rules',
  'list_document_ids',
  'read_policy_document',
  'list_thread_ids',
  'read_communication_thread',
  'search_person',
  'list_rooms',
  'get_room_availability',
] as const

/** One of {@link SCHEDULING_TOOL_NAMES}. */
export type SchedulingToolName = (typeof SCHEDULING_TOOL_NAMES)[number]

function worldTimezone(sources: SchedulingSources): string {
  return pyStr(pyGet(sources.world, 'timezone', 'Asia/Seoul'))
}

function worldSource(sources: SchedulingSources, name: string): unknown {
  return pyGet(pyGet(sources.world, 'sources', {}), name, {})
}

/** Busy events with their date-times given the world's offset (`get_calendar_events`, `get_room_availability`). */
function withOffsets(events: unknown, timeZone: string): unknown[] {
  if (!Array.isArray(events)) return []
  return events.map((event) => {
    if (!isDict(event)) return event
    const copy = { ...event }
    for (const field of ['start', 'end'] as const) {
      if (!Object.hasOwn(copy, field)) continue
      const value = copy[field]
      if (!truthy(value)) continue
      if (typeof value !== 'string') throw new PythonError(`'${pyType(value)}' object has no attribute 'endswith'`)
      copy[field] = injectTimezone(value, timeZone)
    }
    return copy
  })
}

/** The comm threads upstream's thread tools read: the instance's, else the world's. */
function commThreads(sources: SchedulingSources): unknown {
  const threads = pyGet(pyGet(sources.instance, 'sources', {}), 'comm_threads', [])
  return truthy(threads) ? threads : pyGet(pyGet(sources.world, 'sources', {}), 'comm_threads', [])
}

function commThreadText(sources: SchedulingSources): unknown {
  const text = pyGet(pyGet(sources.instance, 'sources', {}), 'comm_thread_text', '')
  return truthy(text) ? text : pyGet(pyGet(sources.world, 'sources', {}), 'comm_thread_text', '')
}

function tableRows(sources: SchedulingSources, table: string): unknown {
  return pyGet(worldSource(sources, table), 'rows', [])
}

const NoArguments = z.object({})
const PersonId = z.object({ person_id: z.string().describe("Person identifier (e.g., 'person_001')") })
const PolicyId = z.object({ policy_id: z.string().describe("Policy identifier (e.g., 'POLICY_1')") })
const DocId = z.object({ doc_id: z.string().describe('Document identifier (obtained from list_document_ids)') })
const ThreadId = z.object({ thread_id: z.string().describe('Thread identifier (obtained from list_thread_ids)') })
const NameQuery = z.object({ name_query: z.string().describe('Name or partial name to search for') })
const MinCapacity = z.object({ min_capacity: z.number().int().default(0).describe('Minimum room capacity (default: 0)') })
const RoomId = z.object({ room_id: z.string().describe("Room identifier (e.g., 'room_001')") })

/**
 * Upstream MPCBench v2's `SimulatedAPI` (`evaluation/tools.py` at e398410) as our tools: the same names, descriptions
 * and parameters, each returning what upstream's method returns, written as its tool message
 * (`json.dumps(result, ensure_ascii=False)`). The handlers take the arguments as the model sent them (upstream checks
 * no types), so {@link executeSchedulingToolCall} runs them with Python's call rules rather than the zod parser.
 */
export function createSchedulingTools(sources: SchedulingSources): AnyTool[] {
  const format = sources.policyDocumentFormat ?? 'e398410'
  const tool = <P extends z.ZodObject>(name: SchedulingToolName, description: string, parameters: P, handler: (args: Record<string, unknown>) => unknown) =>
    defineTool({
      name,
      description,
      parameters,
      unknownArguments: 'reject',
      formatResult: (result) => pyJsonDumps(result),
      handler: (args) => handler(args as Record<string, unknown>),
    })
  return [
    tool('get_current_time', 'Get the current time for this evaluation context.', NoArguments, () => {
      const timeWindow = pyGet(pyGet(sources.instance, 'slots', {}), 'time_window', {})
      let current = pyGet(timeWindow, 'start', null)
      if (!truthy(current)) current = pyGet(sources.world, 'world_start', null)
      if (truthy(current)) {
        if (typeof current !== 'string') throw new PythonError(`'${pyType(current)}' object has no attribute 'endswith'`)
        current = injectTimezone(current, worldTimezone(sources))
      }
      return { current_time: truthy(current) ? current : '', timezone: pyGet(sources.world, 'timezone', 'Asia/Seoul') }
    }),
    tool('get_calendar_events', 'Get calendar events (busy intervals) for a person by person_id.', PersonId, ({ person_id }) => {
      const events = pyGet(worldSource(sources, 'calendar_json'), person_id, [])
      return { person_id, events: withOffsets(events, worldTimezone(sources)) }
    }),
    tool(
      'list_policy_ids',
      'List available structured policy rule IDs (Level 1 only). Use this to discover which policy_id values are available before calling get_policy_rules.',
      NoArguments,
      () => {
        const policies = worldSource(sources, 'policy_json')
        return { policy_ids: isDict(policies) ? Object.keys(policies) : [] }
      },
    ),
    tool(
      'get_policy_rules',
      'Get policy rules for a given policy ID (Level 1 only). Returns machine-readable policy rules. You MUST obtain the ID via list_policy_ids first.',
      PolicyId,
      ({ policy_id }) => {
        const rules = pyGet(pyGet(worldSource(sources, 'policy_json'), policy_id, {}), 'rules', [])
        return { policy_id, rules: Array.isArray(rules) ? rules : [] }
      },
    ),
    tool(
      'list_document_ids',
      'List available policy document IDs (Level 2/3 only). Use this to discover which doc_id values are available before calling read_policy_document.',
      NoArguments,
      () => {
        const text = worldSource(sources, 'policy_text')
        if (isDict(text)) return { document_ids: Object.keys(text) }
        if (typeof text === 'string' && text !== '') return { document_ids: ['primary_policy_doc'] }
        return { document_ids: [] }
      },
    ),
    tool(
      'read_policy_document',
      'Read policy document text (Level 2/3 only). Returns the policy text document. You MUST obtain the ID via list_document_ids first.',
      DocId,
      ({ doc_id }) => {
        const text = worldSource(sources, 'policy_text')
        if (format === 'legacy') {
          if (isDict(text)) {
            const doc = pyGet(text, doc_id, {})
            return { doc_id, text: pyGet(doc, 'text', ''), tags: pyGet(doc, 'tags', {}) }
          }
          if (typeof text === 'string' && doc_id === 'primary_policy_doc') return { doc_id, text, tags: {} }
          return { doc_id, text: '', tags: {} }
        }
        if (isDict(text)) {
          const doc = pyGet(text, doc_id, {})
          if (truthy(doc)) return { doc_id, title: pyGet(doc, 'title', ''), text: pyGet(doc, 'text', '') }
          return { doc_id, error: `Document '${pyStr(doc_id)}' not found. Use list_document_ids() to see available documents.` }
        }
        if (typeof text === 'string' && doc_id === 'primary_policy_doc') return { doc_id, title: 'Company Policy Document', text }
        return { doc_id, error: `Document '${pyStr(doc_id)}' not found.` }
      },
    ),
    tool(
      'list_thread_ids',
      'List available communication thread IDs (Level 2/3 only). Use this to discover which thread_id values are available before calling read_communication_thread.',
      NoArguments,
      () => {
        const threads = commThreads(sources)
        if (Array.isArray(threads)) {
          const ids = threads.filter((thread) => isDict(thread) && truthy(thread.thread_id)).map((thread) => (thread as Record<string, unknown>).thread_id)
          if (ids.length > 0) return { thread_ids: ids }
        }
        const text = commThreadText(sources)
        return { thread_ids: typeof text === 'string' && text !== '' ? ['primary_thread'] : [] }
      },
    ),
    tool(
      'read_communication_thread',
      'Read a communication thread by thread_id (Level 2/3 only). Returns thread text and metadata. You MUST obtain the ID via list_thread_ids first.',
      ThreadId,
      ({ thread_id }) => {
        const threads = commThreads(sources)
        if (Array.isArray(threads)) {
          for (const thread of threads) {
            if (isDict(thread) && pyEquals(Object.hasOwn(thread, 'thread_id') ? thread.thread_id : null, thread_id)) {
              return { thread_id, text: pyGet(thread, 'thread_text', pyGet(thread, 'text', '')), tags: pyGet(thread, 'thread_tags', pyGet(thread, 'tags', {})) }
            }
          }
        }
        if (thread_id === 'primary_thread') {
          const text = commThreadText(sources)
          if (typeof text === 'string' && text !== '') return { thread_id, text, tags: {} }
        }
        return { thread_id, text: '', tags: {} }
      },
    ),
    tool(
      'search_person',
      'Search for a person by name (Level 3 only). Returns matching person records with person_id and person_name.',
      NameQuery,
      ({ name_query }) => {
        const rows = tableRows(sources, 'people_table')
        if (!Array.isArray(rows)) return { matches: [] }
        const query = pyLower(name_query)
        return { matches: rows.filter((row) => pyLower(pyGet(row, 'person_name', '')).includes(query)) }
      },
    ),
    tool(
      'list_rooms',
      'List rooms filtered by minimum capacity (Level 3 only). Returns room records with room_id, capacity, and other metadata.',
      MinCapacity,
      ({ min_capacity = 0 }) => {
        const rows = tableRows(sources, 'rooms_table')
        if (!Array.isArray(rows)) return { rooms: [] }
        return { rooms: rows.filter((row) => atLeast(pyGet(row, 'capacity', 0), min_capacity)) }
      },
    ),
    tool(
      'get_room_availability',
      'Get room availability (busy intervals) for a room by room_id (Level 3 only). You MUST obtain the ID via list_rooms first.',
      RoomId,
      ({ room_id }) => {
        const events = pyGet(worldSource(sources, 'room_availability_json'), room_id, [])
        return { room_id, events: withOffsets(events, worldTimezone(sources)) }
      },
    ),
  ]
}

/** Python's `==` between JSON scalars (a string equals only the same string; `True == 1`); lists and dicts by value. */
function pyEquals(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b
  if ((a === null || a === undefined) !== (b === null || b === undefined)) return false
  if (a === null || a === undefined) return true
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b)
  return Number(a) === Number(b)
}

/** `isinstance(capacity, (int, float)) and capacity >= min_capacity`, raising where Python's comparison does. */
function atLeast(capacity: unknown, minimum: unknown): boolean {
  if (typeof capacity !== 'number' && typeof capacity !== 'boolean') return false
  if (typeof minimum !== 'number' && typeof minimum !== 'boolean') {
    throw new PythonError(`'>=' not supported between instances of '${pyType(capacity)}' and '${pyType(minimum)}'`)
  }
  return Number(capacity) >= Number(minimum)
}
