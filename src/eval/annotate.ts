import type { TestContext } from 'vitest'

/** The part of a test context {@link annotateTest} reads: `annotate`, and the test's state when there is one. */
export type AnnotatedContext = Pick<TestContext, 'annotate'> & { task?: { result?: { state: string } } }

/**
 * Whether Vitest already ended the test: a cancelled run (Ctrl-C, `cancelCurrentRun`, `--bail`) marks every test of the
 * file that is still running as skipped, while their work goes on until it sees the cancel.
 */
export function testEnded(context: Pick<AnnotatedContext, 'task'>): boolean {
  const state = context.task?.result?.state
  return state !== undefined && state !== 'run'
}

/**
 * `context.annotate(message, type)` without the stack trace Vitest captures to locate the annotation in the test
 * file. A benchmark annotates from library code (this package's glue), where no frame of the test file is on the
 * stack, so that location is never found; capturing and source-mapping the stack cost about 50 us per test.
 * The annotation (message, type; no location, as before) reaches reporters unchanged. A test Vitest already ended (see
 * {@link testEnded}) takes no annotation (Vitest would throw "Cannot annotate tests outside of the test run" and turn
 * the cut-off test into a failure): it resolves to `undefined`.
 */
export function annotateTest(context: AnnotatedContext, message: string, type: string): Promise<unknown> {
  if (testEnded(context)) return Promise.resolve(undefined)
  const limit = Error.stackTraceLimit
  // Vitest creates its location Error synchronously inside annotate(), so the limit covers exactly that Error.
  Error.stackTraceLimit = 0
  try {
    return context.annotate(message, type)
  } finally {
    Error.stackTraceLimit = limit
  }
}
