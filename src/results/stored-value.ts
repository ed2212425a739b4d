import { MAX_STORED_ANSWER_CHARS, capLongStrings, capText } from '../core/cap-stored.ts'

/** Longest string kept of a case's input, expected value and output in test meta and results files. */
export const MAX_STORED_VALUE_CHARS = MAX_STORED_ANSWER_CHARS

/**
 * A value of a case (input, expected value, output) as test meta and results files keep it: plain JSON (structured
 * clone safe), every string cut at {@link MAX_STORED_VALUE_CHARS} with a marker naming its full length. Values JSON
 * cannot hold (a function, a cycle, a bigint) are kept as their `String()` text; `undefined` stays `undefined`.
 */
export function storedValue(value: unknown, max: number = MAX_STORED_VALUE_CHARS): unknown {
  if (value === undefined) return undefined
  if (typeof value === 'string') return capText(value, max)
  let json: string | undefined
  try {
    json = JSON.stringify(value)
  } catch {
    json = undefined
  }
  if (json === undefined) return capText(String(value), max)
  return capLongStrings(JSON.parse(json) as unknown, max)
}

/** A stored value as one line of text (strings as they are, other values as JSON), for tables and test names. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  return JSON.stringify(value) ?? String(value)
}
