/**
 * Parses a list of strings written as text, as CSV exports of `message_ids` hold it:
 * a JSON array (`["<a>", "<b>"]`), a Python list (`['<a>', '<b>']`, with either quote
 * and backslash escapes), or a NumPy array repr (`['<a>' '<b>']`, items separated by
 * whitespace, possibly over several lines). Returns `undefined` when `text` is none of these.
 */
export function parseIdList(text: string): string[] | undefined {
  const trimmed = text.trim()
  if (!trimmed.startsWith('[') || !trimmed.endsWith(']')) return undefined
  try {
    const json: unknown = JSON.parse(trimmed)
    if (Array.isArray(json) && json.every((item) => typeof item === 'string')) return json
  } catch {
    // not JSON: try the Python form below
  }
  return parsePythonList(trimmed.slice(1, -1))
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' }

function parsePythonList(inner: string): string[] | undefined {
  const items: string[] = []
  let i = 0
  let expectItem = true
  while (i < inner.length) {
    const ch = inner[i] as string
    if (/\s/.test(ch)) {
      i++
    } else if (ch === ',') {
      if (expectItem) return undefined
      expectItem = true
      i++
    } else if (ch === "'" || ch === '"') {
      if (!expectItem && items.length > 0 && !/\s/.test(inner[i - 1] ?? '')) return undefined
      let value = ''
      i++
      for (;;) {
        const c = inner[i]
        if (c === undefined) return undefined
        if (c === ch) break
        if (c === '\\') {
          const next = inner[i + 1]
          if (next === undefined) return undefined
          value += ESCAPES[next] ?? `\\${next}`
          i += 2
        } else {
          value += c
          i++
        }
      }
      i++
      items.push(value)
      expectItem = false
    } else {
      return undefined
    }
  }
  return items
}
