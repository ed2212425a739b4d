/**
 * The few Python behaviours upstream MPCBench's tool backend (`evaluation/tool_backend.py`, commit eb0b7ca) relies
 * on, written out so the `upstream-v1` tools give the same results: `dict.get`, truthiness, `str.split()`, `int(str)`,
 * string order by code point, `json.dumps`, and a `datetime` with a fixed UTC offset or none (naive).
 */
import { pyJsonNumber, pyJsonString } from '../../../core/python-format.ts'

/** Python's `dict.get(key, default)`: the stored value (even `null`) when the key is present, else `fallback`. */
export function pyGet<T>(record: unknown, key: string, fallback: T): unknown {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return fallback
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : fallback
}

/** Python truthiness of a JSON value. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false
  if (Array.isArray(value)) return value.length > 0
  if (typeof value === 'object') return Object.keys(value).length > 0
  return true
}

/**
 * A regex character class of what `str.isspace()` is true for: what `str.split()` splits on and what `\s` matches in
 * Python's `re` (JavaScript's `\s` misses `\x1c`-`\x1f` and `\x85` and adds `\ufeff`).
 */
export const PY_SPACE = '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]'
const PY_WHITESPACE = new RegExp(`${PY_SPACE}+`)

/** Python's `str.split()` without arguments: runs of whitespace, no empty parts. */
export function pySplit(text: string): string[] {
  return text.split(PY_WHITESPACE).filter((part) => part !== '')
}

/** Whitespace Python's `int()` skips around the digits: ASCII ` \t\n\v\f\r` and the non-ASCII `str.isspace()` characters. */
const INT_SPACE = '[ \\t\\n\\v\\f\\r\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*'
const PY_INT = new RegExp(`^${INT_SPACE}([+-]?)(\\p{Nd}+(?:_\\p{Nd}+)*)${INT_SPACE}$`, 'u')
const DECIMAL_DIGIT = /\p{Nd}/u
/** CPython's default `sys.get_int_max_str_digits()`: a longer decimal string raises `ValueError`. */
const MAX_INT_DIGITS = 4300

/**
 * The value of one Unicode decimal digit (category Nd, what Python's `int()` and regex `\d` accept: `'７'` is 7).
 * Unicode encodes each set of decimal digits as a run of ten code points from 0 to 9.
 */
function pyDigitValue(digit: string): number {
  const code = digit.codePointAt(0) as number
  let zero = code
  while (DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero--
  return (code - zero) % 10
}

/** The number a run of Unicode decimal digits spells (`'２０２５'` is 2025). */
export function pyDecimal(digits: string): number {
  let value = 0
  for (const digit of digits) value = value * 10 + pyDigitValue(digit)
  return value
}

/**
 * Python's `int(text)` for a string: optional whitespace and sign, Unicode decimal digits (`'０９'` is 9) with single
 * `_` between them, at most 4,300 digits; else `undefined` (`ValueError`).
 */
export function pyInt(text: string): number | undefined {
  const match = PY_INT.exec(text)
  if (match === null) return undefined
  const digits = (match[2] as string).replaceAll('_', '')
  if (pyLen(digits) > MAX_INT_DIGITS) return undefined
  const value = pyDecimal(digits)
  return match[1] === '-' ? -value : value
}

/** Python's `len(value)`: a string's code points, a list's items, a dict's keys; `TypeError` for anything else. */
export function pyLen(value: unknown): number {
  if (typeof value === 'string') {
    let n = 0
    for (const _ of value) n++
    return n
  }
  if (Array.isArray(value)) return value.length
  if (value !== null && typeof value === 'object') return Object.keys(value).length
  throw new PythonError('TypeError', `object of type '${pyTypeName(value)}' has no len()`)
}

/** What Python's `for item in value` visits: a string's characters, a list's items, a dict's keys; `TypeError` otherwise. */
export function pyIterate(value: unknown): unknown[] {
  if (typeof value === 'string') return [...value]
  if (Array.isArray(value)) return value
  if (value !== null && typeof value === 'object') return Object.keys(value)
  throw new PythonError('TypeError', `'${pyTypeName(value)}' object is not iterable`)
}

/** Python's string order (by code point): negative, zero or positive. */
export function pyCompare(a: string, b: string): number {
  if (a === b) return 0
  const x = [...a]
  const y = [...b]
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!
    if (d !== 0) return d
  }
  return x.length - y.length
}

/** The Python type name of a JSON value (`int` for a whole number: JSON `2.0` arrives here as 2). */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float'
  if (typeof value === 'string') return 'str'
  return Array.isArray(value) ? 'list' : 'dict'
}

function isPyNumber(value: unknown): value is number | boolean {
  return typeof value === 'number' || typeof value === 'boolean'
}

/** Python's `a == b` for JSON values (`True == 1`, `1 == 1.0`, lists and dicts by content). */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (isPyNumber(a) && isPyNumber(b)) return Number(a) === Number(b)
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => pyEquals(item, b[i]))
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a)
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && pyEquals((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
    )
  }
  return a === b
}

