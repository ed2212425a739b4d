import { JqlError } from './jql-error.ts'

/** A JQL token with its 0-based offset in the query. */
export type JqlToken =
  | { kind: 'word'; text: string; pos: number }
  | { kind: 'string'; text: string; raw: string; pos: number }
  | { kind: 'op'; text: '=' | '!=' | '~' | '!~' | '>' | '>=' | '<' | '<='; pos: number }
  | { kind: 'punct'; text: '(' | ')' | ','; pos: number }
  | { kind: 'end'; text: ''; pos: number }

const WORD_CHAR = /[\p{L}\p{N}_.@/+\-*]/u

/** Splits a JQL query into tokens, or throws a {@link JqlError} at the first character it cannot read. */
export function tokenize(query: string): JqlToken[] {
  const tokens: JqlToken[] = []
  let i = 0
  while (i < query.length) {
    const ch = query[i] as string
    if (/\s/.test(ch)) {
      i++
      continue
    }
    if (ch === '"' || ch === "'") {
      const start = i
      let text = ''
      i++
      while (i < query.length && query[i] !== ch) {
        if (query[i] === '\\' && i + 1 < query.length) i++
        text += query[i]
        i++
      }
      if (i >= query.length) throw new JqlError('Unterminated string', { query, position: start, fragment: query.slice(start) })
      i++
      tokens.push({ kind: 'string', text, raw: query.slice(start, i), pos: start })
      continue
    }
    if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ kind: 'punct', text: ch, pos: i })
      i++
      continue
    }
    const two = query.slice(i, i + 2)
    if (two === '!=' || two === '!~' || two === '>=' || two === '<=') {
      tokens.push({ kind: 'op', text: two, pos: i })
      i += 2
      continue
    }
    if (ch === '=' || ch === '~' || ch === '>' || ch === '<') {
      tokens.push({ kind: 'op', text: ch, pos: i })
      i++
      continue
    }
    if (WORD_CHAR.test(ch)) {
      const start = i
      while (i < query.length && WORD_CHAR.test(query[i] as string)) i++
      tokens.push({ kind: 'word', text: query.slice(start, i), pos: start })
      continue
    }
    throw new JqlError(`Unsupported character`, { query, position: i, fragment: ch })
  }
  tokens.push({ kind: 'end', text: '', pos: query.length })
  return tokens
}
