import { parseWholeNumber } from '../core/parse-whole-number.ts'
import { FlagValueError } from './flag-value-error.ts'

export { FlagValueError }

/**
 * Parses a whole-number flag value; `undefined` when the flag was not given.
 * A value that is not a whole number of at least `min` is a {@link FlagValueError} naming the flag and an example.
 */
export function wholeNumberFlag(flag: string, value: string | undefined, options: { min?: number; example?: number } = {}): number | undefined {
  if (value === undefined) return undefined
  const min = options.min ?? Number.NEGATIVE_INFINITY
  const number = parseWholeNumber(value, min)
  if (number === undefined) {
    const range = Number.isFinite(min) ? ` from ${min} and up` : ''
    throw new FlagValueError(`Expected \`${flag}\` to be a whole number${range}, got ${JSON.stringify(value)}.`, {
      hint: `Pass e.g. ${flag} ${options.example ?? Math.max(Number.isFinite(min) ? min : 0, 1)}.`,
    })
  }
  return number
}

/**
 * Checks a flag that takes one of `choices`; `undefined` when the flag was not given. Another value is a
 * {@link FlagValueError} listing the choices.
 */
export function choiceFlag<const C extends string>(flag: string, value: string | undefined, choices: ReadonlyArray<C>): C | undefined {
  if (value === undefined) return undefined
  if ((choices as ReadonlyArray<string>).includes(value)) return value as C
  const listed = choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(', ')}`
  throw new FlagValueError(`Expected \`${flag}\` to be ${listed}, got ${JSON.stringify(value)}.`, {
    hint: `Pass ${choices.map((choice) => `${flag} ${choice}`).join(' or ')}.`,
  })
}

/**
 * Reads Vitest's `--outputFile.NAME=FILE` (or `--outputFile.NAME FILE`) at `argv[at]` into `into[NAME]`. Returns the
 * index of the flag's last argument, or `undefined` when `argv[at]` is no such flag. A missing file is a
 * {@link FlagValueError} with an example (`example`: e.g. `reports/arte.xml`).
 */
export function outputFileFlag(argv: ReadonlyArray<string>, at: number, into: Record<string, string>, example: string): number | undefined {
  const arg = argv[at] ?? ''
  const match = /^--outputFile\.([\w-]+)(?:=(.*))?$/.exec(arg)
  if (match === null) return undefined
  const last = match[2] === undefined ? at + 1 : at
  const value = match[2] ?? argv[last]
  if (value === undefined || value === '') throw new FlagValueError(`\`${arg}\` needs a file.`, { hint: `Pass e.g. --outputFile.${match[1]}=${example}` })
  into[match[1] ?? ''] = value
  return last
}
