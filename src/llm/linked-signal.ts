/**
 * Runs `work` with a fresh signal that aborts when `parent` does, and detaches it from `parent` when `work` settles.
 * The `openai` SDK adds an abort listener to the signal of every request and never removes it; given a task's
 * long-lived signal directly, those listeners (and what they hold) would pile up for as long as the task runs.
 */
export async function withLinkedSignal<T>(parent: AbortSignal | undefined, work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (parent === undefined) return work(undefined)
  const child = new AbortController()
  const onAbort = (): void => child.abort(parent.reason)
  if (parent.aborted) onAbort()
  else parent.addEventListener('abort', onAbort, { once: true })
  try {
    return await work(child.signal)
  } finally {
    parent.removeEventListener('abort', onAbort)
  }
}
