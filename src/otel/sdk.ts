/**
 * The OpenTelemetry SDK side of tracing, imported by `./tracing.ts` only once tracing is on: one tracer provider with
 * a batch span processor (bounded queue, `OTEL_BSP_*` honoured) over the official OTLP/HTTP exporter of the
 * configured protocol, and the spans of the GenAI semantic conventions.
 */
import { isMainThread } from 'node:worker_threads'
import { type Attributes, type Span, SpanKind, SpanStatusCode, context, createContextKey, trace } from '@opentelemetry/api'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, NodeTracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-node'
import { ATTR_ERROR_TYPE, ATTR_SERVER_ADDRESS, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions'
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating'
import { createRedactor } from '../core/redact.ts'
import type { OtelExportSettings } from './otel-settings.ts'
import type { ChatResultLike, ChatSpan, ChatSpanStart, JudgeSpanStart, TaskSpan, TaskSpanStart, ToolResultLike, ToolSpanStart } from './tracing.ts'

/** The instrumentation scope of our spans. */
export const TRACER_NAME = 'vitest-agent-bench'

/** Where the active context holds the task span it runs in (see {@link OtelSdk.task}). */
const TASK_SPAN = createContextKey('vitest-agent-bench.task-span')

/** A root span started but not active: {@link OtelSdk.openTask}. */
export interface OpenTaskSpan {
  span: TaskSpan
  traceId: string | undefined
  /** Runs `fn` with the root span active (its model and tool calls become its children). */
  run<R>(fn: () => R | Promise<R>): Promise<R>
  end(): void
}

/** A started SDK: the spans, and flushing. */
export interface OtelSdk {
  task<R>(start: TaskSpanStart, run: (span: TaskSpan) => Promise<R>): Promise<R>
  openTask(start: TaskSpanStart): OpenTaskSpan
  chat<R extends ChatResultLike>(start: ChatSpanStart, run: (span: ChatSpan) => Promise<R>): Promise<R>
  tool<R extends ToolResultLike | 'aborted'>(start: ToolSpanStart, run: () => Promise<R>): Promise<R>
  judge<R>(start: JudgeSpanStart, run: () => Promise<R>): Promise<R>
  currentTraceId(): string | undefined
  /** Exports what ended; resolves within the export timeout and a second, whatever the collector does. */
  flush(): Promise<void>
  shutdown(): Promise<void>
}

/**
 * Passes exports to the official exporter and warns once when one fails (collector down, 503 after the exporter's
 * retries, timeout): the spans of that batch are lost, the run goes on.
 */
class WarningExporter implements SpanExporter {
  #failed = false
  readonly #inner: SpanExporter
  readonly #url: string
  readonly #warn: (message: string) => void

  constructor(inner: SpanExporter, url: string, warn: (message: string) => void) {
    this.#inner = inner
    this.#url = url
    this.#warn = warn
  }

  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    this.#inner.export(spans, (result) => {
      if (result.code !== 0 && !this.#failed) {
        this.#failed = true
        const reason = result.error?.message ?? 'export failed'
        this.#warn(
          `OpenTelemetry: spans could not be exported to ${this.#url} (${reason}); the run goes on, and spans that fail to export are dropped (this warning is shown once). Check that the collector runs, or unset OTEL_EXPORTER_OTLP_ENDPOINT.`,
        )
      }
      done(result)
    })
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown()
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush?.() ?? Promise.resolve()
  }
}

/** Resolves when `promise` settles or after `ms` (then `onTimeout` is called); never rejects. The timer does not hold the process. */
function bounded(promise: Promise<unknown>, ms: number, onTimeout: () => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      onTimeout()
      resolve()
    }, ms)
    timer.unref()
    promise.then(
      () => {
        clearTimeout(timer)
        resolve()
      },
      () => {
        clearTimeout(timer)
        resolve()
      },
    )
  })
}

