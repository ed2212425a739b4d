import { z } from 'zod'
import { parseWholeNumber } from './parse-whole-number.ts'

export { parseWholeNumber }

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
