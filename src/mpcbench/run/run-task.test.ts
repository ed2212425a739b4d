import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createJudge } from '../judge/create-judge.ts'
import { JudgeResultFileSchema } from '../judge/judge-result.ts'
import { createModel } from '../../llm/create-model.ts'
import { lastUserText, scriptedText, scriptedToolCalls, startScriptedServer } from '../../testing/scripted-server.ts'
import type { ReceivedRequest, ScriptedResponse } from '../../testing/scripted-server.ts'
import { Workplace } from '../workplace/workplace.ts'
import { JudgeInputSchema } from '../judge/judge-input.ts'
import { RunLogSchema } from './run-log.ts'
import { BenchError, InvalidFormatError } from '../../core/errors.ts'
import { evaluationFiles } from '../tasks/file-names.ts'
import type { Judge } from '../judge/judge.ts'
import { SOURCES } from '../workplace/validate-source.ts'
import { runAndJudge, readJudgeInput, readRunLog, runTask, scenarioTools, workplaceTools } from './run-task.ts'
import { TOOL_PROFILES } from '../workplace/tool-profiles.ts'
import { runAgent } from '../../agent/run-agent.ts'
import type { Task } from '../tasks/task.ts'

const AGENT_SYSTEM = 'You are the test agent.'
const JUDGE_SYSTEM = 'You are the test judge.'

const workplace = Workplace.fromSources(
  {
    slack: {
      workspace_name: 'Northwind',
      channels: [{ id: 'C1', name: 'launch' }],
      users: [{ id: 'U1', name: 'Priya Natarajan', email: 'priya@northwind.test' }],
      messages: [],
    },
    gmail: { threads: [] },
    calendar: {
      calendars: [{ id: 'cal-priya', email: 'priya@northwind.test' }],
      events: [
        {
          id: 'e1',
          title: 'Design review',
          start: '2026-03-10T09:00:00+01:00',
          end: '2026-03-10T12:00:00+01:00',
          attendees: [{ email: 'priya@northwind.test' }],
        },
      ],
    },
    contacts: { contacts: [{ id: 'p1', name: 'Priya Natarajan', email: 'priya@northwind.test' }] },
    jira: { projects: [{ key: 'NW', name: 'Northwind' }], issues: [{ key: 'NW-12', summary: 'Launch checklist', status: 'In Progress' }] },
    drive: { files: [] },
  },
  { timezone: 'Europe/Berlin', workdayStart: '09:00', workdayEnd: '18:00' },
)

const task: Task = {
  task_id: 'nw_planning_test',
  task_type: 'planning',
  user_prompt: 'Find a 45-minute slot with Priya Natarajan on 2026-03-10.',
  data_dependencies: { scenario_id: 'northwind_test' },
  answer_requirements: ['Proposes a 45-minute slot on 2026-03-10 when Priya is free.'],
  checks: [{ must_mention: ['Priya'] }, { time_slot_within: { start: '2026-03-10T12:00', end: '2026-03-10T17:15', timezone: 'Europe/Berlin' } }],
}

const SCRIPTED_SCORES = {
  answer_requirements_satisfaction: { score: 5, justification: 'scripted: proposes a free slot' },
  source_grounded_reasoning: { score: 4, justification: 'scripted: grounded in the calendar result' },
}

/** Routes by system prompt: the agent gets contacts → free slots → answer; the judge gets scores. */
function responder(request: ReceivedRequest): ScriptedResponse {
  const messages = request.body.messages ?? []
  if (messages[0]?.content === JUDGE_SYSTEM) return scriptedText(JSON.stringify(SCRIPTED_SCORES))
  const toolMessages = messages.filter((m) => m.role === 'tool').length
  if (toolMessages === 0) return scriptedToolCalls([{ name: 'GoogleContacts__SearchContactsByName', arguments: { name: 'Priya Natarajan' } }])
  if (toolMessages === 1) {
    return scriptedToolCalls([
      {
        name: 'GoogleCalendar__FindTimeSlotsWhenEveryoneIsFree',
        arguments: {
          email_addresses: ['priya@northwind.test'],
          date_range_start: '2026-03-10',
          date_range_end: '2026-03-10',
          workday_start_time: '09:00',
          workday_end_time: '18:00',
          slot_minimum_minutes: 45,
        },
      },
    ])
  }
  expect(lastUserText(request)).toBe(task.user_prompt)
  return scriptedText(
    JSON.stringify({
      final_answer: 'Priya Natarajan (priya@northwind.test) is free on 2026-03-10 from 12:00; I suggest 2026-03-10 13:00-13:45.',
      rationale: 'Looked Priya up in Contacts, then asked the Calendar for free slots on 2026-03-10.',
    }),
  )
}

