import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { AgentTrace } from '../agent/trace.ts'
import { MAX_STORED_DOCUMENT_CHARS, MAX_STORED_TRACE_STRING_CHARS } from '../core/cap-stored.ts'
import { emptyUsage } from '../llm/types.ts'
import { buildJudgeInput, JudgeInputSchema } from './judge-input.ts'
import { buildRunLog, RunLogSchema } from './run-log.ts'
import { loadTask } from './task.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const taskFile = join(root, 'tasks/email_reply/lumen_sync_reply_email_reply.json')

function trace(answer: string, toolResult: string): AgentTrace {
  return {
    traceId: 'trace-1',
    model: 'scripted-agent',
    modelKind: 'llm',
    messages: [],
    toolCalls: [{ id: 'c1', turn: 1, name: 'Slack.search_messages', arguments: { query: 'sync' }, result: toolResult, status: 'ok', startedAt: '2025-01-01T00:00:00.000Z', durationMs: 1 }],
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
    const input = JudgeInputSchema.parse(buildJudgeInput(runLog, task, 'rules', taskFile))
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
})
