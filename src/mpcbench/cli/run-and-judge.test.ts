import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { JudgeResultFileSchema } from '../judge/judge-result.ts'
import { JudgeInputSchema } from '../judge/judge-input.ts'
import { RunLogSchema } from '../run/run-log.ts'
import { scriptedText, scriptedToolCalls, startScriptedServer } from '../../testing/scripted-server.ts'
import type { ReceivedRequest, ScriptedResponse, ScriptedServer } from '../../testing/scripted-server.ts'
import { runCli } from '../../cli/run-cli.ts'
import { mpcbenchCommands } from './commands.ts'

const main = (argv: string[]) => runCli(mpcbenchCommands, argv)

const AGENT_SYSTEM = 'Test agent system message.'
const JUDGE_SYSTEM = 'Test judge system prompt.'

function writeFixture(dir: string): void {
  const prompt = { system_prompt: 'unused here' }
  writeFileSync(
    join(dir, 'prompt_config.json'),
    JSON.stringify({
      evaluation: { agent: { system_message: AGENT_SYSTEM }, judge: { system_prompt: JUDGE_SYSTEM } },
      generator: { world_state: prompt, slack: prompt, gmail: prompt, calendar: prompt, contacts: prompt, jira: prompt, drive: prompt },
    }),
  )
  const sources: Record<string, unknown> = {
    slack: { workspace_name: 'T', channels: [], users: [], messages: [] },
    gmail: { threads: [] },
    calendar: { calendars: [], events: [] },
    contacts: { contacts: [{ id: 'p1', name: 'Priya Natarajan', email: 'priya@northwind.test' }] },
    jira: { projects: [], issues: [] },
    drive: { files: [] },
  }
  for (const [source, data] of Object.entries(sources)) writeFileSync(join(dir, `cli_test_${source}.json`), JSON.stringify(data))
  writeFileSync(
    join(dir, 'task.json'),
    JSON.stringify({
      task_id: 'cli_task',
      task_type: 'email_reply',
      user_prompt: "What is Priya's email address?",
      data_dependencies: { scenario_id: 'cli_test' },
      answer_requirements: ["Gives Priya's address from the contacts."],
      checks: [{ must_mention: ['priya@northwind.test'] }],
    }),
  )
}

function responder(request: ReceivedRequest): ScriptedResponse {
  const messages = request.body.messages ?? []
  if (messages[0]?.content === JUDGE_SYSTEM) {
    return scriptedText(
      JSON.stringify({
        answer_requirements_satisfaction: { score: 5, justification: 'scripted' },
        source_grounded_reasoning: { score: 5, justification: 'scripted' },
      }),
    )
  }
  if (!messages.some((m) => m.role === 'tool')) {
    // The contacts tool under the wire name of the profile offered (upstream-v1 or extended).
    const offered = (request.body.tools ?? []).map((t) => t.function.name).find((name) => /^GoogleContacts_+SearchContactsByName$/.test(name)) ?? 'none'
    return scriptedToolCalls([{ name: offered, arguments: { name: 'Priya' } }])
  }
  return scriptedText(JSON.stringify({ final_answer: 'Priya: priya@northwind.test', rationale: 'Found her in Contacts.' }))
}

