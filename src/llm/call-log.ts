import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { REDACTED, type Redactor, createRedactor } from '../core/redact.ts'

/** Where call logs go unless configured otherwise (relative to the working directory). */
export const DEFAULT_CALL_LOG_DIR = 'evaluation/logs/llm'

/** How many call log files a folder keeps unless configured otherwise (`BENCH_LLM_LOG_KEEP`; 0 keeps all). */
export const DEFAULT_CALL_LOG_KEEP = 200

/** A file written to this recently is never removed by {@link pruneCallLogs}: another process of the same run may own it. */
const IN_USE_MS = 10 * 60_000

export { REDACTED }

/** Options of {@link CallLog}. */
export interface CallLogOptions {
  /**
   * When this log starts its file, older `.jsonl` files beyond the newest `keep` of the folder are removed (see
   * {@link pruneCallLogs}); 0 keeps every file.
   * @default DEFAULT_CALL_LOG_KEEP
   */
  keep?: number
}

/**
 * Removes the oldest call log files of `dir` (by name, which starts with the time the file was started) so that at most
 * `keep` remain, sparing any file written to in the last 10 minutes (a concurrent process of the same run may still be
 * appending). Returns the names removed. `keep` 0 removes nothing.
 */
export function pruneCallLogs(dir: string, keep: number, now = Date.now()): string[] {
  if (keep <= 0 || !existsSync(dir)) return []
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
  const removed: string[] = []
  for (const name of files.slice(0, Math.max(0, files.length - keep))) {
    const file = join(dir, name)
    try {
      if (now - statSync(file).mtimeMs < IN_USE_MS) continue
      rmSync(file, { force: true })
      removed.push(name)
    } catch {
      // Removed meanwhile by another process pruning the same folder.
    }
  }
  return removed
}

/** One model call, one line of a {@link CallLog} file. */
export interface CallLogEntry {
  startedAt: string
  /** The model id as the user gave it. */
  model: string
  baseURL: string | null
  purpose: string | null
  cached: boolean
  cacheKey: string | null
  latencyMs: number
  retries: number
  /** Failed attempts before the final one: why and how long we waited. */
  attempts: ReadonlyArray<{ attempt: number; reason: string; delayMs: number }>
  /** The request body sent (or that would have been sent) to chat.completions. */
  request: unknown
  outcome: { kind: 'response'; response: unknown } | { kind: 'error'; code: string; message: string; status: number | null }
  usage: { promptTokens: number; completionTokens: number; totalTokens: number; costUsd: number | null } | null
}

const SECRET_FIELD_NAMES = 'authorization|proxy-authorization|api[-_]?key|x-api-key|x-goog-api-key|apikey'
const SECRET_FIELD = new RegExp(`^(?:${SECRET_FIELD_NAMES})$`, 'i')
/** A secret-named field in JSON text: such names need no escaping, so a value that holds one shows it this way. */
const SECRET_FIELD_IN_JSON = new RegExp(`"(?:${SECRET_FIELD_NAMES})":`, 'i')

/**
 * Replaces secret-named fields (`authorization`, `api_key`, ...) at any depth with {@link REDACTED}. Only the objects
 * and arrays on the way to such a field are copied: a value without one is returned as is.
 */
export function redactFields(value: unknown): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let index = 0; index < value.length; index++) {
      const inner = redactFields(value[index])
      if (inner !== value[index]) (out ??= [...value])[index] = inner
    }
    return out ?? value
  }
  if (value !== null && typeof value === 'object') {
    let out: Record<string, unknown> | undefined
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key]
      const inner = SECRET_FIELD.test(key) ? REDACTED : redactFields(item)
      if (inner !== item) (out ??= { ...value })[key] = inner
    }
    return out ?? value
  }
  return value
}

/** A call's first `count` request messages are those of the earlier call `call` of the same file. */
export interface MessagesFrom {
  call: string
  count: number
}