describe('runAndJudge through the scripted server', () => {
  it('writes the run log, one judge input and one judge result per judge, with the documented content', async () => {
    await using server = await startScriptedServer(responder)
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' }
    const callLogDir = mkdtempSync(join(tmpdir(), 'mpc-calls-'))
    const make = (id: string) => createModel(id, { env, callLogDir, cache: { mode: 'off' }, maxRetries: 0 })
    const logDir = mkdtempSync(join(tmpdir(), 'mpc-logs-'))
    const judges = ['rules', 'scripted/judge:2'].map((id) => createJudge(id, { systemPrompt: JUDGE_SYSTEM, makeModel: make }))

    const evaluation = await runAndJudge({
      task,
      taskFile: 'tasks/planning/nw_planning_test.json',
      scenarioId: 'northwind_test',
      tools: workplaceTools(workplace, 'extended'),
      toolProfile: 'extended',
      agent: make('scripted/agent:1'),
      systemMessage: AGENT_SYSTEM,
      logDir,
      judges,
    })

    expect(readdirSync(logDir).sort()).toEqual([
      'nw_planning_test__agent-scripted_agent_1__judge-rules_judge_input.json',
      'nw_planning_test__agent-scripted_agent_1__judge-rules_judge_result.json',
      'nw_planning_test__agent-scripted_agent_1__judge-scripted_judge_2_judge_input.json',
      'nw_planning_test__agent-scripted_agent_1__judge-scripted_judge_2_judge_result.json',
      'nw_planning_test__agent-scripted_agent_1_run.json',
    ])

    // Run log.
    const runLog = readRunLog(join(logDir, 'nw_planning_test__agent-scripted_agent_1_run.json'))
    expect(runLog).toEqual(evaluation.runLog)
    expect(runLog).toMatchObject({
      task_id: 'nw_planning_test',
      task_type: 'planning',
      user_prompt: task.user_prompt,
      agent_model: 'scripted/agent:1',
      agent_model_file_name: 'scripted_agent_1',
      agent_model_kind: 'llm',
      scenario_id: 'northwind_test',
      task_file: 'tasks/planning/nw_planning_test.json',
      outcome: { kind: 'answered', via: 'json' },
      rationale: 'Looked Priya up in Contacts, then asked the Calendar for free slots on 2026-03-10.',
      turns: 3,
      tool_profile: 'extended',
      harness: { temperature: null, max_turns: 50, developer_message: null },
    })
    expect(runLog.final_answer).toContain('2026-03-10 13:00-13:45')
    expect(runLog.tool_trace_steps).toEqual([
      "Step 1: GoogleContacts.SearchContactsByName(name='Priya Natarajan')",
      'Step 2: GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree(email_addresses=["priya@northwind.test"], ' +
        "date_range_start='2026-03-10', date_range_end='2026-03-10', workday_start_time='09:00', workday_end_time='18:00', " +
        'slot_minimum_minutes=45)',
    ])
    expect(runLog.raw_tool_calls.map((c) => c.tool_name)).toEqual(['GoogleContacts.SearchContactsByName', 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree'])
    expect(JSON.stringify(runLog.raw_tool_calls[1]?.result)).toContain('2026-03-10T12:00:00+01:00')
    expect(runLog.usage.calls).toBe(3)
    expect(runLog).not.toHaveProperty('agent_label')

    // Judge inputs: every run log field verbatim, plus the task's requirements and the stepped trace.
    for (const judge of ['rules', 'scripted_judge_2']) {
      const input = readJudgeInput(join(logDir, `nw_planning_test__agent-scripted_agent_1__judge-${judge}_judge_input.json`))
      expect(JudgeInputSchema.parse(input)).toEqual(input)
      for (const key of Object.keys(RunLogSchema.shape) as Array<keyof typeof runLog>) expect(input[key]).toEqual(runLog[key])
      expect(input.answer_requirements).toEqual(task.answer_requirements)
      expect(input.checks).toEqual(task.checks)
      expect(input.tool_trace).toEqual(runLog.raw_tool_calls.map((c, i) => ({ step: i + 1, tool_name: c.tool_name, arguments: c.arguments, result: c.result })))
      expect(input.judge_model_file_name).toBe(judge)
    }

    // Judge results.
    const result = (judge: string) =>
      JudgeResultFileSchema.parse(JSON.parse(readFileSync(join(logDir, `nw_planning_test__agent-scripted_agent_1__judge-${judge}_judge_result.json`), 'utf8')))
    const rules = result('rules')
    expect(rules).toMatchObject({ kind: 'scored', judge_kind: 'rules', judge_model: 'rules', agent_model: 'scripted/agent:1' })
    expect(rules.judge_label).toContain('not an LLM')
    if (rules.kind === 'scored') {
      expect(rules.answer_requirements_satisfaction.score).toBe(5)
      expect(rules.source_grounded_reasoning.score).toBe(5)
    }
    const llm = result('scripted_judge_2')
    expect(llm).toMatchObject({ kind: 'scored', judge_kind: 'llm', judge_model: 'scripted/judge:2', attempts: 1, ...SCRIPTED_SCORES })
    expect(llm.judge_label).toBeUndefined()
    expect(server.requests).toHaveLength(4)
  })

  it('an agent run aborted by its signal (a cancelled run) keeps its run log and calls no judge', async () => {
    const controller = new AbortController()
    // The agent's first call is where the run is cancelled; the reply would come too late.
    await using server = await startScriptedServer(() => {
      controller.abort(Object.assign(new Error('The test run was aborted by the user.'), { name: 'TestRunAbortError' }))
      return { kind: 'reply', content: 'late', delayMs: 30_000 }
    })
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' }
    const make = (id: string) => createModel(id, { env, callLogDir: false, cache: { mode: 'off' }, maxRetries: 0 })
    const logDir = mkdtempSync(join(tmpdir(), 'mpc-logs-'))
    const evaluation = await runAndJudge({
      task,
      scenarioId: 'northwind_test',
      tools: workplaceTools(workplace, 'extended'),
      agent: make('scripted/agent'),
      systemMessage: AGENT_SYSTEM,
      logDir,
      judges: ['scripted/judge', 'rules'].map((id) => createJudge(id, { systemPrompt: JUDGE_SYSTEM, makeModel: make })),
      signal: controller.signal,
    })
    expect(evaluation.runLog.outcome.kind).toBe('aborted')
    expect(evaluation.judged).toEqual([])
    expect(readdirSync(logDir)).toEqual(['nw_planning_test__agent-scripted_agent_run.json'])
    expect(server.requests).toHaveLength(1)
  })
})

describe('runAndJudge leaves no earlier judge result beside a new run log', () => {
  /** A judge that throws, as a judge crashing on a bad input does (e.g. `RangeError: Invalid time zone`). */
  const throwingJudge = (id: string): Judge => ({
    id,
    kind: 'rules',
    judge: async () => {
      throw new RangeError('Invalid time zone specified: Mars/Olympus')
    },
  })

  it("removes the earlier run's judge result when the new run's judge throws", async () => {
    await using server = await startScriptedServer(responder)
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' }
    const make = (id: string) => createModel(id, { env, callLogDir: false, cache: { mode: 'off' }, maxRetries: 0 })
    const logDir = mkdtempSync(join(tmpdir(), 'mpc-logs-'))
    const options = {
      task,
      scenarioId: 'northwind_test',
      tools: workplaceTools(workplace, 'extended'),
      agent: make('scripted/agent'),
      systemMessage: AGENT_SYSTEM,
      logDir,
    }
    const first = await runAndJudge({ ...options, judges: [createJudge('rules', { systemPrompt: JUDGE_SYSTEM, makeModel: make })] })
    const files = evaluationFiles(logDir, task.task_id, 'scripted/agent', 'rules')
    expect(existsSync(files.judgeResult)).toBe(true)

    await expect(runAndJudge({ ...options, judges: [throwingJudge('rules')] })).rejects.toThrow(RangeError)
    const runLog = readRunLog(files.runLog)
    expect(runLog.trace_id).not.toBe(first.runLog.trace_id)
    expect(existsSync(files.judgeResult)).toBe(false)
    // The judge input beside it is the new run's, built before the judge threw.
    expect(readJudgeInput(files.judgeInput).trace_id).toBe(runLog.trace_id)
  })

  it("removes every listed judge's earlier files even when the run is cut off before any judge", async () => {
    await using server = await startScriptedServer(responder)
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' }
    const make = (id: string) => createModel(id, { env, callLogDir: false, cache: { mode: 'off' }, maxRetries: 0 })
    const logDir = mkdtempSync(join(tmpdir(), 'mpc-logs-'))
    const options = {
      task,
      scenarioId: 'northwind_test',
      tools: workplaceTools(workplace, 'extended'),
      agent: make('scripted/agent'),
      systemMessage: AGENT_SYSTEM,
      logDir,
    }
    await runAndJudge({ ...options, judges: [createJudge('rules', { systemPrompt: JUDGE_SYSTEM, makeModel: make })] })
    const controller = new AbortController()
    controller.abort(new Error('cancelled'))
    await runAndJudge({ ...options, judges: [createJudge('rules', { systemPrompt: JUDGE_SYSTEM, makeModel: make })], signal: controller.signal })
    expect(readdirSync(logDir)).toEqual(['nw_planning_test__agent-scripted_agent_run.json'])
  })
})

describe('scenarioTools and runTask on a missing scenario or an unwritable log folder', () => {
  /** A data folder holding all six sources of `full` and only the Slack file of `partial`. */
  function dataDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'mpc-data-'))
    for (const source of SOURCES) writeFileSync(join(dir, `full_${source}.json`), '{}')
    writeFileSync(join(dir, 'partial_slack.json'), '{}')
    return dir
  }

  it('names the task file and its data_dependencies.scenario_id, and lists the scenarios with data', () => {
    const dir = dataDir()
    let error: unknown
    try {
      scenarioTools(dir, 'nosuch', 'upstream-v1', 'tasks/planning/x.json')
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(InvalidFormatError)
    expect(error).toMatchObject({ file: 'tasks/planning/x.json', field: 'data_dependencies.scenario_id' })
    expect((error as InvalidFormatError).problem).toBe(
      `data_dependencies.scenario_id "nosuch" of task tasks/planning/x.json names a scenario with no data in ${dir}`,
    )
    expect((error as InvalidFormatError).hint).toContain('Set data_dependencies.scenario_id in tasks/planning/x.json to a scenario with data (full)')
    expect((error as InvalidFormatError).hint).not.toContain('<id>')
  })

  it('names the missing files of a scenario with only part of its data', () => {
    expect(() => scenarioTools(dataDir(), 'partial')).toThrow(
      /Scenario "partial" lacks partial_gmail\.json, partial_calendar\.json, .*\n {2}Fix: Regenerate its data: agent-bench generate --scenario-id partial/,
    )
  })

  it('a log folder under a file is our error naming the run log, not a bare ENOTDIR', async () => {
    await using server = await startScriptedServer(responder)
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' }
    const agent = createModel('scripted/agent', { env, callLogDir: false, cache: { mode: 'off' }, maxRetries: 0 })
    const run = runTask({
      task,
      scenarioId: 'northwind_test',
      tools: workplaceTools(workplace, 'extended'),
      agent,
      systemMessage: AGENT_SYSTEM,
      logDir: '/dev/null/logs',
    })
    await expect(run).rejects.toBeInstanceOf(BenchError)
    await expect(run).rejects.toThrow('Cannot write /dev/null/logs/nw_planning_test__agent-scripted_agent_run.json')
  })
})

