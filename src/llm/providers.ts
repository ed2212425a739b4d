import { redactUrl } from '../core/redact.ts'
import { ConfigError } from '../core/errors.ts'

/** Where a provider's OpenAI-compatible API lives and which variable holds its key. */
export interface ProviderInfo {
  baseURL: string
  keyVariable: string
}

/** Known provider prefixes of model ids (`anthropic/claude-sonnet-4-5`). */
export const PROVIDERS = {
  openai: { baseURL: 'https://api.openai.com/v1', keyVariable: 'OPENAI_API_KEY' },
  anthropic: { baseURL: 'https://api.anthropic.com/v1/', keyVariable: 'ANTHROPIC_API_KEY' },
  google: { baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/', keyVariable: 'GEMINI_API_KEY' },
} as const satisfies Record<string, ProviderInfo>

/** A known provider name. */
export type ProviderName = keyof typeof PROVIDERS

/** Key sent to an `OPENAI_BASE_URL` server when `OPENAI_API_KEY` is unset (local servers often need none). */
export const PLACEHOLDER_API_KEY = 'no-key-set'

/** Everything needed to reach a model. */
export interface ResolvedModel {
  /** The id as given (`openai/gpt-4.1`, `llama3.1:8b`). */
  id: string
  /** `custom` for a bare id served by `OPENAI_BASE_URL`. */
  provider: ProviderName | 'custom'
  /** The model name sent in requests (the id without its provider prefix). */
  wireModel: string
  baseURL: string
  apiKey: string
  /** The variable the key came from (named in errors, redacted in logs). */
  keyVariable: string
}

/** Environment variables, as in `process.env`. */
export type Env = Record<string, string | undefined>

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim())

/** The trimmed value of `name` in `env`; undefined when unset or blank. */
export function envValue(env: Env, name: string): string | undefined {
  return nonEmpty(env[name])
}

function isProvider(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name)
}

/**
 * Resolves a model id to base URL and key.
 *
 * - `openai/x`, `anthropic/x`, `google/x`: the provider's URL and key variable (`OPENAI_BASE_URL` overrides OpenAI's URL); a missing key is a {@link ConfigError}.
 * - any other id (a bare id, or one whose prefix is not a known provider such as `meta-llama/Llama-3.1-8B`) is sent whole
 *   to `OPENAI_BASE_URL` (default OpenAI's URL) with `OPENAI_API_KEY`. When `OPENAI_BASE_URL` is set and the key is not,
 *   the placeholder {@link PLACEHOLDER_API_KEY} is sent; without `OPENAI_BASE_URL` the key is required.
 *
 * With `requireKey: false` (cache replay, which makes no HTTP call) a missing key becomes the placeholder.
 */
export function resolveModel(id: string, env: Env = process.env, options: { requireKey?: boolean } = {}): ResolvedModel {
  const requireKey = options.requireKey ?? true
  const slash = id.indexOf('/')
  const prefix = slash > 0 ? id.slice(0, slash) : ''
  const customBaseURL = nonEmpty(env.OPENAI_BASE_URL)
  if (isProvider(prefix)) {
    const info: ProviderInfo = PROVIDERS[prefix]
    const wireModel = id.slice(slash + 1)
    if (wireModel === '') {
      throw new ConfigError(`Model id ${JSON.stringify(id)} has no model name after the provider`, {
        hint: `Write it as \`${prefix}/<model>\`, e.g. \`${prefix}/${exampleModel(prefix)}\`.`,
      })
    }
    const apiKey = nonEmpty(env[info.keyVariable])
    if (apiKey === undefined && requireKey) throw missingKey(id, info.keyVariable)
    const baseURL = prefix === 'openai' && customBaseURL !== undefined ? checkedBaseURL(customBaseURL) : info.baseURL
    return { id, provider: prefix, wireModel, baseURL, apiKey: apiKey ?? PLACEHOLDER_API_KEY, keyVariable: info.keyVariable }
  }
  if (id.trim() === '') throw new ConfigError('Model id is empty', { hint: 'Pass a model id such as `openai/gpt-4.1` or `baseline`.' })
  const apiKey = nonEmpty(env.OPENAI_API_KEY)
  if (customBaseURL === undefined) {
    if (apiKey === undefined && requireKey) throw missingKey(id, 'OPENAI_API_KEY', true)
    return { id, provider: 'custom', wireModel: id, baseURL: PROVIDERS.openai.baseURL, apiKey: apiKey ?? PLACEHOLDER_API_KEY, keyVariable: 'OPENAI_API_KEY' }
  }
  return { id, provider: 'custom', wireModel: id, baseURL: checkedBaseURL(customBaseURL), apiKey: apiKey ?? PLACEHOLDER_API_KEY, keyVariable: 'OPENAI_API_KEY' }
}

/**
 * `OPENAI_BASE_URL` when it is a URL HTTP clients can call; a {@link ConfigError} for a value that is not a URL, or
 * one with a user name or password (`https://user:pass@host/v1`): fetch refuses such URLs, and the OpenAI client would
 * only say "Connection error". The error shows the URL with its userinfo redacted.
 */
function checkedBaseURL(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch (error) {
    throw new ConfigError(`OPENAI_BASE_URL=${JSON.stringify(redactUrl(url))} is not a URL`, {
      hint: "Set OPENAI_BASE_URL to the server's base URL, e.g. `http://localhost:8000/v1`, or unset it.",
      cause: error,
    })
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new ConfigError(`OPENAI_BASE_URL=${JSON.stringify(redactUrl(url))} holds a user name or password (\`user:pass@\`), which HTTP clients do not send`, {
      hint: 'Remove `user:pass@` from OPENAI_BASE_URL and put the key in OPENAI_API_KEY (sent as `Authorization: Bearer ...`); a key the server takes as a query parameter can stay in the URL (`?api-key=...`).',
    })
  }
  return url
}

function exampleModel(provider: ProviderName): string {
  return { openai: 'gpt-4.1', anthropic: 'claude-sonnet-4-5', google: 'gemini-2.5-pro' }[provider]
}

function missingKey(id: string, variable: string, bare = false): ConfigError {
  const extra = bare ? ', or set OPENAI_BASE_URL to an OpenAI-compatible server (vLLM, Ollama, LM Studio) that serves it' : ''
  return new ConfigError(`Model ${JSON.stringify(id)} needs an API key, but ${variable} is not set`, {
    hint: `Set ${variable}${extra}; or run offline with the non-LLM \`baseline\` model.`,
  })
}
