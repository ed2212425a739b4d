import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toStrictJsonSchema } from 'openai/lib/transform'
import { afterAll, describe, expect, it } from 'vitest'
import { createModel } from '../../llm/create-model.ts'
import { type ReceivedRequest, type ScriptedResponse, scriptedRaw, scriptedText, startScriptedServer } from '../../testing/scripted-server.ts'
import { SOURCES, type SourceName } from '../workplace/validate-source.ts'
import { loadScenario, ScenarioSchema } from '../tasks/scenario.ts'
import { generateScenario, generationRecordPath, repoRoot } from './generate-scenario.ts'
import { GenerationError } from './llm-generator.ts'
import { projectSource, worldEvents } from './procedural/sources.ts'
import { buildProceduralWorld } from './procedural/world.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { completeScenarioIds, firstJsonObject, readUpstreamLog } from '../workplace/upstream-logs.ts'
import { loadWorkplace } from '../workplace/workplace.ts'
import { loadWorldState } from '../tasks/world-state.ts'

const tmp = mkdtempSync(join(tmpdir(), 'mpcbench-llm-test-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

// Scripted replies (test inputs, not model output): a procedurally built world state and its projections.
const scenario = loadScenario(join(repoRoot, 'scenarios', 'lumen_robotics.json'))
const { generator: _generator, ...scriptedWorld } = buildProceduralWorld(scenario, 1, 1)
const scriptedEvents = worldEvents(scriptedWorld)
const scriptedSource = (name: SourceName): Record<string, unknown> => projectSource(name, scriptedWorld, scriptedEvents) as unknown as Record<string, unknown>

function target(request: ReceivedRequest): string {
  const format = request.body.response_format as { json_schema?: { name?: string } } | undefined
  return format?.json_schema?.name ?? ''
}

function modelFor(baseURL: string) {
  return createModel('some-model', {
    env: { OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'test-key' },
    cache: { mode: 'off' },
    callLogDir: false,
    maxRetries: 0,
  })
}

describe('llm generator through the scripted server', () => {
  it('asks for structured output, repairs an invalid reply by retrying with the validation errors, and records the model', async () => {
    let slackCalls = 0
    await using server = await startScriptedServer((request): ScriptedResponse => {
      const name = target(request)
      if (name === 'world_state') return scriptedText(JSON.stringify(scriptedWorld))
      if (name === 'slack' && slackCalls++ === 0) {
        const { workspace_name: _w, ...withoutName } = scriptedSource('slack')
        return scriptedText(JSON.stringify(withoutName))
      }
      return scriptedText(`\`\`\`json\n${JSON.stringify(scriptedSource(name as SourceName))}\n\`\`\``)
    })
    const outDir = mkdtempSync(join(tmp, 'mpcbench-llm-'))
    const result = await generateScenario({ scenario, outDir, generator: 'llm', model: modelFor(server.baseURL) })

    expect(result.kind).toBe('generated')
    expect(server.requests.map(target)).toEqual(['world_state', 'slack', 'slack', 'gmail', 'calendar', 'contacts', 'jira', 'drive'])
    const first = server.requests[0]
    expect(first?.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'world_state' } })
    // A bare model id on OPENAI_BASE_URL may be any OpenAI-compatible server: no `strict` field (openai/ models get it).
    expect(first?.body.response_format).not.toHaveProperty('json_schema.strict')
    expect(first?.body.messages?.[0]?.content).toContain('world state')
    const retry = server.requests[2]?.body.messages ?? []
    expect(retry.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(retry[3]?.content).toContain('workspace_name: is required')

    for (const source of SOURCES) {
      expect(JSON.parse(readFileSync(join(outDir, `lumen_robotics_${source}.json`), 'utf8'))).toEqual(scriptedSource(source))
    }
    const record = JSON.parse(readFileSync(generationRecordPath(outDir, 'lumen_robotics'), 'utf8'))
    expect(record.files.slack.generator).toEqual({ name: 'llm', model: 'some-model', seed: 1 })
    expect(record.files.slack.inputs.prompt).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.parse(readFileSync(join(outDir, 'lumen_robotics_world_state.json'), 'utf8')).generator).toEqual({ name: 'llm', model: 'some-model', seed: 1 })

    const again = await generateScenario({ scenario, outDir, generator: 'llm', model: modelFor(server.baseURL) })
    expect(again.kind).toBe('skipped')
    expect(server.requests).toHaveLength(8)
  })

  it('fails naming the source, the JSON path and the reason when the reply stays invalid', async () => {
    await using server = await startScriptedServer((request): ScriptedResponse => {
      const name = target(request)
      if (name === 'world_state') return scriptedText(JSON.stringify(scriptedWorld))
      if (name === 'jira') {
        const jira = scriptedSource('jira') as { issues: Array<Record<string, unknown>> }
        delete jira.issues[2]?.status
        return scriptedText(JSON.stringify(jira))
      }
      return scriptedText(JSON.stringify(scriptedSource(name as SourceName)))
    })
    const outDir = mkdtempSync(join(tmp, 'mpcbench-llm-'))
    const error = await generateScenario({ scenario, outDir, generator: 'llm', model: modelFor(server.baseURL), maxAttempts: 2 }).catch((e: unknown) => e)

    expect(error).toBeInstanceOf(GenerationError)
    expect(error).toMatchObject({ code: 'ERR_GENERATION', target: 'jira', path: 'issues.2.status', reason: 'is required' })
    expect((error as Error).message).toContain('no valid jira for lumen_robotics in 2 attempt(s): issues.2.status: is required')
    expect(server.requests.filter((r) => target(r) === 'jira')).toHaveLength(2)
    // Sources before jira were written and are kept; the next run resumes at jira.
    const resumed = await generateScenario({ scenario, outDir, generator: 'llm', model: modelFor(server.baseURL), maxAttempts: 1 }).catch((e: unknown) => e)
    expect(resumed).toBeInstanceOf(GenerationError)
    expect(server.requests.slice(-1).map(target)).toEqual(['jira'])
  })

  it("gives the model every schema in the form OpenAI strict structured outputs accepts, and writes a reply made in that form in the schemas' own form", async () => {
    // Strict form: optional fields sent as null, an open object (facts, projects) as a string holding its JSON.
    const strictWorld = {
      ...scriptedWorld,
      projects: scriptedWorld.projects.map((p) => JSON.stringify(p)),
      sub_scenarios_expanded: scriptedWorld.sub_scenarios_expanded.map((s) => ({ ...s, facts: JSON.stringify(s.facts), start_time: null, end_time: null })),
      generator: null,
    }
    const slack = scriptedSource('slack') as { messages: Array<Record<string, unknown>> }
    const strictSlack = { ...slack, messages: slack.messages.map((m) => ({ thread_ts: null, ...m })) }
    await using server = await startScriptedServer((request): ScriptedResponse => {
      const name = target(request)
      if (name === 'world_state') return scriptedText(JSON.stringify(strictWorld))
      return scriptedText(JSON.stringify(name === 'slack' ? strictSlack : scriptedSource(name as SourceName)))
    })
    const outDir = mkdtempSync(join(tmp, 'mpcbench-llm-'))
    await generateScenario({ scenario, outDir, generator: 'llm', model: modelFor(server.baseURL), maxAttempts: 1 })

    expect(server.requests.map(target)).toEqual(['world_state', ...SOURCES])
    for (const request of server.requests) {
      const schema = (request.body.response_format as { json_schema: { schema: Record<string, unknown> } }).json_schema.schema
      // The openai SDK's own strict-mode converter throws on what strict mode refuses and adds what it requires.
      expect(toStrictJsonSchema(structuredClone(schema) as Parameters<typeof toStrictJsonSchema>[0]), target(request)).toEqual(schema)
    }
    expect(JSON.parse(readFileSync(join(outDir, 'lumen_robotics_slack.json'), 'utf8'))).toEqual(slack)
    const world = JSON.parse(readFileSync(join(outDir, 'lumen_robotics_world_state.json'), 'utf8'))
    expect(world.projects).toEqual(scriptedWorld.projects)
    expect(world.sub_scenarios_expanded.map((s: { facts: unknown }) => s.facts)).toEqual(scriptedWorld.sub_scenarios_expanded.map((s) => s.facts))
    expect(world.sub_scenarios_expanded[0]).not.toHaveProperty('start_time')
  })

  it('says a reply was cut off at the output token limit, asks for a shorter one, and points at the output limit', async () => {
    const world = JSON.stringify(scriptedWorld)
    await using server = await startScriptedServer(() => scriptedText(world.slice(0, 2000), { finishReason: 'length' }))
    const outDir = mkdtempSync(join(tmp, 'mpcbench-llm-'))
    const error = await generateScenario({ scenario, outDir, generator: 'llm', model: modelFor(server.baseURL), maxAttempts: 2 }).catch((e: unknown) => e)

    expect(error).toBeInstanceOf(GenerationError)
    expect(error).toMatchObject({
      target: 'world_state',
      path: '(root)',
      reason: 'the reply was cut off at the output token limit after 2000 characters (finish_reason "length"), so it is not complete JSON',
    })
    expect((error as GenerationError).hint).toMatch(/output limit/)
    expect(server.requests[1]?.body.messages?.at(-1)?.content).toMatch(/cut off at the output token limit.*shorter/s)
    expect(readdirSync(outDir)).toEqual([])
  })

  it("reports a refusal with the model's words, not as an empty reply", async () => {
    const refusal = {
      id: 'scripted-refusal',
      object: 'chat.completion',
      model: 'scripted',
      choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' }, finish_reason: 'stop' }],
    }
    await using server = await startScriptedServer(() => scriptedRaw(JSON.stringify(refusal)))
    const error = await generateScenario({
      scenario,
      outDir: mkdtempSync(join(tmp, 'mpcbench-llm-')),
      generator: 'llm',
      model: modelFor(server.baseURL),
      maxAttempts: 1,
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ target: 'world_state', reason: 'the model refused: "I cannot help with that."' })
  })

  it('reports unparsable JSON at the root', async () => {
    await using server = await startScriptedServer(() => scriptedText('not json at all'))
    const outDir = mkdtempSync(join(tmp, 'mpcbench-llm-'))
    const error = await generateScenario({ scenario, outDir, generator: 'llm', model: modelFor(server.baseURL), maxAttempts: 1 }).catch((e: unknown) => e)
    expect(error).toMatchObject({ target: 'world_state', path: '(root)' })
    expect((error as GenerationError).reason).toMatch(/^not valid JSON/)
  })
})