/**
 * One line of a call log file: a call, or tool schemas that calls of the same file refer to by hash. A call that
 * continues an earlier call's conversation holds only its new messages (`messagesFrom` names the earlier call and how
 * many of its messages come first), so a conversation of n turns is written once, not n times.
 */
export type CallLogLine =
  | { kind: 'tools'; hash: string; tools: unknown[] }
  | ({ kind: 'call'; id: string; toolsRef?: string; messagesFrom?: MessagesFrom } & CallLogEntry)

/** A call as read back: the entry, with its request's tools put back, and where it was found. */
export interface LoggedCall {
  id: string
  file: string
  entry: CallLogEntry
}

/**
 * Stands for a line's request messages until their JSON, already computed, is spliced in (see `CallLog.#append`): a
 * string no request holds (NUL characters and a random id), found in the line's JSON by its own JSON.
 */
const MESSAGES_MARKER = `\u0000call-log-messages-${randomUUID()}\u0000`
const MESSAGES_MARKER_JSON = JSON.stringify(MESSAGES_MARKER)

/** Hashes by tools array: a task sends the same array on each of its calls. */
const toolHashes = new WeakMap<object, string>()
/** Hashes of frozen objects (the JSON Schemas of tool parameters, shared by the tools every task builds). */
const frozenHashes = new WeakMap<object, string>()

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

/** A frozen object cannot change: its hash stands in for its JSON, computed once however many tasks send it. */
function frozenAsHash(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return value
  let hash = frozenHashes.get(value)
  if (hash === undefined) {
    hash = sha(JSON.stringify(value))
    frozenHashes.set(value, hash)
  }
  return `frozen:${hash}`
}

/** Hashes by {@link toolsKey}: tools arrays built per task from the same definitions share their hash. */
const keyHashes = new Map<string, string>()
/** Distinct tools keys remembered at most (one per inbox and date for ART-E); past it the map starts over. */
const MAX_TOOLS_KEYS = 10_000

/**
 * A text that tells tools arrays apart exactly, without serializing their parameter schemas: for tools of the shape
 * `toOpenAITool` builds (`{type, function: {name, description?, parameters, strict?}}` with deep-frozen parameters)
 * their fields and the hash of the frozen schema; undefined for any other shape.
 */
function toolsKey(tools: unknown[]): string | undefined {
  const parts: unknown[] = []
  for (const tool of tools) {
    if (tool === null || typeof tool !== 'object') return undefined
    const { type, function: fn, ...otherTool } = tool as { type?: unknown; function?: unknown }
    if (typeof type !== 'string' || fn === null || typeof fn !== 'object' || Object.keys(otherTool).length > 0) return undefined
    const { name, description, parameters, strict, ...otherFunction } = fn as Record<string, unknown>
    if (typeof name !== 'string' || (description !== undefined && typeof description !== 'string') || Object.keys(otherFunction).length > 0) return undefined
    if (parameters === null || typeof parameters !== 'object' || !Object.isFrozen(parameters)) return undefined
    if (strict !== undefined && typeof strict !== 'boolean' && strict !== null) return undefined
    parts.push(type, name, description ?? null, description === undefined, strict === undefined ? 'absent' : strict, frozenAsHash('', parameters) as string)
  }
  return JSON.stringify(parts)
}

function hashTools(tools: unknown[]): string {
  let hash = toolHashes.get(tools)
  if (hash !== undefined) return hash
  const key = toolsKey(tools)
  hash = key === undefined ? undefined : keyHashes.get(key)
  if (hash === undefined) {
    hash = sha(JSON.stringify(tools, frozenAsHash))
    if (key !== undefined) {
      if (keyHashes.size >= MAX_TOOLS_KEYS) keyHashes.clear()
      keyHashes.set(key, hash)
    }
  }
  toolHashes.set(tools, hash)
  return hash
}

/** Closes the files of call logs that are garbage collected without {@link CallLog.close}. */
const openFiles = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd)
  } catch {
    // Already closed.
  }
})

