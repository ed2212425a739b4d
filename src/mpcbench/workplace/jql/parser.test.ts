import { describe, expect, it } from 'vitest'
import { JqlError } from './jql-error.ts'
import { parseJql } from './parser.ts'

function jqlError(query: string): JqlError {
  try {
    parseJql(query)
  } catch (error) {
    if (error instanceof JqlError) return error
    throw error
  }
  throw new Error(`expected ${query} to fail`)
}

describe('parseJql', () => {
  it('gives AND precedence over OR and honours parentheses', () => {
    const clause = (field: string, text: string) => ({ kind: 'clause', field, op: '=', values: [expect.objectContaining({ text })], pos: expect.any(Number) })
    expect(parseJql('project = APP OR status = Done AND priority = High').where).toEqual({
      kind: 'or',
      left: clause('project', 'APP'),
      right: { kind: 'and', left: clause('status', 'Done'), right: clause('priority', 'High') },
    })
    expect(parseJql('(project = APP OR status = Done) AND priority = High').where).toMatchObject({ kind: 'and', left: { kind: 'or' } })
  })

  it('reads IN lists, IS EMPTY, NOT, field aliases, functions, bare text and ORDER BY', () => {
    const parsed = parseJql('issuekey in (APP-1, "APP-2") and fixVersion is not empty and not type = Bug and "feature x" ORDER BY updated DESC, key')
    expect(parsed.orderBy).toEqual([
      { field: 'updated', direction: 'desc' },
      { field: 'key', direction: 'asc' },
    ])
    expect(JSON.stringify(parsed.where)).toContain('"field":"key","op":"in"')
    expect(JSON.stringify(parsed.where)).toContain('"field":"fixVersion","op":"is not empty"')
    expect(JSON.stringify(parsed.where)).toContain('"kind":"not","expr":{"kind":"clause","field":"issuetype"')
    expect(JSON.stringify(parsed.where)).toContain('"field":"text","op":"~","values":[{"text":"feature x","quoted":true')
    expect(parseJql('updated >= startOfDay()').where).toMatchObject({ values: [{ text: 'startofday()' }] })
    expect(parseJql('ORDER BY created').where).toBeUndefined()
    expect(parseJql('').where).toBeUndefined()
  })

  it.each([
    ['sprint = 5', 'Unsupported field', 0, 'sprint'],
    ['project = APP AND assignee WAS alice', 'Unsupported operator WAS', 27, 'WAS'],
    ['assignee = currentUser()', 'Unsupported function currentUser()', 11, 'currentUser'],
    ['project = APP && status = Done', 'Unsupported character', 14, '&'],
    ['(project = APP', 'Expected `)` to close the parenthesis opened', 0, '('],
    ['project = APP)', 'Unbalanced parenthesis', 13, ')'],
    ['summary ~ "unterminated', 'Unterminated string', 10, '"unterminated'],
    ['status IN (Done', 'Expected `,` or `)` in the IN list', 15, ''],
    ['project = APP ORDER BY text', 'Unsupported ORDER BY field', 23, 'text'],
    ['status =', 'Expected a value', 8, ''],
  ])('%s fails: %s at %i', (query, message, position, fragment) => {
    const error = jqlError(query)
    expect(error.code).toBe('ERR_JQL')
    expect(error.message).toContain(message)
    expect(error.position).toBe(position)
    expect(error.fragment).toBe(fragment)
    expect(error.hint).not.toBe('')
  })
})
