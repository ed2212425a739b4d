import { BenchError } from '../../../core/errors.ts'

/** A JQL query uses syntax or a field this subset does not support; names the part and its position. */
export class JqlError extends BenchError {
  /** 0-based character offset of the offending part in the query. */
  readonly position: number
  /** The offending text (empty at end of input). */
  readonly fragment: string

  constructor(message: string, options: { query: string; position: number; fragment: string; hint?: string }) {
    const where = options.fragment === '' ? 'at end of query' : `\`${options.fragment}\` at position ${options.position}`
    super('ERR_JQL', `${message}: ${where} in ${JSON.stringify(options.query)}`, {
      hint:
        options.hint ??
        'Supported JQL: field = | != | ~ | !~ | > | >= | < | <= value, field [NOT] IN (a, b), field IS [NOT] EMPTY, AND, OR, NOT, parentheses, bare "text", ORDER BY field ASC|DESC.',
    })
    this.position = options.position
    this.fragment = options.fragment
  }
}
