import { z } from 'zod'

type Env = Record<string, string | undefined>

/**
 * Default `BENCH_TEST_TIME_SCALE`. The repository's own timeouts are written for an idle 2-core machine; a shared CI
 * runner is not idle: at a load of about 8 on two cores (six processes competing) a child-process test takes about
 * three times its idle wall time, so the default multiplies every timeout by 3. A timeout is an upper bound that only
 * a hanging test reaches, so a wide one costs nothing while the tests pass.
 */
export const DEFAULT_TEST_TIME_SCALE = 3

/**
 * The repository's test-time variable (not read by the package): `BENCH_TEST_TIME_SCALE`, a number > 0 that
 * multiplies the unit and package projects' test and hook timeouts and the waits of tests that exercise timeouts
 * (see docs/contributing.md). Raise it on a machine busier than a load of 8 on two cores; 1 keeps the idle values.
 */
export const TestTimeScaleEnvSchema = z.object({
  BENCH_TEST_TIME_SCALE: z.coerce.number({ error: 'expected a number > 0' }).positive('expected a number > 0').default(DEFAULT_TEST_TIME_SCALE),
})

/** `BENCH_TEST_TIME_SCALE` of `env` (unset or blank: {@link DEFAULT_TEST_TIME_SCALE}); a bad value throws, naming the variable and the fix. */
export function testTimeScale(env: Env = process.env): number {
  const raw = env.BENCH_TEST_TIME_SCALE?.trim()
  const parsed = TestTimeScaleEnvSchema.safeParse({ BENCH_TEST_TIME_SCALE: raw === '' ? undefined : raw })
  if (parsed.success) return parsed.data.BENCH_TEST_TIME_SCALE
  throw new Error(
    `Invalid BENCH_TEST_TIME_SCALE=${JSON.stringify(raw)}: ${parsed.error.issues[0]?.message ?? 'invalid value'}.\n  Fix: Set BENCH_TEST_TIME_SCALE to a number > 0 (e.g. 5 on a very busy machine), or unset it for ${DEFAULT_TEST_TIME_SCALE}.`,
  )
}

/** `ms` (written for an idle machine) times {@link testTimeScale}, rounded to whole milliseconds. */
export function scaledMs(ms: number, env: Env = process.env): number {
  return Math.round(ms * testTimeScale(env))
}
