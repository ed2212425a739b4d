/** The signals that interrupt a run. */
export const INTERRUPT_SIGNALS = ['SIGINT', 'SIGTERM'] as const

/** What an {@link onInterrupt} handler is told. */
export interface Interrupt {
  signal: NodeJS.Signals
  /**
   * The command running Vitest cancels the run on this signal and waits for it to end (see
   * {@link declareRunEndOnInterrupt}): the reporters' `onTestRunEnd` follows with `"interrupted"`. A reporter then
   * writes now only in case the process dies first, and prints its summary once, when the run ends.
   */
  runEndFollows: boolean
}

/**
 * How many commands in this process cancel their Vitest run on a signal and wait for its end. On `globalThis`, so
 * every copy of this module in the process (the command's, and the reporters' that Vitest loads) shares it.
 */
const RUN_END_FOLLOWS = Symbol.for('vitest-agent-bench.run-end-follows-interrupt')

function declarations(): number {
  return (globalThis as { [RUN_END_FOLLOWS]?: number })[RUN_END_FOLLOWS] ?? 0
}

function setDeclarations(count: number): void {
  ;(globalThis as { [RUN_END_FOLLOWS]?: number })[RUN_END_FOLLOWS] = count
}

/**
 * Declares that this process cancels its Vitest run on SIGINT / SIGTERM and waits for the run to end, so the
 * reporters' {@link onInterrupt} handlers get `runEndFollows: true`; returns a function that withdraws it.
 */
export function declareRunEndOnInterrupt(): () => void {
  setDeclarations(declarations() + 1)
  let withdrawn = false
  return () => {
    if (withdrawn) return
    withdrawn = true
    setDeclarations(Math.max(0, declarations() - 1))
  }
}

/**
 * Calls `handler` synchronously when the process gets SIGINT or SIGTERM (once per signal), beside the process's
 * other handlers; returns a function that removes it. Used by reporters to write what finished before the process
 * exits.
 */
export function onInterrupt(handler: (interrupt: Interrupt) => void): () => void {
  const listeners = INTERRUPT_SIGNALS.map((signal) => {
    const listener = (): void => {
      try {
        handler({ signal, runEndFollows: declarations() > 0 })
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
