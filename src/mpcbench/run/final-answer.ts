import { redact } from '../../core/redact.ts'
import type { AgentTrace } from '../../agent/trace.ts'
import { PythonNumber, pyJsonDumps, pyJsonDumpsIndented, pyNumberFromLiteral } from '../../core/python-format.ts'

/**
 * A JSON value as Python's `json.loads` returns it: like JSON, plus the `NaN`, `Infinity` and `-Infinity` literals,
 * and a number a JavaScript number would not write back as Python does (`45.0`) as a {@link PythonNumber}.
 */
export type PythonJsonValue = null | boolean | number | PythonNumber | string | PythonJsonValue[] | { [key: string]: PythonJsonValue }

/** The Python exception upstream's runner stops with on a reply (see {@link upstreamFinalAnswer}). */
export type UpstreamCrash = 'IndexError' | 'AttributeError' | 'TypeError' | 'RecursionError'

/**
 * What upstream MPCBench makes of the agent's final reply:
 * - `json`: the reply (stripped, one leading code fence removed) is a JSON object; its `final_answer` and `rationale`
 *   (`""` when missing), kept as they are (an object, a list, `null`, a number...);
 * - `text`: the reply is not JSON; `final_answer` is the reply exactly as sent (not stripped), `rationale` is `""`;
 * - `crash`: upstream's runner raises on this reply and writes no run log for the task.
 */
export type UpstreamFinalAnswer =
  | { kind: 'json'; final_answer: PythonJsonValue; rationale: PythonJsonValue }
  | { kind: 'text'; final_answer: string; rationale: '' }
  | { kind: 'crash'; error: UpstreamCrash; message: string }

/** The characters Python's `str.strip()` removes (`str.isspace()`): unlike `String.prototype.trim`, \x1c-\x1f and \x85 but not U+FEFF. */
const PY_STRIP =
  /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g

const FENCE = '```'
/** Upstream logs a preview of the answer, `final_answer[:120] + "..."` when `len(final_answer) > 120`. */
const PREVIEW_CHARS = 120
/** About Python's default recursion limit (1000), which `json.loads` of deeply nested JSON hits (approximate: it counts the caller's frames too). */
const MAX_PYTHON_JSON_DEPTH = 990

/**
 * Reads the agent's final reply (a reply without tool calls) as upstream MPCBench does:
 * `evaluation/openai_agent_runner.py` lines 575-610 at commit eb0b7ca (SeokwonJung-Jay/MPCBench), i.e.
 * `content.strip()`; if that starts with three backticks, drop its first line and, if the last remaining line starts
 * with three backticks, that one too (any fence label, only at the start: prose before a fence, or after the closing
 * fence on its own line, leaves plain text); `json.loads`; then `parsed.get("final_answer", "")` and
 * `parsed.get("rationale", "")`, or on `JSONDecodeError` the unstripped reply and `""`.
 *
 * Upstream's crashes are `crash`: a reply starting with a fence but without a newline (`IndexError`), JSON that is not an
 * object (`AttributeError` on `.get`), and the answer preview of line 599 on a truthy number or `true`, or on a list or
 * object of over 120 items (`TypeError`; an object gives `KeyError` on Python 3.12+). Its fallback of lines 606-610
 * never applies (the final reply is not appended to `messages`, so `messages[-1]` is never an assistant message), so
 * `{}` or `{"answer": ...}` give `""` and `""`.
 *
 * Numbers are read as Python reads them ({@link pyNumberFromLiteral}: `45.0` and `1E+2` stay floats, big integers exact).
 * Not reproduced: the key order of objects with integer-like keys (JavaScript puts them first), the exact nesting depth
 * of the `RecursionError` (about 1000), the `ValueError` of an integer of over 4300 digits, and the
 * `UnicodeEncodeError` upstream hits when the log it writes holds a lone surrogate.
 */
export function upstreamFinalAnswer(content: string): UpstreamFinalAnswer {
  let clean = content.replace(PY_STRIP, '')
  if (clean.startsWith(FENCE)) {
    const lines = clean.split('\n').slice(1)
    const last = lines.at(-1)
    if (last === undefined)
      return { kind: 'crash', error: 'IndexError', message: 'list index out of range (the reply starts with a code fence and has no newline)' }
    clean = (last.startsWith(FENCE) ? lines.slice(0, -1) : lines).join('\n')
  }
  let parsed: PythonJsonValue
  try {
    parsed = parsePythonJson(clean)
  } catch (error) {
    if (error instanceof PythonRecursionError) return { kind: 'crash', error: 'RecursionError', message: error.message }
    if (error instanceof PythonJsonDecodeError) return { kind: 'text', final_answer: content, rationale: '' }
    throw error
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || parsed instanceof PythonNumber) {
    return {
      kind: 'crash',
      error: 'AttributeError',
      message: `'${pythonTypeName(parsed)}' object has no attribute 'get' (the reply is JSON but not an object)`,
    }
  }
  const finalAnswer = Object.hasOwn(parsed, 'final_answer') ? (parsed.final_answer as PythonJsonValue) : ''
  const rationale = Object.hasOwn(parsed, 'rationale') ? (parsed.rationale as PythonJsonValue) : ''
  const previewCrash = previewError(finalAnswer)
  if (previewCrash !== undefined) return { kind: 'crash', error: 'TypeError', message: previewCrash }
  return { kind: 'json', final_answer: finalAnswer, rationale }
}