describe('agent-bench run-task / build-judge-input / judge / run-and-judge (the seed four steps)', () => {
  let dir: string
  let server: ScriptedServer
  let cwd: string
  const out: string[] = []

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mpc-cli-'))
    writeFixture(dir)
    server = await startScriptedServer(responder)
    cwd = process.cwd()
    process.chdir(dir)
    vi.stubEnv('OPENAI_BASE_URL', server.baseURL)
    vi.stubEnv('OPENAI_API_KEY', 'test-key')
    vi.stubEnv('BENCH_LLM_LOG_DIR', 'off')
    vi.stubEnv('BENCH_CACHE', 'off')
    vi.stubEnv('BENCH_LLM_MAX_RETRIES', '0')
    vi.stubEnv('MPCBENCH_LOG_DIR', join(dir, 'logs'))
    vi.spyOn(console, 'log').mockImplementation((text: string) => void out.push(String(text)))
    vi.spyOn(console, 'error').mockImplementation((text: string) => void out.push(String(text)))
  })

  afterEach(async () => {
    process.chdir(cwd)
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
    out.length = 0
    await server.close()
  })

  it('runs the three steps one by one and writes each documented file', async () => {
    expect(await main(['run-task', '--task', 'task.json', '--scenario-id', 'cli_test', '--agent-model', 'scripted/agent:1', '--data-dir', '.'])).toBe(0)
    const runLogFile = join(dir, 'logs', 'cli_task__agent-scripted_agent_1_run.json')
    const runLog = RunLogSchema.parse(JSON.parse(readFileSync(runLogFile, 'utf8')))
    expect(runLog).toMatchObject({
      task_file: 'task.json',
      final_answer: 'Priya: priya@northwind.test',
      agent_model: 'scripted/agent:1',
      tool_profile: 'upstream-v1',
    })
    expect(runLog.raw_tool_calls).toEqual([
      {
        tool_name: 'GoogleContacts.SearchContactsByName',
        function_name: 'GoogleContacts_SearchContactsByName',
        arguments: { name: 'Priya' },
        result: { contacts: [{ name: 'Priya Natarajan', emails: ['priya@northwind.test'] }] },
        status: 'ok',
      },
    ])
    expect(runLog.harness).toEqual({ temperature: 0, max_turns: 50, developer_message: null, wire: 'upstream-eb0b7ca' })

    const inputFile = join(dir, 'logs', 'cli_task__agent-scripted_agent_1__judge-rules_judge_input.json')
    expect(await main(['build-judge-input', '--log', runLogFile, '--output', inputFile])).toBe(0)
    const input = JudgeInputSchema.parse(JSON.parse(readFileSync(inputFile, 'utf8')))
    expect(input).toMatchObject({ judge_model: 'rules', task_type: 'email_reply', answer_requirements: ["Gives Priya's address from the contacts."] })

    expect(await main(['judge', '--input', inputFile, '--model', 'rules'])).toBe(0)
    const rules = JudgeResultFileSchema.parse(
      JSON.parse(readFileSync(join(dir, 'logs', 'cli_task__agent-scripted_agent_1__judge-rules_judge_result.json'), 'utf8')),
    )
    expect(rules).toMatchObject({ kind: 'scored', judge_kind: 'rules', answer_requirements_satisfaction: { score: 5 } })
    expect(out.join('\n')).toContain('judge rules (not an LLM): answer_requirements_satisfaction 5/5')

    expect(await main(['judge', '--input', inputFile, '--model', 'scripted/judge'])).toBe(0)
    const llm = JudgeResultFileSchema.parse(
      JSON.parse(readFileSync(join(dir, 'logs', 'cli_task__agent-scripted_agent_1__judge-scripted_judge_judge_result.json'), 'utf8')),
    )
    expect(llm).toMatchObject({ kind: 'scored', judge_kind: 'llm', judge_model: 'scripted/judge' })
  })

  it('run-and-judge writes every file for each agent x judge and prints scores keyed agent=..__judge=..', async () => {
    const code = await main([
      'run-and-judge',
      '--task',
      'task.json',
      '--data-dir',
      '.',
      '--agent-model',
      'scripted/agent:1',
      '--judge-model',
      'rules',
      '--judge-model',
      'scripted/judge',
    ])
    expect(code, out.join('\n')).toBe(0)
    expect(readdirSync(join(dir, 'logs')).sort()).toEqual([
      'cli_task__agent-scripted_agent_1__judge-rules_judge_input.json',
      'cli_task__agent-scripted_agent_1__judge-rules_judge_result.json',
      'cli_task__agent-scripted_agent_1__judge-scripted_judge_judge_input.json',
      'cli_task__agent-scripted_agent_1__judge-scripted_judge_judge_result.json',
      'cli_task__agent-scripted_agent_1_run.json',
    ])
    const printed = out.join('\n')
    expect(printed).toContain('"agent=scripted/agent:1__judge=rules"')
    expect(printed).toContain('"agent=scripted/agent:1__judge=scripted/judge"')
  })

  it('labels the offline baseline agent and rules judge as not LLMs in the files and the output', async () => {
    const code = await main(['run-and-judge', '--task', 'task.json', '--data-dir', '.', '--agent-model', 'baseline', '--judge-model', 'rules'])
    expect(code, out.join('\n')).toBe(0)
    const runLog = RunLogSchema.parse(JSON.parse(readFileSync(join(dir, 'logs', 'cli_task__agent-baseline_run.json'), 'utf8')))
    expect(runLog).toMatchObject({ agent_model_kind: 'baseline', agent_label: expect.stringContaining('not an LLM') })
    const result = JudgeResultFileSchema.parse(JSON.parse(readFileSync(join(dir, 'logs', 'cli_task__agent-baseline__judge-rules_judge_result.json'), 'utf8')))
    expect(result.judge_label).toContain('not an LLM')
    const printed = out.join('\n')
    expect(printed).toContain('agent baseline (not an LLM): answered')
    expect(printed).toContain('judge rules (not an LLM): answer_requirements_satisfaction')
    expect(printed).toContain('baseline (non-LLM)  rules (non-LLM)')
  })

  it('--tools extended gives the extended tools and records the profile', async () => {
    expect(
      await main([
        'run-task',
        '--task',
        'task.json',
        '--scenario-id',
        'cli_test',
        '--agent-model',
        'scripted/agent:1',
        '--data-dir',
        '.',
        '--tools',
        'extended',
        '--max-turns',
        '4',
      ]),
    ).toBe(0)
    const runLog = RunLogSchema.parse(JSON.parse(readFileSync(join(dir, 'logs', 'cli_task__agent-scripted_agent_1_run.json'), 'utf8')))
    expect(runLog).toMatchObject({ tool_profile: 'extended', harness: { max_turns: 4 } })
    expect(runLog.raw_tool_calls[0]).toMatchObject({ status: 'ok', result: { contacts: [{ id: 'p1', email: 'priya@northwind.test' }] } })
    expect(await main(['run-task', '--task', 'task.json', '--scenario-id', 'cli_test', '--data-dir', '.', '--tools', 'upstream'])).toBe(2)
    expect(out.join('\n')).toContain('Unknown tool profile --tools "upstream"')
  })

  it('reports a missing flag with the flag name', async () => {
    expect(await main(['judge', '--input', 'x.json'])).toBe(2)
    expect(await main(['run-task', '--agent-model', 'baseline'])).toBe(2)
    expect(out.join('\n')).toContain('agent-bench judge: missing --model.')
    expect(out.join('\n')).toContain('agent-bench run-task: missing --task.')
  })
})
