import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { InvalidFormatError } from '../../core/errors.ts'
import { FIXTURE_SOURCES } from './fixture-sources.ts'
import { MAX_JQL_DEPTH, parseJql } from './jql/parser.ts'
import { JqlError } from './jql/jql-error.ts'
import { MAX_SLACK_QUERY_DEPTH, parseSlackQuery } from './slack-query.ts'
import { isRealDate as isCalendarDate } from '../../time/calendar.ts'
import { loadWorkplace, sourceFilePath } from './workplace.ts'

const tmp = mkdtempSync(join(tmpdir(), 'query-limits-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function workplace() {
  const dir = join(tmp, 'data')
  mkdirSync(dir, { recursive: true })
  for (const [source, data] of Object.entries(FIXTURE_SOURCES)) writeFileSync(join(dir, `acme_${source}.json`), JSON.stringify(data))
  return loadWorkplace(dir, 'acme')
}

function message(fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected an error')
}

describe('Slack dates are validated', () => {
  it('rejects dates that do not exist instead of rolling them over', () => {
    const place = workplace()
    expect(isCalendarDate('2025-02-28')).toBe(true)
    expect(isCalendarDate('2024-02-29')).toBe(true)
    expect(isCalendarDate('2025-02-29')).toBe(false)
    expect(message(() => parseSlackQuery('after:2025-13-45', place))).toMatch(/after:2025-13-45 is not a calendar date/)
    expect(message(() => parseSlackQuery('launch before:2025-02-31', place))).toMatch(/before:2025-02-31 is not a calendar date/)
    expect(parseSlackQuery('on:2025-02-28', place).from).toBeGreaterThan(0)
  })
})

describe('deep nesting is rejected with a clear limit', () => {
  it('JQL: 5,000 nested parentheses give a JqlError naming the limit, not a stack overflow', () => {
    const deep = `${'('.repeat(5000)}status = Done${')'.repeat(5000)}`
    const error = (() => {
      try {
        parseJql(deep)
      } catch (e) {
        return e
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(JqlError)
    expect((error as Error).message).toMatch(new RegExp(`Nesting too deep: more than ${MAX_JQL_DEPTH} levels`))
    expect(parseJql(`${'('.repeat(MAX_JQL_DEPTH)}status = Done${')'.repeat(MAX_JQL_DEPTH)}`).where).toMatchObject({ kind: 'clause' })
    expect(message(() => parseJql(`${'NOT '.repeat(500)}status = Done`))).toMatch(/Nesting too deep/)
    expect(message(() => parseJql(Array.from({ length: 3000 }, () => 'status = Done').join(' AND ')))).toMatch(/Query too long/)
  })

  it('Slack: deep parentheses are rejected with the limit', () => {
    const place = workplace()
    expect(message(() => parseSlackQuery(`${'('.repeat(5000)}launch${')'.repeat(5000)}`, place))).toMatch(
      new RegExp(`more than ${MAX_SLACK_QUERY_DEPTH} levels`),
    )
  })
})

describe('paths built from task data stay inside their root', () => {
  it('a scenario id with a path is rejected', () => {
    expect(() => sourceFilePath(tmp, '../../x/evil', 'slack')).toThrow(InvalidFormatError)
    expect(() => sourceFilePath(tmp, '..', 'slack')).toThrow(/not a plain name/)
    expect(sourceFilePath(tmp, 'acme', 'slack')).toBe(join(tmp, 'acme_slack.json'))
  })
})
