/**
 * OpenTelemetry traces of a run, by the GenAI semantic conventions: per task a root span `invoke_agent {agent}`,
 * under it a `chat {model}` span per model call and an `execute_tool {tool}` span per tool call, judges under a
 * `bench.judge` span. These are the hooks the harness calls; they cost one property read when tracing is off (no
 * `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): this module imports nothing of OpenTelemetry,
 * and the SDK (`./sdk.ts`) is imported the first time a span starts with tracing on.
 *
 * Each Vitest worker (and the CLI process) runs its own tracer provider and batch span processor; the Vitest glue
 * flushes it in an `afterAll` of each file ({@link flushTracing}), a CLI process flushes on `beforeExit` and on
 * SIGINT / SIGTERM. An exporter that fails (a collector down, slow, answering 503) costs one warning per process,
 * never a failed task or a hung run: the queue is bounded and every export and flush has a timeout.
 */
import { otelSettingsFromEnv, type OtelSettings } from './otel-settings.ts'
import type { OtelSdk } from './sdk.ts'

type Env = Record<string, string | undefined>
type Scalar = string | number | boolean

/** What a task's root span is told when it starts. */
export interface TaskSpanStart {
  /** `arte`, `mpcbench`, `eval`: the `bench.benchmark` attribute. */
  benchmark: string
  /** `bench.task.id`: the task id (the test name of a `describeEval` case). */
  taskId: string
  /** `bench.trial`, 1-based. @default 1 */
  trial?: number | undefined
  /** The agent (model) id: `gen_ai.agent.name` and the span name `invoke_agent {agent}`. */
  agent: string
  /** Other attributes of the root span (e.g. `bench.mpcbench.scenario_id`; a resumed task's `bench.resumed_from`). */
  attributes?: Record<string, Scalar | undefined>
}

/** A task's root span while it runs: its trace id, and where the task's scores and pass / fail go. */
export interface TaskSpan {
  /** The W3C trace id (32 hex digits), or undefined when tracing is off. */
  readonly traceId: string | undefined
  /** The W3C `traceparent` of the root span (`00-{trace id}-{span id}-01`), or undefined when tracing is off. */
  readonly traceparent: string | undefined
  /** Sets `bench.score.{name}` (a boolean as 1 or 0; null and undefined are left out). */
  score(name: string, value: number | boolean | null | undefined): void
  /** Sets `bench.task.passed` (and `bench.task.outcome` when given) and the span status (error when not passed). */
  result(passed: boolean, outcome?: string): void
}

/** The request of a model call, as the `chat` span reads it (structurally a `ChatRequest` of `src/llm`). */
export interface ChatRequestLike {
  messages: ReadonlyArray<unknown>
  tools?: ReadonlyArray<unknown>
  temperature?: number
  maxTokens?: number
  /** The call-log label (`agent`, `judge`, ...): `bench.purpose`. */
  purpose?: string
}

/** What a `chat` span is told when it starts. */
export interface ChatSpanStart {
  /** `gen_ai.provider.name`: `openai`, `anthropic`, `gcp.gemini`, ..., or a non-LLM model's label (`vitest-agent-bench.baseline`). */
  provider: string
  /** `gen_ai.request.model` and the span name `chat {model}`. */
  model: string
  request: ChatRequestLike
  /** The server's host (`server.address`), when the model is behind one. */
  serverAddress?: string
}

/** The result of a model call, as the `chat` span reads it (structurally a `ChatResult` of `src/llm`). */
export interface ChatResultLike {
  model: string
  usage: { promptTokens: number; completionTokens: number }
  finishReason: string | null
  cached: boolean
  message: unknown
}

/** One failed attempt of a model call that was retried (structurally `AttemptRecord` of `src/llm`). */
export interface RetryAttempt {
  attempt: number
  reason: string
  delayMs: number
}

/** A `chat` span while its call runs. */
export interface ChatSpan {
  /** Records the failed attempts so far (each once) as `gen_ai.retry` events; call it as often as the list grows. */
  retries(attempts: ReadonlyArray<RetryAttempt>): void
}

/** What an `execute_tool` span is told when it starts. */
export interface ToolSpanStart {
  /** `gen_ai.tool.name` and the span name `execute_tool {tool}`. */
  name: string
  /** `gen_ai.tool.call.id`, the id the model gave the call. */
  callId?: string | undefined
  /** The call's arguments (a JSON string or a value): only with content capture. */
  arguments: unknown
}

/** The result of a tool call, as the `execute_tool` span reads it (structurally `ExecutedToolCall` of `src/tools`). */
export interface ToolResultLike {
  status: string
  errorCode?: string
  content: string
}