describeWithSharedData("llm generator replaying upstream MPCBench's recorded gpt-5.1 responses through the scripted server", () => {
  const logDir = sharedDataPath('mpcbench', 'v1_eb0b7ca', 'generator', 'logs', 'llm')
  const ids = completeScenarioIds(logDir)

  it.each(ids)('%s: every recorded response is accepted as it was and the files validate', async (scenarioId) => {
    const entry = (part: string) => {
      const read = readUpstreamLog(join(logDir, `${scenarioId}__${part}__llm.json`))
      if (read.kind !== 'generation') throw new Error(read.reason)
      return read
    }
    // The upstream scenario, as embedded in the logged world-state request.
    const request = entry('world_state').request as { messages: Array<{ role: string; content: string }> }
    const upstreamScenario = ScenarioSchema.parse(firstJsonObject(request.messages.find((m) => m.role === 'user')?.content ?? ''))
    // Scripted replies: upstream's recorded response texts, byte for byte (recorded model output, replayed).
    const recorded = (part: string): string => {
      const log = JSON.parse(readFileSync(entry(part).file, 'utf8')) as { response: { raw_message: { content: string } } }
      return log.response.raw_message.content
    }
    await using server = await startScriptedServer((req): ScriptedResponse => scriptedText(recorded(target(req))))
    const outDir = mkdtempSync(join(tmp, `replay-${scenarioId}-`))
    const result = await generateScenario({ scenario: upstreamScenario, outDir, generator: 'llm', model: modelFor(server.baseURL), maxAttempts: 1 })

    expect(result.kind).toBe('generated')
    expect(server.requests.map(target)).toEqual(['world_state', ...SOURCES])
    for (const source of SOURCES) {
      expect(JSON.parse(readFileSync(join(outDir, `${scenarioId}_${source}.json`), 'utf8'))).toEqual(entry(source).content)
    }
    const world = loadWorldState(join(outDir, `${scenarioId}_world_state.json`))
    expect(world.people.length).toBeGreaterThan(0)
    expect(loadWorkplace(outDir, scenarioId).sources.calendar.events.length).toBeGreaterThan(0)
  })
})
