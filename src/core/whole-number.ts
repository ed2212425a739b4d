import { z } from 'zod'

/**
 * The one reader of whole numbers written as text (flags, environment variables): digits with an optional minus
 * sign, surrounding spaces allowed; `1e3`, `2.0`, `0x10` and `''` are not whole numbers here. `undefined` when `text`
 * is not one, or is below `min`.
 */
export function parseWholeNumber(text: string, min = Number.NEGATIVE_INFINITY): number | undefined {
  const trimmed = text.trim()
  if (!/^-?\d+$/.test(trimmed)) return undefined
  const number = Number(trimmed)
  return Number.isSafeInteger(number) && number >= min ? number : undefined
}

/** A zod schema of a whole number of at least `min` written as text (an environment variable), read by {@link parseWholeNumber}. */
export function wholeNumberText(min: number) {
  return z.string().transform((text, context) => {
    const number = parseWholeNumber(text, min)
    if (number === undefined) {
      context.addIssue({ code: 'custom', message: `expected a whole number >= ${min}` })
      return z.NEVER
    }
    return number
  })
}
