import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { AgentTrace } from '../../agent/trace.ts'
import { MAX_STORED_DOCUMENT_CHARS, MAX_STORED_TRACE_STRING_CHARS } from '../../core/cap-stored.ts'
import { emptyUsage } from '../../llm/types.ts'
import { withUpstreamFinalAnswer } from './final-answer.ts'
import { buildJudgeInput, JudgeInputSchema, llmJudgeView } from '../judge/judge-input.ts'
import { buildRunLog, RunLogSchema } from './run-log.ts'
import { loadTask } from '../tasks/task.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const taskFile = join(root, 'tasks/email_reply/lumen_sync_reply_email_reply.json')

function trace(answer: string, toolResult: string): AgentTrace {
  return {
    traceId: 'trace-1',
    model: 'scripted-agent',
    modelKind: 'llm',
    messages: [],
    toolCalls: [
      {
        id: 'c1',
        turn: 1,
        name: 'Slack.search_messages',
        arguments: { query: 'sync' },
        result: toolResult,
        status: 'ok',
        startedAt: '2025-01-01T00:00:00.000Z',
        durationMs: 1,
      },
    ],
    outcome: { kind: 'answered', answer, sources: [], rationale: null, via: 'json' },
    usage: emptyUsage(),
    turns: 2,
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 5,
  }
}

