import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { BenchError } from '../core/errors.ts'
import { CallAbortedError } from '../llm/errors.ts'
import { type FailureClass, parseRetryAfter, RetriesExhausted, type RetryPolicy, withRetry } from '../llm/retry.ts'
import type { ChatCompletionMessageParam, ChatModel } from '../llm/types.ts'
import { emptyUsage } from '../llm/types.ts'
import type { McpToolCall } from '../mcp/create-mcp-tool-server.ts'
import type { McpHttpEndpoint } from '../mcp/serve-mcp.ts'
import type { AnyTool } from '../tools/define-tool.ts'
import { type AgentOutcome, type AgentTrace, DEFAULT_AGENT_MAX_RETRIES, DEFAULT_AGENT_TIMEOUT_MS, type ToolCallRecord } from './trace.ts'

/** How to reach an agent that runs outside this process, behind HTTP. */
export interface ExternalAgentOptions {
  /** Where each task is POSTed. */
  url: string
  /** Name recorded as the trace's model. @default `agent:{url}` */
  id?: string
  /** Extra request headers (e.g. `X-Workspace-Id`). */
  headers?: Readonly<Record<string, string>>
  /** Extra request body fields (e.g. `agentId`), before the task's own fields. */
  body?: Readonly<Record<string, unknown>>
  /** Bound on one POST, from sending to the full reply. @default DEFAULT_AGENT_TIMEOUT_MS */
  timeoutMs?: number
  /** @default DEFAULT_AGENT_MAX_RETRIES */
  maxRetries?: number
  /** Backoff between retries (see `withRetry`). */
  retryPolicy?: Partial<Omit<RetryPolicy, 'maxRetries'>>
  /** Largest reply body read, in bytes; a longer reply fails the task (`ERR_AGENT_REPLY`) without being read in full. @default DEFAULT_AGENT_MAX_REPLY_BYTES */
  maxReplyBytes?: number
}

/** Default bound on an external agent's reply body: far above an answer with its own trace, far below what would strain the worker's memory. */
export const DEFAULT_AGENT_MAX_REPLY_BYTES = 16 * 1024 * 1024

/** An agent behind HTTP; see {@link createExternalAgent}. */
export interface ExternalAgent extends Readonly<Omit<ExternalAgentOptions, 'id' | 'timeoutMs' | 'maxRetries' | 'maxReplyBytes'>> {
  readonly kind: 'external'
  readonly id: string
  readonly timeoutMs: number
  readonly maxRetries: number
  readonly maxReplyBytes: number
}

/** What a benchmark runs a task with: a chat model in our tool loop, or an external agent with its own loop. */
export type AgentUnderTest = ChatModel | ExternalAgent

/** Whether `agent` is an {@link ExternalAgent}. */
export function isExternalAgent(agent: AgentUnderTest): agent is ExternalAgent {
  return agent.kind === 'external'
}

