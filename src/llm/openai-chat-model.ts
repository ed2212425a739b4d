import OpenAI from 'openai'
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions'
import { BenchError, InvalidFormatError } from '../core/errors.ts'
import { redactUrl, registerSecret, urlSecrets } from '../core/redact.ts'
import type { CallLog, CallLogEntry } from './call-log.ts'
import { ModelCallError } from './errors.ts'
import { DEFAULT_PRICES, type PriceTable, costUsd } from './pricing.ts'
import type { ResolvedModel } from './providers.ts'
import { CACHE_FORMAT_VERSION, type ResponseCache, ambientCacheScope, cacheKey } from './response-cache.ts'
import { type AttemptRecord, type FailureClass, MIN_ATTEMPT_MS, type RetryPolicy, RetriesExhausted, abortedError, parseRetryAfter, withRetry } from './retry.ts'
import type { CallOptions, ChatModel, ChatRequest, ChatResult, Usage } from './types.ts'
import { responseTokens } from './usage.ts'
import { type ChatSpan, UNTRACED_CHAT_SPAN, traceChat } from '../otel/tracing.ts'

/** Default per-request timeout. */
export const DEFAULT_TIMEOUT_MS = 120_000

/** Options of {@link createOpenAIChatModel}. */
export interface OpenAIChatModelOptions {
  /** Where and how to reach the model (see `resolveModel`). */
  target: ResolvedModel
  /** Per-request timeout in ms. @default 120000 */
  timeoutMs?: number
  /** Retry spacing; `maxRetries` @default 4 */
  retry?: Partial<RetryPolicy>
  /** @default DEFAULT_PRICES */
  prices?: PriceTable
  /** Response cache; none when omitted. */
  cache?: ResponseCache
  /** Call log; none when omitted. */
  callLog?: CallLog
}

/** A base URL without its query string, and the query parameters (undefined when there are none). */
export function splitBaseURL(baseURL: string): { base: string; query: Record<string, string> | undefined } {
  const at = baseURL.indexOf('?')
  if (at < 0) return { base: baseURL, query: undefined }
  const query = Object.fromEntries(new URLSearchParams(baseURL.slice(at + 1)))
  return { base: baseURL.slice(0, at), query: Object.keys(query).length === 0 ? undefined : query }
}

/**
 * Why `value` (a response's `choices[0].message`) is not an assistant message the agent loop can read: not an object,
 * or `tool_calls` that is not a list; undefined when it is one.
 */
export function messageProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `choices[0].message is ${value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not an object`
  const toolCalls = (value as { tool_calls?: unknown }).tool_calls
  if (toolCalls !== undefined && toolCalls !== null && !Array.isArray(toolCalls)) return 'choices[0].message.tool_calls is not a list'
  return undefined
}

/** Maps a {@link ChatRequest} to a chat.completions request body. */
export function toRequestBody(target: Pick<ResolvedModel, 'provider' | 'wireModel'>, request: ChatRequest): ChatCompletionCreateParamsNonStreaming {
  const body: ChatCompletionCreateParamsNonStreaming = { model: target.wireModel, messages: request.messages }
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice
  }
  if (request.temperature !== undefined) body.temperature = request.temperature
  if (request.maxTokens !== undefined) {
    // OpenAI's reasoning models reject `max_tokens`; other OpenAI-compatible servers know `max_tokens` best.
    const field = request.maxTokensParameter ?? (target.provider === 'openai' ? 'max_completion_tokens' : 'max_tokens')
    if (field === 'max_completion_tokens') body.max_completion_tokens = request.maxTokens
    else body.max_tokens = request.maxTokens
  }
  const format = request.responseFormat
  if (format?.type === 'json_object') body.response_format = { type: 'json_object' }
  else if (format?.type === 'json_schema') {
    const strict = format.strict === true && target.provider === 'openai' ? { strict: true } : {}
    body.response_format = { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, ...strict } }
  }
  return body
}

/**
 * Maps a chat-completions response to a {@link ChatResult}; its usage is the response's billed tokens (see
 * `responseTokens`) priced from `prices`.
 */
