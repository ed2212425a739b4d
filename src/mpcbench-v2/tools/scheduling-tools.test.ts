import { describe, expect, it } from 'vitest'
import { toOpenAITool } from '../../tools/define-tool.ts'
import { upstreamToolDefinitions } from '../harness/tool-definitions.ts'
import { executeSchedulingToolCall } from './execute-scheduling-tool.ts'
import { SCHEDULING_TOOL_NAMES, createSchedulingTools } from './scheduling-tools.ts'

// Every expected text below is what upstream's SimulatedAPI (evaluation/tools.py at e398410) and its agent loop
// returned for the same world, instance and call under CPython 3.11.

const world = {
  sources: {
    policy_text: { doc_a: { title: 'T', text: 'x→' } },
    people_table: { rows: [{ person_id: 'p1', person_name: 'Ålice' }] },
    rooms_table: {
      rows: [
        { room_id: 'r1', capacity: 4 },
        { room_id: 'r2', capacity: 8 },
      ],
    },
  },
}
const instance = { sources: { comm_thread_text: 'hello' } }

async function call(
  name: string,
  args: string,
  sources: { world: Record<string, unknown>; instance: Record<string, unknown> } = { world, instance },
): Promise<string> {
  return (await executeSchedulingToolCall(createSchedulingTools(sources), name, args)).content
}

