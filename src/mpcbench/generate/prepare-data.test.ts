import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError } from '../../core/errors.ts'
import { generateScenario, generationRecordPath, repoRoot } from './generate-scenario.ts'
import { prepareMpcbenchData, prepareMpcbenchDataIsolated } from './prepare-data.ts'
import { prepareOptionsFromEnv } from '../settings.ts'

const tmp = mkdtempSync(join(tmpdir(), 'mpcbench-prepare-test-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function tempProject(): { scenariosDir: string; dataDir: string } {
  const root = mkdtempSync(join(tmp, 'mpcbench-prepare-'))
  const scenariosDir = join(root, 'scenarios')
  mkdirSync(scenariosDir)
  for (const id of ['lumen_robotics', 'tidewater_clinics']) copyFileSync(join(repoRoot, 'scenarios', `${id}.json`), join(scenariosDir, `${id}.json`))
  return { scenariosDir, dataDir: join(root, 'data') }
}

describe('prepareMpcbenchData (the globalSetup logic)', () => {
  it('generates missing data, skips it on the second run, and regenerates an edited scenario', async () => {
    const { scenariosDir, dataDir } = tempProject()
    const lines: string[] = []
    const log = (line: string): void => void lines.push(line)

    const first = await prepareMpcbenchData({ scenariosDir, dataDir, log })
    expect(first.map((r) => r.kind)).toEqual(['generated', 'generated'])
    expect(lines).toEqual([
      'mpcbench: lumen_robotics generated (procedural: world_state, slack, gmail, calendar, contacts, jira, drive)',
      'mpcbench: tidewater_clinics generated (procedural: world_state, slack, gmail, calendar, contacts, jira, drive)',
    ])
    const slackFile = join(dataDir, 'lumen_robotics_slack.json')
    const before = statSync(slackFile).mtimeMs

    lines.length = 0
    const second = await prepareMpcbenchData({ scenariosDir, dataDir, log })
    expect(second.map((r) => r.kind)).toEqual(['skipped', 'skipped'])
    expect(lines).toEqual(['mpcbench: lumen_robotics skipped (up to date)', 'mpcbench: tidewater_clinics skipped (up to date)'])
    expect(statSync(slackFile).mtimeMs).toBe(before)

    const scenarioFile = join(scenariosDir, 'lumen_robotics.json')
    const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8')) as { description: string }
    writeFileSync(scenarioFile, JSON.stringify({ ...scenario, description: `${scenario.description} Edited.` }))
    lines.length = 0
    const third = await prepareMpcbenchData({ scenariosDir, dataDir, log })
    expect(third.map((r) => r.kind)).toEqual(['generated', 'skipped'])
    expect(JSON.parse(readFileSync(join(dataDir, 'lumen_robotics_world_state.json'), 'utf8')).description).toMatch(/Edited\.$/)
  })

  it('regenerates only a deleted file, and everything with force', async () => {
    const { scenariosDir, dataDir } = tempProject()
    await prepareMpcbenchData({ scenariosDir, dataDir, scenarioIds: ['lumen_robotics'], log: () => {} })
    const jiraFile = join(dataDir, 'lumen_robotics_jira.json')
    const jira = readFileSync(jiraFile, 'utf8')
    rmSync(jiraFile)
    const [again] = await prepareMpcbenchData({ scenariosDir, dataDir, scenarioIds: ['lumen_robotics'], log: () => {} })
    expect(again?.files.filter((f) => f.outcome.kind === 'generated').map((f) => f.name)).toEqual(['jira'])
    expect(readFileSync(jiraFile, 'utf8')).toBe(jira)
    const [forced] = await prepareMpcbenchData({ scenariosDir, dataDir, scenarioIds: ['lumen_robotics'], force: true, log: () => {} })
    expect(forced?.files.every((f) => f.outcome.kind === 'generated')).toBe(true)
  })

  it('regenerates when the seed changes and records the inputs in the sidecar', async () => {
    const { scenariosDir, dataDir } = tempProject()
    const scenarioPath = join(scenariosDir, 'tidewater_clinics.json')
    await generateScenario({ scenarioPath, outDir: dataDir })
    const record = JSON.parse(readFileSync(generationRecordPath(dataDir, 'tidewater_clinics'), 'utf8'))
    expect(Object.keys(record.files)).toEqual(['world_state', 'slack', 'gmail', 'calendar', 'contacts', 'jira', 'drive'])
    expect(record.files.slack).toMatchObject({ file: 'tidewater_clinics_slack.json', generator: { name: 'procedural', seed: 1, scale: 1 } })
    expect(Object.keys(record.files.slack.inputs)).toEqual(['world_state', 'prompt', 'schema', 'generator', 'seed', 'scale', 'model'])
    expect((await generateScenario({ scenarioPath, outDir: dataDir })).kind).toBe('skipped')
    expect((await generateScenario({ scenarioPath, outDir: dataDir, seed: 2 })).kind).toBe('generated')
    expect((await generateScenario({ scenarioPath, outDir: dataDir, seed: 2, scale: 2 })).kind).toBe('generated')
  })

  it('shipped data is up to date with the shipped scenarios', async () => {
    const dir = mkdtempSync(join(tmp, 'mpcbench-shipped-'))
    for (const id of ['lumen_robotics', 'tidewater_clinics']) {
      const result = await generateScenario({ scenarioPath: join(repoRoot, 'scenarios', `${id}.json`), outDir: dir })
      for (const file of result.files) {
        expect(readFileSync(file.path, 'utf8'), `${file.name} of ${id} differs from data/; run agent-bench generate --scenario-id ${id}`).toBe(
          readFileSync(join(repoRoot, 'data', file.path.split('/').pop() as string), 'utf8'),
        )
      }
    }
  })

  it('rejects an unknown scenario id and generator name', async () => {
    const { scenariosDir, dataDir } = tempProject()
    await expect(prepareMpcbenchData({ scenariosDir, dataDir, scenarioIds: ['nope'], log: () => {} })).rejects.toThrow(ConfigError)
    expect(() => prepareOptionsFromEnv('/x', { MPCBENCH_GENERATOR: 'magic' })).toThrow(/MPCBENCH_GENERATOR must be/)
    expect(prepareOptionsFromEnv('/x', { MPCBENCH_SCENARIOS: 'a, b' })).toMatchObject({ scenarioIds: ['a', 'b'], dataDir: '/x/data', generator: 'procedural' })
  })

  it('in the bench (isolated), an MPCBENCH_SCENARIOS id with no scenario file is an error naming the variable and the ids there, before any generation', async () => {
    const { scenariosDir, dataDir } = tempProject()
    const lines: string[] = []
    const run = prepareMpcbenchDataIsolated({ scenariosDir, dataDir, scenarioIds: ['lumen_robotics', 'nosuch'], log: (line) => void lines.push(line) })
    await expect(run).rejects.toThrow(ConfigError)
    await expect(run).rejects.toThrow(`No scenario file for "nosuch" in ${scenariosDir} (MPCBENCH_SCENARIOS names the scenarios to prepare)`)
    await expect(run).rejects.toMatchObject({ hint: expect.stringContaining('Set MPCBENCH_SCENARIOS to ids of files in') })
    await expect(run).rejects.toMatchObject({ hint: expect.stringContaining('(lumen_robotics, tidewater_clinics)') })
    expect(lines).toEqual([])
  })

  it('refuses an MPCBENCH_SCENARIOS_DIR that is not a folder (it would prepare nothing); the default may be missing', () => {
    const { scenariosDir } = tempProject()
    expect(() => prepareOptionsFromEnv('/x', { MPCBENCH_SCENARIOS_DIR: '/nope' })).toThrow(ConfigError)
    expect(() => prepareOptionsFromEnv('/x', { MPCBENCH_SCENARIOS_DIR: '/nope' })).toThrow('MPCBENCH_SCENARIOS_DIR=/nope: /nope is not a folder.')
    expect(() => prepareOptionsFromEnv('/x', { MPCBENCH_SCENARIOS_DIR: join(scenariosDir, 'lumen_robotics.json') })).toThrow(/is not a folder/)
    expect(prepareOptionsFromEnv('/x', { MPCBENCH_SCENARIOS_DIR: scenariosDir }).scenariosDir).toBe(scenariosDir)
    expect(prepareOptionsFromEnv('/x', {}).scenariosDir).toBe('/x/scenarios')
  })
})