/** An external agent with its defaults filled in; throws a `TypeError` for a URL that is not http(s). */
export function createExternalAgent(options: ExternalAgentOptions): ExternalAgent {
  let url: URL
  try {
    url = new URL(options.url)
  } catch {
    throw new TypeError(`Expected the agent \`url\` to be an http(s) URL, got ${JSON.stringify(options.url)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`Expected the agent \`url\` to be an http(s) URL, got ${JSON.stringify(options.url)}`)
  return {
    ...options,
    kind: 'external',
    id: options.id ?? `agent:${options.url}`,
    timeoutMs: options.timeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_AGENT_MAX_RETRIES,
    maxReplyBytes: options.maxReplyBytes ?? DEFAULT_AGENT_MAX_REPLY_BYTES,
  }
}

/** The reply an external agent sends for a task: its answer, and optionally evidence ids, a rationale and its own trace. */
export const ExternalAgentReplySchema = z.object({
  answer: z.string(),
  sources: z.array(z.string()).optional(),
  rationale: z.string().nullable().optional(),
  /** The agent's own trace, kept as is in our trace (`agentTrace`). */
  trace: z.unknown().optional(),
})

/** See {@link ExternalAgentReplySchema}. */
export type ExternalAgentReply = z.infer<typeof ExternalAgentReplySchema>

/** An external agent failed to answer a task: an HTTP error, a reply that is not the contract's JSON, or a timeout. */
export class ExternalAgentError extends BenchError {
  /** HTTP status, when the agent answered one. */
  readonly status: number | undefined
  /** The agent's `retry-after`, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | null

  constructor(
    code: 'ERR_AGENT_HTTP' | 'ERR_AGENT_REDIRECT' | 'ERR_AGENT_REPLY' | 'ERR_AGENT_TIMEOUT' | 'ERR_AGENT_UNREACHABLE',
    message: string,
    options: { hint: string; status?: number; retryAfterMs?: number | null; cause?: unknown },
  ) {
    super(code, message, options)
    this.status = options.status
    this.retryAfterMs = options.retryAfterMs ?? null
  }
}

/** Options of {@link runExternalAgent}. */
export interface RunExternalAgentOptions {
  agent: ExternalAgent
  /** The task fields of the request body (`tools` is added). */
  task: Readonly<Record<string, unknown>>
  /** The task as text, the first user message of the trace. */
  prompt: string
  /** The tools served to the agent over MCP for this task. */
  tools: ReadonlyArray<AnyTool>
  /** The MCP `instructions` (e.g. the benchmark's system prompt), also the trace's system message. */
  instructions?: string
  /** Aborts the POST (and any retry wait). */
  signal?: AbortSignal
  /** Epoch ms by which every POST must end (e.g. from the test timeout); each is bounded by the sooner of this and `agent.timeoutMs`, and no retry starts without `MIN_ATTEMPT_MS` left. */
  deadline?: number
  /** @default Date.now */
  clock?: () => number
  /** @default crypto.randomUUID */
  idGenerator?: () => string
}

const excerpt = (text: string, max = 300): string => {
  const flat = text
    .slice(0, max * 4)
    .replace(/\s+/g, ' ')
    .trim()
  return flat.length <= max && text.length <= max * 4 ? flat : `${flat.slice(0, max - 1)}…`
}

/** The body of `response`, read up to `maxBytes` (`over`: it was longer, and `text` is its start). */
async function readBody(response: Response, maxBytes: number): Promise<{ text: string; over: boolean }> {
  const declared = Number(response.headers.get('content-length') ?? '')
  if (declared > maxBytes) {
    await response.body?.cancel()
    return { text: '', over: true }
  }
  if (response.body === null) return { text: '', over: false }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (size + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size))
      await reader.cancel()
      return { text: new TextDecoder().decode(Buffer.concat(chunks)), over: true }
    }
    size += value.byteLength
    chunks.push(value)
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), over: false }
}

/** Same-origin redirects followed for one POST; one more fails the task (`ERR_AGENT_REDIRECT`). */
export const MAX_AGENT_REDIRECTS = 3

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/**
 * POSTs `init` to `url`, following a redirect only within the same origin (scheme, host and port), with the same
 * POST, at most {@link MAX_AGENT_REDIRECTS} times: the task (question, inbox, MCP URL, the agent's headers) never
 * goes to a host the user did not name. A redirect elsewhere fails with `ERR_AGENT_REDIRECT` naming its target.
 */
async function postFollowingSameOrigin(url: string, init: RequestInit): Promise<Response> {
  let current = new URL(url)
  for (let redirects = 0; ; redirects++) {
    const response = await fetch(current, { ...init, redirect: 'manual' })
    const location = response.headers.get('location')
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response
    await response.body?.cancel()
    let target: URL
    try {
      target = new URL(location, current)
    } catch (error) {
      throw new ExternalAgentError(
        'ERR_AGENT_REDIRECT',
        `Agent ${url} answered HTTP ${response.status} with a Location that is not a URL: ${excerpt(location)}.`,
        {
          hint: 'Point --agent-url / *_AGENT_URL at the URL that answers the task itself (HTTP 200).',
          status: response.status,
          cause: error,
        },
      )
    }
    if (target.origin !== current.origin) {
      throw new ExternalAgentError(
        'ERR_AGENT_REDIRECT',
        `Agent ${url} redirected (HTTP ${response.status}) to ${target.href}, on another origin than ${current.origin}: not followed, so the task, its MCP URL and your headers were not sent there.`,
        { hint: `If ${target.origin} is your agent, point --agent-url / *_AGENT_URL at ${target.href} itself.`, status: response.status },
      )
    }
    if (redirects >= MAX_AGENT_REDIRECTS) {
      throw new ExternalAgentError('ERR_AGENT_REDIRECT', `Agent ${url} redirected more than ${MAX_AGENT_REDIRECTS} times (last to ${target.href}).`, {
        hint: 'Point --agent-url / *_AGENT_URL at the URL that answers the task itself (HTTP 200), and check the agent for a redirect loop.',
        status: response.status,
      })
    }
    current = target
  }
}

const REPLY_SHAPE_HINT = 'Answer with a JSON object {"answer": string, "sources"?: string[], "rationale"?: string, "trace"?: any}.'