describe('runAndJudge reads the final reply as upstream MPCBench does', () => {
  const fenced = 'Here is the result:\n```json\n{"final_answer": "Meet Priya on 2026-03-10 13:00-13:45", "rationale": "calendar free"}\n```'
  // Expected values from upstream's evaluation/openai_agent_runner.py (eb0b7ca) lines 575-610, run on the same replies.
  const replies = [
    { name: 'prose before a json fence: the whole reply', reply: fenced, final_answer: fenced, rationale: '', via: 'text' },
    {
      name: '`answer` for `final_answer`: an empty answer',
      reply: '{"answer": "Meet Priya at 13:00", "rationale": "calendar free"}',
      final_answer: '',
      rationale: 'calendar free',
      via: 'json',
    },
    {
      name: 'an object answer and a list rationale: their JSON',
      reply: '{"final_answer": {"slot": "2026-03-10 13:00"}, "rationale": ["contacts", "calendar"]}',
      final_answer: '{\n  "slot": "2026-03-10 13:00"\n}',
      rationale: '[\n  "contacts",\n  "calendar"\n]',
      via: 'json',
    },
  ] as const

  for (const profile of TOOL_PROFILES) {
    it.each(replies)(`${profile}: $name`, async ({ reply, final_answer, rationale, via }) => {
      await using server = await startScriptedServer((request) => {
        const messages = request.body.messages ?? []
        if (messages[0]?.content === JUDGE_SYSTEM) return scriptedText(JSON.stringify(SCRIPTED_SCORES))
        if (messages.some((m) => m.role === 'tool')) return scriptedText(reply)
        const contacts = request.body.tools?.find((tool) => /contacts/i.test(tool.function.name))
        return scriptedToolCalls([{ name: contacts?.function.name ?? 'missing', arguments: { name: 'Priya Natarajan' } }])
      })
      const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' }
      const make = (id: string) => createModel(id, { env, callLogDir: false, cache: { mode: 'off' }, maxRetries: 0 })
      const logDir = mkdtempSync(join(tmpdir(), 'mpc-logs-'))
      const evaluation = await runAndJudge({
        task,
        scenarioId: 'northwind_test',
        tools: workplaceTools(workplace, profile),
        toolProfile: profile,
        agent: make('scripted/agent'),
        systemMessage: AGENT_SYSTEM,
        logDir,
        judges: [createJudge('scripted/judge', { systemPrompt: JUDGE_SYSTEM, makeModel: make })],
      })
      const runLog = readRunLog(evaluation.runLogFile)
      expect(runLog.raw_tool_calls.map((call) => call.tool_name)).toEqual(['GoogleContacts.SearchContactsByName'])
      expect(runLog).toMatchObject({ final_answer, rationale, outcome: { kind: 'answered', via } })
      expect(readJudgeInput(evaluation.judged[0]!.judgeInputFile)).toMatchObject({ final_answer, rationale })
    })
  }
})

