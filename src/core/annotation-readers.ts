import type { Reporter, Vitest } from 'vitest/node'

/**
 * Reporters known to read no annotation of a passed test, by class name (the instance's own class, not a subclass of
 * it, which may print more): Vitest's `default`, `dot`, `json`, `hanging-process`, `minimal` / `agent` (the default
 * reporter and its `minimal` subclass print the annotations of failed tests only), `github-actions` (it shows only
 * annotations with a location in a test file, which a benchmark's annotations never have), and this package's
 * reporters, which read test meta, never annotations (`stopOnInterrupt`'s too, which the CLI commands put first).
 * Everything else reads them or may: `junit` (JUnit properties), `verbose`, `tree`, `tap`, `tap-flat`, `blob` (kept
 * for `--merge-reports`), and any reporter of the user's.
 */
const READ_NO_ANNOTATIONS = new Set([
  'DefaultReporter',
  'DotReporter',
  'JsonReporter',
  'HangingProcessReporter',
  'MinimalReporter',
  'GithubActionsReporter',
  'ArteReporter',
  'MpcbenchReporter',
  'MpcbenchV2Reporter',
  'EvalReporter',
  'ReportReporter',
  'ProgressReporter',
  'SummaryLineReporter',
  'InterruptReporter',
])

/**
 * Whether a reporter of this Vitest run may read the annotation of a passed test (`context.annotate`): true unless
 * every reporter is one known to read none (see {@link READ_NO_ANNOTATIONS}) and Vitest's UI is off (it shows every
 * test's annotations). Each annotation costs a test two round trips to the main thread, so a benchmark whose run has no
 * reader of them (`agent-bench arte` with its default reporters) annotates only its failed tests, which the default
 * reporter prints with their errors. A reporter this cannot tell (a user's own, a subclass) counts as a reader.
 */
export function annotationsRead(vitest: Pick<Vitest, 'config'>): boolean {
  if (vitest.config.ui === true) return true
  // Vitest's reporter instances (not in its public types; src/core/annotation-readers.test.ts fails if that changes).
  const reporters = (vitest as unknown as { reporters?: unknown }).reporters
  if (!Array.isArray(reporters)) return true
  return (reporters as Reporter[]).some((reporter) => !READ_NO_ANNOTATIONS.has(className(reporter)))
}

/** The name of the class `value` is an instance of ('' for a plain object). */
function className(value: unknown): string {
  if (value === null || typeof value !== 'object') return ''
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name
  return typeof name === 'string' && name !== 'Object' ? name : ''
}