/** One POST: the parsed reply, or an {@link ExternalAgentError}. */
async function postTask(
  agent: ExternalAgent,
  body: unknown,
  signal: AbortSignal | undefined,
  deadline: number | undefined,
): Promise<{ reply: ExternalAgentReply; raw: string }> {
  const budgetMs = deadline === undefined ? agent.timeoutMs : Math.max(1, Math.min(agent.timeoutMs, deadline - Date.now()))
  const timeout = AbortSignal.timeout(budgetMs)
  const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout])
  let response: Response
  let read: { text: string; over: boolean }
  try {
    response = await postFollowingSameOrigin(agent.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...agent.headers },
      body: JSON.stringify(body),
      signal: combined,
    })
    read = await readBody(response, agent.maxReplyBytes)
  } catch (error) {
    if (signal?.aborted || error instanceof ExternalAgentError) throw error
    if (timeout.aborted) {
      // The test's deadline, not the agent timeout, bounded this wait: raising --agent-timeout-ms would change nothing.
      const byDeadline = budgetMs < agent.timeoutMs
      const bound = byDeadline ? `${budgetMs} ms (what was left before the test's deadline)` : `${agent.timeoutMs} ms`
      throw new ExternalAgentError('ERR_AGENT_TIMEOUT', `Agent ${agent.url} did not answer within ${bound}.`, {
        hint: byDeadline
          ? 'Make the agent answer faster (fewer turns), or raise the test timeout (BENCH_TEST_TIMEOUT_MS, or testTimeout in your own Vitest config), which bounded this wait; --agent-timeout-ms cannot lift it.'
          : 'Make the agent answer faster (fewer turns), or raise the timeout (--agent-timeout-ms / *_AGENT_TIMEOUT_MS).',
        cause: error,
      })
    }
    const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
    throw new ExternalAgentError('ERR_AGENT_UNREACHABLE', `Agent ${agent.url} could not be reached: ${reason}.`, {
      hint: 'Start the agent server, and check the URL (--agent-url / *_AGENT_URL).',
      cause: error,
    })
  }
  const raw = read.text
  if (!response.ok) {
    throw new ExternalAgentError(
      'ERR_AGENT_HTTP',
      `Agent ${agent.url} answered HTTP ${response.status}: ${excerpt(raw) || (read.over ? `(a body over ${agent.maxReplyBytes.toLocaleString('en-US')} bytes)` : '(empty body)')}`,
      {
        hint: 'See the agent\'s own log for the failure; it must answer 200 with {"answer": "..."}.',
        status: response.status,
        retryAfterMs: parseRetryAfter(response.headers),
      },
    )
  }
  if (read.over) {
    throw new ExternalAgentError(
      'ERR_AGENT_REPLY',
      `Agent ${agent.url} answered with a body over ${agent.maxReplyBytes.toLocaleString('en-US')} bytes (not read further): ${excerpt(raw) || '(not read)'}`,
      {
        hint: `Answer with a short JSON object: \`answer\` is the reply itself and \`trace\` is optional (trim it or leave it out). ${REPLY_SHAPE_HINT}`,
        status: response.status,
      },
    )
  }
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch (error) {
    throw new ExternalAgentError('ERR_AGENT_REPLY', `Agent ${agent.url} answered with a body that is not JSON: ${excerpt(raw) || '(empty body)'}`, {
      hint: REPLY_SHAPE_HINT,
      status: response.status,
      cause: error,
    })
  }
  const parsed = ExternalAgentReplySchema.safeParse(json)
  if (!parsed.success) {
    throw new ExternalAgentError(
      'ERR_AGENT_REPLY',
      `Agent ${agent.url} answered JSON of the wrong shape:\n${z.prettifyError(parsed.error)}\nGot: ${excerpt(raw)}`,
      {
        hint: REPLY_SHAPE_HINT,
        status: response.status,
      },
    )
  }
  return { reply: parsed.data, raw }
}

function classify(error: unknown): FailureClass {
  if (error instanceof CallAbortedError) return { kind: 'aborted' }
  if (!(error instanceof ExternalAgentError)) return { kind: 'fatal' }
  if (error.code === 'ERR_AGENT_TIMEOUT' || error.code === 'ERR_AGENT_UNREACHABLE') return { kind: 'retryable', reason: error.code, retryAfterMs: null }
  const status = error.status
  if (error.code === 'ERR_AGENT_HTTP' && status !== undefined && (status === 408 || status === 429 || status >= 500)) {
    return { kind: 'retryable', reason: `HTTP ${status}`, retryAfterMs: error.retryAfterMs }
  }
  return { kind: 'fatal' }
}

