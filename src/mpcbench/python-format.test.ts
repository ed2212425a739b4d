import { describe, expect, it } from 'vitest'
import { pyFloatRepr, pyJsonDumpsIndented, pyRepr, pyStr, pyStringRepr } from './python-format.ts'

// Every expected string below is what Python 3.11 printed for the same value (`repr`, `str`, `json.dumps`).

describe('pyFloatRepr', () => {
  it.each([
    [1.5, '1.5'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e-4, '0.0001'],
    [1e-5, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [1e15 + 0.5, '1000000000000000.5'],
    [1e21, '1e+21'],
    [1.2345678901234567e25, '1.2345678901234566e+25'],
    [-3.25e-10, '-3.25e-10'],
    [5e-324, '5e-324'],
    [1 / 3, '0.3333333333333333'],
    [16, '16.0'],
  ])('%s is %s', (value, expected) => {
    expect(pyFloatRepr(value)).toBe(expected)
  })
})

describe('pyStringRepr', () => {
  it.each([
    ["it's", `"it's"`],
    ['say "hi"', `'say "hi"'`],
    [`both ' and "`, `'both \\' and "'`],
    ['tab\there\nnl\r', "'tab\\there\\nnl\\r'"],
    ['\x00\x1f\x7f', "'\\x00\\x1f\\x7f'"],
    ['\x80\xa0\xad é', "'\\x80\\xa0\\xad é'"],
    ['\u2028\u200b\ufeff\u3000', "'\\u2028\\u200b\\ufeff\\u3000'"],
    ['日本 😀', "'日本 😀'"],
    ['\ue000\u{e0001}', "'\\ue000\\U000e0001'"],
    ['back\\slash', "'back\\\\slash'"],
    ['\ud800', "'\\ud800'"],
  ])('%j is %s', (text, expected) => {
    expect(pyStringRepr(text)).toBe(expected)
  })
})

describe('pyRepr and pyStr', () => {
  const value = { a: [], b: {}, c: [1, 'é', null, true, 0.5, 1e-5], d: { e: '\x01"\\' } }

  it('writes lists, dicts, None, True and floats as Python does', () => {
    expect(pyRepr(value)).toBe(`{'a': [], 'b': {}, 'c': [1, 'é', None, True, 0.5, 1e-05], 'd': {'e': '\\x01"\\\\'}}`)
    expect(pyRepr(['a@x.com', "o'b@x.com"])).toBe(`['a@x.com', "o'b@x.com"]`)
  })

  it('prints a string as it is and anything else as its repr', () => {
    expect(pyStr("it's")).toBe("it's")
    expect(pyStr(null)).toBe('None')
    expect(pyStr(false)).toBe('False')
    expect(pyStr(45)).toBe('45')
    expect(pyStr(['a'])).toBe("['a']")
  })
})

describe('pyJsonDumpsIndented', () => {
  it('writes json.dumps(indent=2, ensure_ascii=False)', () => {
    const value = { a: [], b: {}, c: [1, 'é', null, true, 0.5, 1e-5], d: { e: '\x01"\\' } }
    expect(pyJsonDumpsIndented(value)).toBe(
      '{\n  "a": [],\n  "b": {},\n  "c": [\n    1,\n    "é",\n    null,\n    true,\n    0.5,\n    1e-05\n  ],\n  "d": {\n    "e": "\\u0001\\"\\\\"\n  }\n}',
    )
  })

  it('writes a lone surrogate as it is, as Python does with ensure_ascii=False', () => {
    expect(pyJsonDumpsIndented(['\ud800'])).toBe('[\n  "\ud800"\n]')
    expect(pyJsonDumpsIndented(['\\ud800'])).toBe('[\n  "\\\\ud800"\n]')
  })

  it('leaves out keys whose value is undefined, as JSON.stringify does', () => {
    expect(pyJsonDumpsIndented({ a: undefined, b: 1 })).toBe('{\n  "b": 1\n}')
  })
})