/**
 * Python's ordering of two JSON values (`a < b`, `a >= b`, ...): negative, zero or positive. Numbers and bools compare
 * as numbers, strings by code point, lists item by item; anything else raises `TypeError` (`op` names the operator
 * in the message).
 */
export function pyOrder(a: unknown, b: unknown, op = '<'): number {
  if (isPyNumber(a) && isPyNumber(b)) return Math.sign(Number(a) - Number(b)) || 0
  if (typeof a === 'string' && typeof b === 'string') return pyCompare(a, b)
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (!pyEquals(a[i], b[i])) return pyOrder(a[i], b[i], op)
    return a.length - b.length
  }
  throw new PythonError('TypeError', `'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`)
}

/** Upstream's `if limit is not None and limit > 0: items = items[:limit]` (`True` keeps one item; a float above 0 raises). */
export function pyLimit<T>(items: T[], limit: unknown): T[] {
  if (limit === null || limit === undefined || pyOrder(limit, 0, '>') <= 0) return items
  if (typeof limit === 'boolean') return items.slice(0, 1)
  if (!Number.isInteger(limit)) throw new PythonError('TypeError', 'slice indices must be integers or None or have an __index__ method')
  return items.slice(0, limit as number)
}

/** Python's `json.dumps(value, ensure_ascii=False)`: `", "` and `": "` separators, keys in insertion order. */
export function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'string') return pyJsonString(value)
  if (typeof value === 'number') return pyJsonNumber(value)
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined)
  return `{${entries.map(([key, item]) => `${pyJsonString(key)}: ${pyJsonDumps(item)}`).join(', ')}}`
}

const MICROS_PER_DAY = 86_400_000_000
const MICROS_PER_MINUTE = 60_000_000

/**
 * A Python `datetime` with a fixed UTC offset (aware) or none (naive): the wall-clock time in microseconds since
 * 1970-01-01T00:00 (as if UTC) and the offset in microseconds.
 */
export interface PyDateTime {
  readonly wall: number
  readonly offset: number | null
}

/** The Python exceptions upstream's tool backend can raise on a model's arguments. */
export type PythonErrorType = 'ValueError' | 'TypeError' | 'AttributeError' | 'OverflowError'

/** An exception upstream's Python raises (its run then crashes): a bad value, a wrong type, a date out of range. */
export class PythonError extends Error {
  readonly pythonType: PythonErrorType

  constructor(pythonType: PythonErrorType, message: string) {
    super(`${pythonType}: ${message}`)
    this.name = 'PythonError'
    this.pythonType = pythonType
  }
}

function instantOf(dt: PyDateTime): number {
  return dt.offset === null ? dt.wall : dt.wall - dt.offset
}

/** Python's `a < b` etc. for datetimes: negative, zero or positive; a naive and an aware datetime raise `TypeError`. */
export function compareDateTimes(a: PyDateTime, b: PyDateTime): number {
  if ((a.offset === null) !== (b.offset === null)) throw new PythonError('TypeError', "can't compare offset-naive and offset-aware datetimes")
  return instantOf(a) - instantOf(b)
}

/** Python's `max(a, b)`: `a` unless `b` is greater. */
export function maxDateTime(a: PyDateTime, b: PyDateTime): PyDateTime {
  return compareDateTimes(b, a) > 0 ? b : a
}

/** Python's `min(a, b)`: `a` unless `b` is smaller. */
export function minDateTime(a: PyDateTime, b: PyDateTime): PyDateTime {
  return compareDateTimes(b, a) < 0 ? b : a
}

/** `(b - a).total_seconds() / 60`, rounded as Python rounds it (microseconds / 10**6, then / 60). */
export function minutesBetween(a: PyDateTime, b: PyDateTime): number {
  compareDateTimes(a, b)
  return (instantOf(b) - instantOf(a)) / 1_000_000 / 60
}

/** `dt.date()` as days since 1970-01-01 (the wall-clock date, in the datetime's own offset). */
export function dateOf(dt: PyDateTime): number {
  return Math.floor(dt.wall / MICROS_PER_DAY)
}

/** `datetime.combine(day, time(hour, minute)).replace(tzinfo=...)`. */
export function combine(day: number, hour: number, minute: number, offset: number | null): PyDateTime {
  return { wall: day * MICROS_PER_DAY + hour * 3_600_000_000 + minute * MICROS_PER_MINUTE, offset }
}

const MIN_DAY = daysFromCivil(1, 1, 1)
const MAX_DAY = daysFromCivil(9999, 12, 31)

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

/** The inverse of {@link daysFromCivil}. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

/** Whether a day number is a Python `date` (years 1 to 9999). */
export function isPyDay(day: number): boolean {
  return day >= MIN_DAY && day <= MAX_DAY
}

/** Whether year-month-day is a real date. */
export function isValidDate(year: number, month: number, day: number): boolean {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false
  const days = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number
  return day <= days
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0')
}

