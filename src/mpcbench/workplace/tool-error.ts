import { BenchError } from '../../core/errors.ts'

/**
 * A workplace tool was called with an argument it cannot serve (unknown thread or file id, bad date,
 * unknown Slack user in `from:`). Thrown by the handler; the agent loop reports it to the model.
 */
export class WorkplaceToolError extends BenchError {
  /** The dotted tool name, e.g. `Gmail.GetThread`. */
  readonly tool: string

  constructor(tool: string, message: string, options: { hint: string; cause?: unknown }) {
    super('ERR_TOOL_ARGUMENT', `${tool}: ${message}`, options)
    this.tool = tool
  }
}
