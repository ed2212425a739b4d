import { redact } from './redact.ts'

/**
 * Base class of every error this package throws on purpose.
 *
 * Each error carries a stable `code` (for programs), a message that names
 * what is wrong (file, field, value), and a `hint` that says how to fix it.
 * The underlying error, if any, is kept as `cause`. Message and hint are redacted (`redact`): no secret is shown.
 */
export class BenchError extends Error {
  /** Stable machine-readable code, e.g. `ERR_INVALID_FORMAT`. */
  readonly code: string
  /** How to fix it, in one sentence a user can act on. */
  readonly hint: string
  /** What is wrong: the message without its `Fix:` line. */
  readonly problem: string

  constructor(code: string, message: string, options: { hint: string; cause?: unknown }) {
    const problem = redact(message)
    const hint = redact(options.hint)
    super(`${problem}\n  Fix: ${hint}`, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.code = code
    this.hint = hint
    this.problem = problem
  }
}

/** A file or value we own (task, scenario, config, row, log) does not match its schema. */
export class InvalidFormatError extends BenchError {
  /** Path of the file at fault, when there is one. */
  readonly file: string | undefined
  /** Dotted path of the first field at fault, e.g. `answer_requirements.0`. */
  readonly field: string | undefined

  constructor(message: string, options: { hint: string; file?: string; field?: string; cause?: unknown }) {
    super('ERR_INVALID_FORMAT', message, options)
    this.file = options.file
    this.field = options.field
  }
}

/** A required setting (environment variable, flag, config key) is missing or wrong. */
export class ConfigError extends BenchError {
  constructor(message: string, options: { hint: string; cause?: unknown }) {
    super('ERR_CONFIG', message, options)
  }
}

/** A command line that does not fit the command: an unknown option, a missing value, a stray argument. Exit code 2. */
export class UsageError extends BenchError {
  constructor(message: string, options: { hint: string; cause?: unknown }) {
    super('ERR_USAGE', message, options)
  }
}