export function toChatResult(modelId: string, raw: ChatCompletion, cached: boolean, prices: PriceTable): ChatResult {
  const choice: unknown = raw.choices?.[0]
  const problem = choice === null || typeof choice !== 'object' ? 'no choices' : messageProblem((choice as { message?: unknown }).message)
  if (problem !== undefined) {
    throw new ModelCallError('ERR_MODEL_RESPONSE', `Model ${modelId} returned a response with ${problem} (id ${String(raw.id)})`, {
      hint: 'Check that the server implements OpenAI chat completions; the raw response is in the call log.',
      retries: 0,
    })
  }
  const tokens = responseTokens(raw.usage)
  const usage: Usage = {
    promptTokens: tokens.promptTokens,
    completionTokens: tokens.completionTokens,
    totalTokens: tokens.totalTokens,
    // A response without usage has an unknown cost, not a cost of 0.
    costUsd: tokens.reported ? costUsd(modelId, tokens.promptTokens, tokens.completionTokens, prices, tokens.cachedPromptTokens) : null,
    calls: 1,
  }
  if (cached) usage.cached = { ...usage }
  const { message, finish_reason: finishReason } = choice as ChatCompletion.Choice
  return { message, usage, model: raw.model ?? modelId, finishReason: finishReason ?? null, cached }
}

/** A 200 response whose body is not a chat completion (not JSON, cut short, an HTML page, no choices). */
export class MalformedResponse extends Error {
  /** What is wrong, e.g. `not JSON (text/html, 312 bytes)`. */
  readonly description: string
  /** The start of the body, for the final error message. */
  readonly excerpt: string

  constructor(description: string, excerpt: string) {
    super(`malformed response: ${description}`)
    this.description = description
    this.excerpt = excerpt
  }
}

/** One attempt outlived its timeout (while waiting for headers or reading the body). */
export class AttemptTimeout extends Error {
  readonly timeoutMs: number

  constructor(timeoutMs: number) {
    super(`no complete response within ${timeoutMs} ms`)
    this.timeoutMs = timeoutMs
  }
}

const EXCERPT_LENGTH = 160

