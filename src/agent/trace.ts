import type { ChatCompletionMessageParam, Usage } from '../llm/types.ts'

/** Default bound on assistant turns in one agent run. */
export const DEFAULT_MAX_TURNS = 10

/** Default time one POST to an external agent may take (`*_AGENT_TIMEOUT_MS`); see `runExternalAgent`. */
export const DEFAULT_AGENT_TIMEOUT_MS = 120_000
/** Default retries of a POST to an external agent that failed with a network error, a timeout, 408, 429 or 5xx (`*_AGENT_MAX_RETRIES`). */
export const DEFAULT_AGENT_MAX_RETRIES = 1

/** One tool call the model made, with what came back. */
export interface ToolCallRecord {
  /** The tool_call id the model gave. */
  id: string
  /** 1-based assistant turn in which the call was made. */
  turn: number
  /** Display name (`Slack.search_messages`); see `fromWireName`. */
  name: string
  /** The arguments as parsed JSON, or the raw string when they were not JSON. */
  arguments: unknown
  /**
   * What the tool returned, or the error message sent back to the model. Never changed once recorded: a result parsed
   * from its tool message is stored once, in that message (see `compactTrace`).
   */
  result: unknown
  status: 'ok' | 'unknown-tool' | 'invalid-arguments' | 'tool-error'
  /** With `tool-error`: the code of the error the tool threw, e.g. `ERR_TOOL_TIMEOUT` (a call stopped at its time budget). */
  errorCode?: string
  startedAt: string
  durationMs: number
}

/** How an agent run ended. */
export type AgentOutcome =
  | {
      kind: 'answered'
      answer: string
      /** Evidence ids the agent cited (ART-E `sources`), if any. */
      sources: string[]
      rationale: string | null
      /** How the answer was given. */
      via: 'final-tool' | 'json' | 'text'
    }
  | { kind: 'max-turns'; maxTurns: number }
  | { kind: 'error'; code: string; message: string }
  | { kind: 'aborted'; reason: string }

/** Everything that happened in one agent run. Plain JSON: safe to store, clone and send between workers. */
export interface AgentTrace {
  traceId: string
  model: string
  modelKind: 'llm' | 'baseline'
  messages: ChatCompletionMessageParam[]
  toolCalls: ToolCallRecord[]
  outcome: AgentOutcome
  usage: Usage
  turns: number
  startedAt: string
  durationMs: number
  /** The trace an external agent sent back with its answer, as it sent it (see `runExternalAgent`). */
  agentTrace?: unknown
}