/** Why upstream's `final_answer[:120] + "..." if final_answer and len(final_answer) > 120` raises on this value, if it does. */
function previewError(value: PythonJsonValue): string | undefined {
  const number = value instanceof PythonNumber ? value.value : value
  if (value === true || (typeof number === 'number' && number !== 0))
    return `object of type '${pythonTypeName(value)}' has no len() (final_answer is a number or true)`
  if (Array.isArray(value) && value.length > PREVIEW_CHARS) return 'can only concatenate list (not "str") to list (final_answer is a list of over 120 items)'
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof PythonNumber) && Object.keys(value).length > PREVIEW_CHARS) {
    return "unhashable type: 'slice' (final_answer is an object of over 120 keys)"
  }
  return undefined
}

function pythonTypeName(value: PythonJsonValue): string {
  if (value === null) return 'NoneType'
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'string') return 'str'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float'
  if (value instanceof PythonNumber) return value.isFloat ? 'float' : 'int'
  return 'dict'
}

/**
 * An upstream `final_answer` or `rationale` as our run log's string fields hold it: a string as it is, `null` as `""`
 * (no answer), anything else as the JSON text upstream's judge reads (its judge input is `json.dumps(indent=2)` of the
 * run log, so the value appears there as indented JSON; `45.0`, `NaN` and `Infinity` as Python writes them).
 */
export function runLogText(value: PythonJsonValue): string {
  if (typeof value === 'string') return value
  if (value === null) return ''
  return pyJsonDumpsIndented(value)
}

/**
 * An upstream `final_answer` or `rationale` that is not a string as Python's `json.dumps(value, ensure_ascii=False)`
 * writes it (`null`, `["a", "b"]`, `{"minutes": 45.0}`), which {@link readPythonJson} reads back to the same value;
 * `undefined` for a string. The run log keeps it beside our text form (`final_answer_json`, `rationale_json`), so the
 * LLM judge is shown the value upstream's judge is.
 */
export function upstreamValueJson(value: PythonJsonValue): string | undefined {
  return typeof value === 'string' ? undefined : pyJsonDumps(value)
}

/** What {@link withUpstreamFinalAnswer} returns: a trace, with the JSON text of upstream's values that are not strings. */
export interface UpstreamReadTrace extends AgentTrace {
  /** {@link upstreamValueJson} of upstream's `final_answer` and `rationale`, each only when it is not a string. */
  upstreamJson?: { final_answer?: string; rationale?: string }
}

/**
 * The trace of a run in our tool loop, its final reply read as upstream MPCBench reads it ({@link upstreamFinalAnswer}):
 * an answer from a plain reply (`json` or `text`) becomes upstream's `final_answer` and `rationale` ({@link runLogText}),
 * `via` saying which branch upstream took, and either of them that is not a string is also kept as JSON text
 * (`upstreamJson`, see {@link upstreamValueJson}); a reply upstream's runner crashes on becomes an `error` outcome
 * (`ERR_MPCBENCH_FINAL_ANSWER`), since upstream records no answer for it. Other outcomes (a `final` tool, max-turns,
 * error, abort) are kept.
 */
export function withUpstreamFinalAnswer(trace: AgentTrace): UpstreamReadTrace {
  if (trace.outcome.kind !== 'answered' || trace.outcome.via === 'final-tool') return trace
  const reply = trace.messages.at(-1)
  if (reply?.role !== 'assistant') return trace
  const content = typeof reply.content === 'string' ? reply.content : ''
  const read = upstreamFinalAnswer(content)
  if (read.kind === 'crash') {
    const excerpt = content.length > PREVIEW_CHARS ? `${content.slice(0, PREVIEW_CHARS)}...` : content
    return {
      ...trace,
      outcome: {
        kind: 'error',
        code: 'ERR_MPCBENCH_FINAL_ANSWER',
        message: redact(
          `Upstream MPCBench's agent runner stops with ${read.error} on this final reply (${read.message}) and records no answer; the reply began ${JSON.stringify(excerpt)}.`,
        ),
      },
    }
  }
  return withUpstreamValues(trace, read.final_answer, read.rationale, read.kind, [])
}

/**
 * The trace of an external agent's run (`runExternalAgent`), its `answer` read as upstream MPCBench reads a model's
 * final reply ({@link upstreamFinalAnswer}), so an agent that follows the benchmark's instructions ("Finish with a
 * single JSON object {"final_answer", "rationale"}") is scored as our own agent is: an `answer` that is such JSON (bare
 * or in a code fence) becomes upstream's `final_answer` and `rationale`, either kept as JSON text when it is not a
 * string (`upstreamJson`), `via` `json`. The reply's own `rationale` field, when the agent sent a non-empty one, wins
 * over the JSON's: the agent set it on purpose. Any other `answer` is kept as the agent sent it, with its `rationale`:
 * plain text, and an answer upstream's runner would crash on (JSON that is not an object, a code fence without a
 * newline), which is a string the agent gave as its answer, not a reply to recover one from. Other outcomes are kept.
 */