/** Parses a 200 body as a chat completion, or throws {@link MalformedResponse} saying what came back instead. */
export function parseCompletionBody(text: string, contentType: string | null): ChatCompletion {
  const malformed = (what: (kind: string) => string): MalformedResponse =>
    new MalformedResponse(
      what(`${contentType ?? 'no content-type'}, ${Buffer.byteLength(text)} bytes`),
      text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}...` : text,
    )
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const html = /^\s*<(!doctype|html|head|body)/i.test(text)
    throw malformed((kind) => (html ? `an HTML page, not JSON (${kind})` : `not JSON (${kind}: ${(error as Error).message})`))
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw malformed((kind) => `JSON but not an object (${kind})`)
  const choices = (value as { choices?: unknown }).choices
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined
  if (first === null || typeof first !== 'object' || (first as { message?: unknown }).message === undefined) {
    throw malformed((kind) => `no choices[0].message (${kind})`)
  }
  const problem = messageProblem((first as { message: unknown }).message)
  if (problem !== undefined) throw malformed((kind) => `${problem} (${kind})`)
  return value as ChatCompletion
}

/** Which failures are worth retrying: 408, 409, 429, 5xx, timeouts, connection errors, malformed 200 bodies. */
export function classifyFailure(error: unknown): FailureClass {
  if (error instanceof MalformedResponse) return { kind: 'retryable', reason: error.message, retryAfterMs: null }
  if (error instanceof AttemptTimeout) return { kind: 'retryable', reason: 'timeout', retryAfterMs: null }
  if (error instanceof OpenAI.APIUserAbortError) return { kind: 'aborted' }
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'retryable', reason: 'timeout', retryAfterMs: null }
  if (error instanceof OpenAI.APIConnectionError) return { kind: 'retryable', reason: `connection error: ${error.message}`, retryAfterMs: null }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const status = error.status
    if (status === 408 || status === 409 || status === 429 || status >= 500) {
      return { kind: 'retryable', reason: `HTTP ${status}`, retryAfterMs: parseRetryAfter(error.headers) }
    }
  }
  return { kind: 'fatal' }
}

function toModelCallError(target: ResolvedModel, error: unknown, retries: number, deadlineReached = false): BenchError {
  if (error instanceof BenchError) return error
  const after = `${retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : ''}${deadlineReached ? ' (no time left before the test timeout for another attempt)' : ''}`
  const where = `${target.id} at ${target.baseURL}`
  if (error instanceof MalformedResponse) {
    return new ModelCallError(
      'ERR_MODEL_RESPONSE',
      `Model call to ${where} (provider ${target.provider}) got a 200 response that is not a chat completion${after}: ${error.description}; the body starts ${JSON.stringify(error.excerpt)}`,
      {
        hint: 'A proxy or gateway may be answering instead of the model (an HTML page), or the connection cut the body short; check the base URL and the provider status, and raise BENCH_LLM_MAX_RETRIES to retry longer.',
        status: 200,
        retries,
        cause: error,
      },
    )
  }
  if (error instanceof AttemptTimeout || error instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelCallError('ERR_MODEL_TIMEOUT', `Model call to ${where} timed out${after}`, {
      hint: 'Raise the timeout (BENCH_LLM_TIMEOUT_MS) or check the server.',
      retries,
      cause: error,
    })
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new ModelCallError('ERR_MODEL_CONNECTION', `Cannot reach ${where}${after}: ${error.message}`, {
      hint: 'Check the network and the base URL (OPENAI_BASE_URL for a local server).',
      retries,
      cause: error,
    })
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const status = error.status
    const detail = `Model call to ${where} failed with HTTP ${status}${after}: ${error.message}`
    if (status === 401 || status === 403)
      return new ModelCallError('ERR_MODEL_AUTH', detail, { hint: `Check the key in ${target.keyVariable}.`, status, retries, cause: error })
    if (status === 429)
      return new ModelCallError('ERR_MODEL_RATE_LIMIT', detail, {
        hint: 'Lower the concurrency or wait; raise BENCH_LLM_MAX_RETRIES to retry longer.',
        status,
        retries,
        cause: error,
      })
    if (status >= 500) return new ModelCallError('ERR_MODEL_SERVER', detail, { hint: 'The provider is failing; retry later.', status, retries, cause: error })
    return new ModelCallError('ERR_MODEL_REQUEST', detail, {
      hint: 'The server rejected the request; check the model name and parameters (the request is in the call log).',
      status,
      retries,
      cause: error,
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new ModelCallError('ERR_MODEL_CALL', `Model call to ${where} failed${after}: ${message}`, {
    hint: 'See the cause and the call log.',
    retries,
    cause: error,
  })
}

/**
 * One request: headers and body within `timeoutMs` (the SDK's own timeout stops at the headers), the body parsed
 * and checked here, so a malformed 200 body is a retryable {@link MalformedResponse}.
 */
async function attempt(
  client: OpenAI,
  body: ChatCompletionCreateParamsNonStreaming,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<ChatCompletion> {
  const controller = new AbortController()
  const onAbort = (): void => controller.abort(signal?.reason)
  if (signal?.aborted) onAbort()
  signal?.addEventListener('abort', onAbort, { once: true })
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort(new AttemptTimeout(timeoutMs))
  }, timeoutMs)
  try {
    const response = await client.chat.completions.create(body, { signal: controller.signal, timeout: timeoutMs, maxRetries: 0 }).asResponse()
    const text = await response.text()
    return parseCompletionBody(text, response.headers.get('content-type'))
  } catch (error) {
    if (timedOut && signal?.aborted !== true) throw new AttemptTimeout(timeoutMs)
    if (signal?.aborted === true) throw abortedError(signal)
    throw error
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}

/**
 * A {@link ChatModel} over the `openai` SDK (any OpenAI-compatible server), with our own retry loop,
 * an optional response cache and an optional call log.
 */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): ChatModel {
  const { target, cache, callLog } = options
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const prices = options.prices ?? DEFAULT_PRICES
  // Query parameters of the base URL (`?api-version=...&api-key=...`) are sent with every request, not glued to its path.
  const { base, query } = splitBaseURL(target.baseURL)
  const client = new OpenAI({ baseURL: base, apiKey: target.apiKey, maxRetries: 0, timeout, ...(query === undefined ? {} : { defaultQuery: query }) })
  registerSecret(target.apiKey)
  for (const secret of urlSecrets(target.baseURL)) registerSecret(secret)
  const shownURL = redactUrl(target.baseURL)

  const completeCall = async (request: ChatRequest, callOptions: CallOptions = {}, span: ChatSpan = UNTRACED_CHAT_SPAN): Promise<ChatResult> => {
    const { signal, deadline } = callOptions
    // A call inside describeEval's task of trial 2, 3, ... records and replays in that trial's scope.
    const cacheScope = callOptions.cacheScope ?? ambientCacheScope()
    if (signal?.aborted) throw abortedError(signal)
    const startedAt = new Date()
    const started = performance.now()
    const body = toRequestBody(target, request)
    const key = cache !== undefined && cache.mode !== 'off' ? cacheKey(target.baseURL, body, cacheScope) : null
    let retries = 0
    // Filled by the retry loop as attempts fail, so a call aborted during a retry wait still logs them.
    const attempts: AttemptRecord[] = []
    const log = (outcome: CallLogEntry['outcome'], cached: boolean, usage: Usage | null): void => {
      span.retries(attempts)
      callLog?.write({
        startedAt: startedAt.toISOString(),
        model: target.id,
        baseURL: shownURL,
        purpose: request.purpose ?? null,
        cached,
        cacheKey: key,
        latencyMs: Math.round(performance.now() - started),
        retries,
        attempts,
        request: body,
        outcome,
        usage:
          usage === null
            ? null
            : { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, totalTokens: usage.totalTokens, costUsd: usage.costUsd },
      })
    }
    const fail = (error: BenchError): never => {
      log({ kind: 'error', code: error.code, message: error.message, status: error instanceof ModelCallError ? (error.status ?? null) : null }, false, null)
      throw error
    }

    if (cache !== undefined && key !== null) {
      const cassette = cache.read(key)
      if (cassette !== undefined) {
        let result: ChatResult
        try {
          result = toChatResult(target.id, cassette.response as ChatCompletion, true, prices)
        } catch (error) {
          const file = cache.fileOf(key)
          return fail(
            new InvalidFormatError(`Cassette ${file} holds no usable chat completion (${(error as Error).message})`, {
              file,
              field: 'response.choices',
              hint: `Delete ${file} and record it again with BENCH_CACHE=read-write.`,
              cause: error,
            }),
          )
        }
        log({ kind: 'response', response: cassette.response }, true, result.usage)
        return result
      }
      if (cache.mode === 'replay') return fail(cache.missError(target.id, target.baseURL, request, key, cacheScope))
    }

    if (deadline !== undefined && deadline - Date.now() < MIN_ATTEMPT_MS) {
      return fail(
        new ModelCallError(
          'ERR_MODEL_TIMEOUT',
          `Model call to ${target.id} at ${target.baseURL} not sent: less than ${MIN_ATTEMPT_MS} ms left before the test timeout`,
          {
            hint: 'Raise the test timeout (BENCH_TEST_TIMEOUT_MS, or testTimeout in your own Vitest config), or lower ARTE_MAX_TURNS / the work per task.',
            retries: 0,
          },
        ),
      )
    }
    let raw: ChatCompletion
    try {
      const outcome = await withRetry(
        // Each attempt gets the per-request timeout, cut to what is left before the caller's deadline.
        (attemptNumber) => {
          retries = attemptNumber - 1
          return attempt(client, body, deadline === undefined ? timeout : Math.max(1, Math.min(timeout, deadline - Date.now())), signal)
        },
        classifyFailure,
        { policy: options.retry, signal, attempts, ...(deadline === undefined ? {} : { deadline }) },
      )
      raw = outcome.value
      retries = outcome.retries
    } catch (error) {
      if (error instanceof RetriesExhausted) {
        retries = error.retries
        return fail(toModelCallError(target, error.lastError, error.retries, error.deadlineReached))
      }
      return fail(toModelCallError(target, error, retries))
    }
    let result: ChatResult
    try {
      result = toChatResult(target.id, raw, false, prices)
    } catch (error) {
      return fail(toModelCallError(target, error, retries))
    }
    if (cache !== undefined && key !== null) {
      cache.write({
        cacheVersion: CACHE_FORMAT_VERSION,
        key,
        model: target.id,
        request: body,
        response: raw,
        recordedAt: new Date().toISOString(),
        ...(cacheScope === undefined ? {} : { scope: cacheScope }),
        recordedFrom: typeof raw.id === 'string' && raw.id.startsWith('scripted-') ? 'scripted-server' : shownURL,
      })
    }
    log({ kind: 'response', response: raw }, false, result.usage)
    return result
  }

  // OpenTelemetry: one `chat` span per call (see src/otel/tracing.ts); nothing when tracing is off.
  const provider = GEN_AI_PROVIDER_NAMES[target.provider]
  const serverAddress = hostOf(base)
  const complete = (request: ChatRequest, callOptions: CallOptions = {}): Promise<ChatResult> =>
    traceChat({ provider, model: target.wireModel, request, ...(serverAddress === undefined ? {} : { serverAddress }) }, (span) =>
      completeCall(request, callOptions, span),
    )

  return { id: target.id, kind: 'llm', complete }
}

/** `gen_ai.provider.name` of each provider (the GenAI conventions' names); a bare id on `OPENAI_BASE_URL` speaks OpenAI's API. */
const GEN_AI_PROVIDER_NAMES: Record<ResolvedModel['provider'], string> = { openai: 'openai', anthropic: 'anthropic', google: 'gcp.gemini', custom: 'openai' }

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname
  } catch {
    return undefined
  }
}
