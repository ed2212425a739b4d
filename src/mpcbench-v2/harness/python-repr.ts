/** Python's `repr()` of a string: single quotes unless it holds `'` and no `"`; backslash, quote and controls escaped. */
export function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'"
  let out = quote
  for (const ch of text) {
    const code = ch.codePointAt(0) as number
    if (ch === quote || ch === '\\') out += `\\${ch}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`
    else out += ch
  }
  return out + quote
}

/** Python's `repr()` of a JSON value (`None`, `True`, `['a', 1]`, `{'k': 2}`); a number as JavaScript writes it. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') return pyStringRepr(value)
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${pyStringRepr(key)}: ${pyRepr(item)}`)
    .join(', ')}}`
}

/** Python's `str()`: a string as it is, anything else as {@link pyRepr}. */
export function pyStrOf(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value)
}
