/** The signals that interrupt a run. */
export const INTERRUPT_SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * Calls `handler` synchronously when the process gets SIGINT or SIGTERM (once per signal), beside the process's
 * other handlers; returns a function that removes it. Used by reporters to write what finished before the process
 * exits.
 */
export function onInterrupt(handler: (signal: NodeJS.Signals) => void): () => void {
  const listeners = INTERRUPT_SIGNALS.map((signal) => {
    const listener = (): void => {
      try {
        handler(signal)
      } catch (error) {
        console.error(`error while writing results on ${signal}:`, error)
      }
    }
    process.once(signal, listener)
    return [signal, listener] as const
  })
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener)
  }
}
