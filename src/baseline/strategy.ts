import type { Conversation } from './conversation.ts'
import type { BaselineStep } from './step.ts'

/** One way the baseline can work a task, chosen by the tools a request offers. */
export interface Strategy {
  /** Short name shown in rationales, e.g. `art-e`. */
  readonly name: string
  /** Whether this strategy can work with the offered tools (display names). */
  appliesTo(tools: ReadonlySet<string>): boolean
  /** The next step, decided from the conversation alone (no state is kept between calls). */
  next(conversation: Conversation): BaselineStep
}