/**
 * Appends one JSON line per model call, redacted, to one file per process and thread
 * (`<dir>/<started>-<pid>-<thread>.jsonl`): one write per call, no file per call. The tool schemas of a request, the
 * same for every call of a benchmark, are written once per file and referred to by hash (`toolsRef`).
 * `agent-bench calls` reads them back.
 */
export class CallLog {
  readonly dir: string
  #file: string | undefined
  /** Open for appending from the first write until {@link CallLog.close} (one `write` per call, no open and close). */
  #fd: number | undefined
  readonly #writtenTools = new Set<string>()
  /** The last call of each conversation, by its first message object: its id and the JSON of each of its messages. */
  readonly #conversations = new WeakMap<object, { id: string; texts: string[] }>()
  readonly #keep: number
  readonly #redactor: Redactor

  /**
   * @param secrets values never to write (API keys); any occurrence in a log line becomes {@link REDACTED}.
   * @param options how many files the folder keeps across runs (see {@link CallLogOptions}).
   */
  constructor(dir: string = DEFAULT_CALL_LOG_DIR, secrets: ReadonlyArray<string> = [], options: CallLogOptions = {}) {
    this.dir = dir
    this.#keep = options.keep ?? DEFAULT_CALL_LOG_KEEP
    this.#redactor = createRedactor(process.env, secrets)
  }

