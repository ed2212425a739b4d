import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAgentModel } from '../../agent/create-agent-model.ts'
import { runAgent } from '../../agent/run-agent.ts'
import type { AgentTrace } from '../../agent/trace.ts'
import type { ChatModel, ChatResult } from '../../llm/types.ts'
import { emptyUsage } from '../../llm/types.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { mpcbenchStrategy } from '../baseline/mpcbench-strategy.ts'
import { withUpstreamFinalAnswer } from '../run/final-answer.ts'
import { importUpstream } from '../upstream/import-upstream.ts'
import { buildJudgeInput, JudgeInputSchema, LLM_JUDGE_FIELDS, llmJudgeMessage, llmJudgeView } from './judge-input.ts'
import { pyJsonDumpsIndented } from '../../core/python-format.ts'
import { buildRunLog, RunLogSchema } from '../run/run-log.ts'
import { readJudgeInput, runTask, workplaceTools, writeJudgeInput } from '../run/run-task.ts'
import type { Task, TaskType } from '../tasks/task.ts'
import { loadTask } from '../tasks/task.ts'
import { FIXTURE_SOURCES } from '../workplace/fixture-sources.ts'
import { Workplace, loadWorkplace } from '../workplace/workplace.ts'
import { wireNameOf } from '../../tools/define-tool.ts'

function traceOf(toolCalls: AgentTrace['toolCalls'], messages: AgentTrace['messages'] = []): AgentTrace {
  return {
    traceId: 't',
    model: 'm',
    modelKind: 'llm',
    messages,
    toolCalls,
    outcome: { kind: 'answered', answer: 'A', sources: [], rationale: 'R', via: 'json' },
    usage: emptyUsage(),
    turns: 2,
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 1,
  }
}

const task: Task = {
  task_id: 'companyA_weekly_report_v1',
  task_type: 'document_generation',
  user_prompt: 'Write the weekly report.',
  data_dependencies: {},
  answer_requirements: ['Covers APP-412.'],
}

const failedCall = {
  id: 'c1',
  turn: 1,
  name: 'Jira.SearchIssuesWithJql',
  arguments: { jql: 'x' },
  result: 'Error: boom',
  status: 'tool-error' as const,
  startedAt: '',
  durationMs: 0,
}

describe('buildJudgeInput and llmJudgeView', () => {
  it("shows the judge upstream's fields in upstream's order, and upstream's four fields of each tool call", () => {
    const runLog = buildRunLog(traceOf([failedCall]), { task, toolProfile: 'upstream-v1' })
    const input = JudgeInputSchema.parse(buildJudgeInput(runLog, task, 'judge'))
    const view = llmJudgeView(input)
    expect(Object.keys(view)).toEqual([...LLM_JUDGE_FIELDS])
    expect(view.raw_tool_calls).toEqual([
      { tool_name: 'Jira.SearchIssuesWithJql', function_name: 'Jira_SearchIssuesWithJql', arguments: { jql: 'x' }, result: 'Error: boom' },
    ])
    expect(Object.keys(view.raw_tool_calls[0] ?? {})).toEqual(['tool_name', 'function_name', 'arguments', 'result'])
    // The judge input file keeps the status: the offline rules judge leaves failed calls out of its grounding.
    expect(input.raw_tool_calls[0]?.status).toBe('tool-error')
  })

  it('gives a call recorded before function_name was its tool’s function name under the run’s profile', () => {
    const runLog = buildRunLog(traceOf([failedCall]), { task, toolProfile: 'extended' })
    const old = { ...runLog, raw_tool_calls: runLog.raw_tool_calls.map(({ function_name: _, ...call }) => call) }
    expect(llmJudgeView(buildJudgeInput(old, task, 'judge')).raw_tool_calls[0]?.function_name).toBe('Jira__SearchIssuesWithJql')
  })

  it("gives upstream's task_type: the task file's own, else upstream's rule on the id (weekly_report for the weekly report)", () => {
    const runLog = buildRunLog(traceOf([]), { task })
    expect(runLog.task_type).toBe('document_generation')
    expect(buildJudgeInput(runLog, { ...task, task_type: undefined }, 'judge').task_type).toBe('weekly_report')
    expect(buildJudgeInput(runLog, task, 'judge').task_type).toBe('document_generation')
    // This project's benches give a task its folder's type, whatever its id says.
    const summary = { ...task, task_id: 'q3_summary', task_type: 'document_generation' } as const
    expect(buildJudgeInput(runLog, summary, 'judge').task_type).toBe('document_generation')
  })
})