describe("runTask sends upstream MPCBench's agent requests (openai_agent_runner.py at eb0b7ca)", () => {
  /**
   * The request upstream's runner builds (lines 409-414 and 431-452, 566-571): `tool_choice="auto"` with the tools; an
   * assistant message with tool calls and `content` only when the reply had some (`if msg.content:`); each tool
   * message `{role, tool_call_id, name, content}`, `name` the function name the model called.
   */
  it('tool_choice auto, named tool messages, no content on an assistant message whose reply had none', async () => {
    const contacts = { id: 'call_1', name: 'GoogleContacts_SearchContactsByName', arguments: '{"name": "Priya Natarajan"}' }
    const jira = { id: 'call_2', name: 'Jira_SearchIssuesWithJql', arguments: '{"jql": "project = NW"}' }
    const calendar = { id: 'call_3', name: 'GoogleCalendar_ListEvents', arguments: '{"min_end_datetime": "2026-03-10"}' }
    const slack = { id: 'call_4', name: 'Slack_search_messages', arguments: '{"search_query": "launch"}' }
    const answer = JSON.stringify({ final_answer: 'Priya is free on 2026-03-10 from 12:00.', rationale: 'calendar' })
    await using server = await startScriptedServer([
      scriptedToolCalls([contacts, jira]),
      scriptedToolCalls([calendar], { content: 'Now the calendar.' }),
      scriptedToolCalls([slack], { content: '' }),
      scriptedText(answer),
    ])
    const model = createModel('scripted/agent', {
      env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' },
      callLogDir: false,
      cache: { mode: 'off' },
      maxRetries: 0,
    })
    const { runLog } = await runTask({
      task,
      scenarioId: 'northwind_test',
      tools: workplaceTools(workplace, 'upstream-v1'),
      toolProfile: 'upstream-v1',
      agent: model,
      systemMessage: AGENT_SYSTEM,
      developerMessage: { text: 'How to use the sources.', source: 'test' },
      temperature: 0,
      logDir: mkdtempSync(join(tmpdir(), 'mpc-logs-')),
    })
    expect(runLog.outcome).toMatchObject({ kind: 'answered' })
    expect(runLog.raw_tool_calls.map((call) => call.status)).toEqual(['ok', 'ok', 'ok', 'ok'])
    const sent = (call: { id: string; name: string; arguments: string }) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })
    // The content is the tool profile's (upstream's `json.dumps`, checked against upstream's backend by the tool oracle).
    const tool = (call: { id: string; name: string }) => ({ role: 'tool', tool_call_id: call.id, name: call.name, content: expect.any(String) })
    const expected = [
      { role: 'system', content: AGENT_SYSTEM },
      { role: 'developer', content: 'How to use the sources.' },
      { role: 'user', content: task.user_prompt },
      { role: 'assistant', tool_calls: [sent(contacts), sent(jira)] },
      tool(contacts),
      tool(jira),
      { role: 'assistant', content: 'Now the calendar.', tool_calls: [sent(calendar)] },
      tool(calendar),
      { role: 'assistant', tool_calls: [sent(slack)] },
      tool(slack),
    ]
    expect(server.requests).toHaveLength(4)
    for (const [i, request] of server.requests.entries()) {
      const { tools, ...rest } = request.body
      expect(rest).toStrictEqual({ model: 'scripted/agent', messages: expected.slice(0, [3, 6, 8, 10][i]), tool_choice: 'auto', temperature: 0 })
      expect(tools?.map((t) => t.function.name)).toContain('GoogleContacts_SearchContactsByName')
      // Keys in upstream's order too: role, tool_call_id, name, content.
      expect(rest.messages?.map((message) => Object.keys(message))).toEqual(expected.slice(0, [3, 6, 8, 10][i]).map((message) => Object.keys(message)))
    }
  })

  it('ART-E keeps the default shape: runAgent without a wire option sends no tool_choice, no tool message name, and content null', async () => {
    await using server = await startScriptedServer([
      scriptedToolCalls([{ id: 'c1', name: 'GoogleContacts_SearchContactsByName', arguments: '{"name": "Priya"}' }]),
      scriptedText('done'),
    ])
    const model = createModel('scripted/agent', {
      env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' },
      callLogDir: false,
      cache: { mode: 'off' },
      maxRetries: 0,
    })
    const trace = await runAgent({ model, system: AGENT_SYSTEM, user: 'Who is Priya?', tools: workplaceTools(workplace, 'upstream-v1') })
    const last = server.requests[1]?.body
    expect(last).not.toHaveProperty('tool_choice')
    expect(last?.messages?.slice(2)).toStrictEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'GoogleContacts_SearchContactsByName', arguments: '{"name": "Priya"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: trace.messages[3]?.content },
    ])
    expect(last?.messages).toStrictEqual(trace.messages.slice(0, 4))
  })
})
