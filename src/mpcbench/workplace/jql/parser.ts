import type { JqlExpr, JqlField, JqlOperator, JqlOrder, JqlQuery, JqlValue } from './ast.ts'
import { JqlError } from './jql-error.ts'
import { type JqlToken, tokenize } from './lexer.ts'

const FIELD_ALIASES: Record<string, JqlField> = {
  project: 'project',
  key: 'key',
  issuekey: 'key',
  id: 'key',
  summary: 'summary',
  description: 'description',
  text: 'text',
  status: 'status',
  fixversion: 'fixVersion',
  fixversions: 'fixVersion',
  updated: 'updated',
  updateddate: 'updated',
  created: 'created',
  createddate: 'created',
  assignee: 'assignee',
  reporter: 'reporter',
  priority: 'priority',
  labels: 'labels',
  label: 'labels',
  issuetype: 'issuetype',
  type: 'issuetype',
}

/** Deepest nesting of parentheses and `NOT` a query may have. */
export const MAX_JQL_DEPTH = 32
/** Most tokens a query may have (bounds the parse and the compiled predicate). */
export const MAX_JQL_TOKENS = 2000

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'empty', 'null', 'order', 'by', 'asc', 'desc'])
const UNSUPPORTED_OPERATORS = new Set(['was', 'changed', 'during', 'on', 'before', 'after', 'from', 'to'])

/**
 * Parses a query of the JQL subset:
 * `field = | != | ~ | !~ | > | >= | < | <= value`, `field [NOT] IN (v1, v2)`, `field IS [NOT] EMPTY`,
 * `AND`, `OR`, `NOT`, parentheses, bare words or "quoted text" (a search over `text`; adjacent conditions are ANDed),
 * and `ORDER BY field [ASC|DESC], ...`. Anything else throws a {@link JqlError} naming the part and its position.
 */
export function parseJql(query: string): JqlQuery {
  return new Parser(query).parse()
}

class Parser {
  private readonly tokens: JqlToken[]
  private readonly query: string
  private index = 0
  private depth = 0

  constructor(query: string) {
    this.query = query
    this.tokens = tokenize(query)
    let open = 0
    for (const token of this.tokens) {
      if (this.isPunct(token, '(') && ++open > MAX_JQL_DEPTH) this.enter(token, MAX_JQL_DEPTH)
      else if (this.isPunct(token, ')')) open--
    }
    if (this.tokens.length > MAX_JQL_TOKENS) {
      const token = this.tokens[MAX_JQL_TOKENS] as JqlToken
      this.fail(`Query too long: more than ${MAX_JQL_TOKENS} tokens`, token, `Write a shorter query (at most ${MAX_JQL_TOKENS} tokens).`)
    }
  }

  private enter(token: JqlToken, depth = this.depth): void {
    this.depth = depth
    if (++this.depth > MAX_JQL_DEPTH) {
      this.fail(
        `Nesting too deep: more than ${MAX_JQL_DEPTH} levels of parentheses and NOT`,
        token,
        `Nest parentheses and NOT at most ${MAX_JQL_DEPTH} levels deep.`,
      )
    }
  }

  parse(): JqlQuery {
    let where: JqlExpr | undefined
    if (!this.atEnd() && !this.isKeyword(this.peek(), 'order')) where = this.parseOr()
    const orderBy = this.isKeyword(this.peek(), 'order') ? this.parseOrderBy() : []
    const rest = this.peek()
    if (rest.kind !== 'end') this.fail(rest.kind === 'punct' && rest.text === ')' ? 'Unbalanced parenthesis' : 'Unexpected token', rest)
    return { where, orderBy }
  }

