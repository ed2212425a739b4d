import { describe, expect, it } from 'vitest'
import { ConfigError } from '../core/errors.ts'
import { choiceFlag, FlagValueError, outputFileFlag, wholeNumberFlag } from './flags.ts'

describe('wholeNumberFlag', () => {
  it('parses whole numbers and leaves an absent flag undefined', () => {
    expect(wholeNumberFlag('--limit', '0', { min: 0 })).toBe(0)
    expect(wholeNumberFlag('--seed', '-3')).toBe(-3)
    expect(wholeNumberFlag('--limit', undefined, { min: 0 })).toBeUndefined()
  })

  it.each(['', ' ', '1.5', 'ten', '-1'])('rejects %j for a flag from 0 and up, naming the flag and an example', (value) => {
    expect(() => wholeNumberFlag('--limit', value, { min: 0, example: 20 })).toThrow(FlagValueError)
    expect(() => wholeNumberFlag('--limit', value, { min: 0, example: 20 })).toThrow(ConfigError)
    expect(() => wholeNumberFlag('--limit', value, { min: 0, example: 20 })).toThrow(
      /`--limit` to be a whole number from 0 and up[\s\S]*Pass e\.g\. --limit 20/,
    )
  })
})

describe('choiceFlag', () => {
  it('returns a listed value, leaves an absent flag undefined, and rejects another naming the choices', () => {
    expect(choiceFlag('--split', 'train', ['train', 'test'])).toBe('train')
    expect(choiceFlag('--split', undefined, ['train', 'test'])).toBeUndefined()
    expect(() => choiceFlag('--split', 'dev', ['train', 'test'])).toThrow(FlagValueError)
    expect(() => choiceFlag('--split', 'dev', ['train', 'test'])).toThrow(
      'Expected `--split` to be train or test, got "dev".\n  Fix: Pass --split train or --split test.',
    )
    expect(() => choiceFlag('--mode', 'x', ['a', 'b', 'c'])).toThrow('Expected `--mode` to be one of a, b, c, got "x".')
  })
})

describe('outputFileFlag', () => {
  it('reads --outputFile.NAME=FILE and --outputFile.NAME FILE, returns the index of its last argument, ignores other flags', () => {
    const into: Record<string, string> = {}
    const argv = ['--outputFile.junit=reports/a.xml', '--outputFile.json', 'out.json', '--limit', '3']
    expect(outputFileFlag(argv, 0, into, 'r.xml')).toBe(0)
    expect(outputFileFlag(argv, 1, into, 'r.xml')).toBe(2)
    expect(outputFileFlag(argv, 3, into, 'r.xml')).toBeUndefined()
    expect(into).toEqual({ junit: 'reports/a.xml', json: 'out.json' })
  })

  it('a flag without a file is a FlagValueError with an example', () => {
    expect(() => outputFileFlag(['--outputFile.junit'], 0, {}, 'reports/arte.xml')).toThrow(FlagValueError)
    expect(() => outputFileFlag(['--outputFile.junit='], 0, {}, 'reports/arte.xml')).toThrow('`--outputFile.junit=` needs a file.')
  })
})
