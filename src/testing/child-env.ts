/**
 * The environment of a CLI run in a child process of a test: a clean one (no API keys, no `BENCH_*` settings of the
 * shell), with `PATH` and `HOME` to run at all, the test run's time scale (`BENCH_TEST_TIME_SCALE`, see
 * `time-scale.ts`: a fixture config in the child scales its timeouts alike), and the test run's temporary folder and
 * run history (see `temp-root.ts`), so the child's files stay out of the system's temporary folder and the project's
 * `evaluation/history/`.
 */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }
  for (const name of ['TMPDIR', 'TEMP', 'TMP', 'BENCH_HISTORY_DIR', 'BENCH_TEST_TIME_SCALE'] as const) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  return { ...env, ...extra }
}
