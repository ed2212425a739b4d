import { z } from 'zod'
import { ConfigError } from './errors.ts'
import { wholeNumberText } from './whole-number.ts'

/**
 * Default milliseconds one bench test may run, `BENCH_TEST_TIMEOUT_MS`: an MPCBench test's agent run and its judges
 * together, or an ART-E task. Upstream MPCBench has no limit, and a test cut short has no LLM score (its judges get no
 * time), so the limit must not end a run that upstream would finish: 50 turns of a reasoning model at half a minute
 * each, then the judges, fit in 30 minutes. It bounds a stuck test only; each model call is bounded on its own
 * (`BENCH_LLM_TIMEOUT_MS`, `BENCH_LLM_MAX_RETRIES`).
 */
export const DEFAULT_BENCH_TEST_TIMEOUT_MS = 1_800_000

const TestTimeoutSchema = wholeNumberText(0).default(DEFAULT_BENCH_TEST_TIMEOUT_MS)

/** `BENCH_TEST_TIMEOUT_MS` as a settings schema (read by {@link benchTestTimeoutMs}; listed in docs/settings.md). */
export const BenchTestTimeoutEnvSchema = z.object({ BENCH_TEST_TIMEOUT_MS: TestTimeoutSchema })

/**
 * `BENCH_TEST_TIMEOUT_MS` for `testTimeout` of the bench project in a Vitest config: milliseconds one test may run
 * (default {@link DEFAULT_BENCH_TEST_TIMEOUT_MS}; 0 = no limit, as upstream MPCBench). Each model call of a test ends
 * before it (`deadlineWithin`); a test that reaches it fails and is counted as timed out. Vitest's `--test-timeout`
 * overrides it as any config value. A value that is not a whole number >= 0 is a `ConfigError` naming the variable, so
 * the config does not load with it.
 */
export function benchTestTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env.BENCH_TEST_TIMEOUT_MS?.trim()
  const parsed = TestTimeoutSchema.safeParse(raw === '' ? undefined : raw)
  if (parsed.success) return parsed.data
  throw new ConfigError(`Invalid BENCH_TEST_TIMEOUT_MS=${JSON.stringify(raw)}: ${parsed.error.issues[0]?.message ?? 'invalid value'}.`, {
    hint: `Set BENCH_TEST_TIMEOUT_MS to the milliseconds one bench test may run (0 = no limit), or unset it for ${DEFAULT_BENCH_TEST_TIMEOUT_MS} (30 minutes); --test-timeout on the command line overrides it.`,
    cause: parsed.error,
  })
}
