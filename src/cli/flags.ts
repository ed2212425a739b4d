import { ConfigError } from '../core/errors.ts'
import { parseWholeNumber } from '../core/whole-number.ts'

/**
 * Parses a whole-number flag value; `undefined` when the flag was not given.
 * A value that is not a whole number of at least `min` is a {@link ConfigError} naming the flag and an example.
 */
export function wholeNumberFlag(flag: string, value: string | undefined, options: { min?: number; example?: number } = {}): number | undefined {
  if (value === undefined) return undefined
  const min = options.min ?? Number.NEGATIVE_INFINITY
  const number = parseWholeNumber(value, min)
  if (number === undefined) {
    const range = Number.isFinite(min) ? ` from ${min} and up` : ''
    throw new ConfigError(`Expected \`${flag}\` to be a whole number${range}, got ${JSON.stringify(value)}.`, {
      hint: `Pass e.g. ${flag} ${options.example ?? Math.max(Number.isFinite(min) ? min : 0, 1)}.`,
    })
  }
  return number
}
