import { describe, expect, it } from 'vitest'
import { parseWholeNumber, wholeNumberText } from './whole-number.ts'

describe('parseWholeNumber', () => {
  it('reads digits with an optional sign, surrounding spaces allowed', () => {
    expect(parseWholeNumber(' 42 ')).toBe(42)
    expect(parseWholeNumber('-7')).toBe(-7)
    expect(parseWholeNumber('007', 1)).toBe(7)
  })

  it('refuses what is not plainly a whole number, and values below the minimum', () => {
    for (const text of ['', ' ', '1e3', '2.0', '0x10', 'three', '1_000', '99999999999999999999']) expect(parseWholeNumber(text), text).toBeUndefined()
    expect(parseWholeNumber('0', 1)).toBeUndefined()
    expect(parseWholeNumber('-1', 0)).toBeUndefined()
  })

  it('gives zod schemas the same reading and a message naming the bound', () => {
    expect(wholeNumberText(1).parse('3')).toBe(3)
    expect(wholeNumberText(1).safeParse('0').error?.issues[0]?.message).toBe('expected a whole number >= 1')
  })
})
