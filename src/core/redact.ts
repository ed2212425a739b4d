/**
 * The one redaction function: every string that leaves the process (files, databases, console, error messages) goes
 * through {@link redact}, which removes API keys found in the environment, secrets registered at run time,
 * `Authorization` / `api-key` values, and secrets in URLs (`user:pass@`, `?api-key=...`).
 */

/** Written in place of anything secret. */
export const REDACTED = '[REDACTED]'

type Env = Record<string, string | undefined>

/**
 * Environment variables whose value is a secret: `*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD` (see
 * {@link secretsFromEnv}), and `*_KEY`.
 */
export const SECRET_VARIABLE = /(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD)$/i

/** Variables whose value is always a secret, whatever its characters (a generic `*_KEY` may name a setting). */
const ALWAYS_SECRET_VARIABLE = /(^|_)(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD)$/i

/**
 * Values shorter than this are never treated as secrets: `sk`, `test`, `none`, `EMPTY` are placeholders a local server
 * takes, and redacting them would garble ordinary text (`"split": "test"`).
 */
export const MIN_SECRET_LENGTH = 6

/** Values shorter than this are redacted only where they stand as a whole word (`ollama`, not `ollamas`). */
export const WHOLE_WORD_BELOW = 8

/** Values that stand where a secret would but are placeholders or JSON words (redacting them would garble JSON). */
const NOT_SECRETS = new Set(['no-key-set', 'null', 'true', 'false'])

/** Whether `value` (trimmed) is long enough, and not a placeholder, to be redacted. */
function isSecretValue(value: string): boolean {
  return value.length >= MIN_SECRET_LENGTH && !NOT_SECRETS.has(value)
}

const SECRET_QUERY = /([?&](?:api[-_]?key|key|token|access[-_]?token|secret|password|passwd|sig|signature|auth)=)[^&\s"'#<>\\]+/gi
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s"'@<>\\]+@/gi
const HEADER_VALUE = /((?:proxy-)?authorization|x-api-key|api[-_]key|x-goog-api-key)(\\?["']?\s*[:=]\s*\\?["']?)(?:(?:Bearer|Basic|Token)\s+)?([^\s"',;\\]+)/gi

const registered = new Set<string>()

/** Adds a secret to redact from now on in this process (e.g. a key passed in code rather than the environment). */
export function registerSecret(value: string | undefined): void {
  if (value !== undefined && isSecretValue(value.trim())) registered.add(value.trim())
}

/** The secrets inside a URL: the userinfo password (and user), and the values of secret-named query parameters. */
export function urlSecrets(url: string): string[] {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return []
  }
  const out: string[] = []
  if (parsed.password !== '') out.push(decodeURIComponent(parsed.password), parsed.password)
  if (parsed.username !== '' && parsed.password !== '') out.push(decodeURIComponent(parsed.username), parsed.username)
  for (const [name, value] of parsed.searchParams) {
    if (/^(api[-_]?key|key|token|access[-_]?token|secret|password|passwd|sig|signature|auth)$/i.test(name) && value !== '')
      out.push(value, encodeURIComponent(value))
  }
  return out.filter(isSecretValue)
}

/**
 * Secret values found in `env`: the value of every `*_API_KEY`, `*_TOKEN`, `*_SECRET` and `*_PASSWORD` variable,
 * whatever its characters (a local server's self-chosen `localsecretkey` or `ollama` included), the value of a
 * `*_KEY` variable unless it is a plain word of letters (`DEPLOY_KEY=production` names a setting), and the secrets
 * inside URL-valued variables (userinfo, key-like query values). Values under {@link MIN_SECRET_LENGTH} characters
 * are left out.
 */
export function secretsFromEnv(env: Env = process.env): string[] {
  const out: string[] = []
  for (const [name, raw] of Object.entries(env)) {
    const value = raw?.trim()
    if (value === undefined || !isSecretValue(value)) continue
    if (ALWAYS_SECRET_VARIABLE.test(name)) out.push(value)
    else if (SECRET_VARIABLE.test(name)) {
      if (!/^[A-Za-z]{1,15}$/.test(value)) out.push(value)
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) out.push(...urlSecrets(value))
  }
  return out
}

/** What follows `://` when a URL holds userinfo (`user:pass@`): {@link URL_USERINFO} without its scheme. */
const USERINFO_AFTER_SCHEME = /[^/\s"'@<>\\]+@/y

/**
 * Whether some `://` of `text` is followed by userinfo and `@`, which every match of {@link URL_USERINFO} needs: a
 * linear scan that spares long texts (a call log line) that regex, which tries every word of the text.
 */
function mayHoldUserinfo(text: string): boolean {
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    USERINFO_AFTER_SCHEME.lastIndex = at + 3
    if (USERINFO_AFTER_SCHEME.test(text)) return true
  }
  return false
}

/** A URL with its userinfo and secret query values replaced by {@link REDACTED}; other text is left as is. */
export function redactUrl(url: string): string {
  const withoutUserinfo = mayHoldUserinfo(url) ? url.replace(URL_USERINFO, `$1${REDACTED}@`) : url
  return withoutUserinfo.includes('=') ? withoutUserinfo.replace(SECRET_QUERY, `$1${REDACTED}`) : withoutUserinfo
}

/**
 * `text` with every secret removed: the values of secret-named environment variables and registered secrets (also
 * JSON-escaped), `Authorization` / `api-key` values, and URL userinfo and secret query values.
 */
