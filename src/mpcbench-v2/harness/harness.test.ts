import { describe, expect, it } from 'vitest'
import { createModel } from '../../llm/create-model.ts'
import { scriptedError, scriptedText, scriptedToolCalls, startScriptedServer } from '../../testing/scripted-server.ts'
import { calculateF1 } from '../scoring/metrics.ts'
import { formatResultsRow } from '../scoring/results-row.ts'
import { createSchedulingTools } from '../tools/scheduling-tools.ts'
import { parseAnswer } from './parse-answer.ts'
import { buildUserPrompt } from './prompts.ts'
import { isReasoningModel, runSchedulingAgent } from './run-scheduling-agent.ts'

// Expected values were computed by upstream's own OpenAIAgent._parse_response, _build_user_prompt and
// metrics.calculate_f1 (e398410) under CPython 3.11.

describe("upstream's answer parser", () => {
  it.each([
    ['text ```json\n{"candidates": [{"start": "a", "end": "b"},]}\n``` done', [['a', 'b']]],
    [
      '{"candidates": [{"start": "a", "end": "b", "room_id": null}, {"start": 1, "end": true, "room_id": 7}, {"start": "", "end": "x"}, "no"]}',
      [
        ['a', 'b'],
        ['1', 'True', '7'],
      ],
    ],
    ['no json', []],
    ['{"candidates": {}}', []],
    ['{a} and {"candidates": []}', []],
    ['[{"candidates": 1}]', []],
  ])('%j', (content, expected) => {
    expect(parseAnswer(content)).toEqual(expected)
  })
})

describe("upstream's user prompt", () => {
  it('lists the references as Python prints them and None for no participants', () => {
    const prompt = buildUserPrompt('T', { sources_ref: { policy_doc_id: 'D', comm_thread_ids: ['t1', "it's"] }, slots: { participants: [] } })
    expect(prompt).toContain(
      "## Task\nT\n\n## Available References\npolicy_doc_id: D\ncomm_thread_ids: ['t1', \"it's\"]\n\n## Participants\nNone\n\n## Instructions\n",
    )
    expect(prompt.endsWith('Ensure all datetime strings include timezone offset (e.g., +09:00).')).toBe(true)
  })
})

describe("upstream's metrics", () => {
  it('scores sets: duplicates and order ignored, an empty gold list gives 0', () => {
    expect(
      calculateF1(
        [['a', 'b']],
        [
          ['a', 'b'],
          ['a', 'b'],
          ['c', 'd'],
        ],
      ),
    ).toEqual({ f1: 0.6666666666666666, precision: 0.5, recall: 1, exact_match: false })
    expect(calculateF1([], [['a', 'b']])).toEqual({ f1: 0, precision: 0, recall: 0, exact_match: false })
    expect(calculateF1([], [])).toEqual({ f1: 1, precision: 1, recall: 1, exact_match: true })
    expect(calculateF1([['a', 'b', 'r1']], [['a', 'b']]).exact_match).toBe(false)
  })

  it('writes rows as Python does, metrics as floats and no trace key when the agent never ran', () => {
    expect(
      formatResultsRow({ instance_id: 'i', metrics: { f1: 1, precision: 1, recall: 1, exact_match: true }, pred: [], gold: [], error: null, trace: [] }),
    ).toBe(
      '{"instance_id": "i", "metrics": {"f1": 1.0, "precision": 1.0, "recall": 1.0, "exact_match": true}, "pred": [], "gold": [], "error": null, "trace": []}',
    )
    expect(formatResultsRow({ instance_id: 'i', metrics: null, pred: null, gold: null, error: 'boom' })).toBe(
      '{"instance_id": "i", "metrics": null, "pred": null, "gold": null, "error": "boom"}',
    )
  })
})

describe('runSchedulingAgent', () => {
  const world = { sources: { calendar_json: { p: [] } } }
  const instance = { task_text: 'Schedule', slots: { participants: ['p'] }, sources_ref: {} }
  const tools = createSchedulingTools({ world, instance })
  const answer = '```json\n{"candidates": [{"start": "2026-01-19T09:00:00+09:00", "end": "2026-01-19T09:30:00+09:00"}]}\n```'

  it('asks again after a reply it cannot read, and sends reasoning models no temperature and 16384 completion tokens', async () => {
    await using server = await startScriptedServer([
      scriptedToolCalls([{ name: 'get_calendar_events', arguments: '{"person_id": "p"}' }]),
      scriptedText('thinking, no JSON yet'),
      scriptedText(answer),
    ])
    const model = createModel('o4-mini', { env: { OPENAI_BASE_URL: server.baseURL }, cache: { mode: 'off' }, callLogDir: false, maxRetries: 0 })
    const run = await runSchedulingAgent({ model, instance, tools })
    expect(run.outcome).toEqual({ kind: 'answered', turns: 3 })
    expect(run.candidates).toEqual([['2026-01-19T09:00:00+09:00', '2026-01-19T09:30:00+09:00']])
    expect(server.requests).toHaveLength(3)
    expect(server.requests[0]?.body).toMatchObject({ max_completion_tokens: 16384 })
    expect(server.requests[0]?.body).not.toHaveProperty('temperature')
    expect(server.requests[1]?.body.messages?.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_scripted_0_0', content: '{"person_id": "p", "events": []}' })
    // The unreadable reply is kept and the model is asked again with no new user message.
    expect(server.requests[2]?.body.messages?.at(-1)).toEqual({ role: 'assistant', content: 'thinking, no JSON yet' })
  })

  it('stops after 15 requests, and ends with no candidates when a model call fails', async () => {
    await using server = await startScriptedServer(() => scriptedText('no answer'))
    const model = createModel('gpt-4o', { env: { OPENAI_BASE_URL: server.baseURL }, cache: { mode: 'off' }, callLogDir: false, maxRetries: 0 })
    const run = await runSchedulingAgent({ model, instance, tools })
    expect(run.outcome).toEqual({ kind: 'max-turns', turns: 15 })
    expect(server.requests).toHaveLength(15)
    expect(server.requests[0]?.body).toMatchObject({ max_tokens: 4096, temperature: 0 })
    await using failing = await startScriptedServer([scriptedError(400)])
    const broken = createModel('gpt-4o', { env: { OPENAI_BASE_URL: failing.baseURL }, cache: { mode: 'off' }, callLogDir: false, maxRetries: 0 })
    const failed = await runSchedulingAgent({ model: broken, instance, tools })
    expect(failed.outcome.kind).toBe('model-error')
    expect(failed.candidates).toEqual([])
  })

  it('knows the reasoning models upstream names', () => {
    expect(['gpt-5', 'gpt-5-mini', 'o1', 'o3-mini', 'o4-mini'].every(isReasoningModel)).toBe(true)
    expect(['gpt-4o', 'gpt-4.1'].some(isReasoningModel)).toBe(false)
  })
})