/** What a `bench.judge` span is told when it starts. */
export interface JudgeSpanStart {
  /** The judge model id (`rules`, `openai/gpt-4.1`): `bench.judge.model`. */
  judge: string
  /** `llm`, `rules`: `bench.judge.kind`. */
  kind: string
  /** Which judge of several (a `createJudgeScorer`'s scorer name): `bench.judge.name`. */
  name?: string | undefined
}

/** How a `describeEval` test is seen by {@link traceEvalTask}: Vitest's test context, structurally. */
export interface EvalTestContext {
  task: { name: string; meta: object; result?: { state?: string } }
  onTestFinished(fn: (context: { task: { result?: { state?: string } } }) => void | Promise<void>): void
}

/** Options of {@link startTracing}. */
export interface StartTracingOptions {
  /** Where the standard variables are read. @default process.env */
  env?: Env
  /** Where the one warning of a failing exporter (or bad settings) goes. @default console.warn */
  warn?: (message: string) => void
}

interface TracingState {
  settings: OtelSettings
  warn: (message: string) => void
  warned: Set<string>
  sdk?: OtelSdk
  loading?: Promise<OtelSdk | undefined>
}

/** On `globalThis`, so every copy of this module in a process (or worker) shares one provider. */
const STATE = Symbol.for('vitest-agent-bench.otel-tracing')
type Holder = { [STATE]?: TracingState }

/** The trace ids of tests whose root span {@link traceEvalTask} started, by test. */
const testTraceIds = new WeakMap<object, string>()

function createState(options: StartTracingOptions = {}): TracingState {
  const warn = options.warn ?? ((message: string) => console.warn(message))
  const state: TracingState = { settings: otelSettingsFromEnv(options.env ?? process.env), warn, warned: new Set() }
  if (state.settings.kind === 'invalid') warnOnce(state, state.settings.message)
  return state
}

function state(): TracingState {
  const holder = globalThis as Holder
  const existing = holder[STATE]
  if (existing !== undefined) return existing
  const created = createState()
  holder[STATE] = created
  return created
}

function warnOnce(tracing: TracingState, message: string): void {
  if (tracing.warned.has(message)) return
  tracing.warned.add(message)
  tracing.warn(message)
}

/** Whether this process exports traces (an OTLP endpoint is set and valid). */
export function tracingEnabled(): boolean {
  return state().settings.kind === 'on'
}

function load(tracing: TracingState): Promise<OtelSdk | undefined> {
  if (tracing.sdk !== undefined) return Promise.resolve(tracing.sdk)
  const settings = tracing.settings
  if (settings.kind !== 'on') return Promise.resolve(undefined)
  tracing.loading ??= import('./sdk.ts')
    .then((module) => module.createOtelSdk(settings, (message) => warnOnce(tracing, message)))
    .then(
      (sdk) => {
        tracing.sdk = sdk
        return sdk
      },
      (error: unknown) => {
        warnOnce(tracing, `OpenTelemetry tracing is off: the SDK did not start (${error instanceof Error ? error.message : String(error)}).`)
        tracing.settings = { kind: 'off' }
        return undefined
      },
    )
  return tracing.loading
}

/**
 * Starts tracing from `options.env` (the standard variables), replacing what this process had: the harness starts
 * it by itself on the first span, so call this only to trace with other settings (tests) or to start the SDK early.
 * Resolves to whether traces are exported.
 */
export async function startTracing(options: StartTracingOptions = {}): Promise<boolean> {
  await shutdownTracing()
  const tracing = createState(options)
  ;(globalThis as Holder)[STATE] = tracing
  return (await load(tracing)) !== undefined
}

/**
 * Exports the spans that ended and waits for it, at most the export timeout (plus a second): a collector down or slow
 * costs a warning, never a hang. Does nothing when tracing is off. The Vitest glue calls it in `afterAll`.
 */
export async function flushTracing(): Promise<void> {
  const tracing = (globalThis as Holder)[STATE]
  if (tracing === undefined || tracing.settings.kind !== 'on') return
  await (await load(tracing))?.flush()
}

/** Flushes and stops the tracer provider; the next span reads the environment again. */
export async function shutdownTracing(): Promise<void> {
  const holder = globalThis as Holder
  const tracing = holder[STATE]
  if (tracing === undefined) return
  delete holder[STATE]
  const sdk = tracing.sdk ?? (tracing.loading === undefined ? undefined : await tracing.loading)
  await sdk?.shutdown()
}

