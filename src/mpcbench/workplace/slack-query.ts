import { addDays, isIsoDate, isRealDate } from '../../time/calendar.ts'
import { startOfLocalDay } from '../../time/zone.ts'
import { matchesPhrase, words } from './text-match.ts'
import { WorkplaceToolError } from './tool-error.ts'
import type { IndexedSlackMessage, Workplace } from './workplace.ts'

const TOOL = 'Slack.search_messages'
const SUPPORTED = 'Supported: words, "exact phrases", -word, OR, AND, parentheses, from:@user, in:#channel, before:YYYY-MM-DD, after:YYYY-MM-DD, on:YYYY-MM-DD.'
const MODIFIERS = new Set(['from', 'in', 'before', 'after', 'on', 'during', 'has', 'is', 'to', 'with'])

/** A parsed Slack search: a word condition and modifier filters. */
export interface SlackQuery {
  terms: TermExpr | undefined
  /** Allowed user ids (`from:`, several are ORed), or undefined for any. */
  userIds: Set<string> | undefined
  /** Allowed channel ids (`in:`). */
  channelIds: Set<string> | undefined
  /** Instants `[from, to)` from `after:`, `before:`, `on:` in the scenario's zone. */
  from: number
  to: number
}

/** The word part of a Slack query. */
export type TermExpr =
  | { kind: 'phrase'; words: string[] }
  | { kind: 'not'; expr: TermExpr }
  | { kind: 'and'; items: TermExpr[] }
  | { kind: 'or'; items: TermExpr[] }

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'phrase'; text: string }
  | { kind: 'open' }
  | { kind: 'close' }
  | { kind: 'or' }
  | { kind: 'and' }
  | { kind: 'not' }

function fail(message: string, hint = SUPPORTED): never {
  throw new WorkplaceToolError(TOOL, message, { hint })
}

/**
 * Parses a Slack search query against a workplace (to resolve users and channels).
 * Throws a {@link WorkplaceToolError} for unsupported modifiers, unknown users/channels and bad dates.
 */
export function parseSlackQuery(query: string, workplace: Workplace): SlackQuery {
  const tokens: Token[] = []
  const result: SlackQuery = { terms: undefined, userIds: undefined, channelIds: undefined, from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY }
  const tz = workplace.settings.timezone
  const pattern = /\s*(?:(-)?"([^"]*)"?|([A-Za-z]+):(?:"([^"]*)"?|(\S+))|(\()|(\))|(\S+?)(?=[\s()]|$))/gy
  let match: RegExpExecArray | null
  let rest = query
  pattern.lastIndex = 0
  while (pattern.lastIndex < query.length && (match = pattern.exec(query)) !== null) {
    const [, negPhrase, phrase, key, quotedValue, bareValue, open, close, word] = match
    if (phrase !== undefined) {
      if (negPhrase !== undefined) tokens.push({ kind: 'not' })
      tokens.push({ kind: 'phrase', text: phrase })
    } else if (key !== undefined && MODIFIERS.has(key.toLowerCase())) {
      applyModifier(result, key.toLowerCase(), (quotedValue ?? bareValue ?? '').trim(), workplace, tz)
    } else if (key !== undefined) {
      tokens.push({ kind: 'word', text: `${key}:${quotedValue ?? bareValue ?? ''}` })
    } else if (open !== undefined) tokens.push({ kind: 'open' })
    else if (close !== undefined) tokens.push({ kind: 'close' })
    else if (word !== undefined) {
      if (word === 'OR' || word === '|') tokens.push({ kind: 'or' })
      else if (word === 'AND' || word === '&') tokens.push({ kind: 'and' })
      else if (word === 'NOT') tokens.push({ kind: 'not' })
      else if (word.startsWith('-') && word.length > 1) tokens.push({ kind: 'not' }, { kind: 'word', text: word.slice(1) })
      else tokens.push({ kind: 'word', text: word })
    }
    rest = query.slice(pattern.lastIndex)
  }
  if (rest.trim() !== '') fail(`cannot read ${JSON.stringify(rest.trim())} in query ${JSON.stringify(query)}`)
  result.terms = new TermParser(tokens, query).parse()
  if (
    result.terms === undefined &&
    result.userIds === undefined &&
    result.channelIds === undefined &&
    result.from === Number.NEGATIVE_INFINITY &&
    result.to === Number.POSITIVE_INFINITY
  ) {
    fail('the query is empty', `Search with words or modifiers. ${SUPPORTED}`)
  }
  return result
}