export function redact(text: string, env: Env = process.env): string {
  return redactWith(text, secretForms([...secretsFromEnv(env), ...registered]))
}

/** A JSON value with every string redacted (see {@link redact}). */
export function redactJson<T>(value: T, env: Env = process.env): T {
  return redactJsonWith(value, (text) => redact(text, env))
}

/**
 * JSON text (`JSON.stringify(value, null, space)`, a trailing newline allowed) with every secret removed, still valid
 * JSON: a secret that stands where a string cannot (a number equal to a numeric key) is left in place there.
 */
export function redactJsonText(text: string, space?: number, env: Env = process.env): string {
  return redactJsonTextWith(text, space, (part) => redact(part, env))
}

/** {@link redact}, {@link redactJson} and {@link redactJsonText} with the environment's secrets read once. */
export interface Redactor {
  redact(text: string): string
  redactJson<T>(value: T): T
  redactJsonText(text: string, space?: number): string
}

/**
 * A {@link Redactor} for writers called per task or per model call (the call log, the traces database): the
 * environment's secrets are read when it is created (reading `process.env` on every call costs more than the write),
 * secrets registered later ({@link registerSecret}) still count.
 * @param extraSecrets values redacted as well by this redactor only (e.g. the keys a call log was given), from
 * {@link MIN_SECRET_LENGTH} characters.
 */
export function createRedactor(env: Env = process.env, extraSecrets: ReadonlyArray<string> = []): Redactor {
  const own = [...secretsFromEnv(env), ...extraSecrets.filter(isSecretValue)]
  let forms: SecretForm[] = []
  // Registered secrets are only ever added, so their count tells when the forms must be built again.
  let formsOf = -1
  const redactText = (text: string): string => {
    if (formsOf !== registered.size) {
      forms = secretForms([...own, ...registered])
      formsOf = registered.size
    }
    return redactWith(text, forms)
  }
  return {
    redact: redactText,
    redactJson: (value) => redactJsonWith(value, redactText),
    redactJsonText: (text, space) => redactJsonTextWith(text, space, redactText),
  }
}

/** A secret as it may appear in text: as is, or JSON-escaped (a secret with a quote or a backslash, in a JSON line). */
interface SecretForm {
  text: string
  /** Its first characters: a text without them cannot hold it (a cheap test before replacing). */
  prefix: string
  /** For a short secret ({@link WHOLE_WORD_BELOW}), its occurrences as a whole word; else `undefined` (anywhere). */
  whole: RegExp | undefined
}

/** Characters that continue a word: a short secret next to one of them is part of another word, not the secret. */
const WORD_CHAR = 'A-Za-z0-9_'

/**
 * `form` where it stands as a whole word: not after a word character (unless that is the letter of a JSON escape,
 * `\nollama`) and not before one.
 */
function wholeWord(form: string): RegExp {
  const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(?:(?<![${WORD_CHAR}])|(?<=\\\\[nrtbf]))${escaped}(?![${WORD_CHAR}])`, 'g')
}

/** The forms of each secret, the longest secret first (so a secret inside a longer one does not cut it apart). */
function secretForms(secrets: Iterable<string>): SecretForm[] {
  const forms: SecretForm[] = []
  const form = (text: string, short: boolean): SecretForm => ({ text, prefix: text.slice(0, 6), whole: short ? wholeWord(text) : undefined })
  for (const secret of [...new Set(secrets)].sort((a, b) => b.length - a.length)) {
    const short = secret.length < WHOLE_WORD_BELOW
    forms.push(form(secret, short))
    const escaped = JSON.stringify(secret).slice(1, -1)
    if (escaped !== secret) forms.push(form(escaped, short))
  }
  return forms
}

function redactWith(text: string, forms: ReadonlyArray<SecretForm>): string {
  let out = text
  for (const form of forms) {
    if (out.includes(form.prefix)) out = form.whole === undefined ? out.replaceAll(form.text, REDACTED) : out.replace(form.whole, REDACTED)
  }
  if (out.includes('://')) out = redactUrl(out)
  return out.replace(HEADER_VALUE, (match, name: string, separator: string, value: string) =>
    value === REDACTED || value.startsWith('[') ? match : `${name}${separator}${REDACTED}`,
  )
}

/** `value` with every string in it (object keys included) redacted one by one: the structure cannot break. */
function redactStrings(value: unknown, redactText: (text: string) => string): unknown {
  if (typeof value === 'string') return redactText(value)
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redactText))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactText(key), redactStrings(item, redactText)]))
  }
  return value
}

function redactJsonWith<T>(value: T, redactText: (text: string) => string): T {
  const text = JSON.stringify(value)
  if (text === undefined) return value
  const clean = redactText(text)
  if (clean === text) return value
  try {
    return JSON.parse(clean) as T
  } catch {
    // A secret stood outside a string (a number): redact string by string instead.
    return redactStrings(JSON.parse(text), redactText) as T
  }
}

function redactJsonTextWith(text: string, space: number | undefined, redactText: (text: string) => string): string {
  const clean = redactText(text)
  if (clean === text) return text
  try {
    JSON.parse(clean)
    return clean
  } catch {
    const newline = text.endsWith('\n') ? '\n' : ''
    return `${JSON.stringify(redactStrings(JSON.parse(text), redactText), null, space)}${newline}`
  }
}