const NO_TASK_SPAN: TaskSpan = { traceId: undefined, traceparent: undefined, score: () => {}, result: () => {} }
const NO_CHAT_SPAN: ChatSpan = { retries: () => {} }

/** A {@link ChatSpan} that records nothing, for model calls made outside {@link traceChat}. */
export const UNTRACED_CHAT_SPAN: ChatSpan = NO_CHAT_SPAN

/**
 * Runs one benchmark task in its root span `invoke_agent {agent}` (`gen_ai.operation.name` `invoke_agent`,
 * `bench.benchmark`, `bench.task.id`, `bench.trial`); `run` sets the scores and pass / fail on the span it gets.
 * A throw of `run` is recorded on the span and rethrown. Called inside another task's span, it runs in that one
 * (`run` gets the outer task's span): a task is one trace, whichever of its steps starts it.
 */
export function traceTask<R>(start: TaskSpanStart, run: (span: TaskSpan) => Promise<R>): Promise<R> {
  const tracing = state()
  if (tracing.settings.kind !== 'on') return run(NO_TASK_SPAN)
  return load(tracing).then((sdk) => (sdk === undefined ? run(NO_TASK_SPAN) : sdk.task(start, run)))
}

/**
 * Runs a `describeEval` case (its task and scorers; for a resumed case nothing) in the case's root span, which stays
 * open until the test finishes: then it gets
 * the case's scores (`meta.eval.scores`, as `bench.score.{name}`) and the test's pass / fail. The trace id is
 * {@link testTraceId}`(context.task)` from then on.
 */
export function traceEvalTask<R>(context: EvalTestContext, start: Omit<TaskSpanStart, 'taskId'> & { taskId?: string }, run: () => R | Promise<R>): Promise<R> {
  const tracing = state()
  if (tracing.settings.kind !== 'on') return Promise.resolve().then(run)
  return load(tracing).then((sdk) => {
    if (sdk === undefined) return run()
    const open = sdk.openTask({ ...start, taskId: start.taskId ?? context.task.name })
    if (open.traceId !== undefined) testTraceIds.set(context.task, open.traceId)
    context.onTestFinished(({ task }) => {
      const scores = (context.task.meta as { eval?: { scores?: Array<{ name: string; score: number }> } }).eval?.scores ?? []
      for (const { name, score } of scores) open.span.score(name, score)
      const state = task.result?.state ?? context.task.result?.state
      if (state === 'pass' || state === 'fail') open.span.result(state === 'pass', state)
      open.end()
    })
    return open.run(run)
  })
}

/** The trace id of a test's root span (see {@link traceEvalTask}), or undefined (tracing off, no span). */
export function testTraceId(task: object): string | undefined {
  return testTraceIds.get(task)
}

/** The trace id of the span active here (inside a task's span: the task's), or undefined when there is none or tracing is off. */
export function currentTraceId(): string | undefined {
  return (globalThis as Holder)[STATE]?.sdk?.currentTraceId()
}

/**
 * Runs one model call in a `chat {model}` span (GenAI conventions: operation, provider, request and response model,
 * token usage, finish reasons; retries as events, a failure as the span's error). With
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true` the messages go on the span, redacted.
 */
export function traceChat<R extends ChatResultLike>(start: ChatSpanStart, run: (span: ChatSpan) => Promise<R>): Promise<R> {
  const tracing = state()
  if (tracing.settings.kind !== 'on') return run(NO_CHAT_SPAN)
  return load(tracing).then((sdk) => (sdk === undefined ? run(NO_CHAT_SPAN) : sdk.chat(start, run)))
}

/**
 * Runs one tool call in an `execute_tool {tool}` span (`gen_ai.tool.name`, `gen_ai.tool.call.id`; a failed call is
 * the span's error with `error.type` its status or code). Arguments and result go on the span only with content capture.
 */
export function traceTool<R extends ToolResultLike | 'aborted'>(start: ToolSpanStart, run: () => Promise<R>): Promise<R> {
  const tracing = state()
  if (tracing.settings.kind !== 'on') return run()
  return load(tracing).then((sdk) => (sdk === undefined ? run() : sdk.tool(start, run)))
}

/** Runs one judge's verdict in a `bench.judge` span; an LLM judge's model calls are `chat` spans under it. */
export function traceJudge<R>(start: JudgeSpanStart, run: () => Promise<R>): Promise<R> {
  const tracing = state()
  if (tracing.settings.kind !== 'on') return run()
  return load(tracing).then((sdk) => (sdk === undefined ? run() : sdk.judge(start, run)))
}
