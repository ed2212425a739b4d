import { addDays, isIsoDate } from '../../../time/calendar.ts'
import { localDate, parseInstant, startOfLocalDay } from '../../../time/zone.ts'
import { matchesPhrase, memoizeByItem, words } from '../text-match.ts'
import type { IndexedIssue } from '../workplace.ts'
import type { JqlExpr, JqlField, JqlOrder, JqlQuery, JqlValue } from './ast.ts'
import { JqlError } from './jql-error.ts'

/** What evaluation needs besides the issues: the zone for dates without offset, and "now" for `-7d` and `now()`. */
export interface JqlContext {
  query: string
  timezone: string
  now: number
}

type Predicate = (issue: IndexedIssue) => boolean

const DATE_FIELDS = new Set<JqlField>(['updated', 'created'])

/**
 * Compiles a parsed query into a filter and a comparator.
 * Text operators (`~`, `!~`) match words by prefix, case-insensitively; `=`/`!=` compare whole values case-insensitively;
 * a condition on a missing field is false (as in Jira), except `IS EMPTY`.
 * A date-only bound covers its whole day in the scenario's zone: `updated <= "2025-11-16"` includes that day.
 */
export function compileJql(parsed: JqlQuery, context: JqlContext): { filter: Predicate; compare: (a: IndexedIssue, b: IndexedIssue) => number } {
  const filter = parsed.where === undefined ? () => true : compileExpr(parsed.where, context)
  return { filter, compare: comparator(parsed.orderBy) }
}

function compileExpr(expr: JqlExpr, context: JqlContext): Predicate {
  switch (expr.kind) {
    case 'and': {
      const left = compileExpr(expr.left, context)
      const right = compileExpr(expr.right, context)
      return (issue) => left(issue) && right(issue)
    }
    case 'or': {
      const left = compileExpr(expr.left, context)
      const right = compileExpr(expr.right, context)
      return (issue) => left(issue) || right(issue)
    }
    case 'not': {
      const inner = compileExpr(expr.expr, context)
      return (issue) => !inner(issue)
    }
    case 'clause':
      return DATE_FIELDS.has(expr.field) ? compileDateClause(expr, context) : compileTextClause(expr, context)
  }
}

/** The string values of a field of an issue (several for fixVersion and labels; none when absent). */
function fieldValues(issue: IndexedIssue, field: JqlField): string[] {
  const i = issue.issue
  switch (field) {
    case 'project':
      return [i.project?.key ?? i.key.split('-')[0] ?? '']
    case 'key':
      return [i.key]
    case 'summary':
      return [i.summary]
    case 'description':
      return i.description === undefined ? [] : [i.description]
    case 'text':
      return [i.summary, i.description ?? '', ...(i.labels ?? [])]
    case 'status':
      return [i.status]
    case 'fixVersion':
      return (i.fixVersions ?? []).map((v) => v.name)
    case 'assignee':
      return i.assignee === undefined ? [] : [i.assignee]
    case 'reporter':
      return i.reporter === undefined ? [] : [i.reporter]
    case 'priority':
      return i.priority === undefined ? [] : [i.priority]
    case 'labels':
      return i.labels ?? []
    case 'issuetype':
      return i.issuetype === undefined ? [] : [i.issuetype]
    case 'updated':
    case 'created':
      return []
  }
}

const wordsByField = memoizeByItem((_issue: IndexedIssue) => new Map<JqlField, string[][]>())

/** The words of each value of a field of an issue, tokenized once per issue and field. */
function fieldWords(issue: IndexedIssue, field: JqlField): string[][] {
  const byField = wordsByField(issue)
  let cached = byField.get(field)
  if (cached === undefined) {
    cached = fieldValues(issue, field).map((value) => words(value))
    byField.set(field, cached)
  }
  return cached
}

function compileTextClause(expr: Extract<JqlExpr, { kind: 'clause' }>, context: JqlContext): Predicate {
  const { field, op, values } = expr
  const wanted = values.map((v) => v.text.toLowerCase())
  switch (op) {
    case 'is empty':
      return (issue) => fieldValues(issue, field).every((v) => v.trim() === '')
    case 'is not empty':
      return (issue) => fieldValues(issue, field).some((v) => v.trim() !== '')
    case '=':
    case 'in':
      return (issue) => fieldValues(issue, field).some((v) => wanted.includes(v.toLowerCase()))
    case '!=':
    case 'not in':
      return (issue) => {
        const present = fieldValues(issue, field)
        return present.length > 0 && !present.some((v) => wanted.includes(v.toLowerCase()))
      }
    case '~':
    case '!~': {
      const phrase = words(values[0]?.text ?? '')
      const negate = op === '!~'
      return (issue) => {
        const present = fieldWords(issue, field)
        if (present.length === 0) return false
        return negate !== present.some((v) => matchesPhrase(v, phrase))
      }
    }
    default:
      throw new JqlError(`Operator ${op} is not supported on field ${field}`, { query: context.query, position: expr.pos, fragment: field })
  }
}

