import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeJsonAtomic } from '../core/atomic-write.ts'
import { redactUrl } from '../core/redact.ts'
import { readJsonFile } from '../core/parse.ts'
import { CacheMissError } from './errors.ts'
import type { ChatRequest } from './types.ts'

/**
 * `off`: no cache. `read-write`: answer from the cache when recorded, else call and record.
 * `replay`: answer only from the cache; a miss is a {@link CacheMissError}.
 */
export const CacheModeSchema = z.enum(['off', 'read-write', 'replay'])
export type CacheMode = z.infer<typeof CacheModeSchema>

/** Default cassette folder (relative to the working directory). */
export const DEFAULT_CACHE_DIR = 'fixtures/cassettes'

/**
 * The version of the cache key and cassette format. 2: the key holds the server's base URL and the request body as
 * sent, JSON Schemas in their own key order (version 1 keyed the model id and a few fields, so two servers serving the
 * same model name shared responses). A cassette of another version is never read as this one's.
 */
export const CACHE_FORMAT_VERSION = 2

/** One recorded response, stored as `<dir>/<key>.json`. */
export const CassetteSchema = z.object({
  /** {@link CACHE_FORMAT_VERSION} of the key the cassette was recorded under. */
  cacheVersion: z.literal(CACHE_FORMAT_VERSION),
  key: z.string(),
  model: z.string(),
  request: z.unknown(),
  /** The raw chat-completions response body. */
  response: z.unknown(),
  recordedAt: z.string(),
  /** The scope the response was recorded in (see `CallOptions.cacheScope`), e.g. `trial-2`; absent for the default one. */
  scope: z.string().optional(),
  /** `scripted-server` when the response came from the test server (its ids start with `scripted-`), else the base URL. */
  recordedFrom: z.string(),
})
export type Cassette = z.infer<typeof CassetteSchema>

/** Sorts object keys at any depth, except inside the objects of `verbatim` (kept as they are, in their own key order). */
function sortKeys(value: unknown, verbatim: ReadonlySet<unknown>): unknown {
  if (verbatim.has(value)) return value
  if (Array.isArray(value)) return value.map((item) => sortKeys(item, verbatim))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const inner = (value as Record<string, unknown>)[key]
      if (inner !== undefined) out[key] = sortKeys(inner, verbatim)
    }
    return out
  }
  return value
}

/**
 * The JSON Schemas of a request body (tool parameters, the structured output schema): their key order reaches the model
 * (OpenAI's structured outputs answer in the schema's property order), so the key keeps it.
 */
function schemasOf(body: Record<string, unknown>): Set<unknown> {
  const schemas = new Set<unknown>()
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools as Array<{ function?: { parameters?: unknown } } | null>) {
      const parameters = tool?.function?.parameters
      if (parameters !== null && typeof parameters === 'object') schemas.add(parameters)
    }
  }
  const schema = (body.response_format as { json_schema?: { schema?: unknown } } | undefined)?.json_schema?.schema
  if (schema !== null && typeof schema === 'object') schemas.add(schema)
  return schemas
}

/**
 * The server a request goes to, as the cache key holds it: the base URL with its secrets redacted (two keys for the same
 * server give the same answers) and no trailing slash; other query parameters (`api-version`) stay.
 */
export function cacheServer(baseURL: string): string {
  const at = baseURL.indexOf('?')
  const path = at < 0 ? baseURL : baseURL.slice(0, at)
  return redactUrl(`${path.replace(/\/+$/, '')}${at < 0 ? '' : baseURL.slice(at)}`)
}

/**
 * Everything that decides a response: the format version, the server (see {@link cacheServer}), the chat-completions body
 * as sent (model name, messages, tools, temperature, max tokens, response format and any other field; the `purpose`
 * label is not sent, so not in it) and the cache scope when there is one. Object keys are sorted, except inside JSON Schemas.
 */
export function normalizeRequest(baseURL: string, body: object, scope?: string): unknown {
  const record = body as Record<string, unknown>
  return {
    version: CACHE_FORMAT_VERSION,
    server: cacheServer(baseURL),
    ...(scope === undefined ? {} : { scope }),
    body: sortKeys(record, schemasOf(record)),
  }
}

/** sha256 (hex) of {@link normalizeRequest}: the name of the cassette of a request to `baseURL` with this body. */
export function cacheKey(baseURL: string, body: object, scope?: string): string {
  return createHash('sha256')
    .update(JSON.stringify(normalizeRequest(baseURL, body, scope)))
    .digest('hex')
}

/**
 * The cache scope of trial `trial` of `BENCH_TRIALS`: none for the first (or only) one, `trial-j` after it. A trial is
 * an independent run: replaying another trial's responses would make every trial agree and pass^k meaningless.
 */
export function trialCacheScope(trial: number | undefined): string | undefined {
  return trial === undefined || trial <= 1 ? undefined : `trial-${trial}`
}

const ambientScope = new AsyncLocalStorage<string | undefined>()

/**
 * Runs `work` with `scope` as the cache scope of every model call made inside it (in its async context) that passes
 * none itself: how `describeEval` keeps each trial's recorded responses apart for model calls made inside a user's
 * `task`, which knows nothing of scopes. `undefined` is the default scope.
 */
export function runInCacheScope<T>(scope: string | undefined, work: () => T): T {
  return ambientScope.run(scope, work)
}

/** The cache scope {@link runInCacheScope} set for the current async context, or `undefined`. */
export function ambientCacheScope(): string | undefined {
  return ambientScope.getStore()
}

function firstUserExcerpt(request: ChatRequest): string {
  const user = request.messages.find((message) => message.role === 'user')
  const content = user?.content
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part) => ('text' in part ? part.text : '')).join('') : ''
  return text.length > 80 ? `${text.slice(0, 80)}...` : text
}

/** A folder of reviewable JSON cassettes. */
export class ResponseCache {
  readonly mode: CacheMode
  readonly dir: string

  constructor(mode: CacheMode, dir: string = DEFAULT_CACHE_DIR) {
    this.mode = mode
    this.dir = dir
  }

  /** The cassette file of `key`: `<dir>/<key>.json`. */
  fileOf(key: string): string {
    return join(this.dir, `${key}.json`)
  }

  /** The recorded cassette for `key`, or undefined (always undefined when `off`). */
  read(key: string): Cassette | undefined {
    if (this.mode === 'off') return undefined
    const file = this.fileOf(key)
    if (!existsSync(file)) return undefined
    return readJsonFile(CassetteSchema, file, 'cassette')
  }

  /** The error for a miss in `replay` mode, naming the request and the server it would go to. */
  missError(modelId: string, baseURL: string, request: ChatRequest, key: string, scope?: string): CacheMissError {
    return new CacheMissError(
      `No recorded response in ${this.dir} for model ${modelId} at ${cacheServer(baseURL)}, purpose ${request.purpose ?? '(none)'}${scope === undefined ? '' : `, scope ${scope}`}, first user message ${JSON.stringify(firstUserExcerpt(request))} (key ${key})`,
      {
        hint: `Record it first with BENCH_CACHE=read-write (needs the model), or point BENCH_CACHE_DIR at the folder that holds it. A response is replayed only for the server it was recorded from (OPENAI_BASE_URL as when recording), and cassettes recorded before cache format ${CACHE_FORMAT_VERSION} are not read: record them again.`,
        key,
      },
    )
  }

  /** Records a response (no-op unless `read-write`). */
  write(cassette: Cassette): void {
    if (this.mode !== 'read-write') return
    writeJsonAtomic(this.fileOf(cassette.key), cassette)
  }
}
