import type { TestContext } from 'vitest'

/** The note of a test that a cancelled run cut off: Vitest's own note for the tests it skips then. */
export const RUN_CANCEL_NOTE = 'The test run was aborted by the user.'

/**
 * The abort reason of a test's work when Vitest cancelled the run but did not abort that test's signal itself (see
 * {@link withRunCancel}).
 */
export class RunCancelError extends Error {
  override name = 'RunCancelError'
}

/**
 * Whether an abort reason is Vitest cancelling the run (SIGINT, `cancelCurrentRun`, `--bail`): Vitest aborts the
 * running tests' signals with a `TestRunAbortError`, and {@link withRunCancel} aborts the others' with a
 * {@link RunCancelError}. A test cut off this way ends with {@link skipCancelled}, so the reporters count it as not run.
 */
export function isRunCancel(reason: unknown): reason is Error {
  return reason instanceof Error && (reason.name === 'TestRunAbortError' || reason.name === 'RunCancelError')
}

/**
 * Ends a test that a cancelled run cut off (`reason` as {@link isRunCancel} reads it) as Vitest ends the tests it
 * skips: Vitest's own error is rethrown, and for a {@link RunCancelError} the test is skipped with Vitest's note.
 */
export function skipCancelled(context: Pick<TestContext, 'skip'>, reason: Error): never {
  if (reason.name === 'TestRunAbortError') throw reason
  context.skip(RUN_CANCEL_NOTE)
  throw reason
}

/** The tests of this worker thread that run under {@link withRunCancel}; kept on `globalThis`, as test files may each load this module. */
interface CancelRegistry {
  running: Set<AbortController>
  hooked: unknown
  /** The worker states (one per test file run) whose run was cancelled: work that starts after the cancel stops at once. */
  cancelled: WeakSet<object>
}

const REGISTRY = Symbol.for('vitest-agent-bench.run-cancel')

function registry(): CancelRegistry {
  const global = globalThis as { [REGISTRY]?: CancelRegistry }
  global[REGISTRY] ??= { running: new Set(), hooked: undefined, cancelled: new WeakSet() }
  return global[REGISTRY]
}

/** Vitest's per-worker state: `onCancel` is how its own runner hears that the run was cancelled. */
interface WorkerState {
  onCancel?: (listener: (reason: unknown) => unknown) => void
}

/**
 * Listens once per worker for Vitest cancelling the run, and then aborts every test registered by
 * {@link withRunCancel}. Vitest 4.1 aborts only the tests still in its list of running tests, and a concurrent test
 * that ends removes every test started after it from that list (`addRunningTest` splices with no count): those tests
 * ran on, and went on calling the model, until they finished. Without Vitest's worker state (another runner), the
 * test's own signal is all there is.
 */
function hookWorkerCancel(): WorkerState | undefined {
  const state = workerState()
  const cancels = registry()
  if (typeof state?.onCancel !== 'function' || cancels.hooked === state.onCancel) return state
  cancels.hooked = state.onCancel
  state.onCancel(() => {
    const current = workerState()
    if (current !== undefined) cancels.cancelled.add(current)
    const error = new RunCancelError(RUN_CANCEL_NOTE)
    for (const controller of cancels.running) controller.abort(error)
  })
  return state
}

function workerState(): WorkerState | undefined {
  return (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__
}

/**
 * Runs one test's work with a signal that aborts when the test's signal does and when Vitest cancels the run, even
 * where Vitest leaves the test's own signal alone (see {@link hookWorkerCancel}). Returns what `work` returns.
 */
export async function withRunCancel<T>(testSignal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const state = hookWorkerCancel()
  const controller = new AbortController()
  if (testSignal.aborted) controller.abort(testSignal.reason)
  // A test whose work starts after the cancel (it waited for a concurrency slot) stops at once.
  else if (state !== undefined && registry().cancelled.has(state)) controller.abort(new RunCancelError(RUN_CANCEL_NOTE))
  const follow = (): void => controller.abort(testSignal.reason)
  testSignal.addEventListener('abort', follow, { once: true })
  const { running } = registry()
  running.add(controller)
  try {
    return await work(controller.signal)
  } finally {
    running.delete(controller)
    testSignal.removeEventListener('abort', follow)
  }
}
