import { describe, expect, it } from 'vitest'
import type { AgentTrace } from '../../agent/trace.ts'
import {
  type PythonJsonValue,
  type UpstreamFinalAnswer,
  readPythonJson,
  runLogText,
  upstreamFinalAnswer,
  upstreamValueJson,
  withUpstreamFinalAnswer,
} from './final-answer.ts'
import { PythonNumber } from '../../core/python-format.ts'

const F = '```'
const json = (finalAnswer: PythonJsonValue, rationale: PythonJsonValue = ''): UpstreamFinalAnswer => ({ kind: 'json', final_answer: finalAnswer, rationale })
const text = (reply: string): UpstreamFinalAnswer => ({ kind: 'text', final_answer: reply, rationale: '' })
const crash = (error: string) => ({ kind: 'crash', error })

const ones = (n: number) => Array.from({ length: n }, () => 1)
const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]))

// Every expected value is what upstream's own code (evaluation/openai_agent_runner.py lines 575-610 at eb0b7ca, run
// verbatim under Python 3.11) put in its run log for the reply, or the exception it raised.
const CASES: ReadonlyArray<readonly [string, string, unknown]> = [
  // The auditor's replies.
  [
    'prose before a json fence',
    `Here is the result:\n${F}json\n{"final_answer":"Meet Tue 10:00","rationale":"calendar free"}\n${F}`,
    text(`Here is the result:\n${F}json\n{"final_answer":"Meet Tue 10:00","rationale":"calendar free"}\n${F}`),
  ],
  [
    'prose after the closing fence',
    `${F}json\n{"final_answer":"Meet Tue 10:00","rationale":"calendar free"}\n${F}\nLet me know if you need anything else.`,
    text(`${F}json\n{"final_answer":"Meet Tue 10:00","rationale":"calendar free"}\n${F}\nLet me know if you need anything else.`),
  ],
  ['`answer` instead of `final_answer`', '{"answer":"Meet Tue 10:00","rationale":"x"}', json('', 'x')],
  [
    'an object answer and a list rationale',
    '{"final_answer":{"slot":"Tue 10:00","attendees":["a"]},"rationale":["step 1","step 2"]}',
    json({ slot: 'Tue 10:00', attendees: ['a'] }, ['step 1', 'step 2']),
  ],
  ['a null answer', '{"final_answer":null,"rationale":"x"}', json(null, 'x')],
  // Stripping and fences.
  ['spaces around bare JSON', '  {"final_answer": "A", "rationale": "B"}  ', json('A', 'B')],
  ['plain text, kept unstripped', 'Plain text answer, no JSON.\n', text('Plain text answer, no JSON.\n')],
  ['a json fence', `${F}json\n{"final_answer":"A","rationale":"B"}\n${F}`, json('A', 'B')],
  ['a bare fence', `${F}\n{"final_answer":"A"}\n${F}`, json('A')],
  ['any fence label', `${F}JSON\n{"final_answer":"A"}\n${F}`, json('A')],
  ['no closing fence', `${F}json\n{"final_answer":"A"}`, json('A')],
  ['words after the closing fence on its line', `${F}json\n{"final_answer":"A"}\n${F} trailing words`, json('A')],
  ['CRLF lines', `${F}json\r\n{"final_answer":"A"}\r\n${F}`, json('A')],
  ['whitespace around a fence', ` \n${F}json\n{"final_answer":"A"}\n${F}\n `, json('A')],
  ['an empty fence', `${F}\n${F}`, text(`${F}\n${F}`)],
  ['a tilde fence', '~~~json\n{"final_answer":"A"}\n~~~', text('~~~json\n{"final_answer":"A"}\n~~~')],
  ['a one-line fence', `${F}json {"final_answer":"A"}${F}`, crash('IndexError')],
  ['only a fence', F, crash('IndexError')],
  // Python's str.strip and json.loads.
  ['a leading BOM (not stripped, rejected by json.loads)', '\ufeff{"final_answer":"A"}', text('\ufeff{"final_answer":"A"}')],
  ['\\x1c and \\x85 around JSON (stripped by Python)', '\x1c{"final_answer":"A"}\x85', json('A')],
  ['ideographic and no-break spaces', '\u3000{"final_answer":"A"}\u00a0', json('A')],
  ['vertical tab and form feed', '\v{"final_answer":"A"}\f', json('A')],
  ['extra data after JSON', '{"final_answer":"A"} extra', text('{"final_answer":"A"} extra')],
  ['an empty reply', '', text('')],
  ['a duplicate key', '{"final_answer":"A","final_answer":"B"}', json('B')],
  ['a trailing comma', '{"final_answer":"A", }', text('{"final_answer":"A", }')],
  ['prose before bare JSON', 'Sure!\n{"final_answer":"A"}', text('Sure!\n{"final_answer":"A"}')],
  ['only a rationale', '{"rationale":"only"}', json('', 'only')],
  ["an empty object (upstream's fallback never applies)", '{}', json('', '')],
  [
    'escapes and nested values',
    '{"final_answer":"R\\u00e9union \\ud83d\\ude00","rationale":{"steps":[1,2],"ok":true,"none":null}}',
    json('Réunion 😀', { steps: [1, 2], ok: true, none: null }),
  ],
  ['empty list and object', '{"final_answer":[],"rationale":{}}', json([], {})],
  ['a raw tab inside a string', '{"final_answer":"A\tB"}', text('{"final_answer":"A\tB"}')],
  ['JSON whitespace between tokens', '{"final_answer" : "A" ,\n "rationale" :\t"B"\r\n}', json('A', 'B')],
  ['single quotes', "{'final_answer':'A'}", text("{'final_answer':'A'}")],
  ['a leading zero', '{"final_answer":01}', text('{"final_answer":01}')],
  ['NaN rationale', '{"final_answer":"x","rationale":NaN}', json('x', Number.NaN)],
  ['-Infinity rationale', '{"final_answer":"A","rationale":-Infinity}', json('A', Number.NEGATIVE_INFINITY)],
  ['an exponent rationale (a float in Python)', '{"final_answer":"A","rationale":1E+2}', json('A', new PythonNumber(100, '100.0'))],
  ['a 45.0 rationale', '{"final_answer":"A","rationale":45.0}', json('A', new PythonNumber(45, '45.0'))],
  ['an integer beyond 2^53, exact', '{"final_answer":"A","rationale":9007199254740993}', json('A', new PythonNumber(9007199254740992, '9007199254740993'))],
  [
    'a 45.0 inside an object answer',
    '{"final_answer":{"duration_minutes":45.0},"rationale":null}',
    json({ duration_minutes: new PythonNumber(45, '45.0') }, null),
  ],
  ['a __proto__ key', '{"final_answer":"A","__proto__":{"x":1},"rationale":"r"}', json('A', 'r')],
  ['an answer with its own spaces', '{"final_answer":" padded "}', json(' padded ')],
  ['a 200-character answer', `{"final_answer":"${'x'.repeat(200)}"}`, json('x'.repeat(200))],
  // Not an object: `.get` raises.
  ['a JSON list', '[1, 2]', crash('AttributeError')],
  ['a JSON string', '"just a string"', crash('AttributeError')],
  ['JSON null', 'null', crash('AttributeError')],
  ['a JSON number', '42', crash('AttributeError')],
  ['a JSON float', '45.0', crash('AttributeError')],
  // The answer preview of line 599.
  ['a number answer', '{"final_answer":42}', crash('TypeError')],
  ['a float answer', '{"final_answer":1.5}', crash('TypeError')],
  ['a 45.0 answer', '{"final_answer":45.0}', crash('TypeError')],
  ['a true answer', '{"final_answer":true}', crash('TypeError')],
  ['an Infinity answer', '{"final_answer":Infinity}', crash('TypeError')],
  ['a NaN answer', '{"final_answer":NaN}', crash('TypeError')],
  ['an answer of 1e400', '{"final_answer":1e400}', crash('TypeError')],
  ['a zero answer', '{"final_answer":0,"rationale":"r"}', json(0, 'r')],
  ['a 0.0 answer (falsy, so no preview)', '{"final_answer":0.0}', json(new PythonNumber(0, '0.0'))],
  ['-0 (an int in Python)', '{"final_answer":-0}', json(0)],
  ['a false answer', '{"final_answer":false}', json(false)],
  ['a list of 121 items', `{"final_answer":[${ones(121).join(',')}]}`, crash('TypeError')],
  ['a list of 120 items', `{"final_answer":[${ones(120).join(',')}]}`, json(ones(120))],
  ['an object of 121 keys', JSON.stringify({ final_answer: keys(121) }), crash('TypeError')],
  ['an object of 120 keys', JSON.stringify({ final_answer: keys(120) }), json(keys(120))],
]

