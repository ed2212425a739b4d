import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { TestProject } from 'vitest/node'
import { repoRoot } from '../generate/generate-scenario.ts'
import setup from './global-setup.ts'

const tmp = mkdtempSync(join(tmpdir(), 'mpcbench-setup-test-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

/** A project root under the test's temporary folder with copies of the named shipped scenarios. */
function rootWith(name: string, scenarios: string[]): string {
  const root = mkdtempSync(join(tmp, name))
  mkdirSync(join(root, 'scenarios'))
  for (const id of scenarios) copyFileSync(join(repoRoot, 'scenarios', `${id}.json`), join(root, 'scenarios', `${id}.json`))
  return root
}

/** Sets the MPCBench variables (unset ones empty, so the machine's own do not leak in); returns the setup's log lines. */
function mpcbenchEnv(values: Record<string, string>): string[] {
  for (const name of ['MPCBENCH_SCENARIOS', 'MPCBENCH_GENERATOR', 'MPCBENCH_DATA_DIR', 'MPCBENCH_SCENARIOS_DIR']) vi.stubEnv(name, values[name] ?? '')
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value)
  const lines: string[] = []
  vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line))
  return lines
}

describe('MPCBench globalSetup', () => {
  it('generates the named scenarios under the project root and provides the data folder', async () => {
    const root = rootWith('mpcbench-setup-', ['lumen_robotics', 'tidewater_clinics'])
    const lines = mpcbenchEnv({ MPCBENCH_SCENARIOS: 'lumen_robotics' })
    const provided: Record<string, unknown> = {}
    const rerunHooks: Array<() => Promise<void>> = []
    // A stand-in for Vitest's TestProject: the setup reads `config.root`, calls `provide` and registers `onTestsRerun`.
    const project = {
      config: { root },
      provide: (key: string, value: unknown) => void (provided[key] = value),
      onTestsRerun: (hook: () => Promise<void>) => void rerunHooks.push(hook),
    } as unknown as TestProject

    await setup(project)
    expect(provided).toEqual({ mpcbenchDataDir: join(root, 'data'), mpcbenchScenarioErrors: {} })
    expect(existsSync(join(root, 'data', 'lumen_robotics_jira.json'))).toBe(true)
    expect(existsSync(join(root, 'data', 'tidewater_clinics_jira.json'))).toBe(false)
    await setup(project)
    expect(lines).toEqual([expect.stringMatching(/^mpcbench: lumen_robotics generated \(procedural: /), 'mpcbench: lumen_robotics skipped (up to date)'])
  })

  it('with BENCH_ONLY=arte prepares nothing, reads no MPCBench variable, and provides why (its tests fail saying so)', async () => {
    const root = rootWith('mpcbench-only-arte-', ['lumen_robotics'])
    const lines = mpcbenchEnv({ BENCH_ONLY: 'arte', MPCBENCH_GENERATOR: 'not-a-generator' })
    const provided: Record<string, unknown> = {}
    const project = {
      config: { root },
      provide: (key: string, value: unknown) => void (provided[key] = value),
      onTestsRerun: () => undefined,
    } as unknown as TestProject

    await setup(project)
    expect(provided).toEqual({
      mpcbenchDataDir: '',
      mpcbenchScenarioErrors: {},
      mpcbenchNotPrepared: 'BENCH_ONLY=arte leaves mpcbench out of this run, so its globalSetup prepared nothing',
    })
    expect(existsSync(join(root, 'data'))).toBe(false)
    expect(lines).toEqual([])
  })

  it('a setup that fails (a bad BENCH_ONLY or MPCBENCH_GENERATOR) prints its error and fix and tells the tests, instead of throwing', async () => {
    for (const values of [{ BENCH_ONLY: 'foo' }, { MPCBENCH_GENERATOR: 'llmm' }] as Array<Record<string, string>>) {
      vi.unstubAllEnvs()
      vi.restoreAllMocks()
      const root = rootWith('mpcbench-setup-fails-', ['lumen_robotics'])
      mpcbenchEnv(values)
      const provided: Record<string, unknown> = {}
      const logged: string[] = []
      const project = {
        config: { root },
        vitest: { logger: { error: (line: string) => void logged.push(line), printError: (error: unknown) => void logged.push(String(error)) } },
        provide: (key: string, value: unknown) => void (provided[key] = value),
        onTestsRerun: () => undefined,
      } as unknown as TestProject
      await expect(setup(project)).resolves.toBeUndefined()
      const variable = Object.keys(values)[0] ?? ''
      expect(provided.mpcbenchNotPrepared, variable).toMatch(new RegExp(`^its globalSetup failed: .*${variable}.*\\(fix: `))
      expect(logged.join('\n')).toMatch(/MPCBench setup failed, so no MPCBench task can run:\n[\s\S]*Fix: /)
    }
  })

  it('before a watch-mode rerun, regenerates a scenario whose file changed and skips the rest', async () => {
    const root = rootWith('mpcbench-rerun-', ['lumen_robotics'])
    const scenarioFile = join(root, 'scenarios', 'lumen_robotics.json')
    const lines = mpcbenchEnv({})
    const rerunHooks: Array<() => Promise<void>> = []
    const project = {
      config: { root },
      provide: () => undefined,
      onTestsRerun: (hook: () => Promise<void>) => void rerunHooks.push(hook),
    } as unknown as TestProject

    await setup(project)
    expect(rerunHooks).toHaveLength(1)
    await rerunHooks[0]?.()
    const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8')) as { description: string }
    writeFileSync(scenarioFile, JSON.stringify({ ...scenario, description: `${scenario.description} Edited.` }, null, 2))
    await rerunHooks[0]?.()
    expect(lines).toEqual([
      expect.stringMatching(/^mpcbench: lumen_robotics generated /),
      'mpcbench: lumen_robotics skipped (up to date)',
      expect.stringMatching(/^mpcbench: lumen_robotics generated /),
    ])
  })

  it('a scenario that cannot be generated (bad time zone) is reported for its tests; the others are generated', async () => {
    const root = rootWith('mpcbench-bad-', ['lumen_robotics'])
    const tidewater = JSON.parse(readFileSync(join(repoRoot, 'scenarios', 'tidewater_clinics.json'), 'utf8'))
    writeFileSync(
      join(root, 'scenarios', 'tidewater_clinics.json'),
      JSON.stringify(tidewater).replace(/"timezone":\s*"[^"]+"/, '"timezone": "Mars/Olympus_Mons"'),
    )
    mpcbenchEnv({})
    vi.spyOn(console, 'log').mockImplementation(() => undefined)
    const provided: Record<string, unknown> = {}
    const project = {
      config: { root },
      provide: (key: string, value: unknown) => void (provided[key] = value),
      onTestsRerun: () => undefined,
    } as unknown as TestProject
    await setup(project)
    expect(existsSync(join(root, 'data', 'lumen_robotics_jira.json'))).toBe(true)
    const errors = provided.mpcbenchScenarioErrors as Record<string, string>
    expect(Object.keys(errors)).toEqual(['tidewater_clinics'])
    expect(errors.tidewater_clinics).toMatch(/tidewater_clinics\.json[\s\S]*global_settings\.timezone/)
  })
})
