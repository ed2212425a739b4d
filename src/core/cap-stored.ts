/** Longest agent answer kept in ART-E results and trace summaries (answers are short facts); the full length is recorded beside it. */
export const MAX_STORED_ANSWER_CHARS = 10_000
/**
 * Longest MPCBench answer kept in a run log (and so shown to the judges): reports and replies are documents, so the
 * cap is far above any real one and only stops a pasted dump from making a multi-megabyte log.
 */
export const MAX_STORED_DOCUMENT_CHARS = 50_000
/** Longest string kept inside a stored trace (messages, tool arguments and results). */
export const MAX_STORED_TRACE_STRING_CHARS = 50_000

/** `text` cut to `max` characters with a marker naming the full length, or `text` when it fits. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}... [truncated: ${text.length.toLocaleString('en-US')} characters in full]`
}

/** Whether `value` holds a string longer than `max` at any depth (a walk that allocates nothing: it runs per stored trace). */
function holdsLongString(value: unknown, max: number): boolean {
  if (typeof value === 'string') return value.length > max
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (holdsLongString(value[index], max)) return true
    return false
  }
  if (value !== null && typeof value === 'object') {
    for (const key in value) {
      if (Object.hasOwn(value, key) && holdsLongString((value as Record<string, unknown>)[key], max)) return true
    }
  }
  return false
}

/** A JSON value with every string longer than `max` cut (see {@link capText}); the value itself when nothing is. */
export function capLongStrings<T>(value: T, max: number = MAX_STORED_TRACE_STRING_CHARS): T {
  const cap = (inner: unknown): unknown => {
    if (typeof inner === 'string') return capText(inner, max)
    if (Array.isArray(inner)) return inner.map(cap)
    if (inner !== null && typeof inner === 'object') return Object.fromEntries(Object.entries(inner).map(([key, item]) => [key, cap(item)]))
    return inner
  }
  return holdsLongString(value, max) ? (cap(value) as T) : value
}
