import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * A test double of an OpenAI-compatible chat-completions server, driven by a script.
 *
 * Everything it sends is *scripted*: replies carry `"id": "scripted-<n>"` and a
 * `model` of `scripted:<requested model>` so nothing it produces can pass for real model output.
 */

/** One tool call in a scripted reply. `arguments` is the raw string sent, so malformed JSON can be scripted. */
export interface ScriptedToolCall {
  /** Defaults to `call_scripted_<request>_<index>`. */
  id?: string
  name: string
  /** Raw argument string; an object is JSON-encoded. */
  arguments: string | Record<string, unknown>
}

/** Token counts to report; each defaults to an estimate from the request size (prompt) or reply size (completion). */
export interface ScriptedUsage {
  prompt_tokens?: number
  completion_tokens?: number
}

/** A chat-completion reply. */
export interface ScriptedReply {
  kind: 'reply'
  content?: string | null
  toolCalls?: ScriptedToolCall[]
  usage?: ScriptedUsage
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string
  /** Wait this long before answering (to exercise client timeouts). */
  delayMs?: number
  /**
   * Answer only once this settles (after `delayMs`): lets a test hold requests until several are in flight, instead
   * of inferring overlap from arrival times, which a busy machine stretches.
   */
  after?: Promise<unknown>
}

/** An HTTP error response. */
export interface ScriptedHttpError {
  kind: 'error'
  status: number
  /** JSON body; defaults to an OpenAI-style `{error: {message, type, code}}`. */
  body?: unknown
  /** Extra response headers, e.g. `{'retry-after': '1'}`. */
  headers?: Record<string, string>
  delayMs?: number
}

/** The connection is destroyed without a response (a connection reset, as the client sees it). */
export interface ScriptedDrop {
  kind: 'drop'
  delayMs?: number
}

/**
 * A raw response body, e.g. a truncated JSON completion or a proxy's HTML page, sent as is. With `stallAfterHeaders`
 * the headers and the first `body` bytes are sent and the rest never comes (a body that stalls).
 */
export interface ScriptedRaw {
  kind: 'raw'
  /** @default 200 */
  status?: number
  /** @default 'application/json' */
  contentType?: string
  body: string
  stallAfterHeaders?: boolean
  delayMs?: number
}

/** What the server does with one request. */
export type ScriptedResponse = ScriptedReply | ScriptedHttpError | ScriptedDrop | ScriptedRaw

/** Decides the response from the request (e.g. routing by message content). */
export type ScriptedResponder = (request: ReceivedRequest, index: number) => ScriptedResponse

/** One step of a script: a fixed response, or a function of the request. */
export type ScriptStep = ScriptedResponse | ScriptedResponder

/**
 * A list of steps consumed one per request (when it runs out, requests get a 500 saying so),
 * or a single responder that answers every request.
 */
export type Script = ReadonlyArray<ScriptStep> | ScriptedResponder

/** A request the server received, recorded for assertions. */
export interface ReceivedRequest {
  /** 0-based order of arrival. */
  index: number
  method: string
  /** Path without the base (`/chat/completions`). */
  path: string
  /** Lower-cased header names. */
  headers: Record<string, string>
  /** Parsed JSON body (or the raw text when it is not JSON). */
  body: ChatCompletionsRequestBody
  rawBody: string
}

/** The parts of a chat-completions request body tests usually look at. */
export interface ChatCompletionsRequestBody {
  model?: string
  messages?: Array<{ role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string; [key: string]: unknown }>
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>
  [key: string]: unknown
}

/** A running scripted server. */
export interface ScriptedServer {
  /** Base URL to give the SDK, e.g. `http://127.0.0.1:43117/v1`. */
  baseURL: string
  /** Every request received so far, in order. */
  requests: ReceivedRequest[]
  /** Stops the server, cutting any open connection. */
  close(): Promise<void>
  [Symbol.asyncDispose](): Promise<void>
}

/** A plain text reply. */
export function scriptedText(content: string, options: Omit<ScriptedReply, 'kind' | 'content'> = {}): ScriptedReply {
  return { kind: 'reply', content, ...options }
}

/** A reply that calls tools (several calls = parallel tool calls). */
export function scriptedToolCalls(toolCalls: ScriptedToolCall[], options: Omit<ScriptedReply, 'kind' | 'toolCalls'> = {}): ScriptedReply {
  return { kind: 'reply', content: null, toolCalls, ...options }
}

/** An HTTP error; `headers` may carry `retry-after`. */
export function scriptedError(status: number, options: Omit<ScriptedHttpError, 'kind' | 'status'> = {}): ScriptedHttpError {
  return { kind: 'error', status, ...options }
}

/** A raw body sent as is (see {@link ScriptedRaw}): truncated JSON, an HTML page, a stalled body. */
export function scriptedRaw(body: string, options: Omit<ScriptedRaw, 'kind' | 'body'> = {}): ScriptedRaw {
  return { kind: 'raw', body, ...options }
}

