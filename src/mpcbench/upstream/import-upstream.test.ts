import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { importUpstream } from './import-upstream.ts'
import { FIXTURE_SOURCES } from '../workplace/fixture-sources.ts'
import { completeScenarioIds, parseGeneratedText } from '../workplace/upstream-logs.ts'
import { loadWorkplace, sourceFilePath } from '../workplace/workplace.ts'
import { command as importUpstreamCommand } from '../cli/import-upstream.ts'
import { loadWorldState } from '../tasks/world-state.ts'

const tmp = mkdtempSync(join(tmpdir(), 'mpcbench-import-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** A log file shaped like upstream's (`generator/logs/llm/*.json`); the content is hand-written test data. */
function writeLog(dir: string, scenarioId: string, part: string, content: string, userPrompt = 'Generate.', loggedId = scenarioId): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, `${scenarioId}__${part}__llm.json`),
    JSON.stringify({
      model: 'scripted',
      context: { component: `${part}_generator`, timestamp: '2025-11-25T09:00:00', scenario_id: loggedId },
      request: {
        messages: [
          { role: 'system', content: 'x' },
          { role: 'user', content: userPrompt },
        ],
      },
      response: { raw_message: { role: 'assistant', content } },
    }),
  )
}

const WORLD = {
  scenario_id: 'tiny',
  description: 'generated description',
  global_settings: { timezone: 'UTC', workday_start: '09:00', workday_end: '18:00' },
  people: [{ id: 'p1', name: 'Ana Lima', email: 'ana@acme.test', team: 'Eng', role: 'Engineer' }],
  projects: [{ project_key: 'LCH', name: 'Launch' }],
  sub_scenarios_expanded: [{ id: 's1', type: 'planning_meeting' }],
  noise_scenarios: [],
  per_source_plans: { slack: 'dropped' },
}