  /** The file this log appends to (created with its folder on the first write, which also prunes old files). */
  get file(): string {
    if (this.#file === undefined) {
      mkdirSync(this.dir, { recursive: true })
      // Counting the file about to start: the folder ends with at most `keep` files (files in use aside).
      if (this.#keep > 0) pruneCallLogs(this.dir, this.#keep - 1)
      this.#file = join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${threadId}-${randomBytes(2).toString('hex')}.jsonl`)
    }
    return this.#file
  }

  /**
   * Appends `line`, redacted. With `messages` (the JSON of each message of the line's request, `messages.texts`, from
   * the first one the line holds, `messages.from`), the line's `request.messages` is {@link MESSAGES_MARKER} and the
   * messages' JSON is put in its place, so each message is serialized once per call, not twice.
   */
  #append(line: CallLogLine, messages?: { texts: ReadonlyArray<string>; from: number; real: unknown[] }): void {
    if (this.#fd === undefined) {
      this.#fd = openSync(this.file, 'a')
      openFiles.register(this, this.#fd, this)
    }
    let json = JSON.stringify(line)
    if (messages !== undefined) {
      const at = json.indexOf(MESSAGES_MARKER_JSON)
      json = `${json.slice(0, at)}[${messages.texts.slice(messages.from).join(',')}]${json.slice(at + MESSAGES_MARKER_JSON.length)}`
    }
    // Most lines hold no secret-named field: the walk that replaces them runs only for a line whose JSON names one.
    if (SECRET_FIELD_IN_JSON.test(json)) {
      const whole = messages === undefined ? line : { ...line, request: { ...(line as { request: object }).request, messages: messages.real } }
      json = JSON.stringify(redactFields(whole))
    }
    writeSync(this.#fd, `${this.#redactor.redactJsonText(json)}\n`)
  }

  /** Closes the file (a later write opens it again); safe to call twice. */
  close(): void {
    if (this.#fd === undefined) return
    openFiles.unregister(this)
    closeSync(this.#fd)
    this.#fd = undefined
  }

  /** Appends the entry; returns the call's id (`agent-bench calls ID` prints it). */
  write(entry: CallLogEntry): string {
    // Eight random hex digits; randomUUID draws from a buffered pool (randomBytes makes a native call and a buffer per id).
    const id = `${entry.startedAt.replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`
    const request = entry.request
    if (request === null || typeof request !== 'object' || Array.isArray(request)) {
      this.#append({ kind: 'call', id, ...entry })
      return id
    }
    const { tools, ...withoutTools } = request as { tools?: unknown; messages?: unknown }
    let logged: Record<string, unknown> = withoutTools
    let toolsRef: string | undefined
    if (Array.isArray(tools) && tools.length > 0) {
      toolsRef = hashTools(tools)
      if (!this.#writtenTools.has(toolsRef)) {
        this.#append({ kind: 'tools', hash: toolsRef, tools })
        this.#writtenTools.add(toolsRef)
      }
    } else if (tools !== undefined) {
      logged = request as Record<string, unknown>
    }
    const conversation = this.#continued(id, withoutTools.messages)
    const from = conversation?.from
    // The messages' JSON, computed to compare them with the conversation's last call, is spliced into the line.
    if (conversation !== undefined) logged = { ...logged, messages: MESSAGES_MARKER }
    this.#append(
      {
        kind: 'call',
        id,
        ...(toolsRef === undefined ? {} : { toolsRef }),
        ...(from === undefined ? {} : { messagesFrom: from }),
        ...entry,
        request: logged,
      },
      conversation === undefined
        ? undefined
        : { texts: conversation.texts, from: from?.count ?? 0, real: (withoutTools.messages as unknown[]).slice(from?.count ?? 0) },
    )
    return id
  }

  /**
   * The JSON of each of `messages` (undefined when they are not a list that starts with an object), and whether they
   * continue the conversation of this log's last call that began with the same first message object (one agent run):
   * the earlier call's messages, compared as JSON, come first. Remembers these messages for the next call of the
   * conversation.
   */
  #continued(id: string, messages: unknown): { texts: string[]; from: MessagesFrom | undefined } | undefined {
    if (!Array.isArray(messages) || messages.length === 0) return undefined
    const first: unknown = messages[0]
    if (first === null || typeof first !== 'object') return undefined
    // As JSON.stringify writes an array's items (undefined, a function: null).
    const texts = messages.map((message) => JSON.stringify(message) ?? 'null')
    const earlier = this.#conversations.get(first)
    this.#conversations.set(first, { id, texts })
    if (earlier === undefined || earlier.texts.length > texts.length) return { texts, from: undefined }
    for (let index = 0; index < earlier.texts.length; index++) if (earlier.texts[index] !== texts[index]) return { texts, from: undefined }
    return { texts, from: { call: earlier.id, count: earlier.texts.length } }
  }
}

/**
 * Every call logged in `dir`, oldest file first, with tools and the messages of earlier calls restored into each
 * request. Unreadable lines are skipped.
 */
export function* readCallLog(dir: string): Generator<LoggedCall> {
  if (!existsSync(dir)) return
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
  for (const name of files) {
    const file = join(dir, name)
    const tools = new Map<string, unknown[]>()
    // The full messages of calls a later call may continue; a call continued once is not continued again.
    const messagesOf = new Map<string, unknown[]>()
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      if (text.trim() === '') continue
      let line: CallLogLine
      try {
        line = JSON.parse(text) as CallLogLine
      } catch {
        continue
      }
      if (line.kind === 'tools') tools.set(line.hash, line.tools)
      else if (line.kind === 'call') {
        const { kind: _kind, id, toolsRef, messagesFrom, ...entry } = line
        let request = entry.request
        if (request !== null && typeof request === 'object' && !Array.isArray(request)) {
          const record = request as { messages?: unknown }
          const own = Array.isArray(record.messages) ? record.messages : []
          if (messagesFrom !== undefined) {
            const earlier = messagesOf.get(messagesFrom.call)
            messagesOf.delete(messagesFrom.call)
            const head =
              earlier === undefined
                ? [`[the first ${messagesFrom.count} messages, those of call ${messagesFrom.call}, not found]`]
                : earlier.slice(0, messagesFrom.count)
            request = { ...record, messages: [...head, ...own] }
          }
          const messages = (request as { messages?: unknown }).messages
          if (Array.isArray(messages)) messagesOf.set(id, messages)
          if (toolsRef !== undefined) request = { ...(request as object), tools: tools.get(toolsRef) ?? `[tools ${toolsRef} not found]` }
        }
        yield { id, file, entry: { ...entry, request } }
      }
    }
  }
}