/**
 * Runs one task on an external agent: serves `tools` on a fresh MCP Streamable HTTP endpoint on 127.0.0.1, POSTs
 * `{...agent.body, ...task, tools: {mcpUrl}}` to the agent, and waits for `{answer, sources?, rationale?, trace?}`.
 * Every tool call the agent makes through the endpoint is recorded as our own loop records it (call `k` is turn `k`).
 * Network errors, timeouts, 408, 429 and 5xx are retried, while time is left before `deadline`; each attempt gets its
 * own endpoint, and a failed attempt's endpoint is closed once the next one listens, so the tool calls of a failed
 * attempt (even those its agent makes after we gave up on it) never reach the trace. A reply that is not the
 * contract's JSON fails at once. Never throws for agent failures: they are `error` or `aborted` outcomes.
 */
export async function runExternalAgent(options: RunExternalAgentOptions): Promise<AgentTrace> {
  const { agent, signal } = options
  const clock = options.clock ?? Date.now
  const started = clock()
  const messages: ChatCompletionMessageParam[] = [
    ...(options.instructions === undefined ? [] : [{ role: 'system' as const, content: options.instructions }]),
    { role: 'user', content: options.prompt },
  ]
  let endpoint: McpHttpEndpoint | undefined
  let calls: McpToolCall[] = []
  let listenError: { error: unknown } | undefined
  const serve = async (): Promise<McpHttpEndpoint> => {
    const attemptCalls: McpToolCall[] = []
    let next: McpHttpEndpoint
    try {
      // Loaded when an external agent runs: the MCP SDK and its HTTP server are no part of the other runs' start-up.
      const { serveMcpHttp } = await import('../mcp/serve-mcp.ts')
      next = await serveMcpHttp(options.tools, {
        onToolCall: (call) => attemptCalls.push(call),
        clock,
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      })
    } catch (error) {
      listenError = { error }
      throw error
    }
    // Closed only once the next endpoint listens, so that one cannot get the port the failed attempt's agent may still call.
    await endpoint?.close()
    endpoint = next
    calls = attemptCalls
    return next
  }
  const first = await serve()
  let outcome: AgentOutcome
  let agentTrace: unknown
  let recorded: McpToolCall[]
  try {
    const { value } = await withRetry(
      async (attempt) => {
        const served = attempt === 1 ? first : await serve()
        const reply = await postTask(agent, { ...agent.body, ...options.task, tools: { mcpUrl: served.url } }, signal, options.deadline)
        return { ...reply, calls: [...calls] }
      },
      classify,
      {
        policy: { ...agent.retryPolicy, maxRetries: agent.maxRetries },
        ...(signal === undefined ? {} : { signal }),
        ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
      },
    )
    recorded = value.calls
    messages.push({ role: 'assistant', content: value.raw })
    agentTrace = value.reply.trace
    outcome = { kind: 'answered', answer: value.reply.answer, sources: value.reply.sources ?? [], rationale: value.reply.rationale ?? null, via: 'json' }
  } catch (error) {
    if (listenError !== undefined) throw listenError.error
    recorded = [...calls]
    const failure = error instanceof RetriesExhausted ? error.lastError : error
    if (signal?.aborted || failure instanceof CallAbortedError) {
      const reason: unknown = signal?.reason
      outcome = { kind: 'aborted', reason: reason instanceof Error ? reason.message : reason === undefined ? 'aborted' : String(reason) }
    } else {
      const retries = error instanceof RetriesExhausted && error.retries > 0 ? ` (after ${error.retries} retr${error.retries === 1 ? 'y' : 'ies'})` : ''
      const noTime = error instanceof RetriesExhausted && error.deadlineReached ? " (no time left before the test's deadline to retry)" : ''
      const message =
        failure instanceof BenchError
          ? `${failure.problem}${retries}${noTime}\n  Fix: ${failure.hint}`
          : `${failure instanceof Error ? failure.message : String(failure)}${retries}${noTime}`
      outcome = { kind: 'error', code: failure instanceof BenchError ? failure.code : 'ERR_AGENT', message }
    }
  } finally {
    await endpoint?.close()
  }
  const toolCalls: ToolCallRecord[] = recorded.map((call, index) => ({
    id: `mcp_${index + 1}`,
    turn: index + 1,
    name: call.name,
    arguments: call.arguments,
    result: call.result,
    status: call.status,
    ...(call.errorCode === undefined ? {} : { errorCode: call.errorCode }),
    startedAt: call.startedAt,
    durationMs: call.durationMs,
  }))
  return {
    traceId: (options.idGenerator ?? randomUUID)(),
    model: agent.id,
    modelKind: 'llm',
    messages,
    toolCalls,
    outcome,
    usage: emptyUsage(),
    turns: toolCalls.length + (outcome.kind === 'answered' ? 1 : 0),
    startedAt: new Date(started).toISOString(),
    durationMs: clock() - started,
    ...(agentTrace === undefined ? {} : { agentTrace }),
  }
}