/** Python's `datetime.isoformat()`: `YYYY-MM-DDTHH:MM:SS[.ffffff][±HH:MM[:SS[.ffffff]]]`. */
export function isoformat(dt: PyDateTime): string {
  const day = dateOf(dt)
  let rest = dt.wall - day * MICROS_PER_DAY
  const { year, month, day: dayOfMonth } = civilFromDays(day)
  const hour = Math.floor(rest / 3_600_000_000)
  rest -= hour * 3_600_000_000
  const minute = Math.floor(rest / MICROS_PER_MINUTE)
  rest -= minute * MICROS_PER_MINUTE
  const second = Math.floor(rest / 1_000_000)
  const micro = rest - second * 1_000_000
  let text = `${pad(year, 4)}-${pad(month)}-${pad(dayOfMonth)}T${pad(hour)}:${pad(minute)}:${pad(second)}`
  if (micro !== 0) text += `.${pad(micro, 6)}`
  if (dt.offset !== null) text += formatOffset(dt.offset)
  return text
}

function formatOffset(offset: number): string {
  const sign = offset < 0 ? '-' : '+'
  let rest = Math.abs(offset)
  const hours = Math.floor(rest / 3_600_000_000)
  rest -= hours * 3_600_000_000
  const minutes = Math.floor(rest / MICROS_PER_MINUTE)
  rest -= minutes * MICROS_PER_MINUTE
  const seconds = Math.floor(rest / 1_000_000)
  const micro = rest - seconds * 1_000_000
  let text = `${sign}${pad(hours)}:${pad(minutes)}`
  if (seconds !== 0 || micro !== 0) text += `:${pad(seconds)}`
  if (micro !== 0) text += `.${pad(micro, 6)}`
  return text
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$|^(\d{4})(\d{2})(\d{2})$/u
const ISO_TIME = /^(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?$/u
const ISO_OFFSET = /^(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,6}))?)?)?$/u

/**
 * Python 3.11+ `datetime.fromisoformat(text)`: a date (`YYYY-MM-DD` or `YYYYMMDD`), optionally any one separator
 * character and a time (`HH[:MM[:SS[.fff]]]`), optionally an offset (`Z`, `±HH[:MM[:SS[.ffffff]]]`).
 * `undefined` where Python raises `ValueError`.
 */
export function fromIsoFormat(text: string): PyDateTime | undefined {
  const chars = [...text]
  if (chars.length < 8) return undefined
  const dateLength = chars[4] === '-' ? 10 : 8
  const date = ISO_DATE.exec(chars.slice(0, dateLength).join(''))
  if (date === null) return undefined
  const year = Number(date[1] ?? date[4])
  const month = Number(date[2] ?? date[5])
  const dayOfMonth = Number(date[3] ?? date[6])
  if (!isValidDate(year, month, dayOfMonth)) return undefined
  const day = daysFromCivil(year, month, dayOfMonth)
  if (chars.length === dateLength) return { wall: day * MICROS_PER_DAY, offset: null }
  if (chars.length < dateLength + 2) return undefined
  const timeText = chars.slice(dateLength + 1).join('')
  const zone = /[+-]|Z/.exec(timeText)
  const clock = zone === null ? timeText : timeText.slice(0, zone.index)
  const time = ISO_TIME.exec(clock)
  if (time === null) return undefined
  const hour = Number(time[1])
  const minute = Number(time[2] ?? 0)
  const second = Number(time[3] ?? 0)
  const micro = time[4] === undefined ? 0 : Number(time[4].slice(0, 6).padEnd(6, '0'))
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const wall = day * MICROS_PER_DAY + hour * 3_600_000_000 + minute * MICROS_PER_MINUTE + second * 1_000_000 + micro
  if (zone === null) return { wall, offset: null }
  const zoneText = timeText.slice(zone.index)
  if (zoneText === 'Z') return { wall, offset: 0 }
  const parts = ISO_OFFSET.exec(zoneText.slice(1))
  if (parts === null) return undefined
  const offsetHours = Number(parts[1])
  const offsetMinutes = Number(parts[2] ?? 0)
  const offsetSeconds = Number(parts[3] ?? 0)
  const offsetMicro = parts[4] === undefined ? 0 : Number(parts[4].padEnd(6, '0'))
  if (offsetHours > 23 || offsetMinutes > 59 || offsetSeconds > 59) return undefined
  const size = offsetHours * 3_600_000_000 + offsetMinutes * MICROS_PER_MINUTE + offsetSeconds * 1_000_000 + offsetMicro
  return { wall, offset: zoneText.startsWith('-') ? -size : size }
}

/** `datetime.now()` (naive, local time of this machine) as a {@link PyDateTime}. */
export function localNow(): PyDateTime {
  const now = new Date()
  return { wall: (now.getTime() - now.getTimezoneOffset() * 60_000) * 1000, offset: null }
}

/** `datetime.now(tz).date()` for a fixed offset, or the local date for `null`; days since 1970-01-01. */
export function today(offset: number | null): number {
  if (offset === null) return dateOf(localNow())
  return dateOf({ wall: Date.now() * 1000 + offset, offset })
}
