/**
 * Python's `json.dumps(value, ensure_ascii=False)`, the text of every tool message and results row upstream MPCBench
 * v2 writes: `", "` between items, `": "` after keys, keys in insertion order, non-ASCII characters as they are.
 * A JavaScript number is written as Python would write the value `json.loads` read from our JSON of it: an integer
 * as an `int` (upstream's data holds no floats); {@link PyFloat} marks a value Python holds as a `float` (`1.0`).
 */

/** A number Python holds as a `float`, written in Python's `repr()` (`1.0`, `0.3333333333333333`). */
export class PyFloat {
  readonly value: number
  constructor(value: number) {
    this.value = value
  }
}

/** Python's `repr()` of a float (shortest round-trip digits; exponent form below 1e-4 and from 1e16). */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity'
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

function number(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value === 0 ? 0 : value)
  return pyFloatRepr(value)
}

/** See the file comment. `undefined` values of object keys are left out, as `JSON.stringify` does. */
export function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (value instanceof PyFloat) return pyFloatRepr(value.value)
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') return number(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined)
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pyJsonDumps(item)}`).join(', ')}}`
}
