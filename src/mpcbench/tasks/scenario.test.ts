import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { InvalidFormatError } from '../../core/errors.ts'
import { parseWith } from '../../core/parse.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { repoRoot } from '../generate/generate-scenario.ts'
import { ScenarioSchema, loadScenario } from './scenario.ts'

const shipped = readdirSync(join(repoRoot, 'scenarios')).filter((f) => f.endsWith('.json'))

describe('ScenarioSchema', () => {
  it.each(shipped)('parses our scenario %s', (file) => {
    const scenario = loadScenario(join(repoRoot, 'scenarios', file))
    expect(`${scenario.scenario_id}.json`).toBe(file)
    expect(scenario.people.length).toBeGreaterThanOrEqual(5)
    expect(new Set(scenario.people.map((p) => p.team)).size).toBeGreaterThanOrEqual(3)
  })

  it('ships scenarios that differ in noise and depth', () => {
    const scenarios = shipped.map((f) => loadScenario(join(repoRoot, 'scenarios', f)))
    expect(new Set(scenarios.map((s) => s.noise_level)).size).toBeGreaterThanOrEqual(2)
    expect(new Set(scenarios.map((s) => s.depth)).size).toBeGreaterThanOrEqual(2)
  })

  it('rejects a reference date or milestone date that does not exist, naming the field', () => {
    const scenario = JSON.parse(readFileSync(join(repoRoot, 'scenarios', 'lumen_robotics.json'), 'utf8')) as {
      global_settings: Record<string, unknown>
      projects: Array<Record<string, unknown>>
    }
    const fieldOf = (value: unknown): string | undefined => {
      try {
        parseWith(ScenarioSchema, value, 'scenario', 'scenarios/lumen_robotics.json')
      } catch (error) {
        return (error as InvalidFormatError).field
      }
      return undefined
    }
    expect(fieldOf({ ...scenario, global_settings: { ...scenario.global_settings, reference_date: '2028-02-29' } })).toBeUndefined()
    expect(fieldOf({ ...scenario, global_settings: { ...scenario.global_settings, reference_date: '2026-02-30' } })).toBe('global_settings.reference_date')
    const [first, ...rest] = scenario.projects
    expect(fieldOf({ ...scenario, projects: [{ ...first, milestones: [{ name: 'x', date: '2026-04-31' }] }, ...rest] })).toBe('projects.0.milestones.0.date')
  })

  it('names the file and the field of a bad scenario', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'))
    const file = join(dir, 'bad.json')
    const scenario = JSON.parse(readFileSync(join(repoRoot, 'scenarios', shipped[0] as string), 'utf8')) as Record<string, unknown>
    writeFileSync(file, JSON.stringify({ ...scenario, noise_level: 1.5 }))
    let error: unknown
    try {
      loadScenario(file)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InvalidFormatError)
    expect((error as InvalidFormatError).file).toBe(file)
    expect((error as InvalidFormatError).field).toBe('noise_level')
    expect((error as Error).message).toContain(`Invalid scenario ${file}:\n  noise_level:`)
  })

  it('names a nested field: a person without an email', () => {
    const scenario = JSON.parse(readFileSync(join(repoRoot, 'scenarios', shipped[0] as string), 'utf8')) as { people: Array<Record<string, unknown>> }
    delete scenario.people[1]?.email
    expect(() => parseWith(ScenarioSchema, scenario, 'scenario', 'scenarios/x.json')).toThrow(/Invalid scenario scenarios\/x\.json:\n {2}people\.1\.email:/)
  })

  it('rejects an unknown time zone and duplicate person ids', () => {
    const base = JSON.parse(readFileSync(join(repoRoot, 'scenarios', shipped[0] as string), 'utf8')) as {
      global_settings: Record<string, unknown>
      people: unknown[]
    }
    const badZone = { ...base, global_settings: { ...base.global_settings, timezone: 'Mars/Olympus' } }
    expect(() => parseWith(ScenarioSchema, badZone, 'scenario')).toThrow(/global_settings\.timezone: expected an IANA time zone/)
    const dup = { ...base, people: [...base.people, base.people[0]] }
    expect(() => parseWith(ScenarioSchema, dup, 'scenario')).toThrow(/duplicate person id/)
  })

  it('reports bad JSON with the file name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'))
    const file = join(dir, 'broken.json')
    writeFileSync(file, '{"scenario_id": ')
    expect(() => loadScenario(file)).toThrow(`Cannot read scenario ${file}`)
  })
})

describeWithSharedData('ScenarioSchema on upstream scenarios', () => {
  const eb = sharedDataPath('mpcbench', 'v1_eb0b7ca', 'scenarios')
  const files = [...readdirSync(eb).map((f) => join(eb, f)), sharedDataPath('mpcbench', 'v1_cdf38c1', 'scenarios', 'scenario_A.json')]
  it.each(files)('parses %s unchanged', (file) => {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown
    const parsed = loadScenario(file)
    expect(parsed).toEqual(raw)
  })
})
