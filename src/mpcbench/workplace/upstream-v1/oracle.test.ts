import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../../testing/shared-data.ts'
import { parseToolArguments, toOpenAITool, toolTable, wireNameOf } from '../../../tools/define-tool.ts'
import { createWorkplaceTools } from '../tool-profiles.ts'
import { readUpstreamScenario } from '../upstream-logs.ts'
import { Workplace } from '../workplace.ts'

const oracleDir = sharedDataPath('mpcbench', 'tool-oracle')
const logDir = sharedDataPath('mpcbench', 'v1_eb0b7ca', 'generator', 'logs', 'llm')

interface OracleCase {
  id: string
  scenario_id: string
  name: string
  wire_name: string
  args: unknown
  expected: unknown
  probe: string
}

const workplaces = new Map<string, Workplace>()
function upstreamWorkplace(scenarioId: string): Workplace {
  let workplace = workplaces.get(scenarioId)
  if (workplace === undefined) {
    const { worldState, sources } = readUpstreamScenario(logDir, scenarioId)
    const global = (worldState.global_settings ?? {}) as { timezone?: string; workday_start?: string; workday_end?: string }
    workplace = Workplace.fromSources(sources, { timezone: global.timezone, workdayStart: global.workday_start, workdayEnd: global.workday_end })
    workplaces.set(scenarioId, workplace)
  }
  return workplace
}

/** Calls a tool as the agent loop does: prepare and parse the arguments, run the handler, round-trip through JSON. */
async function callUpstream(scenarioId: string, wireName: string, args: unknown): Promise<unknown> {
  const tool = toolTable(createWorkplaceTools(upstreamWorkplace(scenarioId), 'upstream-v1'))[wireName]
  if (tool === undefined) throw new Error(`no upstream-v1 tool ${wireName}`)
  const parsed = parseToolArguments(tool, args)
  if (!parsed.success) throw parsed.error
  return JSON.parse(JSON.stringify(await tool.handler(parsed.data, {})))
}

describeWithSharedData('upstream-v1 tool profile against upstream tool oracle (tool-oracle/cases.jsonl)', () => {
  const cases = readFileSync(`${oracleDir}/cases.jsonl`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as OracleCase)

  it('holds the 170 documented cases', () => {
    expect(cases).toHaveLength(170)
  })

  it.each(cases.map((c) => [`${c.id} (${c.probe})`, c] as const))('%s', async (_label, c) => {
    expect(await callUpstream(c.scenario_id, c.wire_name, c.args)).toEqual(c.expected)
    expect(c.wire_name).toBe(wireNameOf(toolTable(createWorkplaceTools(upstreamWorkplace(c.scenario_id), 'upstream-v1'))[c.wire_name]!))
  })

  it("offers upstream's tool list exactly: names, descriptions and parameters", () => {
    const spec = JSON.parse(readFileSync(`${oracleDir}/upstream-tool-spec.json`, 'utf8')) as unknown
    const offered = createWorkplaceTools(upstreamWorkplace('scenario_A'), 'upstream-v1').map(toOpenAITool)
    expect(offered).toEqual(spec)
    // Key order too: the model reads the JSON text.
    expect(JSON.stringify(offered)).toBe(JSON.stringify(spec))
  })
})

describe('upstream-v1 tool arguments', () => {
  it('reads missing required arguments as upstream does and rejects what upstream crashes on', () => {
    const workplace = Workplace.fromSources({
      slack: { workspace_name: 'w', channels: [], messages: [], users: [] },
      gmail: { threads: [] },
      calendar: { events: [], calendars: [] },
      contacts: { contacts: [] },
      jira: { projects: [], issues: [] },
      drive: { files: [] },
    })
    const table = toolTable(createWorkplaceTools(workplace, 'upstream-v1'))
    expect(parseToolArguments(table.Slack_search_messages!, {})).toEqual({ success: true, data: { search_query: '' } })
    expect(parseToolArguments(table.Slack_search_messages!, { search_query: null }).success).toBe(false)
    expect(
      parseToolArguments(table.GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree!, {
        email_addresses: ['a@b.c'],
        workday_start_time: null,
        date_range_start: '2025-01-06',
      }),
    ).toEqual({
      success: true,
      data: {
        email_addresses: ['a@b.c'],
        start_date: '2025-01-06',
        end_date: '',
        workday_start_time: null,
        workday_end_time: '18:00',
        slot_minimum_minutes: 30,
      },
    })
  })
})
