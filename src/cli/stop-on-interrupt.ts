import type { Reporter, Vitest } from 'vitest/node'
import { INTERRUPT_SIGNALS, declareRunEndOnInterrupt } from '../core/interrupt.ts'

/** What {@link stopOnInterrupt} gives the command that runs Vitest. */
export interface InterruptControl {
  /** Put first in the reporters list: it captures the Vitest instance. */
  reporter: Reporter
  /** The signal that interrupted the run, if any. */
  signal(): NodeJS.Signals | undefined
  /** Removes the signal handlers. */
  dispose(): void
}

/**
 * The reporter of {@link stopOnInterrupt}: it only captures the run's Vitest instance (a class of its own, so that
 * `annotationsRead` knows it reads no annotation).
 */
class InterruptReporter implements Reporter {
  readonly #init: (vitest: Vitest) => void

  constructor(init: (vitest: Vitest) => void) {
    this.#init = init
  }

  onInit(vitest: Vitest): void {
    this.#init(vitest)
  }
}

/**
 * Makes SIGINT / SIGTERM stop a programmatic Vitest run cleanly: the run is cancelled (running tasks are aborted,
 * the rest are skipped, the reporters write what finished with `testRunEndReason: "interrupted"`), then Vitest is
 * closed, which stops its workers, so no model request is made after the command returns. A second signal exits at
 * once. Vitest's own handler, which exits the process a millisecond after the signal (leaving forked workers
 * running), is removed while the run lasts. The reporters are told that the run's end follows the signal (see
 * `declareRunEndOnInterrupt`), so they print their summary once, when it ends.
 */
export function stopOnInterrupt(log: (line: string) => void = (line) => console.error(line)): InterruptControl {
  let vitest: Vitest | undefined
  let received: NodeJS.Signals | undefined
  const before = new Map(INTERRUPT_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]))
  const handler = (signal: NodeJS.Signals): void => {
    if (received !== undefined) process.exit(128 + (signal === 'SIGINT' ? 2 : 15))
    received = signal
    log(`agent-bench: ${signal}: stopping the run and its workers; finished tasks are written (send it again to exit at once).`)
    log('agent-bench: to continue, run the same command again with --resume added: finished tasks are reused, only the others run.')
    void (async () => {
      await vitest?.cancelCurrentRun('keyboard-input')
      await vitest?.close()
    })()
  }
  for (const signal of INTERRUPT_SIGNALS) process.on(signal, handler)
  const withdraw = declareRunEndOnInterrupt()
  const reporter = new InterruptReporter((instance) => {
    vitest = instance
    for (const signal of INTERRUPT_SIGNALS) {
      const earlier = before.get(signal) ?? new Set()
      for (const listener of process.listeners(signal)) {
        if (listener !== handler && !earlier.has(listener) && listener.name === 'onExit') process.off(signal, listener as (...args: unknown[]) => void)
      }
    }
  })
  return {
    reporter,
    signal: () => received,
    dispose() {
      for (const signal of INTERRUPT_SIGNALS) process.off(signal, handler)
      withdraw()
    },
  }
}
