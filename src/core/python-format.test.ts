import { describe, expect, it } from 'vitest'
import { PythonNumber, pyFloat, pyFloatRepr, pyJsonDumps, pyJsonDumpsIndented, pyNumberFromLiteral, pyRepr, pyStr, pyStringRepr } from './python-format.ts'

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

describe('pyNumberFromLiteral', () => {
  it.each([
    ['45.0', '45.0'],
    ['1E+2', '100.0'],
    ['1e20', '1e+20'],
    ['1e16', '1e+16'],
    ['-0.0', '-0.0'],
    ['1.5', '1.5'],
    ['1e400', 'Infinity'],
    ['45', '45'],
    ['-0', '0'],
    ['9007199254740993', '9007199254740993'],
    ['1000000000000000000000', '1000000000000000000000'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
  ])('json.dumps(json.loads(%s)) is %s', (literal, expected) => {
    expect(pyJsonDumps(pyNumberFromLiteral(literal))).toBe(expected)
  })

  it('keeps a JavaScript number where it writes as Python does, and says int from float', () => {
    expect(pyNumberFromLiteral('1.5')).toBe(1.5)
    expect(pyNumberFromLiteral('45')).toBe(45)
    expect(Object.is(pyNumberFromLiteral('-0'), 0)).toBe(true)
    expect(pyNumberFromLiteral('45.0')).toEqual(new PythonNumber(45, '45.0'))
    expect((pyNumberFromLiteral('45.0') as PythonNumber).isFloat).toBe(true)
    expect((pyNumberFromLiteral('9007199254740993') as PythonNumber).isFloat).toBe(false)
  })

  it('writes a PythonNumber in repr() and str() as Python does', () => {
    expect(pyRepr({ minutes: new PythonNumber(45, '45.0') })).toBe("{'minutes': 45.0}")
    expect(pyStr(new PythonNumber(12, '12.0'))).toBe('12.0')
  })
})

describe('pyJsonDumps', () => {
  it('writes json.dumps(ensure_ascii=False) on one line, and indented with an indent', () => {
    const value = { a: [1, new PythonNumber(45, '45.0'), { b: null }], c: {}, d: [], e: ['é', '\x01'] }
    expect(pyJsonDumps(value)).toBe('{"a": [1, 45.0, {"b": null}], "c": {}, "d": [], "e": ["é", "\\u0001"]}')
    expect(pyJsonDumps([new PythonNumber(45, '45.0')], 2)).toBe('[\n  45.0\n]')
    expect(pyJsonDumpsIndented({ a: [1, 2] })).toBe(pyJsonDumps({ a: [1, 2] }, 2))
  })
})

describe('pyFloat', () => {
  it('writes a computed float as Python does, an integral one with its .0, and not a number as json.dumps does', () => {
    expect(pyJsonDumps({ f1: pyFloat(1), precision: pyFloat(2 / 3), recall: pyFloat(0) })).toBe('{"f1": 1.0, "precision": 0.6666666666666666, "recall": 0.0}')
    expect(pyJsonDumps([pyFloat(Number.NaN), pyFloat(Number.POSITIVE_INFINITY)])).toBe('[NaN, Infinity]')
  })

  it('leaves an int as an int up to 1e21, as json.loads reads our JSON of it', () => {
    expect(pyJsonDumps([1e17, 1e21])).toBe('[100000000000000000, 1e+21]')
  })
})