/** A date value as an inclusive-exclusive interval `[from, to)`: a whole day for a bare date, one instant otherwise. */
function dateInterval(value: JqlValue, context: JqlContext): { from: number; to: number } {
  const text = value.text.trim()
  const lower = text.toLowerCase()
  if (!value.quoted && lower === 'now()') return { from: context.now, to: context.now + 1 }
  if (!value.quoted && lower === 'startofday()') {
    const day = localDate(context.now, context.timezone)
    return { from: startOfLocalDay(day, context.timezone), to: startOfLocalDay(addDays(day, 1), context.timezone) }
  }
  const relative = /^([+-]?)(\d+)([wdhm])$/.exec(lower)
  if (relative !== null) {
    const unit = { w: 7 * 86_400_000, d: 86_400_000, h: 3_600_000, m: 60_000 }[relative[3] as 'w' | 'd' | 'h' | 'm']
    const at = context.now + (relative[1] === '-' ? -1 : 1) * Number(relative[2]) * unit
    return { from: at, to: at + 1 }
  }
  const normalized = text.replaceAll('/', '-')
  if (isIsoDate(normalized)) {
    return { from: startOfLocalDay(normalized, context.timezone), to: startOfLocalDay(addDays(normalized, 1), context.timezone) }
  }
  const at = parseInstant(normalized, context.timezone)
  if (at === undefined) {
    throw new JqlError('Not a date', {
      query: context.query,
      position: value.pos,
      fragment: value.quoted ? JSON.stringify(value.text) : value.text,
      hint: 'Write dates as "YYYY-MM-DD", "YYYY-MM-DD HH:MM", a relative offset such as -7d, or now() / startOfDay().',
    })
  }
  return { from: at, to: at + 1 }
}

function compileDateClause(expr: Extract<JqlExpr, { kind: 'clause' }>, context: JqlContext): Predicate {
  const { field, op } = expr
  const get = (issue: IndexedIssue) => (field === 'updated' ? issue.updated : issue.created)
  if (op === 'is empty') return (issue) => get(issue) === undefined
  if (op === 'is not empty') return (issue) => get(issue) !== undefined
  if (op === '~' || op === '!~') {
    throw new JqlError(`Operator ${op} is not supported on date field ${field}`, {
      query: context.query,
      position: expr.pos,
      fragment: field,
      hint: 'Compare dates with =, !=, >, >=, <, <=.',
    })
  }
  const intervals = expr.values.map((value) => dateInterval(value, context))
  const inAny = (at: number) => intervals.some(({ from, to }) => at >= from && at < to)
  const first = intervals[0] as { from: number; to: number }
  const test: (at: number) => boolean = {
    '=': inAny,
    in: inAny,
    '!=': (at: number) => !inAny(at),
    'not in': (at: number) => !inAny(at),
    '>': (at: number) => at >= first.to,
    '>=': (at: number) => at >= first.from,
    '<': (at: number) => at < first.from,
    '<=': (at: number) => at < first.to,
  }[op]
  return (issue) => {
    const at = get(issue)
    return at !== undefined && test(at)
  }
}

function sortKey(issue: IndexedIssue, field: JqlField): string | number | undefined {
  switch (field) {
    case 'updated':
      return issue.updated
    case 'created':
      return issue.created
    case 'key': {
      const match = /^(.*?)-(\d+)$/.exec(issue.issue.key)
      return match === null ? issue.issue.key : `${match[1]}-${(match[2] as string).padStart(12, '0')}`
    }
    default:
      return fieldValues(issue, field)[0]?.toLowerCase()
  }
}

function comparator(orderBy: ReadonlyArray<JqlOrder>): (a: IndexedIssue, b: IndexedIssue) => number {
  return (a, b) => {
    for (const { field, direction } of orderBy) {
      const x = sortKey(a, field)
      const y = sortKey(b, field)
      if (x === y) continue
      // Missing values sort last in either direction.
      if (x === undefined) return 1
      if (y === undefined) return -1
      const order = x < y ? -1 : 1
      return direction === 'asc' ? order : -order
    }
    return 0
  }
}