const planning: Task = {
  task_id: 'sync_planning',
  task_type: 'planning',
  user_prompt: 'Find a 45-minute slot.',
  data_dependencies: {},
  answer_requirements: ['Names a slot.'],
}

/** One call the model sent: its function name, argument text, the tool it reached and what came back. */
interface SentCall {
  functionName: string
  text: string
  toolName: string
  result: unknown
}

/**
 * The LLM judge message of a run whose model made `calls` in one turn, then sent `reply`: the trace as our tool loop
 * records it, read as upstream reads it, through the run log and judge input files (JSON written and read back).
 */
function judgeMessageOf(calls: SentCall[], reply: string): string {
  const trace: AgentTrace = {
    ...traceOf(
      calls.map((call, index) => ({
        id: `call_${index}`,
        turn: 1,
        name: call.toolName,
        arguments: JSON.parse(call.text) as unknown,
        result: call.result,
        status: 'ok' as const,
        startedAt: '',
        durationMs: 0,
      })),
    ),
    messages: [
      { role: 'system', content: 'system' },
      { role: 'user', content: planning.user_prompt },
      ...(calls.length === 0
        ? []
        : [
            {
              role: 'assistant' as const,
              content: null,
              tool_calls: calls.map((call, index) => ({
                id: `call_${index}`,
                type: 'function' as const,
                function: { name: call.functionName, arguments: call.text },
              })),
            },
          ]),
      ...calls.map((call, index) => ({ role: 'tool' as const, tool_call_id: `call_${index}`, content: JSON.stringify(call.result) })),
      { role: 'assistant', content: reply },
    ],
  }
  const runLog = RunLogSchema.parse(JSON.parse(JSON.stringify(buildRunLog(withUpstreamFinalAnswer(trace), { task: planning, toolProfile: 'upstream-v1' }))))
  return llmJudgeMessage(JudgeInputSchema.parse(JSON.parse(JSON.stringify(buildJudgeInput(runLog, planning, 'judge')))))
}

/** The start of upstream's judge message for {@link planning}, up to its tool calls. */
const PLANNING_HEAD = [
  '{',
  '  "task_id": "sync_planning",',
  '  "task_type": "planning",',
  '  "user_prompt": "Find a 45-minute slot.",',
  '  "answer_requirements": [',
  '    "Names a slot."',
  '  ],',
]

