import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createModel } from '../../llm/create-model.ts'
import { type ReceivedRequest, type ScriptedResponse, scriptedText, startScriptedServer } from '../../testing/scripted-server.ts'
import { loadScenario } from '../tasks/scenario.ts'
import { SOURCES, type SourceName } from '../workplace/validate-source.ts'
import { generateScenario, generationRecordPath, repoRoot } from './generate-scenario.ts'
import { projectSource, worldEvents } from './procedural/sources.ts'
import { buildProceduralWorld } from './procedural/world.ts'

const tmp = mkdtempSync(join(tmpdir(), 'mpcbench-generate-test-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const scenarioPath = join(repoRoot, 'scenarios', 'lumen_robotics.json')
const scenario = loadScenario(scenarioPath)

describe('generateScenario: procedural files follow the generator, not only the recorded inputs', () => {
  it('rewrites a file whose content is not what the generator makes now though its recorded inputs match (a code change needs no version bump), and leaves the others alone', async () => {
    const outDir = mkdtempSync(join(tmp, 'procedural-'))
    await generateScenario({ scenarioPath, outDir })
    const path = (name: string): string => join(outDir, `lumen_robotics_${name}.json`)
    const made = Object.fromEntries(['world_state', ...SOURCES].map((name) => [name, readFileSync(path(name), 'utf8')]))
    const record = readFileSync(generationRecordPath(outDir, 'lumen_robotics'), 'utf8')
    // The files an older generator made for the same inputs: the sidecar still records those inputs.
    writeFileSync(path('world_state'), made.world_state?.replace('"reference_date": "2026-03-12"', '"reference_date": "2026-03-11"') as string)
    writeFileSync(path('jira'), made.jira?.replace('"In QA"', '"In Review"') as string)
    const untouched = statSync(path('slack')).mtimeMs

    const again = await generateScenario({ scenarioPath, outDir })

    expect(again.files.filter((f) => f.outcome.kind === 'generated').map((f) => f.name)).toEqual(['world_state', 'jira'])
    for (const name of ['world_state', ...SOURCES]) expect(readFileSync(path(name), 'utf8'), name).toBe(made[name])
    expect(readFileSync(generationRecordPath(outDir, 'lumen_robotics'), 'utf8')).toBe(record)
    expect(statSync(path('slack')).mtimeMs).toBe(untouched)
    expect((await generateScenario({ scenarioPath, outDir })).kind).toBe('skipped')
  })
})

describe('generateScenario: a failed generation leaves no source of an earlier world state', () => {
  const { generator: _generator, ...world } = buildProceduralWorld(scenario, 1, 1)
  const events = worldEvents(world)
  const reply = (name: string, edited: boolean): string =>
    JSON.stringify(
      name === 'world_state' ? (edited ? { ...world, description: `${world.description} Edited.` } : world) : projectSource(name as SourceName, world, events),
    )
  const target = (request: ReceivedRequest): string => (request.body.response_format as { json_schema: { name: string } }).json_schema.name
  const modelFor = (baseURL: string) =>
    createModel('some-model', { env: { OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'test-key' }, cache: { mode: 'off' }, callLogDir: false, maxRetries: 0 })

  it('removes the sources of the earlier world when the new one is written, keeps those made from the new one, and resumes after them', async () => {
    const outDir = mkdtempSync(join(tmp, 'llm-'))
    const path = (name: string): string => join(outDir, `lumen_robotics_${name}.json`)
    {
      await using server = await startScriptedServer((request): ScriptedResponse => scriptedText(reply(target(request), false)))
      await generateScenario({ scenario, outDir, generator: 'llm', model: modelFor(server.baseURL) })
    }
    const edited = { ...scenario, description: `${scenario.description} Edited.` }
    {
      await using server = await startScriptedServer(
        (request): ScriptedResponse => (target(request) === 'gmail' ? scriptedText('not json') : scriptedText(reply(target(request), true))),
      )
      const error = await generateScenario({ scenario: edited, outDir, generator: 'llm', model: modelFor(server.baseURL), maxAttempts: 1 }).catch(
        (e: unknown) => e,
      )
      expect(error).toMatchObject({ code: 'ERR_GENERATION', target: 'gmail' })
    }
    expect(JSON.parse(readFileSync(path('world_state'), 'utf8')).description).toMatch(/Edited\.$/)
    expect(SOURCES.filter((source) => existsSync(path(source)))).toEqual(['slack'])
    const record = JSON.parse(readFileSync(generationRecordPath(outDir, 'lumen_robotics'), 'utf8')) as { files: Record<string, unknown> }
    expect(Object.keys(record.files)).toEqual(['world_state', 'slack'])

    await using server = await startScriptedServer((request): ScriptedResponse => scriptedText(reply(target(request), true)))
    const resumed = await generateScenario({ scenario: edited, outDir, generator: 'llm', model: modelFor(server.baseURL) })
    expect(resumed.kind).toBe('generated')
    expect(server.requests.map(target)).toEqual(['gmail', 'calendar', 'contacts', 'jira', 'drive'])
  })
})