describe('buildRunLog', () => {
  it('stores a huge answer and huge tool results cut, with the full length recorded, and the judge input follows', () => {
    const task = loadTask(taskFile)
    const runLog = RunLogSchema.parse(buildRunLog(trace('x'.repeat(1_000_000), 'y'.repeat(200_000)), { task, taskFile }))
    expect(runLog.final_answer_chars).toBe(1_000_000)
    expect(runLog.final_answer.length).toBeLessThan(MAX_STORED_DOCUMENT_CHARS + 100)
    expect(runLog.final_answer).toMatch(/\[truncated: 1,000,000 characters in full\]$/)
    expect(String(runLog.raw_tool_calls[0]?.result).length).toBeLessThan(MAX_STORED_TRACE_STRING_CHARS + 100)
    const input = JudgeInputSchema.parse(buildJudgeInput(runLog, task, 'rules'))
    expect(input.final_answer_chars).toBe(1_000_000)
    expect(JSON.stringify(input).length).toBeLessThan(200_000)
  })

  it('keeps a long real report whole: the cap only stops dumps', () => {
    const report = 'Weekly report. '.repeat(1_000)
    const runLog = buildRunLog(trace(report, 'ok'), { task: loadTask(taskFile), taskFile })
    expect(runLog.final_answer).toBe(report)
    expect(runLog).not.toHaveProperty('final_answer_chars')
  })

  it('keeps an ordinary answer as it is, with no length field', () => {
    const runLog = buildRunLog(trace('Thursday 10:00 works for everyone.', 'ok'), { task: loadTask(taskFile), taskFile })
    expect(runLog.final_answer).toBe('Thursday 10:00 works for everyone.')
    expect(runLog).not.toHaveProperty('final_answer_chars')
  })

  it('records the function name each call was made by, from the assistant message of its turn', () => {
    const call = (id: string, name: string) => ({ id, turn: 1, name, arguments: {}, result: {}, status: 'ok' as const, startedAt: '', durationMs: 0 })
    const base = trace('A', 'ok')
    const withMessages: AgentTrace = {
      ...base,
      messages: [
        { role: 'user', content: 'Q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'Gmail_GetThread', arguments: '{}' } },
            { id: 'b', type: 'function', function: { name: 'Slack__search_messages', arguments: '{}' } },
          ],
        },
      ],
      toolCalls: [call('a', 'Gmail.GetThread'), call('b', 'Slack.search_messages')],
    }
    const task = loadTask(taskFile)
    const runLog = buildRunLog(withMessages, { task, taskFile, toolProfile: 'upstream-v1' })
    expect(runLog.raw_tool_calls.map((c) => Object.keys(c))).toEqual([
      ['tool_name', 'function_name', 'arguments', 'result', 'status'],
      ['tool_name', 'function_name', 'arguments', 'result', 'status'],
    ])
    expect(runLog.raw_tool_calls.map((c) => c.function_name)).toEqual(['Gmail_GetThread', 'Slack__search_messages'])
    // No assistant message holds the calls (an external agent over MCP): the tool's name under the profile.
    const external = { ...withMessages, messages: [] }
    expect(buildRunLog(external, { task, taskFile, toolProfile: 'upstream-v1' }).raw_tool_calls.map((c) => c.function_name)).toEqual([
      'Gmail_GetThread',
      'Slack_search_messages',
    ])
    expect(buildRunLog(external, { task, taskFile, toolProfile: 'extended' }).raw_tool_calls.map((c) => c.function_name)).toEqual([
      'Gmail__GetThread',
      'Slack__search_messages',
    ])
  })

  it("writes upstream's tool trace steps for the upstream-v1 tools", () => {
    const runLog = buildRunLog(
      {
        ...trace('A', 'ok'),
        toolCalls: [
          {
            id: 'c1',
            turn: 1,
            name: 'GoogleCalendar.ListEvents',
            arguments: { min_end_datetime: '2025-11-09' },
            result: {},
            status: 'ok',
            startedAt: '',
            durationMs: 0,
          },
        ],
      },
      { task: loadTask(taskFile), taskFile, toolProfile: 'upstream-v1' },
    )
    expect(runLog.tool_trace_steps).toEqual(['Step 1: GoogleCalendar.ListEvents(min_end_datetime=2025-11-09, max_start_datetime=)'])
  })

  it("keeps upstream's values that are not strings, and argument texts Python reads otherwise, beside our text form", () => {
    const calls = [
      { id: 'a', name: 'GoogleCalendar_FindTimeSlotsWhenEveryoneIsFree', text: '{"email_addresses": ["alex@company.com"], "slot_minimum_minutes": 45.0}' },
      { id: 'b', name: 'Gmail_GetThread', text: '{"thread_id": 12.0}' },
      { id: 'c', name: 'Slack_search_messages', text: '{"search_query": "sync", "limit": 5}' },
    ]
    const replied: AgentTrace = {
      ...trace('ours', 'ok'),
      messages: [
        { role: 'user', content: 'Q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: calls.map(({ id, name, text }) => ({ id, type: 'function' as const, function: { name, arguments: text } })),
        },
        { role: 'assistant', content: '{"final_answer": {"slots": ["Mon 09:00"], "duration_minutes": 45.0}, "rationale": null}' },
      ],
      toolCalls: calls.map(({ id, name, text }) => ({
        id,
        turn: 1,
        name: name.replace('_', '.'),
        arguments: JSON.parse(text) as unknown,
        result: {},
        status: 'ok' as const,
        startedAt: '',
        durationMs: 0,
      })),
    }
    const task = loadTask(taskFile)
    const runLog = RunLogSchema.parse(JSON.parse(JSON.stringify(buildRunLog(withUpstreamFinalAnswer(replied), { task, taskFile, toolProfile: 'upstream-v1' }))))
    // Our text form, which the rules judge, the report and resume read, stays a string.
    expect(runLog.final_answer).toBe('{\n  "slots": [\n    "Mon 09:00"\n  ],\n  "duration_minutes": 45.0\n}')
    expect(runLog.rationale).toBe('')
    expect(runLog.final_answer_json).toBe('{"slots": ["Mon 09:00"], "duration_minutes": 45.0}')
    expect(runLog.rationale_json).toBe('null')
    expect(runLog.raw_tool_calls.map((call) => call.arguments_json)).toEqual([calls[0]?.text, calls[1]?.text, undefined])
    expect(runLog.raw_tool_calls[0]?.arguments).toEqual({ email_addresses: ['alex@company.com'], slot_minimum_minutes: 45 })
    // Upstream's runner prints str(12.0).
    expect(runLog.tool_trace_steps[1]).toBe('Step 2: Gmail.GetThread(thread_id=12.0)')
  })

  it('stores no JSON text for a string answer', () => {
    const replied: AgentTrace = { ...trace('ours', 'ok'), messages: [{ role: 'assistant', content: '{"final_answer": "Mon 09:00", "rationale": "free"}' }] }
    const runLog = buildRunLog(withUpstreamFinalAnswer(replied), { task: loadTask(taskFile), taskFile })
    expect(runLog.final_answer).toBe('Mon 09:00')
    expect(runLog).not.toHaveProperty('final_answer_json')
    expect(runLog).not.toHaveProperty('rationale_json')
    expect(runLog.raw_tool_calls[0]).not.toHaveProperty('arguments_json')
  })

  it('loads a log written before the JSON texts were recorded, and the LLM judge is shown its strings', () => {
    const task = loadTask(taskFile)
    const {
      final_answer_json: _a,
      rationale_json: _r,
      ...old
    } = buildRunLog(
      withUpstreamFinalAnswer({ ...trace('ours', 'ok'), messages: [{ role: 'assistant', content: '{"final_answer": ["Mon"], "rationale": null}' }] }),
      { task, taskFile },
    )
    const view = llmJudgeView(JudgeInputSchema.parse(buildJudgeInput(RunLogSchema.parse(old), task, 'judge')))
    expect(view.final_answer).toBe('[\n  "Mon"\n]')
    expect(view.rationale).toBe('')
  })

  it('rejects a JSON text Python cannot read', () => {
    const runLog = buildRunLog(trace('A', 'ok'), { task: loadTask(taskFile), taskFile })
    expect(RunLogSchema.safeParse({ ...runLog, final_answer_json: '{"a": 1,}' }).success).toBe(false)
    expect(RunLogSchema.safeParse({ ...runLog, final_answer_json: '["a", 45.0]' }).success).toBe(true)
  })
})