// Each expected message is what upstream's pipeline (openai_agent_runner.py's reading of the final reply and of the
// argument text, build_judge_input.py, judge_runner.py's json.dumps(indent=2, ensure_ascii=False), at eb0b7ca) gives
// for the same run under Python 3.11.
describe("the LLM judge is shown upstream's values", () => {
  it('a list answer in a fence, and a 45.0 argument, as 45.0 in raw_tool_calls and tool_trace', () => {
    const calls = [
      {
        functionName: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
        text: '{"email_addresses": ["alex@company.com"], "slot_minimum_minutes": 45.0}',
        toolName: 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
        result: { time_slots: [] },
      },
    ]
    const reply = '```json\n{"final_answer": ["Mon 09:00", "Tue 11:00"], "rationale": "Free slots."}\n```'
    const call = [
      '      "tool_name": "GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree",',
      '      "arguments": {',
      '        "email_addresses": [',
      '          "alex@company.com"',
      '        ],',
      '        "slot_minimum_minutes": 45.0',
      '      },',
      '      "result": {',
      '        "time_slots": []',
      '      }',
    ]
    expect(judgeMessageOf(calls, reply)).toBe(
      [
        ...PLANNING_HEAD,
        '  "tool_trace_steps": [',
        `    "Step 1: GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree(email_addresses=['alex@company.com'])"`,
        '  ],',
        '  "raw_tool_calls": [',
        '    {',
        call[0],
        '      "function_name": "GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree",',
        ...call.slice(1),
        '    }',
        '  ],',
        '  "tool_trace": [',
        '    {',
        '      "step": 1,',
        ...call,
        '    }',
        '  ],',
        '  "final_answer": [',
        '    "Mon 09:00",',
        '    "Tue 11:00"',
        '  ],',
        '  "rationale": "Free slots."',
        '}',
      ].join('\n'),
    )
  })

  const noCalls = ['  "tool_trace_steps": [],', '  "raw_tool_calls": [],', '  "tool_trace": [],']

  it('an object answer holding 45.0, and a null rationale', () => {
    const reply = '{"final_answer": {"slots": ["Mon 09:00"], "duration_minutes": 45.0}, "rationale": null}'
    expect(judgeMessageOf([], reply)).toBe(
      [
        ...PLANNING_HEAD,
        ...noCalls,
        '  "final_answer": {',
        '    "slots": [',
        '      "Mon 09:00"',
        '    ],',
        '    "duration_minutes": 45.0',
        '  },',
        '  "rationale": null',
        '}',
      ].join('\n'),
    )
  })

  it('a null answer and a 45.0 rationale', () => {
    expect(judgeMessageOf([], '{"final_answer": null, "rationale": 45.0}')).toBe(
      [...PLANNING_HEAD, ...noCalls, '  "final_answer": null,', '  "rationale": 45.0', '}'].join('\n'),
    )
  })

  it('a string answer that looks like JSON, as the string', () => {
    expect(judgeMessageOf([], '{"final_answer": "[1, 2]", "rationale": "r"}')).toBe(
      [...PLANNING_HEAD, ...noCalls, '  "final_answer": "[1, 2]",', '  "rationale": "r"', '}'].join('\n'),
    )
  })
})

/** The function name upstream's agent calls each tool by: the wire names of our upstream-v1 tool definitions. */
const UPSTREAM_FUNCTION_OF: Record<string, string> = Object.fromEntries(
  workplaceTools(Workplace.fromSources(FIXTURE_SOURCES), 'upstream-v1').map((tool) => [tool.name, wireNameOf(tool)]),
)

type Json = Record<string, unknown>

/** Python's `dict.get(key, fallback)`. */
function get(record: Json, key: string, fallback: unknown): unknown {
  return Object.hasOwn(record, key) ? record[key] : fallback
}

/**
 * Upstream's pipeline from one run, ported line by line: the run log its runner writes (`task_id`, `user_prompt`,
 * `tool_trace_steps`, `raw_tool_calls` of `{tool_name, function_name, arguments, result}`, `final_answer`,
 * `rationale`), then `build_judge_input_from_log` on it with the task file as `load_task_by_id` reads it, then
 * `json.dumps(judge_input, ensure_ascii=False, indent=2)` as `judge_runner.py` sends it.
 */