  private peek(offset = 0): JqlToken {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)] as JqlToken
  }

  private next(): JqlToken {
    const token = this.peek()
    if (token.kind !== 'end') this.index++
    return token
  }

  private atEnd(): boolean {
    return this.peek().kind === 'end'
  }

  private isKeyword(token: JqlToken, word: string): boolean {
    return token.kind === 'word' && token.text.toLowerCase() === word
  }

  private isPunct(token: JqlToken, text: string): boolean {
    return token.kind === 'punct' && token.text === text
  }

  private fail(message: string, token: JqlToken, hint?: string): never {
    const fragment = token.kind === 'string' ? token.raw : token.text
    throw new JqlError(message, { query: this.query, position: token.pos, fragment, hint })
  }

  private parseOr(): JqlExpr {
    let left = this.parseAnd()
    while (this.isKeyword(this.peek(), 'or')) {
      this.next()
      left = { kind: 'or', left, right: this.parseAnd() }
    }
    return left
  }

  private parseAnd(): JqlExpr {
    let left = this.parseNot()
    for (;;) {
      const token = this.peek()
      if (this.isKeyword(token, 'and')) {
        this.next()
        left = { kind: 'and', left, right: this.parseNot() }
      } else if (this.startsCondition(token)) {
        left = { kind: 'and', left, right: this.parseNot() }
      } else {
        return left
      }
    }
  }

  /** Whether `token` can start a condition (for implicit AND between adjacent conditions). */
  private startsCondition(token: JqlToken): boolean {
    if (token.kind === 'string') return true
    if (token.kind === 'punct') return token.text === '('
    if (token.kind !== 'word') return false
    const lower = token.text.toLowerCase()
    return lower === 'not' || !KEYWORDS.has(lower)
  }

  private parseNot(): JqlExpr {
    if (this.isKeyword(this.peek(), 'not')) {
      this.enter(this.peek())
      this.next()
      const expr: JqlExpr = { kind: 'not', expr: this.parseNot() }
      this.depth--
      return expr
    }
    return this.parsePrimary()
  }

  private parsePrimary(): JqlExpr {
    const token = this.peek()
    if (this.isPunct(token, '(')) {
      this.enter(token)
      this.next()
      if (this.isPunct(this.peek(), ')')) this.fail('Empty parentheses', this.peek())
      const inner = this.parseOr()
      if (!this.isPunct(this.peek(), ')')) this.fail('Expected `)` to close the parenthesis opened', token)
      this.next()
      this.depth--
      return inner
    }
    if (token.kind === 'string') {
      this.next()
      return { kind: 'clause', field: 'text', op: '~', values: [{ text: token.text, quoted: true, pos: token.pos }], pos: token.pos }
    }
    if (token.kind !== 'word') this.fail('Expected a condition', token)
    if (KEYWORDS.has(token.text.toLowerCase())) this.fail(`Expected a condition, got keyword ${token.text.toUpperCase()}`, token)
    const after = this.peek(1)
    const isClause =
      after.kind === 'op' || this.isKeyword(after, 'in') || this.isKeyword(after, 'is') || (this.isKeyword(after, 'not') && this.isKeyword(this.peek(2), 'in'))
    if (after.kind === 'word' && UNSUPPORTED_OPERATORS.has(after.text.toLowerCase())) {
      this.fail(`Unsupported operator ${after.text.toUpperCase()}`, after)
    }
    if (after.kind === 'punct' && after.text === '(') this.fail('Unsupported function', token)
    this.next()
    if (!isClause) {
      return { kind: 'clause', field: 'text', op: '~', values: [{ text: token.text, quoted: false, pos: token.pos }], pos: token.pos }
    }
    const field = FIELD_ALIASES[token.text.toLowerCase()]
    if (field === undefined) {
      this.fail(`Unsupported field`, token, `Use one of: ${[...new Set(Object.values(FIELD_ALIASES))].join(', ')}.`)
    }
    return this.parseClause(field, token.pos)
  }

  private parseClause(field: JqlField, pos: number): JqlExpr {
    const token = this.next()
    if (token.kind === 'op') return { kind: 'clause', field, op: token.text, values: [this.parseValue()], pos }
    const lower = token.text.toLowerCase()
    if (lower === 'is') {
      let op: JqlOperator = 'is empty'
      if (this.isKeyword(this.peek(), 'not')) {
        this.next()
        op = 'is not empty'
      }
      const what = this.next()
      if (!this.isKeyword(what, 'empty') && !this.isKeyword(what, 'null')) this.fail('Expected EMPTY or NULL after IS', what)
      return { kind: 'clause', field, op, values: [], pos }
    }
    let op: JqlOperator = 'in'
    if (lower === 'not') {
      this.next()
      op = 'not in'
    }
    const open = this.next()
    if (!this.isPunct(open, '(')) this.fail('Expected `(` after IN', open)
    const values: JqlValue[] = [this.parseValue()]
    while (this.isPunct(this.peek(), ',')) {
      this.next()
      values.push(this.parseValue())
    }
    const close = this.next()
    if (!this.isPunct(close, ')')) this.fail('Expected `,` or `)` in the IN list', close)
    return { kind: 'clause', field, op, values, pos }
  }

  private parseValue(): JqlValue {
    const token = this.next()
    if (token.kind === 'string') return { text: token.text, quoted: true, pos: token.pos }
    if (token.kind === 'word' && !KEYWORDS.has(token.text.toLowerCase())) {
      if (this.isPunct(this.peek(), '(')) {
        const name = token.text.toLowerCase()
        if (name !== 'now' && name !== 'startofday')
          this.fail(`Unsupported function ${token.text}()`, token, 'Supported functions: now(), startOfDay(); or write a date such as "2025-11-09" or -7d.')
        this.next()
        const close = this.next()
        if (!this.isPunct(close, ')')) this.fail('Function arguments are not supported', close)
        return { text: `${name}()`, quoted: false, pos: token.pos }
      }
      return { text: token.text, quoted: false, pos: token.pos }
    }
    this.fail('Expected a value', token)
  }

  private parseOrderBy(): JqlOrder[] {
    this.next()
    const by = this.next()
    if (!this.isKeyword(by, 'by')) this.fail('Expected BY after ORDER', by)
    const orders: JqlOrder[] = []
    for (;;) {
      const token = this.next()
      if (token.kind !== 'word') this.fail('Expected a field to order by', token)
      const field = FIELD_ALIASES[token.text.toLowerCase()]
      if (field === undefined || field === 'text') this.fail('Unsupported ORDER BY field', token)
      let direction: 'asc' | 'desc' = 'asc'
      if (this.isKeyword(this.peek(), 'asc') || this.isKeyword(this.peek(), 'desc')) {
        direction = this.next().text.toLowerCase() as 'asc' | 'desc'
      }
      orders.push({ field, direction })
      if (!this.isPunct(this.peek(), ',')) return orders
      this.next()
    }
  }
}
