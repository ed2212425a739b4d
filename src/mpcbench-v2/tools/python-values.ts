/**
 * The few Python semantics upstream's `SimulatedAPI` leans on, so our tools fail where and as it fails: `dict.get`
 * on a value that is not a dict, an unhashable key, `str.lower` on a value that is not a string, truthiness.
 */

/** A Python exception as upstream's `execute_tool` reports it: `Tool execution failed: <str(e)>`. */
export class PythonError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PythonError'
  }
}

/** Python's type name of a JSON value (`str`, `int`, `float`, `bool`, `NoneType`, `list`, `dict`). */
export function pyType(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float'
  if (typeof value === 'string') return 'str'
  if (Array.isArray(value)) return 'list'
  return 'dict'
}

/** Whether `value` is a Python dict (a JSON object). */
export function isDict(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Python's truthiness of a JSON value. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false
  if (Array.isArray(value)) return value.length > 0
  if (isDict(value)) return Object.keys(value).length > 0
  return true
}

/**
 * `obj.get(key, fallback)`: throws as Python does when `obj` is not a dict or `key` is unhashable (a list or a
 * dict); a key that is not a string finds nothing (JSON object keys are strings).
 */
export function pyGet(obj: unknown, key: unknown, fallback: unknown): unknown {
  if (!isDict(obj)) throw new PythonError(`'${pyType(obj)}' object has no attribute 'get'`)
  if (Array.isArray(key) || isDict(key)) throw new PythonError(`unhashable type: '${pyType(key)}'`)
  return typeof key === 'string' && Object.hasOwn(obj, key) ? obj[key] : fallback
}

/** `value.lower()`. */
export function pyLower(value: unknown): string {
  if (typeof value !== 'string') throw new PythonError(`'${pyType(value)}' object has no attribute 'lower'`)
  return value.toLowerCase()
}

/** Python's `str()` of a JSON scalar as an f-string writes it (`None`, `True`, `3`). */
export function pyStr(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return 'None'
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  return String(value)
}