describe('the 11 tools of upstream SimulatedAPI', () => {
  it.each([
    ['read_policy_document', '{"doc_id": "doc_a"}', '{"doc_id": "doc_a", "title": "T", "text": "x→"}'],
    [
      'read_policy_document',
      '{"doc_id": "nope"}',
      `{"doc_id": "nope", "error": "Document 'nope' not found. Use list_document_ids() to see available documents."}`,
    ],
    ['list_document_ids', '{}', '{"document_ids": ["doc_a"]}'],
    ['list_thread_ids', '{}', '{"thread_ids": ["primary_thread"]}'],
    ['read_communication_thread', '{"thread_id": "primary_thread"}', '{"thread_id": "primary_thread", "text": "hello", "tags": {}}'],
    ['read_communication_thread', '{"thread_id": "x"}', '{"thread_id": "x", "text": "", "tags": {}}'],
    ['search_person', '{"name_query": "\\u00e5l"}', '{"matches": [{"person_id": "p1", "person_name": "Ålice"}]}'],
    ['list_rooms', '{"min_capacity": 5}', '{"rooms": [{"room_id": "r2", "capacity": 8}]}'],
    ['list_rooms', '{}', '{"rooms": [{"room_id": "r1", "capacity": 4}, {"room_id": "r2", "capacity": 8}]}'],
    ['get_policy_rules', '{"policy_id": "P"}', '{"policy_id": "P", "rules": []}'],
    ['list_policy_ids', '{}', '{"policy_ids": []}'],
    ['get_room_availability', '{"room_id": "r1"}', '{"room_id": "r1", "events": []}'],
  ])('%s(%s)', async (name, args, expected) => {
    expect(await call(name, args)).toBe(expected)
  })

  it('answers bad calls with upstream error strings', async () => {
    expect(await call('list_rooms', '{"min_capacity": "5"}')).toBe(
      `{"error": "Tool execution failed: '>=' not supported between instances of 'int' and 'str'"}`,
    )
    expect(await call('get_calendar_events', '{}')).toBe(
      `{"error": "Tool execution failed: SimulatedAPI.get_calendar_events() missing 1 required positional argument: 'person_id'"}`,
    )
    expect(await call('get_calendar_events', '{"foo": 1, "person_id": "x"}')).toBe(
      `{"error": "Tool execution failed: SimulatedAPI.get_calendar_events() got an unexpected keyword argument 'foo'"}`,
    )
    expect(await call('get_current_time', '[1]')).toBe(
      '{"error": "Tool execution failed: evaluation.tools.SimulatedAPI.get_current_time() argument after ** must be a mapping, not list"}',
    )
    expect(await call('get_current_time', 'null')).toBe(
      '{"error": "Tool execution failed: evaluation.tools.SimulatedAPI.get_current_time() argument after ** must be a mapping, not NoneType"}',
    )
    expect(await call('get_calendar_events', '{"person_id": [1]}', { world: { sources: { calendar_json: {} } }, instance: {} })).toBe(
      `{"error": "Tool execution failed: unhashable type: 'list'"}`,
    )
    expect(await call('search_person', '{"name_query": "a"}', { world: { sources: { people_table: [] } }, instance: {} })).toBe(
      `{"error": "Tool execution failed: 'list' object has no attribute 'get'"}`,
    )
    expect(await call('nope', '{}')).toBe('{"error": "Unknown tool: nope"}')
    expect(await call('get_current_time', '')).toBe('{"error": "Tool execution failed: Expecting value: line 1 column 1 (char 0)"}')
  })

  it.each([
    ['Asia/Seoul', '2026-01-19T00:00:00+09:00'],
    ['UTC', '2026-01-19T00:00:00'],
    ['America/St_Johns', '2026-01-19T00:00:00-04:30'],
    ['America/New_York', '2026-01-19T00:00:00-05:00'],
    ['Asia/Kolkata', '2026-01-19T00:00:00+05:30'],
    ['Not/AZone', '2026-01-19T00:00:00+00:00'],
    ['Europe/Paris', '2026-01-19T00:00:00+01:00'],
  ])("gives offset-less times the offset upstream's rule gives in %s", async (timezone, expected) => {
    const content = await call('get_current_time', '{}', { world: { timezone, world_start: '2026-01-19T00:00:00' }, instance: {} })
    expect(content).toBe(`{"current_time": "${expected}", "timezone": "${timezone}"}`)
  })

  it('gives calendar events the offset, keeping offsets already there and the event fields in order', async () => {
    const sources = {
      world: { sources: { calendar_json: { p: [{ start: '2026-01-19T10:00:00', end: '2026-01-19T11:00:00+09:00', title: 'A' }] } } },
      instance: { slots: { time_window: { start: '2026-01-20T09:00:00' } } },
    }
    expect(await call('get_calendar_events', '{"person_id": "p"}', sources)).toBe(
      '{"person_id": "p", "events": [{"start": "2026-01-19T10:00:00+09:00", "end": "2026-01-19T11:00:00+09:00", "title": "A"}]}',
    )
    expect(await call('get_current_time', '{}', sources)).toBe('{"current_time": "2026-01-20T09:00:00+09:00", "timezone": "Asia/Seoul"}')
  })

  it("answers read_policy_document in the form of upstream's runs before 25e5bb0 when asked", async () => {
    const tools = createSchedulingTools({ world: { sources: { policy_text: 'Policy' } }, instance: {}, policyDocumentFormat: 'legacy' })
    expect((await executeSchedulingToolCall(tools, 'read_policy_document', '{"doc_id": "primary_policy_doc"}')).content).toBe(
      '{"doc_id": "primary_policy_doc", "text": "Policy", "tags": {}}',
    )
    expect((await executeSchedulingToolCall(tools, 'read_policy_document', '{"doc_id": "x"}')).content).toBe('{"doc_id": "x", "text": "", "tags": {}}')
  })

  it('defines each tool once: the zod tools give both our OpenAI tools and upstream definitions as sent', () => {
    const tools = createSchedulingTools({ world: {}, instance: {} })
    expect(tools.map((tool) => tool.name)).toEqual([...SCHEDULING_TOOL_NAMES])
    const upstream = upstreamToolDefinitions(tools)
    expect(upstream.find((tool) => tool.function.name === 'list_rooms')).toEqual({
      type: 'function',
      function: {
        name: 'list_rooms',
        description: 'List rooms filtered by minimum capacity (Level 3 only). Returns room records with room_id, capacity, and other metadata.',
        parameters: {
          type: 'object',
          properties: { min_capacity: { type: 'integer', description: 'Minimum room capacity (default: 0)', default: 0 } },
          required: [],
        },
      },
    })
    expect(upstream[0]).toEqual({
      type: 'function',
      function: {
        name: 'get_current_time',
        description: 'Get the current time for this evaluation context.',
        parameters: { type: 'object', properties: {}, required: [] },
      },
    })
    for (const [index, tool] of tools.entries()) {
      const ours = toOpenAITool(tool).function
      expect(ours.description).toBe(upstream[index]?.function.description)
      expect(Object.keys((ours.parameters as { properties: object }).properties)).toEqual(
        Object.keys((upstream[index]?.function.parameters as { properties: object } | undefined)?.properties ?? {}),
      )
    }
  })
})