describe('upstreamFinalAnswer', () => {
  it.each(CASES)('%s', (_name, reply, expected) => {
    const read = upstreamFinalAnswer(reply)
    expect(read.kind === 'crash' ? { kind: 'crash', error: read.error } : read).toEqual(expected)
  })

  it("hits Python's recursion limit on JSON nested about a thousand deep", () => {
    const nested = (n: number) => `{"final_answer":"a","rationale":${'['.repeat(n)}${']'.repeat(n)}}`
    expect(upstreamFinalAnswer(nested(980))).toMatchObject({ kind: 'json', final_answer: 'a' })
    expect(upstreamFinalAnswer(nested(1000))).toMatchObject({ kind: 'crash', error: 'RecursionError' })
  })
})

describe('runLogText', () => {
  it("keeps strings, writes null as no answer and other values as the indented JSON upstream's judge reads", () => {
    expect(runLogText(' Meet Tue 10:00 ')).toBe(' Meet Tue 10:00 ')
    expect(runLogText(null)).toBe('')
    expect(runLogText(false)).toBe('false')
    expect(runLogText(0)).toBe('0')
    expect(runLogText(['step 1', 'step 2'])).toBe('[\n  "step 1",\n  "step 2"\n]')
    expect(runLogText({ minutes: new PythonNumber(45, '45.0') })).toBe('{\n  "minutes": 45.0\n}')
    expect(runLogText({ slot: 'Tue 10:00', attendees: ['a'], notes: {}, none: null, ratio: Number.NaN, big: Number.POSITIVE_INFINITY })).toBe(
      '{\n  "slot": "Tue 10:00",\n  "attendees": [\n    "a"\n  ],\n  "notes": {},\n  "none": null,\n  "ratio": NaN,\n  "big": Infinity\n}',
    )
  })
})