function applyModifier(result: SlackQuery, key: string, value: string, workplace: Workplace, tz: string): void {
  if (value === '') fail(`modifier ${key}: needs a value`)
  switch (key) {
    case 'from': {
      const ids = matchUsers(workplace, value)
      if (ids.length === 0) {
        const names = workplace.sources.slack.users.slice(0, 30).map((u) => u.name)
        fail(`no Slack user matches from:${value}`, `Use a user's name, first name, email or id (users: ${names.join(', ')}).`)
      }
      result.userIds ??= new Set()
      for (const id of ids) result.userIds.add(id)
      return
    }
    case 'in': {
      const wanted = value.replace(/^#/, '').toLowerCase()
      const channels = workplace.sources.slack.channels.filter((c) => c.name.toLowerCase() === wanted || c.id.toLowerCase() === wanted)
      if (channels.length === 0) {
        fail(
          `no Slack channel matches in:${value}`,
          `Use a channel name without # or its id (channels: ${workplace.sources.slack.channels.map((c) => c.name).join(', ')}).`,
        )
      }
      result.channelIds ??= new Set()
      for (const channel of channels) result.channelIds.add(channel.id)
      return
    }
    case 'before':
    case 'after':
    case 'on':
    case 'during': {
      if (key === 'during') fail('modifier during: is not supported; use on:YYYY-MM-DD or after:/before:')
      if (!isIsoDate(value)) fail(`${key}: needs a date as YYYY-MM-DD, got ${JSON.stringify(value)}`)
      if (!isRealDate(value.trim()))
        fail(`${key}:${value} is not a calendar date (month 01-12, day within the month)`, `Use a real date, e.g. ${key}:2025-02-28. ${SUPPORTED}`)
      const dayStart = startOfLocalDay(value, tz)
      const nextDay = startOfLocalDay(addDays(value, 1), tz)
      if (key === 'before') result.to = Math.min(result.to, dayStart)
      else if (key === 'after') result.from = Math.max(result.from, nextDay)
      else {
        result.from = Math.max(result.from, dayStart)
        result.to = Math.min(result.to, nextDay)
      }
      return
    }
    default:
      fail(`modifier ${key}: is not supported`)
  }
}

/** Ids of users whose id, email, email local part, full name, first name or name without separators equals `value` (case-insensitive, leading `@` ignored). */
export function matchUsers(workplace: Workplace, value: string): string[] {
  const wanted = value.replace(/^@/, '').toLowerCase()
  const squash = (s: string) => s.toLowerCase().replace(/[\s._-]+/g, '')
  return workplace.sources.slack.users
    .filter((user) => {
      const email = user.email.toLowerCase()
      const name = user.name.toLowerCase()
      return (
        user.id.toLowerCase() === wanted ||
        email === wanted ||
        email.split('@')[0] === wanted ||
        name === wanted ||
        name.split(/\s+/)[0] === wanted ||
        squash(name) === squash(wanted) ||
        squash(email.split('@')[0] ?? '') === squash(wanted)
      )
    })
    .map((user) => user.id)
}

/** Deepest nesting of parentheses and NOT/- a Slack query may have. */
export const MAX_SLACK_QUERY_DEPTH = 32

class TermParser {
  private index = 0
  private readonly tokens: Token[]
  private readonly query: string
  private depth = 0

  constructor(tokens: Token[], query: string) {
    this.tokens = tokens
    this.query = query
  }

  parse(): TermExpr | undefined {
    if (this.tokens.length === 0) return undefined
    const expr = this.parseOr()
    if (this.index < this.tokens.length) fail(`unbalanced parenthesis in query ${JSON.stringify(this.query)}`)
    return expr
  }

  private peek(): Token | undefined {
    return this.tokens[this.index]
  }

  private enter(): void {
    if (++this.depth > MAX_SLACK_QUERY_DEPTH)
      fail(
        `query nested too deep: more than ${MAX_SLACK_QUERY_DEPTH} levels of parentheses and NOT/-`,
        `Nest at most ${MAX_SLACK_QUERY_DEPTH} levels deep. ${SUPPORTED}`,
      )
  }

  private parseOr(): TermExpr {
    const items = [this.parseAnd()]
    while (this.peek()?.kind === 'or') {
      this.index++
      items.push(this.parseAnd())
    }
    return items.length === 1 ? (items[0] as TermExpr) : { kind: 'or', items }
  }

  private parseAnd(): TermExpr {
    const items: TermExpr[] = []
    for (;;) {
      const token = this.peek()
      if (token === undefined || token.kind === 'or' || token.kind === 'close') break
      if (token.kind === 'and') {
        this.index++
        continue
      }
      items.push(this.parseUnary())
    }
    if (items.length === 0) fail(`expected a word in query ${JSON.stringify(this.query)}`)
    return items.length === 1 ? (items[0] as TermExpr) : { kind: 'and', items }
  }

  private parseUnary(): TermExpr {
    const token = this.tokens[this.index++] as Token
    switch (token.kind) {
      case 'not': {
        if (this.peek() === undefined) fail(`nothing to exclude after NOT/- in query ${JSON.stringify(this.query)}`)
        this.enter()
        const expr: TermExpr = { kind: 'not', expr: this.parseUnary() }
        this.depth--
        return expr
      }
      case 'open': {
        this.enter()
        const inner = this.parseOr()
        if (this.peek()?.kind !== 'close') fail(`missing ) in query ${JSON.stringify(this.query)}`)
        this.index++
        this.depth--
        return inner
      }
      case 'word':
      case 'phrase':
        return { kind: 'phrase', words: words(token.text) }
      default:
        fail(`unexpected ${token.kind.toUpperCase()} in query ${JSON.stringify(this.query)}`)
    }
  }
}

/** Whether a message's words satisfy a term expression. */
export function termsMatch(expr: TermExpr, textWords: ReadonlyArray<string>): boolean {
  switch (expr.kind) {
    case 'phrase':
      return matchesPhrase(textWords, expr.words)
    case 'not':
      return !termsMatch(expr.expr, textWords)
    case 'and':
      return expr.items.every((item) => termsMatch(item, textWords))
    case 'or':
      return expr.items.some((item) => termsMatch(item, textWords))
  }
}

/** The messages matching a parsed query, oldest first. */
export function searchSlack(workplace: Workplace, query: SlackQuery): IndexedSlackMessage[] {
  const candidates =
    query.from === Number.NEGATIVE_INFINITY && query.to === Number.POSITIVE_INFINITY
      ? workplace.slackMessages
      : workplace.slackMessagesBetween(query.from, query.to)
  return candidates.filter(
    (m) =>
      (query.userIds === undefined || query.userIds.has(m.message.user_id)) &&
      (query.channelIds === undefined || query.channelIds.has(m.message.channel_id)) &&
      (query.terms === undefined || termsMatch(query.terms, m.words)),
  )
}
