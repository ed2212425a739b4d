import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeJsonAtomic } from '../core/atomic-write.ts'
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

/** One recorded response, stored as `<dir>/<key>.json`. */
export const CassetteSchema = z.object({
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

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const inner = (value as Record<string, unknown>)[key]
      if (inner !== undefined) out[key] = sortKeys(inner)
    }
    return out
  }
  return value
}

/**
 * The parts of a request that decide its response (the `purpose` label does not), and its cache scope when it has one
 * (without one the key is the same as before scopes existed, so recorded cassettes still match).
 */
export function normalizeRequest(modelId: string, request: ChatRequest, scope?: string): unknown {
  return sortKeys({
    ...(scope === undefined ? {} : { scope }),
    model: modelId,
    messages: request.messages,
    tools: request.tools ?? [],
    temperature: request.temperature ?? null,
    maxTokens: request.maxTokens ?? null,
    responseFormat: request.responseFormat ?? null,
  })
}

/** sha256 (hex) of the normalized request (and its scope, see `CallOptions.cacheScope`), with keys in a stable order. */
export function cacheKey(modelId: string, request: ChatRequest, scope?: string): string {
  return createHash('sha256').update(JSON.stringify(normalizeRequest(modelId, request, scope))).digest('hex')
}

/**
 * The cache scope of trial `trial` of `BENCH_TRIALS`: none for the first (or only) one, `trial-j` after it. A trial is
 * an independent run: replaying another trial's responses would make every trial agree and pass^k meaningless.
 */
export function trialCacheScope(trial: number | undefined): string | undefined {
  return trial === undefined || trial <= 1 ? undefined : `trial-${trial}`
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

  /** The error for a miss in `replay` mode, naming the request. */
  missError(modelId: string, request: ChatRequest, key: string, scope?: string): CacheMissError {
    return new CacheMissError(
      `No recorded response in ${this.dir} for model ${modelId}, purpose ${request.purpose ?? '(none)'}${scope === undefined ? '' : `, scope ${scope}`}, first user message ${JSON.stringify(firstUserExcerpt(request))} (key ${key})`,
      {
        hint: 'Record it first with BENCH_CACHE=read-write (needs the model), or point BENCH_CACHE_DIR at the folder that holds it.',
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