describe('upstreamValueJson and readPythonJson', () => {
  it("write a value that is not a string as Python's json.dumps, which reads back to the same value", () => {
    const reply = '{"final_answer": {"slots": ["Mon 09:00"], "duration_minutes": 45.0, "big": 9007199254740993}, "rationale": null}'
    const read = upstreamFinalAnswer(reply)
    if (read.kind !== 'json') throw new Error('expected a JSON reading')
    const text = upstreamValueJson(read.final_answer)
    expect(text).toBe('{"slots": ["Mon 09:00"], "duration_minutes": 45.0, "big": 9007199254740993}')
    expect(readPythonJson(text ?? '')).toEqual(read.final_answer)
    expect(upstreamValueJson(read.rationale)).toBe('null')
    expect(upstreamValueJson('a string')).toBeUndefined()
  })

  it("is undefined where Python's json.loads raises", () => {
    expect(readPythonJson('{"a": 1,}')).toBeUndefined()
    expect(readPythonJson('')).toBeUndefined()
    expect(readPythonJson('NaN')).toBeNaN()
  })
})

function answeredTrace(reply: string | null, via: 'json' | 'text' | 'final-tool' = 'text'): AgentTrace {
  return {
    traceId: 't1',
    model: 'scripted/agent',
    modelKind: 'llm',
    messages: [
      { role: 'system', content: 'system' },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: reply },
    ],
    toolCalls: [],
    outcome: { kind: 'answered', answer: 'our reading', sources: ['m1'], rationale: 'ours', via },
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 1 },
    turns: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 5,
  }
}

describe('withUpstreamFinalAnswer', () => {
  it("replaces the answer of a plain final reply by upstream's reading", () => {
    const reply = `Here is the result:\n${F}json\n{"final_answer":"Meet Tue 10:00","rationale":"calendar free"}\n${F}`
    expect(withUpstreamFinalAnswer(answeredTrace(reply, 'json')).outcome).toEqual({ kind: 'answered', answer: reply, sources: [], rationale: '', via: 'text' })
    expect(withUpstreamFinalAnswer(answeredTrace('{"final_answer":{"slot":"Tue"},"rationale":["a"]}')).outcome).toEqual({
      kind: 'answered',
      answer: '{\n  "slot": "Tue"\n}',
      sources: [],
      rationale: '[\n  "a"\n]',
      via: 'json',
    })
    expect(withUpstreamFinalAnswer(answeredTrace(null)).outcome).toEqual({ kind: 'answered', answer: '', sources: [], rationale: '', via: 'text' })
  })

  it("keeps upstream's values that are not strings as JSON text, for the LLM judge", () => {
    expect(withUpstreamFinalAnswer(answeredTrace('{"final_answer":{"slot":"Tue","minutes":45.0},"rationale":["a"]}')).upstreamJson).toEqual({
      final_answer: '{"slot": "Tue", "minutes": 45.0}',
      rationale: '["a"]',
    })
    const nullAnswer = withUpstreamFinalAnswer(answeredTrace('{"final_answer":null,"rationale":"r"}'))
    expect(nullAnswer.outcome).toMatchObject({ answer: '', rationale: 'r' })
    expect(nullAnswer.upstreamJson).toEqual({ final_answer: 'null' })
    expect(withUpstreamFinalAnswer(answeredTrace('{"final_answer":"A","rationale":"B"}'))).not.toHaveProperty('upstreamJson')
    expect(withUpstreamFinalAnswer(answeredTrace('plain text'))).not.toHaveProperty('upstreamJson')
  })

  it('turns a reply upstream crashes on into an error outcome', () => {
    const outcome = withUpstreamFinalAnswer(answeredTrace('[1, 2]', 'text')).outcome
    expect(outcome).toMatchObject({ kind: 'error', code: 'ERR_MPCBENCH_FINAL_ANSWER' })
    expect(outcome.kind === 'error' ? outcome.message : '').toContain('AttributeError')
  })

  it('keeps other outcomes and final-tool answers', () => {
    const viaTool = answeredTrace('{"final_answer":"x"}', 'final-tool')
    expect(withUpstreamFinalAnswer(viaTool)).toBe(viaTool)
    const maxTurns: AgentTrace = { ...answeredTrace('{"final_answer":"x"}'), outcome: { kind: 'max-turns', maxTurns: 3 } }
    expect(withUpstreamFinalAnswer(maxTurns)).toBe(maxTurns)
  })
})
