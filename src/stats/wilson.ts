import { type BootstrapOptions, type ConfidenceInterval, DEFAULT_LEVEL, roundEnd } from './bootstrap.ts'

/**
 * The Wilson score interval of a proportion, `successes` of `n` tasks (Wilson 1927, no continuity correction), at
 * `options.level` (default 0.95; z from the normal quantile, 1.959964 at 0.95): the interval for the share of 0/1
 * task outcomes. A percentile bootstrap of 0/1 values collapses to `[p, p]` when every task passed or failed, or with
 * one task (0/10 reads 0.000 [0.000, 0.000]; Wilson gives [0, 0.2775]), and covers the true rate less often than it
 * claims (at 10 tasks and a rate of 0.95, 41% of the time for a 95% interval; Wilson 92%). It always contains
 * successes / n; the ends are rounded to 6 decimals, as the bootstrap's are. `null` for no tasks.
 */
export function wilsonInterval(successes: number, n: number, options: Pick<BootstrapOptions, 'level'> = {}): ConfidenceInterval | null {
  const level = options.level ?? DEFAULT_LEVEL
  if (n === 0) return null
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`wilsonInterval needs whole numbers 0 <= successes <= n (got ${successes} of ${n})`)
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`wilsonInterval needs a level between 0 and 1 (got ${level})`)
  const z = normalQuantile(1 - (1 - level) / 2)
  const p = successes / n
  const z2n = (z * z) / n
  const center = (p + z2n / 2) / (1 + z2n)
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + z2n)
  return {
    // At 0 or n successes one end is exactly 0 or 1; computed, it would be a rounding error away.
    low: successes === 0 ? 0 : roundEnd(Math.max(0, center - half)),
    high: successes === n ? 1 : roundEnd(Math.min(1, center + half)),
    level,
    method: `Wilson score interval over ${n} task(s)`,
  }
}

/** {@link wilsonInterval} of 0/1 values, one per task: how many are 1, of how many. */
export function wilsonIntervalOf(values: ReadonlyArray<number>, options: Pick<BootstrapOptions, 'level'> = {}): ConfidenceInterval | null {
  let successes = 0
  for (const value of values) {
    if (value !== 0 && value !== 1) throw new RangeError(`wilsonIntervalOf needs 0/1 values (got ${value})`)
    successes += value
  }
  return wilsonInterval(successes, values.length, options)
}

// Wichura's AS 241 (PPND16) coefficients, lowest power first: numerator and denominator of each rational function.
const CENTRAL = [
  [
    3.387132872796366608, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125, 45921.953931549871457, 67265.770927008700853,
    33430.575583588128105, 2509.0809287301226727,
  ],
  [
    1, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077, 21213.794301586595867, 39307.89580009271061, 28729.085735721942674,
    5226.495278852854561,
  ],
] as const
const INTERMEDIATE = [
  [
    1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504, 1.27045825245236838258, 0.24178072517745061177,
    0.0227238449892691845833, 7.7454501427834140764e-4,
  ],
  [
    1, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455, 0.14810397642748007459, 0.0151986665636164571966, 5.475938084995344946e-4,
    1.05075007164441684324e-9,
  ],
] as const
const TAIL = [
  [
    6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123, 0.026532189526576123093, 0.0012426609473880784386,
    2.71155556874348757815e-5, 2.01033439929228813265e-7,
  ],
  [
    1, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525, 7.868691311456132591e-4, 1.8463183175100546818e-5, 1.4215117583164458887e-7,
    2.04426310338993978564e-15,
  ],
] as const

/** The polynomial with these coefficients (lowest power first) at x, by Horner's rule. */
function polynomial(coefficients: ReadonlyArray<number>, x: number): number {
  let out = 0
  for (let i = coefficients.length - 1; i >= 0; i--) out = out * x + (coefficients[i] as number)
  return out
}

/** `scale` times the ratio of the two polynomials at x (scaled before dividing, as AS 241 does). */
function rational([numerator, denominator]: readonly [ReadonlyArray<number>, ReadonlyArray<number>], x: number, scale = 1): number {
  return (scale * polynomial(numerator, x)) / polynomial(denominator, x)
}

/**
 * The standard normal quantile at `p` (0 < p < 1), by Wichura's algorithm AS 241 (PPND16), accurate to about 1e-16:
 * `normalQuantile(0.975)` is 1.959963984540054.
 */
export function normalQuantile(p: number): number {
  const q = p - 0.5
  if (Math.abs(q) <= 0.425) return rational(CENTRAL, 0.180625 - q * q, q)
  const r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p))
  const value = r <= 5 ? rational(INTERMEDIATE, r - 1.6) : rational(TAIL, r - 5)
  return q < 0 ? -value : value
}
