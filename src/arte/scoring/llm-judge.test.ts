import { describe, expect, it } from 'vitest'
import { createModel } from '../../llm/create-model.ts'
import { scriptedError, scriptedText, startScriptedServer } from '../../testing/scripted-server.ts'
import { ARTE_JUDGE_SYSTEM_PROMPT, ArteJudgmentSchema, JUDGE_REPLY_CODE, arteJudgeUserMessage, judgeArteAnswer, parseJudgeVerdict } from './llm-judge.ts'
import { scaledMs } from '../../testing/time-scale.ts'

function judgeFor(baseURL: string) {
  return createModel('scripted-judge', { env: { OPENAI_BASE_URL: baseURL }, cache: { mode: 'off' }, callLogDir: false, maxRetries: 0 })
}

const input = { question: 'Which room is the budget review in?', groundTruth: 'Room 4B', answer: 'room 4b' }

describe('parseJudgeVerdict', () => {
  it('reads True and False in any case, with whitespace, quotes or a final period around', () => {
    for (const reply of ['True', 'true', ' TRUE\n', 'True.', '"True"', '**True**']) expect(parseJudgeVerdict(reply), reply).toBe(true)
    for (const reply of ['False', 'false.', " 'False' "]) expect(parseJudgeVerdict(reply), reply).toBe(false)
  })

  it('reads anything else as no verdict (OpenPipe would read "Totally wrong" as True and "Maybe" as False)', () => {
    for (const reply of ['', 'Maybe', 'Totally wrong', 'True or False', 'Yes', 'T', 'The answer is True'])
      expect(parseJudgeVerdict(reply), reply).toBeUndefined()
  })

  // The first word, after markdown or quote marks, when it is exactly True or False and then ends, or is followed by
  // whitespace or punctuation: a verdict with an explanation reads as the verdict, both ways.
  it.each([
    ['True, the answer matches.', true],
    ['False. The answer leaves out the street.', false],
    ['False, because the date differs.', false],
    ['True\n\nExplanation: both name the same room.', true],
    ['TRUE.', true],
    ['false.', false],
    ['True!', true],
    ['**False**.', false],
    ['*True.*', true],
    ['True**.**', true],
    ['`True`', true],
    ["'False'", false],
    ['> True', true],
    ['\u201CFalse\u201D', false],
    ['Trueish', undefined],
    ['Falsely, no', undefined],
    ['True5', undefined],
    ['Fals', undefined],
    ['.True', undefined],
    ['Answer: True', undefined],
    ['<think>It matches.</think>\nTrue', undefined],
    ['True/False', undefined],
    ["I'm sorry, I can't help with that.", undefined],
  ] as const)('reads %j as %s', (reply, verdict) => {
    expect(parseJudgeVerdict(reply)).toBe(verdict)
  })
})

describe('judgeArteAnswer (openai client, scripted server)', () => {
  it("sends OpenPipe's prompt at temperature 0 and returns the verdict with the judge's usage", async () => {
    await using server = await startScriptedServer([scriptedText('True', { usage: { prompt_tokens: 80, completion_tokens: 1 } })])
    const judgment = await judgeArteAnswer(judgeFor(server.baseURL), input)
    expect(judgment).toEqual({ model: 'scripted-judge', correct: true, usage: expect.objectContaining({ promptTokens: 80, completionTokens: 1, calls: 1 }) })
    expect(ArteJudgmentSchema.parse(judgment)).toEqual(judgment)
    const body = server.requests[0]!.body
    expect(body).toMatchObject({ model: 'scripted-judge', temperature: 0 })
    expect(body.tools).toBeUndefined()
    expect(body.messages).toEqual([
      { role: 'system', content: ARTE_JUDGE_SYSTEM_PROMPT },
      { role: 'user', content: 'Question: Which room is the budget review in?\nCorrect answer: Room 4B\nAI answer: room 4b' },
    ])
    expect(arteJudgeUserMessage('q', 'a', 'b')).toBe('Question: q\nCorrect answer: a\nAI answer: b')
  })

  it('a reply that is neither True nor False is a judge error, not a wrong answer', async () => {
    await using server = await startScriptedServer([scriptedText('Maybe'), scriptedText('False')])
    const judge = judgeFor(server.baseURL)
    const unusable = await judgeArteAnswer(judge, input)
    expect(unusable.correct).toBeUndefined()
    expect(unusable.error).toEqual({ code: JUDGE_REPLY_CODE, message: 'The judge replied "Maybe", neither True nor False.' })
    expect(unusable.usage.calls).toBe(1)
    expect(await judgeArteAnswer(judge, input)).toMatchObject({ correct: false })
    expect(server.requests).toHaveLength(2)
  })

  it("a failed call is a judge error with the client's code", async () => {
    await using server = await startScriptedServer([scriptedError(500)])
    const judgment = await judgeArteAnswer(judgeFor(server.baseURL), input)
    expect(judgment.correct).toBeUndefined()
    expect(judgment.error?.code).toMatch(/^ERR_/)
    expect(judgment.usage.calls).toBe(0)
  })

  it('makes no call for a run without an answer nor for "I don\'t know", which are not correct', async () => {
    await using server = await startScriptedServer([])
    const judge = judgeFor(server.baseURL)
    expect(await judgeArteAnswer(judge, { ...input, answer: undefined })).toMatchObject({ correct: false, usage: { calls: 0 } })
    expect(await judgeArteAnswer(judge, { ...input, answer: "I don't know" })).toMatchObject({ correct: false, usage: { calls: 0 } })
    expect(server.requests).toHaveLength(0)
  })

  it('stops at a cancelled signal: a judge error ERR_ABORTED, and no request when it was cancelled before', async () => {
    await using server = await startScriptedServer([scriptedText('True', { delayMs: 600_000 })])
    const judge = judgeFor(server.baseURL)
    const before = new AbortController()
    before.abort(new Error('cancelled'))
    expect(await judgeArteAnswer(judge, input, { signal: before.signal })).toMatchObject({ error: { code: 'ERR_ABORTED' } })
    expect(server.requests).toHaveLength(0)
    const during = new AbortController()
    const started = Date.now()
    const pending = judgeArteAnswer(judge, input, { signal: during.signal })
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    during.abort(new Error('cancelled'))
    expect(await pending).toMatchObject({ error: { code: 'ERR_ABORTED' } })
    expect(Date.now() - started).toBeLessThan(scaledMs(10_000))
  })

  it('a call cut off by the deadline (the test timeout) names that limit, not BENCH_LLM_TIMEOUT_MS', async () => {
    await using server = await startScriptedServer([scriptedText('True', { delayMs: 600_000 })])
    const judgment = await judgeArteAnswer(judgeFor(server.baseURL), input, { deadline: Date.now() + 1_500 })
    expect(judgment.error?.code).toBe('ERR_MODEL_TIMEOUT')
    expect(judgment.error?.message).toMatch(/^The judge call to scripted-judge was cut off by the test timeout .*not by BENCH_LLM_TIMEOUT_MS/)
    expect(judgment.error?.message).toContain("Fix: Raise the test timeout (BENCH_TEST_TIMEOUT_MS; Vitest's testTimeout, --testTimeout in your own config)")
    expect(judgment.error?.message).not.toContain('Raise the timeout (BENCH_LLM_TIMEOUT_MS)')
  })
})
