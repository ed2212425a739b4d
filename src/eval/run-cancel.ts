/**
 * Whether a test signal's abort reason is Vitest cancelling the run (SIGINT, `cancelCurrentRun`, `--bail`): Vitest
 * aborts the running tests with a `TestRunAbortError`. A test cut off this way rethrows the reason, so Vitest marks it
 * skipped like the tests it had not started, and the reporters count it as not run.
 */
export function isRunCancel(reason: unknown): reason is Error {
  return reason instanceof Error && reason.name === 'TestRunAbortError'
}