function upstreamJudgeInputText(runLogFile: string, taskFile: string): string {
  const ours = JSON.parse(readFileSync(runLogFile, 'utf8')) as Json
  const calls = ours.raw_tool_calls as Json[]
  const logData: Json = {
    task_id: ours.task_id,
    user_prompt: ours.user_prompt,
    tool_trace_steps: ours.tool_trace_steps,
    raw_tool_calls: calls.map((call) => ({
      tool_name: call.tool_name,
      function_name: UPSTREAM_FUNCTION_OF[call.tool_name as string],
      arguments: call.arguments,
      result: call.result,
    })),
    final_answer: ours.final_answer,
    rationale: ours.rationale,
  }
  const taskJson = JSON.parse(readFileSync(taskFile, 'utf8')) as Json
  const inferTaskType = (): unknown => {
    if (Object.hasOwn(taskJson, 'task_type')) return taskJson.task_type
    const id = String(get(taskJson, 'task_id', '')).toLowerCase()
    if (id.includes('planning')) return 'planning'
    if (id.includes('email')) return 'email_reply'
    if (id.includes('weekly') || id.includes('report')) return 'weekly_report'
    return 'planning'
  }
  const rawToolCalls = get(logData, 'raw_tool_calls', []) as Json[]
  const judgeInput = {
    task_id: get(logData, 'task_id', undefined),
    task_type: inferTaskType(),
    user_prompt: get(logData, 'user_prompt', undefined),
    answer_requirements: get(taskJson, 'answer_requirements', []),
    tool_trace_steps: get(logData, 'tool_trace_steps', []),
    raw_tool_calls: rawToolCalls,
    tool_trace: rawToolCalls.map((call, index) => ({
      step: index + 1,
      tool_name: get(call, 'tool_name', ''),
      arguments: get(call, 'arguments', {}),
      result: get(call, 'result', {}),
    })),
    final_answer: get(logData, 'final_answer', ''),
    rationale: get(logData, 'rationale', ''),
  }
  return pyJsonDumpsIndented(judgeInput)
}

