import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createModel } from '../../llm/create-model.ts'
import { emptyUsage } from '../../llm/types.ts'
import type { JudgeInput } from './judge-input.ts'
import { LLM_JUDGE_FIELDS } from './judge-input.ts'
import { scriptedError, scriptedText, startScriptedServer } from '../../testing/scripted-server.ts'
import type { Script } from '../../testing/scripted-server.ts'
import { createLlmJudge, parseJudgeReply } from './llm-judge.ts'

const JUDGE_PROMPT = 'You are the test judge. Reply with JSON scores.'

const input: JudgeInput = {
  task_id: 'nw_email_1',
  task_type: 'email_reply',
  user_prompt: 'Draft a reply.',
  tool_trace_steps: ["Step 1: Gmail.SearchThreads(subject='renewal')"],
  raw_tool_calls: [{ tool_name: 'Gmail.SearchThreads', arguments: { subject: 'renewal' }, result: { threads: [] }, status: 'ok' }],
  final_answer: 'Dear Ana, ...',
  rationale: 'Read the thread.',
  agent_model: 'openai/gpt-4.1',
  agent_model_file_name: 'openai_gpt-4.1',
  agent_model_kind: 'llm',
  scenario_id: 's',
  task_file: 'tasks/email_reply/nw_email_1.json',
  outcome: { kind: 'answered', via: 'json' },
  usage: emptyUsage(),
  turns: 2,
  trace_id: 't',
  started_at: '2026-01-01T00:00:00.000Z',
  duration_ms: 1,
  answer_requirements: ['Answers the question.'],
  checks: [{ must_mention: ['Ana'] }],
  tool_trace: [{ step: 1, tool_name: 'Gmail.SearchThreads', arguments: { subject: 'renewal' }, result: { threads: [] } }],
  judge_model: 'judge-model',
  judge_model_file_name: 'judge-model',
}

const SCRIPTED_SCORES = JSON.stringify({
  answer_requirements_satisfaction: { score: 4, justification: 'scripted: mostly meets the requirements' },
  source_grounded_reasoning: { score: 3, justification: 'scripted: partly grounded' },
})

async function judgeWith(script: Script, maxAttempts?: number) {
  const server = await startScriptedServer(script)
  const model = createModel('judge-model', {
    env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' },
    callLogDir: mkdtempSync(join(tmpdir(), 'judge-log-')),
    cache: { mode: 'off' },
    maxRetries: 0,
  })
  const judge = createLlmJudge({ model, systemPrompt: JUDGE_PROMPT, ...(maxAttempts === undefined ? {} : { maxAttempts }) })
  const outcome = await judge.judge(input)
  await server.close()
  return { outcome, requests: server.requests }
}

describe('parseJudgeReply', () => {
  it('accepts the two axes, also inside a json code fence', () => {
    expect(parseJudgeReply(SCRIPTED_SCORES).kind).toBe('ok')
    expect(parseJudgeReply(`\`\`\`json\n${SCRIPTED_SCORES}\n\`\`\``).kind).toBe('ok')
  })

  it('rejects extra keys, out-of-range and fractional scores, naming the path', () => {
    const bad = JSON.parse(SCRIPTED_SCORES)
    bad.answer_requirements_satisfaction.score = 7
    bad.source_grounded_reasoning.score = 2.5
    bad.verdict = 'ok'
    const parsed = parseJudgeReply(JSON.stringify(bad))
    expect(parsed.kind).toBe('invalid')
    if (parsed.kind !== 'invalid') return
    expect(parsed.problem).toContain('answer_requirements_satisfaction.score')
    expect(parsed.problem).toContain('source_grounded_reasoning.score')
    expect(parsed.problem).toContain('verdict')
  })
})

describe('LLM judge through the scripted server', () => {
  it('sends the judge prompt as system message and the upstream judge input fields as user message, no tools, no response_format', async () => {
    const { outcome, requests } = await judgeWith([scriptedText(SCRIPTED_SCORES)])
    expect(outcome).toMatchObject({ kind: 'scored', attempts: 1, scores: JSON.parse(SCRIPTED_SCORES) })
    expect(requests).toHaveLength(1)
    const body = requests[0]?.body
    expect(body?.tools).toBeUndefined()
    // As upstream's judge_runner.py: system and user message at temperature 0, no response_format.
    expect(Object.keys(body ?? {}).sort()).toEqual(['messages', 'model', 'temperature'])
    expect(body?.temperature).toBe(0)
    expect(body?.messages?.[0]).toEqual({ role: 'system', content: JUDGE_PROMPT })
    const sent = JSON.parse(String(body?.messages?.[1]?.content))
    expect(Object.keys(sent)).toEqual([...LLM_JUDGE_FIELDS])
    expect(sent).toMatchObject({ task_id: input.task_id, final_answer: input.final_answer, tool_trace: input.tool_trace })
    expect(JSON.stringify(sent)).not.toContain('openai/gpt-4.1')
  })

  it('retries an unparseable reply, feeding the problem back, then scores', async () => {
    const { outcome, requests } = await judgeWith([scriptedText('The answer looks fine, I would give it a 4.'), scriptedText(SCRIPTED_SCORES)])
    expect(outcome).toMatchObject({ kind: 'scored', attempts: 2 })
    const retry = requests[1]?.body.messages ?? []
    expect(retry.at(-2)).toMatchObject({ role: 'assistant', content: 'The answer looks fine, I would give it a 4.' })
    expect(String(retry.at(-1)?.content)).toContain('not JSON')
  })

  it('feeds the zod error back when the JSON has the wrong shape', async () => {
    const { requests } = await judgeWith([
      scriptedText(JSON.stringify({ answer_requirements_satisfaction: { score: 9, justification: 'x' } })),
      scriptedText(SCRIPTED_SCORES),
    ])
    const feedback = String(requests[1]?.body.messages?.at(-1)?.content)
    expect(feedback).toContain('answer_requirements_satisfaction.score')
    expect(feedback).toContain('source_grounded_reasoning')
  })

  it('reports a judge error, never a score, when every attempt is unusable', async () => {
    const { outcome, requests } = await judgeWith([scriptedText('no'), scriptedText('{"score": 5}')], 2)
    expect(requests).toHaveLength(2)
    expect(outcome).toMatchObject({ kind: 'judge-error', code: 'ERR_JUDGE_REPLY', attempts: 2, replies: ['no', '{"score": 5}'] })
    expect(outcome).not.toHaveProperty('scores')
  })

  it('reports a model failure as a judge error', async () => {
    const { outcome } = await judgeWith([scriptedError(400, { body: { error: { message: 'scripted bad request' } } })])
    expect(outcome.kind).toBe('judge-error')
    if (outcome.kind === 'judge-error') expect(outcome.message).toContain('scripted bad request')
  })
})
