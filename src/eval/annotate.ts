import type { TestContext } from 'vitest'

/**
 * `context.annotate(message, type)` without the stack trace Vitest captures to locate the annotation in the test
 * file. A benchmark annotates from library code (this package's glue), where no frame of the test file is on the
 * stack, so that location is never found; capturing and source-mapping the stack cost about 50 us per test.
 * The annotation (message, type; no location, as before) reaches reporters unchanged.
 */
export function annotateTest(context: Pick<TestContext, 'annotate'>, message: string, type: string): Promise<unknown> {
  const limit = Error.stackTraceLimit
  // Vitest creates its location Error synchronously inside annotate(), so the limit covers exactly that Error.
  Error.stackTraceLimit = 0
  try {
    return context.annotate(message, type)
  } finally {
    Error.stackTraceLimit = limit
  }
}
