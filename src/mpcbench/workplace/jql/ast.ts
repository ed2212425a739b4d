/** Fields the JQL subset knows, by their canonical name. */
export const JQL_FIELDS = [
  'project',
  'key',
  'summary',
  'description',
  'text',
  'status',
  'fixVersion',
  'updated',
  'created',
  'assignee',
  'reporter',
  'priority',
  'labels',
  'issuetype',
] as const

/** A canonical JQL field name. */
export type JqlField = (typeof JQL_FIELDS)[number]

/** A value on the right of an operator: literal text, or a relative date / function such as `-7d`, `now()`. */
export interface JqlValue {
  text: string
  /** Quoted in the query (so never a keyword or function). */
  quoted: boolean
  pos: number
}

/** Comparison operators of the subset. */
export type JqlOperator = '=' | '!=' | '~' | '!~' | '>' | '>=' | '<' | '<=' | 'in' | 'not in' | 'is empty' | 'is not empty'

/** A parsed JQL condition. */
export type JqlExpr =
  | { kind: 'and'; left: JqlExpr; right: JqlExpr }
  | { kind: 'or'; left: JqlExpr; right: JqlExpr }
  | { kind: 'not'; expr: JqlExpr }
  | { kind: 'clause'; field: JqlField; op: JqlOperator; values: JqlValue[]; pos: number }

/** One `ORDER BY` key. */
export interface JqlOrder {
  field: JqlField
  direction: 'asc' | 'desc'
}

/** A parsed JQL query: an optional condition (absent = all issues) and the sort keys. */
export interface JqlQuery {
  where: JqlExpr | undefined
  orderBy: JqlOrder[]
}
