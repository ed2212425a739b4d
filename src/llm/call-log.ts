import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { writeFileAtomic } from '../core/atomic-write.ts'
import { REDACTED, redact } from '../core/redact.ts'

/** Where call logs go unless configured otherwise (relative to the working directory). */
export const DEFAULT_CALL_LOG_DIR = 'evaluation/logs/llm'

export { REDACTED }

/** One model call, as written to `<dir>/<startedAt>-<purpose>-<random>.json`. */
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

const SECRET_FIELD = /^(authorization|proxy-authorization|api[-_]?key|x-api-key|x-goog-api-key|apikey)$/i

/** Replaces secret-named fields (`authorization`, `api_key`, ...) at any depth with {@link REDACTED}. */
export function redactFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactFields)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) out[key] = SECRET_FIELD.test(key) ? REDACTED : redactFields(inner)
    return out
  }
  return value
}

/** Replaces every occurrence of each secret (of 4+ characters) in `text`, also in its JSON-escaped form. */
export function redactSecrets(text: string, secrets: ReadonlyArray<string>): string {
  let out = text
  for (const secret of secrets) {
    if (secret.length < 4) continue
    out = out.replaceAll(secret, REDACTED)
    const escaped = JSON.stringify(secret).slice(1, -1)
    if (escaped !== secret) out = out.replaceAll(escaped, REDACTED)
  }
  return out
}

/** Writes one JSON file per model call, redacted, atomically. */
export class CallLog {
  readonly dir: string
  readonly #secrets: string[]

  /** @param secrets values never to write (API keys); any occurrence in a log file becomes {@link REDACTED}. */
  constructor(dir: string = DEFAULT_CALL_LOG_DIR, secrets: ReadonlyArray<string> = []) {
    this.dir = dir
    this.#secrets = [...secrets].filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length)
  }

  /** Writes the entry and returns the file path. */
  write(entry: CallLogEntry): string {
    const purpose = (entry.purpose ?? 'call').replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40)
    const file = join(this.dir, `${entry.startedAt.replace(/[:.]/g, '-')}-${purpose}-${randomBytes(4).toString('hex')}.json`)
    const text = redact(redactSecrets(`${JSON.stringify(redactFields(entry), null, 2)}\n`, this.#secrets))
    writeFileAtomic(file, text)
    return file
  }
}
