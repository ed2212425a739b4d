import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError } from '../../core/errors.ts'
import { createModel } from '../../llm/create-model.ts'
import { scriptedToolCalls, startScriptedServer } from '../../testing/scripted-server.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { repoRoot } from '../generate/generate-scenario.ts'
import { type LLM_CONTEXT_FILES, resolveHarness } from './harness.ts'
import { runTask, workplaceTools } from './run-task.ts'
import { MPCBENCH_TURN_CAP, mpcbenchSettingsFromEnv } from '../settings.ts'
import { upstreamV1Env } from '../vitest/upstream-v1-env.ts'
import type { Task } from '../tasks/task.ts'
import { FIXTURE_SOURCES } from '../workplace/fixture-sources.ts'
import { Workplace } from '../workplace/workplace.ts'

const tmp = mkdtempSync(join(tmpdir(), 'mpcbench-harness-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** A project folder with the shipped prompt config and a model config. */
function project(
  name: string,
  modelConfig: Record<string, unknown> = { agent_models: ['baseline'], judge_models: ['rules'], data_generation_model: 'x' },
): string {
  const dir = join(tmp, name)
  mkdirSync(dir, { recursive: true })
  copyFileSync(join(repoRoot, 'prompt_config.json'), join(dir, 'prompt_config.json'))
  writeFileSync(join(dir, 'model_config.json'), JSON.stringify(modelConfig))
  return dir
}

/** An llm_context folder with hand-written test text (not upstream's). */
function llmContext(dir: string, files: Partial<Record<(typeof LLM_CONTEXT_FILES)[number], string>>): string {
  mkdirSync(dir, { recursive: true })
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

describe('MPCBench settings', () => {
  it('default to the upstream-v1 profile and the named turn cap', () => {
    expect(mpcbenchSettingsFromEnv({})).toMatchObject({ toolProfile: 'upstream-v1', maxTurns: MPCBENCH_TURN_CAP })
    expect(MPCBENCH_TURN_CAP).toBe(50)
    expect(mpcbenchSettingsFromEnv({ MPCBENCH_TOOLS: ' extended ', MPCBENCH_MAX_TURNS: '7' })).toMatchObject({ toolProfile: 'extended', maxTurns: 7 })
  })

  it('reject an unknown profile or turn cap, naming the variable and the choices', () => {
    expect(() => mpcbenchSettingsFromEnv({ MPCBENCH_TOOLS: 'upstream' })).toThrow(ConfigError)
    expect(() => mpcbenchSettingsFromEnv({ MPCBENCH_TOOLS: 'upstream' })).toThrow(/MPCBENCH_TOOLS="upstream"/)
    try {
      mpcbenchSettingsFromEnv({ MPCBENCH_TOOLS: 'upstream' })
    } catch (error) {
      expect((error as ConfigError).hint).toContain('upstream-v1, extended')
    }
    expect(() => mpcbenchSettingsFromEnv({ MPCBENCH_MAX_TURNS: '0' })).toThrow(/MPCBENCH_MAX_TURNS/)
  })
})

describe('resolveHarness', () => {
  it('runs at temperature 0 with no developer message by default; model_config.json agent_temperature changes it', () => {
    const plain = resolveHarness(project('plain'), {})
    expect(plain).toMatchObject({ toolProfile: 'upstream-v1', temperature: 0, maxTurns: 50, developerMessage: undefined })
    const warm = resolveHarness(project('warm', { agent_models: ['a'], judge_models: ['b'], data_generation_model: 'c', agent_temperature: 0.4 }), {})
    expect(warm.temperature).toBe(0.4)
  })

  it("builds the developer message from llm_context/ beside the prompt config, in upstream's order, blank files skipped", () => {
    const root = project('with-context')
    llmContext(join(root, 'llm_context'), {
      'examples_of_tool_calls.md': 'EXAMPLES',
      'instructions_about_sources.md': 'SOURCES',
      'api_usage_guidelines.md': '',
    })
    expect(resolveHarness(root, {}).developerMessage).toEqual({ text: 'SOURCES\n\nEXAMPLES', source: join(root, 'llm_context') })
  })

  it('takes the data folder llm_context/ last, and an explicit folder first (which must hold the files)', () => {
    const root = project('data-context')
    const dataDir = join(root, 'data')
    llmContext(join(dataDir, 'llm_context'), { 'api_usage_guidelines.md': 'GUIDE' })
    expect(resolveHarness(root, {}, { dataDir }).developerMessage?.text).toBe('GUIDE')
    llmContext(join(root, 'elsewhere'), { 'instructions_about_sources.md': 'EXPLICIT' })
    expect(resolveHarness(root, { MPCBENCH_LLM_CONTEXT: 'elsewhere' }, { dataDir }).developerMessage?.text).toBe('EXPLICIT')
    expect(() => resolveHarness(root, {}, { llmContext: 'missing' })).toThrow(/No llm_context files/)
  })

  it('refuses a named model config that does not exist (flag or variable); the default one may be absent', () => {
    const root = project('model-config-named')
    rmSync(join(root, 'model_config.json'))
    expect(resolveHarness(root, {}).modelConfig).toBeUndefined()
    expect(() => resolveHarness(root, { MPCBENCH_MODEL_CONFIG: '/nope.json' })).toThrow(ConfigError)
    expect(() => resolveHarness(root, { MPCBENCH_MODEL_CONFIG: '/nope.json' })).toThrow(
      'No model config at /nope.json (named by MPCBENCH_MODEL_CONFIG=/nope.json)',
    )
    let error: unknown
    try {
      resolveHarness(root, {}, { modelConfig: 'nope.json' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).problem).toBe(`No model config at ${join(root, 'nope.json')} (named by --model-config nope.json)`)
    expect((error as ConfigError).hint).toContain('Point --model-config at an existing model config file')
  })

  it('lets flags win over the environment and names a missing prompt config', () => {
    const root = project('flags')
    expect(resolveHarness(root, { MPCBENCH_TOOLS: 'extended' }, { tools: 'upstream-v1', maxTurns: 3 })).toMatchObject({
      toolProfile: 'upstream-v1',
      maxTurns: 3,
    })
    expect(() => resolveHarness(root, { MPCBENCH_PROMPT_CONFIG: 'nope.json' })).toThrow(/No prompt config at .*nope\.json/)
  })
})

describe('an MPCBench agent run with the harness (scripted server)', () => {
  const task: Task = {
    task_id: 'harness_test',
    task_type: 'planning',
    user_prompt: 'Find time with Ana.',
    data_dependencies: { scenario_id: 'fixture' },
    answer_requirements: ['x'],
  }

  it('sends system, developer and user messages at temperature 0, and records the turn cap as its own outcome', async () => {
    // Scripted agent: searches Slack forever (upstream wire name), so the run reaches the cap.
    await using server = await startScriptedServer(() => scriptedToolCalls([{ name: 'Slack_search_messages', arguments: { search_query: 'launch' } }]))
    const agent = createModel('scripted/agent', {
      env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' },
      callLogDir: false,
      cache: { mode: 'off' },
      maxRetries: 0,
    })
    const { runLog } = await runTask({
      task,
      scenarioId: 'fixture',
      tools: workplaceTools(Workplace.fromSources(FIXTURE_SOURCES), 'upstream-v1'),
      toolProfile: 'upstream-v1',
      agent,
      systemMessage: 'SYSTEM',
      developerMessage: { text: 'DEVELOPER', source: 'test' },
      temperature: 0,
      maxTurns: 3,
      logDir: join(tmp, 'logs'),
    })
    const first = server.requests[0]?.body
    expect(first?.messages?.map((m) => [m.role, m.content])).toEqual([
      ['system', 'SYSTEM'],
      ['developer', 'DEVELOPER'],
      ['user', 'Find time with Ana.'],
    ])
    expect(first?.temperature).toBe(0)
    expect(first?.tools?.map((t) => t.function.name)).toContain('Slack_search_messages')
    // Upstream's tool message: json.dumps(result, ensure_ascii=False).
    const toolMessage = server.requests[1]?.body.messages?.find((m) => m.role === 'tool')
    expect(toolMessage?.content).toBe(
      '{"matches": [{"channel": "launch", "text": "Launch review moved to Thursday", "timestamp": "2025-03-03T23:30:00Z"}, {"channel": "launch", "text": "Thursday works for the launch review", "timestamp": "2025-03-04T10:00:00+09:00"}]}',
    )
    expect(runLog.outcome).toMatchObject({ kind: 'max-turns' })
    expect(runLog).toMatchObject({ tool_profile: 'upstream-v1', harness: { temperature: 0, max_turns: 3, developer_message: 'test' } })
    expect(server.requests).toHaveLength(3)
  })
})

describeWithSharedData("upstream MPCBench's own configs (v1_eb0b7ca)", () => {
  const upstream = sharedDataPath('mpcbench', 'v1_eb0b7ca')

  it("give upstream's system message, its llm_context developer message (joined as upstream does) and temperature 0", () => {
    const harness = resolveHarness(tmp, {
      MPCBENCH_PROMPT_CONFIG: join(upstream, 'prompt_config.json'),
      MPCBENCH_MODEL_CONFIG: join(upstream, 'model_config.json'),
    })
    const read = (name: string) => readFileSync(join(upstream, 'llm_context', name), 'utf8')
    expect(harness.developerMessage).toEqual({
      text: [read('instructions_about_sources.md'), read('api_usage_guidelines.md'), read('examples_of_tool_calls.md')].join('\n\n'),
      source: join(upstream, 'llm_context'),
    })
    expect(harness.systemMessage).toContain('final_answer')
    expect(harness.modelConfig?.agent_models).toContain('gpt-5.1')
    expect(harness).toMatchObject({ temperature: 0, toolProfile: 'upstream-v1', maxTurns: 50 })
  })

  it("are what upstream's own tasks run under by default (upstreamV1Env); MPCBENCH_PROMPT_CONFIG still wins", () => {
    const upstreamPrompts = resolveHarness(tmp, { MPCBENCH_PROMPT_CONFIG: join(upstream, 'prompt_config.json') })
    const byDefault = resolveHarness(repoRoot, upstreamV1Env(upstream, {}))
    expect(byDefault.systemMessage).toBe(upstreamPrompts.systemMessage)
    expect(byDefault.judgeSystemPrompt).toBe(upstreamPrompts.judgeSystemPrompt)
    expect(byDefault.developerMessage).toEqual(upstreamPrompts.developerMessage)
    const own = resolveHarness(repoRoot, {})
    expect(own.systemMessage).not.toBe(upstreamPrompts.systemMessage)
    expect(resolveHarness(repoRoot, upstreamV1Env(upstream, { MPCBENCH_PROMPT_CONFIG: join(repoRoot, 'prompt_config.json') })).systemMessage).toBe(
      own.systemMessage,
    )
  })
})