describe('importUpstream on hand-written logs', () => {
  const logs = join(tmp, 'logs')
  const scenarioInPrompt = { ...WORLD, description: 'the scenario as given', global_settings: { ...WORLD.global_settings, timezone: 'Asia/Seoul' } }
  writeLog(
    logs,
    'tiny',
    'world_state',
    `\`\`\`json\n${JSON.stringify(WORLD)}\n\`\`\``,
    `Generate a world_state JSON from this scenario:\n\n${JSON.stringify(scenarioInPrompt, null, 2)}\n\nRules: {"not": "this"}`,
  )
  for (const [source, data] of Object.entries(FIXTURE_SOURCES)) writeLog(logs, 'tiny', source, JSON.stringify(data))
  writeLog(logs, 'half', 'world_state', JSON.stringify({ ...WORLD, scenario_id: 'half' }))
  writeLog(logs, 'broken', 'world_state', JSON.stringify({ ...WORLD, scenario_id: 'broken' }))
  for (const [source, data] of Object.entries(FIXTURE_SOURCES))
    writeLog(logs, 'broken', source, source === 'jira' ? '{"issues": "none"}' : JSON.stringify(data))
  writeFileSync(join(logs, 'task__agent-gpt__step-01.json'), JSON.stringify({ context: { component: 'agent' }, response: {} }))
  writeFileSync(join(logs, 'garbage.json'), '{not json')
  // Complete and valid, but their ids are not plain names: they must not be written (nor stop the others).
  for (const [fileId, loggedId] of [
    ['dots', '..'],
    ['escape', '../../escape'],
  ] as const) {
    writeLog(logs, fileId, 'world_state', JSON.stringify({ ...WORLD, scenario_id: loggedId }), 'Generate.', loggedId)
    for (const [source, data] of Object.entries(FIXTURE_SOURCES)) writeLog(logs, fileId, source, JSON.stringify(data), 'Generate.', loggedId)
  }

  const out = join(tmp, 'out')
  const result = importUpstream({ logs, out })

  it('writes the seven files of each complete, valid scenario; they load and validate', () => {
    expect(result.imported.map((i) => i.scenarioId)).toEqual(['tiny'])
    expect(readdirSync(out).sort()).toEqual([
      'tiny_calendar.json',
      'tiny_contacts.json',
      'tiny_drive.json',
      'tiny_gmail.json',
      'tiny_jira.json',
      'tiny_slack.json',
      'tiny_world_state.json',
    ])
    const workplace = loadWorkplace(out, 'tiny')
    expect(workplace.settings.timezone).toBe('Asia/Seoul')
    const world = loadWorldState(join(out, 'tiny_world_state.json'))
    expect(world.description).toBe('the scenario as given')
    expect(world).not.toHaveProperty('per_source_plans')
  })

  it('reports logs that are not generation calls and incomplete or invalid scenarios, without crashing', () => {
    const bad = (id: string) => [`${id}__world_state__llm.json`, ...Object.keys(FIXTURE_SOURCES).map((source) => `${id}__${source}__llm.json`)].sort()
    expect(result.skippedLogs.map((s) => [s.file.split('/').at(-1), s.reason.split(' (')[0]])).toEqual([
      ...bad('dots').map((name) => [name, 'scenario id ".." is not a plain name']),
      ...bad('escape').map((name) => [name, 'scenario id "../../escape" is not a plain name']),
      ['garbage.json', 'not JSON'],
      ['task__agent-gpt__step-01.json', 'not a generation call'],
    ])
    // Each bad file is a failure; another kind of log and an incomplete scenario are not.
    expect(result.failures.map((f) => f.file.split('/').at(-1))).toEqual([...bad('dots'), ...bad('escape'), 'garbage.json', 'broken__*__llm.json'])
    expect(result.skippedScenarios.map((s) => s.scenarioId)).toEqual(['broken', 'half'])
    expect(result.skippedScenarios[0]?.reason).toMatch(/jira/)
    expect(result.skippedScenarios[1]?.reason).toBe('incomplete: no slack, gmail, calendar, contacts, jira, drive log')
  })

  it('agent-bench import-upstream writes every good scenario, lists each failure and exits 1', async () => {
    const cliOut = join(tmp, 'cli-out')
    const errors: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line))
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      expect(await importUpstreamCommand.run(['--logs', logs, '--out', cliOut])).toBe(1)
    } finally {
      spy.mockRestore()
      log.mockRestore()
    }
    expect(readdirSync(cliOut).filter((name) => name.startsWith('tiny_'))).toHaveLength(7)
    expect(readdirSync(cliOut).some((name) => name.startsWith('.'))).toBe(false)
    expect(errors.join('\n')).toMatch(/failed \(16\):\n {2}\S+dots__calendar__llm\.json: scenario id "\.\." is not a plain name/)
    expect(errors.join('\n')).toContain('garbage.json: not JSON')
  })

  it('takes only plain names as scenario ids when naming files', () => {
    for (const id of ['..', '.', '.hidden', 'a..b', 'a/b', 'a\\b', 'x.']) expect(() => sourceFilePath(out, id, 'slack'), id).toThrow(/not a plain name/)
    expect(sourceFilePath(out, 'v1.2_lumen', 'slack')).toBe(join(out, 'v1.2_lumen_slack.json'))
  })

  it('reads replies as upstream did: stripped, one ``` fence line dropped at each end', () => {
    expect(parseGeneratedText('  ```json\n{"a": 1}\n```  ')).toEqual({ a: 1 })
    expect(() => parseGeneratedText('Here you go: {"a": 1}')).toThrow()
  })
})

describeWithSharedData('importUpstream on upstream MPCBench v1 logs', () => {
  it('materializes every complete scenario (27), and each loads and validates', () => {
    const logs = sharedDataPath('mpcbench', 'v1_eb0b7ca', 'generator', 'logs', 'llm')
    const copy = join(tmp, 'upstream-logs')
    mkdirSync(copy, { recursive: true })
    for (const name of readdirSync(logs)) copyFileSync(join(logs, name), join(copy, name))
    writeFileSync(join(copy, 'scenario_x__agent-gpt-5.1__step-01.json'), JSON.stringify({ context: { component: 'agent' } }))
    const out = join(tmp, 'upstream-data')
    const result = importUpstream({ logs: copy, out })
    expect(result.imported.map((i) => i.scenarioId)).toEqual(completeScenarioIds(logs))
    expect(result.imported).toHaveLength(27)
    expect(result.skippedLogs).toHaveLength(1)
    expect(result.skippedScenarios.every((s) => s.reason.startsWith('incomplete'))).toBe(true)
    for (const { scenarioId } of result.imported) {
      expect(loadWorkplace(out, scenarioId).events.length).toBeGreaterThan(0)
      expect(loadWorldState(join(out, `${scenarioId}_world_state.json`)).scenario_id).toBe(scenarioId)
    }
  })
})