export function withUpstreamExternalAnswer(trace: AgentTrace): UpstreamReadTrace {
  if (trace.outcome.kind !== 'answered') return trace
  const read = upstreamFinalAnswer(trace.outcome.answer)
  if (read.kind !== 'json') return trace
  const sent = trace.outcome.rationale
  return withUpstreamValues(trace, read.final_answer, sent === null || sent === '' ? read.rationale : sent, 'json', trace.outcome.sources)
}

/** `trace` answered with upstream's `final_answer` and `rationale` ({@link runLogText}), those that are not strings also as JSON text (`upstreamJson`). */
function withUpstreamValues(
  trace: AgentTrace,
  finalAnswer: PythonJsonValue,
  rationale: PythonJsonValue,
  via: 'json' | 'text',
  sources: string[],
): UpstreamReadTrace {
  const finalAnswerJson = upstreamValueJson(finalAnswer)
  const rationaleJson = upstreamValueJson(rationale)
  return {
    ...trace,
    outcome: { kind: 'answered', answer: runLogText(finalAnswer), sources, rationale: runLogText(rationale), via },
    ...(finalAnswerJson === undefined && rationaleJson === undefined
      ? {}
      : {
          upstreamJson: {
            ...(finalAnswerJson === undefined ? {} : { final_answer: finalAnswerJson }),
            ...(rationaleJson === undefined ? {} : { rationale: rationaleJson }),
          },
        }),
  }
}

/**
 * The value Python's `json.loads` reads from `text` (see {@link PythonJsonValue}), or `undefined` when it raises:
 * how the LLM judge view reads back a run log's `final_answer_json` or a tool call's `arguments_json` as upstream's
 * judge input holds them.
 */
export function readPythonJson(text: string): PythonJsonValue | undefined {
  try {
    return parsePythonJson(text)
  } catch (error) {
    if (error instanceof PythonJsonDecodeError || error instanceof PythonRecursionError) return undefined
    throw error
  }
}

class PythonJsonDecodeError extends Error {}
class PythonRecursionError extends Error {}

const WHITESPACE = /[ \t\n\r]*/y
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y
const STRING = /"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y
const CONSTANTS: ReadonlyArray<readonly [string, PythonJsonValue]> = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
]

/**
 * Python's `json.loads` on a string (CPython's scanner): JSON plus `NaN`, `Infinity` and `-Infinity`, a leading U+FEFF
 * rejected, duplicate keys keeping the first key's place and the last value. Throws {@link PythonJsonDecodeError}.
 */
function parsePythonJson(text: string): PythonJsonValue {
  if (text.startsWith('\ufeff')) throw new PythonJsonDecodeError('Unexpected UTF-8 BOM')
  let at = 0
  const fail = (what: string): never => {
    throw new PythonJsonDecodeError(`${what} at ${at}`)
  }
  const skip = (): void => {
    WHITESPACE.lastIndex = at
    WHITESPACE.exec(text)
    at = WHITESPACE.lastIndex
  }
  const token = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at
    const match = pattern.exec(text)
    if (match === null) return undefined
    at = pattern.lastIndex
    return match[0]
  }
  const value = (depth: number): PythonJsonValue => {
    const char = text[at]
    if ((char === '{' || char === '[') && depth >= MAX_PYTHON_JSON_DEPTH) {
      throw new PythonRecursionError('maximum recursion depth exceeded while decoding a JSON object')
    }
    if (char === '"') return JSON.parse(token(STRING) ?? fail('Invalid string')) as string
    if (char === '{') {
      at++
      const object: Record<string, PythonJsonValue> = {}
      skip()
      if (text[at] === '}') {
        at++
        return object
      }
      for (;;) {
        const key =
          text[at] === '"' ? (JSON.parse(token(STRING) ?? fail('Invalid string')) as string) : fail('Expecting property name enclosed in double quotes')
        skip()
        if (text[at] !== ':') fail("Expecting ':' delimiter")
        at++
        skip()
        Object.defineProperty(object, key, { value: value(depth + 1), enumerable: true, writable: true, configurable: true })
        skip()
        if (text[at] === '}') {
          at++
          return object
        }
        if (text[at] !== ',') fail("Expecting ',' delimiter")
        at++
        skip()
      }
    }
    if (char === '[') {
      at++
      const array: PythonJsonValue[] = []
      skip()
      if (text[at] === ']') {
        at++
        return array
      }
      for (;;) {
        array.push(value(depth + 1))
        skip()
        if (text[at] === ']') {
          at++
          return array
        }
        if (text[at] !== ',') fail("Expecting ',' delimiter")
        at++
        skip()
      }
    }
    for (const [literal, constant] of CONSTANTS) {
      if (text.startsWith(literal, at)) {
        at += literal.length
        return constant
      }
    }
    return pyNumberFromLiteral(token(NUMBER) ?? fail('Expecting value'))
  }
  skip()
  const result = value(0)
  skip()
  if (at !== text.length) fail('Extra data')
  return result
}