describeWithSharedData("the judge input of upstream's v1 tasks is upstream's, byte for byte", () => {
  const upstreamDir = sharedDataPath('mpcbench', 'v1_eb0b7ca')
  const tmp = mkdtempSync(join(tmpdir(), 'mpcbench-judge-input-'))
  const dataDir = join(tmp, 'data')
  const taskFiles: Array<[string, TaskType, string]> = [
    ['planning/scenario_noise0_depth0_planning_task.json', 'planning', 'scenario_noise0_depth0'],
    ['planning/scenario_noise0_depth1_planning_task.json', 'planning', 'scenario_noise0_depth1'],
    ['planning/scenario_noise1_depth0_planning_task.json', 'planning', 'scenario_noise1_depth0'],
    ['email_reply/email_reply_task.json', 'email_reply', 'scenario_A'],
    ['document_generation/document_task.json', 'document_generation', 'scenario_A'],
  ]
  const imported = importUpstream({
    logs: join(upstreamDir, 'generator', 'logs', 'llm'),
    out: dataDir,
    scenarioIds: [...new Set(taskFiles.map(([, , id]) => id))],
  })
  /** The task as `defineUpstreamV1Bench` hands it on: `task_type` filled in from the folder when the file has none. */
  /** A task as the upstream v1 benches pass it: as read (no `task_type` filled in). */
  const benchTask = (file: string): Task => loadTask(join(upstreamDir, 'tasks', file))

  it('imported the scenarios', () => {
    expect(imported.skippedScenarios).toEqual([])
  })

  it.each(taskFiles)('%s, run by the baseline agent', async (file, _type, scenarioId) => {
    const task = benchTask(file)
    const logDir = join(tmp, 'logs')
    const { runLog, runLogFile } = await runTask({
      task,
      taskFile: `../shared/data/mpcbench/v1_eb0b7ca/tasks/${file}`,
      scenarioId,
      tools: workplaceTools(loadWorkplace(dataDir, scenarioId), 'upstream-v1'),
      toolProfile: 'upstream-v1',
      agent: createAgentModel('baseline', { baselineStrategies: [mpcbenchStrategy] }),
      systemMessage: 'You are tested.',
      logDir,
    })
    expect(runLog.raw_tool_calls.length).toBeGreaterThan(0)
    const judgeInputFile = join(logDir, `${task.task_id}_judge_input.json`)
    writeJudgeInput(runLog, task, 'judge', judgeInputFile)
    expect(llmJudgeMessage(readJudgeInput(judgeInputFile))).toBe(upstreamJudgeInputText(runLogFile, join(upstreamDir, 'tasks', file)))
  })

  it('a run of fixed calls to all nine tools: the tool trace steps upstream’s runner wrote for the same calls', async () => {
    const turns: Array<Array<[string, unknown]>> = [
      [
        [
          'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree',
          { email_addresses: ['alice.kim@company.com', 'min.lee@company.com'], start_date: '2025-11-17', end_date: '2025-11-21', slot_minimum_minutes: 45 },
        ],
        ['Jira_SearchIssuesWithJql', { jql: 'project = APP AND status != "Done" ORDER BY updated DESC' }],
        ['GoogleCalendar_ListEvents', { min_end_datetime: '2025-11-09' }],
      ],
      [
        ['Gmail_SearchThreads', { subject: 'Feature X', sender: '' }],
        ['Gmail_SearchThreads', {}],
        ['Slack_search_messages', { search_query: `it's "done"` }],
        ['GoogleContacts_SearchContactsByName', { name: 'Alice Kim', limit: 1 }],
        ['GoogleDrive_gdrive_search', { query: 'weekly' }],
        ['GoogleDrive_gdrive_read_file', { file_id: 'doc_api_launch_runbook_2025_11_28' }],
        ['Gmail_GetThread', { thread_id: 'thread_feature_eta_finsync' }],
      ],
    ]
    const model: ChatModel = {
      id: 'fixed-calls',
      kind: 'llm',
      async complete(request): Promise<ChatResult> {
        const turn = request.messages.filter((message) => message.role === 'assistant').length
        const calls = turns[turn]
        const message =
          calls === undefined
            ? {
                role: 'assistant' as const,
                refusal: null,
                content: JSON.stringify({
                  final_answer: 'Weekly report: Feature X on track — “ETA” 2025-11-28.',
                  rationale: 'Read Jira, Gmail, Slack and Drive.',
                }),
              }
            : {
                role: 'assistant' as const,
                refusal: null,
                content: null,
                tool_calls: calls.map(([name, args], i) => ({
                  id: `call_${turn}_${i}`,
                  type: 'function' as const,
                  function: { name, arguments: JSON.stringify(args) },
                })),
              }
        return { message, usage: emptyUsage(), model: 'fixed-calls', finishReason: 'stop', cached: false }
      },
    }
    const file = 'document_generation/document_task.json'
    const task = benchTask(file)
    const trace = await runAgent({
      model,
      system: 'You are tested.',
      user: task.user_prompt,
      tools: workplaceTools(loadWorkplace(dataDir, 'scenario_A'), 'upstream-v1'),
    })
    const runLog = buildRunLog(trace, { task, toolProfile: 'upstream-v1', scenarioId: 'scenario_A' })
    // Written by upstream's own runner (openai_agent_runner.py at eb0b7ca, Python 3.11) replaying these calls.
    expect(runLog.tool_trace_steps).toEqual([
      "Step 1: GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree(email_addresses=['alice.kim@company.com', 'min.lee@company.com'])",
      'Step 2: Jira.SearchIssuesWithJql(jql=project = APP AND status != "Done" ORDER BY update...)',
      'Step 3: GoogleCalendar.ListEvents(min_end_datetime=2025-11-09, max_start_datetime=)',
      'Step 4: Gmail.SearchThreads(subject=Feature X)',
      'Step 5: Gmail.SearchThreads(no filters)',
      'Step 6: Slack.search_messages(search_query=it\'s "done")',
      'Step 7: GoogleContacts.SearchContactsByName(name=Alice Kim)',
      'Step 8: GoogleDrive.gdrive_search(query=weekly)',
      'Step 9: GoogleDrive.gdrive_read_file(file_id=doc_api_launch_runbook_2025_11_28)',
      'Step 10: Gmail.GetThread(thread_id=thread_feature_eta_finsync)',
    ])
    expect(runLog.raw_tool_calls.map((call) => [call.function_name, call.status])).toEqual(turns.flat().map(([name]) => [name, 'ok']))
    const runLogFile = join(tmp, 'fixed-calls_run.json')
    writeFileSync(runLogFile, JSON.stringify(runLog))
    const input = buildJudgeInput(runLog, task, 'judge')
    expect(input.task_type).toBe('weekly_report')
    expect(llmJudgeMessage(input)).toBe(upstreamJudgeInputText(runLogFile, join(upstreamDir, 'tasks', file)))
  })
})