/** Starts the provider for `settings`; `warn` gets the one warning of a failing exporter. */
export async function createOtelSdk(settings: OtelExportSettings, warn: (message: string) => void): Promise<OtelSdk> {
  const config = { url: settings.url, headers: settings.headers, timeoutMillis: settings.timeoutMs }
  const exporter: SpanExporter =
    settings.protocol === 'http/json'
      ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(config)
      : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(config)
  const redact = createRedactor()
  const processor = new BatchSpanProcessor(new WarningExporter(exporter, redact.redact(settings.url), warn), { exportTimeoutMillis: settings.timeoutMs })
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    spanProcessors: [processor],
  })
  // The global context manager (AsyncLocalStorage) makes each task's calls children of its root span, also when the
  // tasks of a file run concurrently. A provider registered before (the user's own) stays the global one.
  provider.register()
  const tracer = provider.getTracer(TRACER_NAME)
  const capture = settings.captureContent
  let endedSinceFlush = 0
  let stopped = false
  const limit = settings.timeoutMs + 1000

  const flush = async (): Promise<void> => {
    endedSinceFlush = 0
    await bounded(provider.forceFlush(), limit, () =>
      warn(
        `OpenTelemetry: flushing spans to ${redact.redact(settings.url)} took longer than ${limit} ms; the run goes on without waiting (OTEL_EXPORTER_OTLP_TIMEOUT bounds each export).`,
      ),
    )
  }
  const shutdown = async (): Promise<void> => {
    if (stopped) return
    stopped = true
    process.off('beforeExit', onBeforeExit)
    await bounded(provider.shutdown(), limit, () => {})
  }
  // A CLI process (no Vitest worker) flushes when its work is done; Vitest workers flush in the glue's `afterAll`.
  const onBeforeExit = (): void => {
    if (endedSinceFlush > 0) void flush()
  }
  if (isMainThread) process.on('beforeExit', onBeforeExit)

  const ended = (span: Span): void => {
    span.end()
    endedSinceFlush++
  }

  const fail = (span: Span, error: unknown): void => {
    const code = errorType(error)
    span.setAttribute(ATTR_ERROR_TYPE, code)
    if (error instanceof Error) span.recordException({ name: error.name, message: redact.redact(error.message) })
    span.setStatus({ code: SpanStatusCode.ERROR, message: redact.redact(error instanceof Error ? error.message : String(error)) })
  }

  const taskHandle = (span: Span): TaskSpan => {
    const ids = span.spanContext()
    return {
      traceId: ids.traceId,
      traceparent: `00-${ids.traceId}-${ids.spanId}-0${(ids.traceFlags & 1).toString(16)}`,
      score(name, value) {
        if (value === null || value === undefined) return
        span.setAttribute(`bench.score.${name}`, typeof value === 'boolean' ? (value ? 1 : 0) : value)
      },
      result(passed, outcome) {
        span.setAttribute('bench.task.passed', passed)
        if (outcome !== undefined) span.setAttribute('bench.task.outcome', outcome)
        if (!passed) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome === undefined ? 'task failed' : `task ${outcome}` })
      },
    }
  }

  const taskAttributes = (start: TaskSpanStart): Attributes => {
    const attributes: Attributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      [ATTR_GEN_AI_AGENT_NAME]: start.agent,
      'bench.benchmark': start.benchmark,
      'bench.task.id': start.taskId,
      'bench.trial': start.trial ?? 1,
    }
    for (const [key, value] of Object.entries(start.attributes ?? {})) if (value !== undefined) attributes[key] = value
    return attributes
  }

  const openTask = (start: TaskSpanStart): OpenTaskSpan => {
    // Each task is a trace of its own (`root`), whatever span is active where it starts.
    const span = tracer.startSpan(`invoke_agent ${start.agent}`, { kind: SpanKind.INTERNAL, root: true, attributes: taskAttributes(start) })
    const handle = taskHandle(span)
    const active = trace.setSpan(context.active(), span).setValue(TASK_SPAN, handle)
    let done = false
    return {
      span: handle,
      traceId: span.spanContext().traceId,
      run: async (fn) => {
        try {
          return await context.with(active, fn)
        } catch (error) {
          fail(span, error)
          throw error
        }
      },
      end: () => {
        if (done) return
        done = true
        ended(span)
      },
    }
  }

  return {
    openTask,
    async task(start, run) {
      // Inside a task already (MPCBench's `runTask` within `runAndJudge`): the same trace, no second root.
      const outer = context.active().getValue(TASK_SPAN) as TaskSpan | undefined
      if (outer !== undefined) return run(outer)
      const open = openTask(start)
      try {
        return await open.run(() => run(open.span))
      } finally {
        open.end()
      }
    },

    chat(start, run) {
      const { request } = start
      const attributes: Attributes = {
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
        [ATTR_GEN_AI_PROVIDER_NAME]: start.provider,
        [ATTR_GEN_AI_REQUEST_MODEL]: start.model,
      }
      if (request.temperature !== undefined) attributes[ATTR_GEN_AI_REQUEST_TEMPERATURE] = request.temperature
      if (request.maxTokens !== undefined) attributes[ATTR_GEN_AI_REQUEST_MAX_TOKENS] = request.maxTokens
      if (request.purpose !== undefined) attributes['bench.purpose'] = request.purpose
      if (start.serverAddress !== undefined) attributes[ATTR_SERVER_ADDRESS] = start.serverAddress
      if (capture) attributes[ATTR_GEN_AI_INPUT_MESSAGES] = JSON.stringify(redact.redactJson(inputMessages(request.messages)))
      return tracer.startActiveSpan(`${GEN_AI_OPERATION_NAME_VALUE_CHAT} ${start.model}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
        let recorded = 0
        const handle: ChatSpan = {
          retries(attempts) {
            for (const attempt of attempts.slice(recorded)) {
              span.addEvent('gen_ai.retry', {
                'bench.retry.attempt': attempt.attempt,
                'bench.retry.reason': redact.redact(attempt.reason),
                'bench.retry.delay_ms': attempt.delayMs,
              })
            }
            if (attempts.length <= recorded) return
            recorded = attempts.length
            span.setAttribute('bench.retries', recorded)
          },
        }
        try {
          const result = await run(handle)
          span.setAttributes({
            [ATTR_GEN_AI_RESPONSE_MODEL]: result.model,
            [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: result.usage.promptTokens,
            [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: result.usage.completionTokens,
            'bench.cached': result.cached,
          })
          if (result.finishReason !== null) span.setAttribute(ATTR_GEN_AI_RESPONSE_FINISH_REASONS, [result.finishReason])
          if (capture)
            span.setAttribute(
              ATTR_GEN_AI_OUTPUT_MESSAGES,
              JSON.stringify(redact.redactJson([{ ...toMessage(result.message), finish_reason: result.finishReason ?? 'stop' }])),
            )
          return result
        } catch (error) {
          fail(span, error)
          throw error
        } finally {
          ended(span)
        }
      })
    },

    tool(start, run) {
      const attributes: Attributes = {
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
        [ATTR_GEN_AI_TOOL_NAME]: start.name,
        [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      }
      if (start.callId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = start.callId
      if (capture)
        attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = redact.redact(
          typeof start.arguments === 'string' ? start.arguments : (JSON.stringify(start.arguments) ?? 'null'),
        )
      return tracer.startActiveSpan(`${GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${start.name}`, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
        try {
          const result = await run()
          if (result === 'aborted') {
            span.setAttribute(ATTR_ERROR_TYPE, 'aborted')
            span.setStatus({ code: SpanStatusCode.ERROR, message: 'aborted' })
          } else {
            span.setAttribute('bench.tool.status', result.status)
            if (capture) span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, redact.redact(result.content))
            if (result.status !== 'ok') {
              span.setAttribute(ATTR_ERROR_TYPE, result.errorCode ?? result.status)
              span.setStatus({ code: SpanStatusCode.ERROR, message: capture ? redact.redact(result.content) : result.status })
            }
          }
          return result
        } catch (error) {
          fail(span, error)
          throw error
        } finally {
          ended(span)
        }
      })
    },

    judge(start, run) {
      const attributes: Attributes = { 'bench.judge.model': start.judge, 'bench.judge.kind': start.kind }
      if (start.name !== undefined) attributes['bench.judge.name'] = start.name
      return tracer.startActiveSpan('bench.judge', { kind: SpanKind.INTERNAL, attributes }, async (span) => {
        try {
          return await run()
        } catch (error) {
          fail(span, error)
          throw error
        } finally {
          ended(span)
        }
      })
    },

    currentTraceId: () => trace.getActiveSpan()?.spanContext().traceId,
    flush,
    shutdown,
  }
}

/** `error.type`: a bench error's `code`, else the error's class name. */
function errorType(error: unknown): string {
  if (error !== null && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code
  return error instanceof Error ? error.name : 'Error'
}

/** A message part of the GenAI conventions' `gen_ai.input.messages` / `gen_ai.output.messages`. */
type MessagePart =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown }

interface ChatMessage {
  role: string
  parts: MessagePart[]
}

function text(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part) => (typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : '')).join('')
  return content === null || content === undefined ? '' : JSON.stringify(content)
}

function parsedArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}

/** An OpenAI chat message in the conventions' shape (`{role, parts}`); a developer message is a system one. */
function toMessage(value: unknown): ChatMessage {
  const message = (value ?? {}) as { role?: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }
  const role = message.role === 'developer' ? 'system' : (message.role ?? 'assistant')
  if (role === 'tool') return { role, parts: [{ type: 'tool_call_response', id: message.tool_call_id ?? '', response: text(message.content) }] }
  const parts: MessagePart[] = []
  const content = text(message.content)
  if (content !== '') parts.push({ type: 'text', content })
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const { id, function: fn, custom } = call as { id?: string; function?: { name?: string; arguments?: unknown }; custom?: { name?: string; input?: unknown } }
    parts.push({ type: 'tool_call', id: id ?? '', name: fn?.name ?? custom?.name ?? '', arguments: parsedArguments(fn?.arguments ?? custom?.input) })
  }
  return { role, parts }
}

function inputMessages(messages: ReadonlyArray<unknown>): ChatMessage[] {
  return messages.map(toMessage)
}