/** A scripted completion body cut after `keep` characters (a truncated 200 response). */
export function truncatedCompletion(content: string, keep = 60): ScriptedRaw {
  const full = JSON.stringify({
    id: 'scripted-truncated',
    object: 'chat.completion',
    model: 'scripted',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  })
  return scriptedRaw(full.slice(0, keep))
}

/** The text of the last user message of a request ('' when none), for responders that route by content. */
export function lastUserText(request: ReceivedRequest): string {
  const messages = request.body.messages ?? []
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]
    if (message?.role === 'user') return contentText(message.content)
  }
  return ''
}

/** The tool messages of a request (role `tool`), for responders that react to tool results. */
export function toolResults(request: ReceivedRequest): Array<{ toolCallId: string; content: string }> {
  return (request.body.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) => ({ toolCallId: message.tool_call_id ?? '', content: contentText(message.content) }))
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : '')).join('')
  }
  return ''
}

const estimateTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4))

/** Starts a scripted server on 127.0.0.1 at a free port. */
export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const requests: ReceivedRequest[] = []
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  let next = 0

  const pickStep = (request: ReceivedRequest): ScriptedResponse => {
    if (typeof script === 'function') return script(request, request.index)
    const step = script[next]
    if (step === undefined) {
      return scriptedError(500, {
        body: {
          error: {
            message: `scripted server: script exhausted: it has ${script.length} step(s) and this is request #${request.index + 1}`,
            type: 'scripted_script_exhausted',
            code: 'script_exhausted',
          },
        },
      })
    }
    next++
    return typeof step === 'function' ? step(request, request.index) : step
  }

  const handle = (req: IncomingMessage, res: ServerResponse, rawBody: string): void => {
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
    }
    let body: ChatCompletionsRequestBody
    try {
      body = rawBody === '' ? {} : (JSON.parse(rawBody) as ChatCompletionsRequestBody)
    } catch {
      body = { raw: rawBody }
    }
    const path = (req.url ?? '/').replace(/^\/v1/, '').split('?')[0] ?? '/'
    const request: ReceivedRequest = { index: requests.length, method: req.method ?? 'GET', path, headers, body, rawBody }
    requests.push(request)

    if (req.method !== 'POST' || path !== '/chat/completions') {
      sendJson(res, 404, { error: { message: `scripted server: only POST /v1/chat/completions is scripted, got ${req.method} ${req.url}`, type: 'not_found' } })
      return
    }
    let step: ScriptedResponse
    try {
      step = pickStep(request)
    } catch (error) {
      sendJson(res, 500, { error: { message: `scripted server: responder threw: ${(error as Error).message}`, type: 'scripted_responder_error' } })
      return
    }
    const respond = (): void => {
      if (res.destroyed || res.writableEnded) return
      if (step.kind === 'drop') {
        req.socket.destroy()
      } else if (step.kind === 'raw') {
        const status = step.status ?? 200
        res.writeHead(status, { 'content-type': step.contentType ?? 'application/json' })
        if (step.stallAfterHeaders === true) {
          res.flushHeaders()
          if (step.body !== '') res.write(step.body)
        } else {
          res.end(step.body)
        }
      } else if (step.kind === 'error') {
        const errorBody = step.body ?? { error: { message: `scripted HTTP ${step.status}`, type: 'scripted_error', code: String(step.status) } }
        sendJson(res, step.status, errorBody, step.headers)
      } else {
        sendJson(res, 200, completionBody(step, request))
      }
    }
    const gate = step.kind === 'reply' ? step.after : undefined
    const answer = gate === undefined ? respond : (): void => void gate.then(respond, respond)
    if (step.delayMs !== undefined && step.delayMs > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer)
        answer()
      }, step.delayMs)
      timers.add(timer)
    } else {
      answer()
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  let closed: Promise<void> | undefined
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    })
    return closed
  }

  return { baseURL: `http://127.0.0.1:${port}/v1`, requests, close, [Symbol.asyncDispose]: close }
}

function completionBody(step: ScriptedReply, request: ReceivedRequest): unknown {
  const toolCalls = (step.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_scripted_${request.index}_${i}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }))
  const content = step.content ?? null
  const completionText = (content ?? '') + toolCalls.map((call) => call.function.name + call.function.arguments).join('')
  const promptTokens = step.usage?.prompt_tokens ?? estimateTokens(request.rawBody)
  const completionTokens = step.usage?.completion_tokens ?? estimateTokens(completionText)
  const model = typeof request.body.model === 'string' ? request.body.model : 'unknown'
  return {
    id: `scripted-${request.index}`,
    object: 'chat.completion',
    created: 0,
    model: `scripted:${model}`,
    system_fingerprint: 'scripted-server',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: step.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}
