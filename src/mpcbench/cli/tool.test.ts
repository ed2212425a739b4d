import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { importUpstream } from '../upstream/import-upstream.ts'
import { FIXTURE_SOURCES } from '../workplace/fixture-sources.ts'
import { callScenarioTool, command } from './tool.ts'

const run = promisify(execFile)
const repo = new URL('../../../', import.meta.url).pathname
const tmp = mkdtempSync(join(tmpdir(), 'mpcbench-tool-cli-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
afterEach(() => vi.restoreAllMocks())

/** Runs the command in-process; stdout and stderr as text, and the exit code. */
async function runTool(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk)
    return true
  })
  vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => {
    stderr += `${parts.join(' ')}\n`
  })
  const code = await command.run(argv)
  vi.restoreAllMocks()
  return { code, stdout, stderr }
}

describe('agent-bench tool on hand-written data', () => {
  for (const [source, data] of Object.entries(FIXTURE_SOURCES)) {
    writeFileSync(join(tmp, `fixture_${source}.json`), JSON.stringify(data))
  }
  const base = ['--data-dir', tmp, '--scenario-id', 'fixture']

  it('prints one JSON line per call, by dotted or wire name, for either profile', async () => {
    const upstream = await runTool([...base, '--name', 'Slack_search_messages', '--args', '{"search_query": "thursday"}'])
    expect(upstream.code).toBe(0)
    expect(upstream.stdout.split('\n')).toHaveLength(2)
    expect(JSON.parse(upstream.stdout)).toEqual({
      matches: [
        { channel: 'launch', text: 'Launch review moved to Thursday', timestamp: '2025-03-03T23:30:00Z' },
        { channel: 'launch', text: 'Thursday works for the launch review', timestamp: '2025-03-04T10:00:00+09:00' },
      ],
    })
    const dotted = await runTool([...base, '--name', 'Slack.search_messages', '--args', '{"search_query": "thursday"}'])
    expect(dotted.stdout).toBe(upstream.stdout)
    const extended = await runTool([...base, '--tools', 'extended', '--name', 'Slack__search_messages', '--args', '{"query": "thursday"}'])
    expect(JSON.parse(extended.stdout)).toMatchObject({ total: 2 })
  })

  it('prints a tool-level error as a result (exit 0)', async () => {
    const bad = await runTool([...base, '--name', 'Slack_search_messages', '--args', '{"search_query": null}'])
    expect(bad.code).toBe(0)
    expect(JSON.parse(bad.stdout)).toMatchObject({ status: 'invalid-arguments' })
    const failing = await runTool([
      ...base,
      '--name',
      'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
      '--args',
      '{"email_addresses": ["ana@acme.test"], "workday_start_time": "9am"}',
    ])
    expect(failing.code).toBe(0)
    expect(JSON.parse(failing.stdout)).toMatchObject({ status: 'tool-error' })
  })

  it('exits 2 with a message on stderr for an unknown tool, a missing scenario or --args that is not JSON', async () => {
    for (const argv of [
      [...base, '--name', 'Slack__search_messages'],
      ['--data-dir', tmp, '--scenario-id', 'nowhere', '--name', 'Slack_search_messages'],
      [...base, '--name', 'Slack_search_messages', '--args', '{search_query'],
      [...base, '--tools', 'upstream', '--name', 'Slack_search_messages'],
    ]) {
      const { code, stdout, stderr } = await runTool(argv)
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(/^agent-bench tool: (unknown tool|no scenario|--args is not JSON|Unknown tool profile)/)
    }
  })
})

describeWithSharedData('agent-bench tool answers every upstream tool-oracle case (data imported from the upstream logs)', () => {
  const oracleDir = sharedDataPath('mpcbench', 'tool-oracle')
  const cases = readFileSync(join(oracleDir, 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { id: string; scenario_id: string; name: string; wire_name: string; args: unknown; expected: unknown })
  const dataDir = join(tmp, 'upstream')
  const imported = importUpstream({
    logs: sharedDataPath('mpcbench', 'v1_eb0b7ca', 'generator', 'logs', 'llm'),
    out: dataDir,
    scenarioIds: [...new Set(cases.map((c) => c.scenario_id))],
  })

  it('imported every scenario the cases use', () => {
    expect(imported.skippedScenarios).toEqual([])
  })

  it.each(cases.map((c) => [c.id, c] as const))('%s by name and by wire name', async (_id, c) => {
    for (const name of [c.name, c.wire_name]) {
      const outcome = await callScenarioTool({ dataDir, scenarioId: c.scenario_id, profile: 'upstream-v1', name, args: JSON.stringify(c.args) })
      expect(outcome).toEqual({ kind: 'result', result: c.expected })
    }
  })

  it('answers through the command and through a real `agent-bench tool` process', async () => {
    const c = cases.find((x) => x.name === 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree') ?? cases[0]!
    const argv = ['--data-dir', dataDir, '--scenario-id', c.scenario_id, '--tools', 'upstream-v1', '--name', c.wire_name, '--args', JSON.stringify(c.args)]
    const inProcess = await runTool(argv)
    expect(inProcess.code).toBe(0)
    expect(JSON.parse(inProcess.stdout)).toEqual(c.expected)
    const { stdout } = await run(process.execPath, ['bin/agent-bench.js', 'tool', ...argv], { cwd: repo })
    expect(stdout.trim().split('\n')).toHaveLength(1)
    expect(JSON.parse(stdout)).toEqual(c.expected)
  })
})
