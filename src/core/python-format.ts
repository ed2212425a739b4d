/**
 * How Python writes a JSON value, for the text upstream MPCBench produces: `str()` and `repr()` (v1's tool trace
 * steps), `json.dumps(value, indent=2, ensure_ascii=False)` (v1's judge input) and `json.dumps(value,
 * ensure_ascii=False)` (v2's tool messages and results rows). A JavaScript number is taken as Python's `json.load`
 * would read our JSON of it: an integer below 1e21 is an `int`, any other number a `float`. A {@link PythonNumber} is
 * written as Python holds it (a model's `45.0` stays `45.0`; {@link pyFloat} marks a computed float such as a metric).
 */

/**
 * A number as Python's `json.loads` read it from its literal, where a JavaScript number would be written otherwise:
 * a float with an integral value (`45.0`, `1e+20`, `-0.0`) or an int a double does not hold exactly (beyond 2^53, or
 * from 1e21). See {@link pyNumberFromLiteral}.
 */
export class PythonNumber {
  /** The nearest JavaScript number. */
  readonly value: number
  /** How Python writes it: its `repr()`, which is also its `json.dumps`. */
  readonly python: string

  constructor(value: number, python: string) {
    this.value = value
    this.python = python
  }

  /** Whether Python holds it as a `float` (else an `int`). */
  get isFloat(): boolean {
    return !/^-?[0-9]+$/.test(this.python)
  }
}

/** Python's `repr()` of a float: the shortest round-trip digits, exponent form below 1e-4 or from 1e16 up. */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan'
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf'
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0'
  const [mantissa = '', exponent = '0'] = Math.abs(value).toExponential().split('e')
  const digits = mantissa.replace('.', '')
  const point = Number(exponent) + 1
  const sign = value < 0 ? '-' : ''
  if (point <= -4 || point > 16) {
    const e = point - 1
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/** A number Python holds as a `float` (`1.0`, `0.3333333333333333`), e.g. a metric upstream computes by division. */
export function pyFloat(value: number): PythonNumber {
  return new PythonNumber(value, Number.isFinite(value) ? pyFloatRepr(value) : pyJsonNumber(value))
}

function isPyInt(value: number): boolean {
  return Number.isInteger(value) && Math.abs(value) < 1e21
}

/** Characters Python's `str.isprintable()` is false for (Unicode C* and Z* categories, except the space). */
const NOT_PRINTABLE = /^[\p{C}\p{Z}]$/u

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0')
}

/** Python's `repr()` of a string: single quotes unless it holds `'` and no `"`, non-printable characters escaped. */
export function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'"
  let out = quote
  for (const ch of text) {
    const code = ch.codePointAt(0) as number
    if (ch === quote || ch === '\\') out += `\\${ch}`
    else if (ch === '\t') out += '\\t'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`
    else if (code < 0x7f || ch === ' ' || !NOT_PRINTABLE.test(ch)) out += ch
    else if (code <= 0xff) out += `\\x${hex(code, 2)}`
    else if (code <= 0xffff) out += `\\u${hex(code, 4)}`
    else out += `\\U${hex(code, 8)}`
  }
  return out + quote
}

/** Python's `repr()` of a JSON value: `None`, `True`, `['a', 1]`, `{'k': 2.5}`. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (typeof value === 'number') return isPyInt(value) ? String(value === 0 ? 0 : value) : pyFloatRepr(value)
  if (value instanceof PythonNumber) return value.python
  if (typeof value === 'string') return pyStringRepr(value)
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined)
    return `{${entries.map(([key, item]) => `${pyStringRepr(key)}: ${pyRepr(item)}`).join(', ')}}`
  }
  return String(value)
}

/** Python's `str()` of a JSON value (what an f-string prints): a string as it is, anything else as {@link pyRepr}. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value)
}

/** A JSON string as Python's `json.dumps(..., ensure_ascii=False)` writes it: like `JSON.stringify`, but a lone surrogate is written as it is. */
export function pyJsonString(text: string): string {
  return JSON.stringify(text).replace(/\\\\|\\u(d[89a-f][0-9a-f]{2})/g, (match, surrogate: string | undefined) =>
    surrogate === undefined ? match : String.fromCharCode(Number.parseInt(surrogate, 16)),
  )
}

/** A number as Python's `json.dumps` writes it (see the file comment): `NaN`, `Infinity`, an `int`, or a float's `repr()`. */
export function pyJsonNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity'
  return isPyInt(value) ? String(value === 0 ? 0 : value) : pyFloatRepr(value)
}

/**
 * The number Python's `json.loads` reads from a JSON number literal (`45`, `45.0`, `1E+2`): a float when the literal
 * has a fraction or an exponent, else an int. A JavaScript number when {@link pyJsonNumber} writes it as Python would,
 * else a {@link PythonNumber} (`45.0`, `100.0` for `1E+2`, `-0.0`, an exact `9007199254740993`).
 */
export function pyNumberFromLiteral(literal: string): number | PythonNumber {
  const value = Number(literal)
  if (/[.eE]/.test(literal)) {
    if (!Number.isFinite(value)) return value
    const python = pyFloatRepr(value)
    return pyJsonNumber(value) === python ? value : new PythonNumber(value, python)
  }
  const python = BigInt(literal).toString()
  return pyJsonNumber(value) === python ? value + 0 : new PythonNumber(value, python)
}

/**
 * Python's `json.dumps(value, ensure_ascii=False)`, with `indent` as Python's: without it one line, `", "` between
 * items and `": "` after keys; with it `,` at line ends and each item on its own line. `[]` and `{}` for empty
 * containers, keys in insertion order, numbers as Python reads them (see the file comment). Keys whose value is
 * `undefined` are left out, as `JSON.stringify` does.
 */
export function pyJsonDumps(value: unknown, indent?: number): string {
  const write = (item: unknown, depth: number): string => {
    if (item === null || item === undefined) return 'null'
    if (typeof item === 'boolean') return item ? 'true' : 'false'
    if (typeof item === 'number') return pyJsonNumber(item)
    if (typeof item === 'string') return pyJsonString(item)
    if (item instanceof PythonNumber) return item.python
    const inner = indent === undefined ? '' : `\n${' '.repeat(indent * (depth + 1))}`
    const outer = indent === undefined ? '' : `\n${' '.repeat(indent * depth)}`
    const separator = indent === undefined ? ', ' : `,${inner}`
    if (Array.isArray(item)) {
      if (item.length === 0) return '[]'
      return `[${inner}${item.map((element) => write(element, depth + 1)).join(separator)}${outer}]`
    }
    const entries = Object.entries(item as Record<string, unknown>).filter(([, element]) => element !== undefined)
    if (entries.length === 0) return '{}'
    return `{${inner}${entries.map(([key, element]) => `${pyJsonString(key)}: ${write(element, depth + 1)}`).join(separator)}${outer}}`
  }
  return write(value, 0)
}

/** Python's `json.dumps(value, indent=2, ensure_ascii=False)`, as upstream writes its judge input (see {@link pyJsonDumps}). */
export function pyJsonDumpsIndented(value: unknown, indent = 2): string {
  return pyJsonDumps(value, indent)
}
