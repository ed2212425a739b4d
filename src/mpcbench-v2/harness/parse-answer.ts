import { isDict, truthy } from '../tools/python-values.ts'
import { pyStr } from '../../core/python-format.ts'

/** A candidate as upstream holds it: `[start, end]` at levels 1/2, `[start, end, room_id]` when a room is given. */
export type Candidate = readonly [string, string] | readonly [string, string, string]

function loads(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/**
 * Upstream's `OpenAIAgent._parse_candidate`: a dict with truthy `start` and `end` (written with Python's `str()`),
 * plus `room_id` when it is present and not null; anything else is skipped (`undefined`).
 */
export function parseCandidate(candidate: unknown): Candidate | undefined {
  if (!isDict(candidate)) return undefined
  const start = Object.hasOwn(candidate, 'start') ? candidate.start : null
  const end = Object.hasOwn(candidate, 'end') ? candidate.end : null
  if (!truthy(start) || !truthy(end)) return undefined
  const roomId = Object.hasOwn(candidate, 'room_id') ? candidate.room_id : null
  if (roomId !== null && roomId !== undefined) return [pyStr(start), pyStr(end), pyStr(roomId)]
  return [pyStr(start), pyStr(end)]
}

/**
 * Upstream's `OpenAIAgent._parse_response`: the text from the first `{` to the last `}` as JSON (then with trailing
 * commas removed), else the whole reply as JSON; its `candidates` list, each item through {@link parseCandidate}.
 * A reply it cannot read gives `[]` (upstream then asks the model again, see `runSchedulingAgent`).
 */
export function parseAnswer(content: string): Candidate[] {
  const text = content.trim()
  let data: unknown
  let found = false
  const match = /\{[\s\S]*\}/.exec(text)
  if (match !== null) {
    const first = loads(match[0])
    const parsed = first.ok ? first : loads(match[0].replace(/,\s*([}\]])/g, '$1'))
    if (parsed.ok) {
      data = parsed.value
      found = true
    }
  }
  // Python's `data is None` test: a reply whose JSON is `null` is parsed again as a whole.
  if (!found || data === null) {
    const whole = loads(text)
    if (!whole.ok) return []
    data = whole.value
  }
  // `data.get` on a list or a scalar raises in upstream; its loop reads that as no answer, as `[]` is.
  if (!isDict(data)) return []
  const raw = Object.hasOwn(data, 'candidates') ? data.candidates : []
  if (!Array.isArray(raw)) return []
  return raw.map(parseCandidate).filter((candidate): candidate is Candidate => candidate !== undefined)
}
