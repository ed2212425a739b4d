import { resolve } from 'node:path'
import { DEFAULT_MAX_TURNS } from '../agent/trace.ts'
import { DEFAULT_TRACES_DB } from './results/trace-store.ts'
import { ConfigError } from '../core/errors.ts'

type Env = Record<string, string | undefined>

/** Shipped demo questions, the default `ARTE_DATASET`. */
export const DEFAULT_ARTE_DATASET = 'data/arte-demo-questions.jsonl'
/** Shipped fictional demo mailbox, the default `ARTE_MAILDIR`. */
export const DEFAULT_ARTE_MAILDIR = 'data/demo-mailbox/maildir'
/** Where the demo email database is built, the default `ARTE_DB`. */
export const DEFAULT_ARTE_DB = '.tmp/arte/demo.db'
/** Default results JSON, `ARTE_OUTPUT`. */
export const DEFAULT_ARTE_OUTPUT = 'evaluation/arte/results.json'
/** Default number of rows, `ARTE_LIMIT`. */
export const DEFAULT_ARTE_LIMIT = 10
/** Default number of tasks run at once, `BENCH_CONCURRENCY`. */
export const DEFAULT_BENCH_CONCURRENCY = 5

/** ART-E run settings read from the environment (the `agent-bench arte` flags set these variables). */
export interface ArteSettings {
  /** `ARTE_DATASET`, absolute. */
  dataset: string
  /** `ARTE_SPLIT`: `train` or `test`. */
  split: 'train' | 'test'
  /** `ARTE_LIMIT`: rows to run, 0 = all. */
  limit: number
  /** `ARTE_DB` when set (absolute), else undefined (the demo database is built). */
  db: string | undefined
  /** `ARTE_MAILDIR` when set (absolute), else undefined. */
  maildir: string | undefined
  /** `ARTE_OUTPUT`, absolute. */
  output: string
  /** `ARTE_TRACES_DB`, absolute. */
  tracesDb: string
  /** `BENCH_CONCURRENCY`: tasks run at once. */
  concurrency: number
  /** `ARTE_MAX_TURNS`: assistant turns per task. */
  maxTurns: number
  /** `ARTE_THRESHOLDS`, e.g. `exactMatchAccuracy>=0.6` ('' when unset). */
  thresholds: string
  /**
   * `ARTE_PARTS`: spread the rows over this many test files (row position modulo n), so `vitest --shard=i/N` splits
   * rows between machines. 1 = one file (`bench/arte/arte.eval.ts`).
   */
  parts: number
  /** `BENCH_RESUME=1` (`--resume`): rerun only the tasks with no finished result for the same configuration. */
  resume: boolean
}

function value(env: Env, name: string): string | undefined {
  const raw = env[name]
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim()
}

function wholeNumber(env: Env, name: string, fallback: number, min: number): number {
  const raw = value(env, name)
  if (raw === undefined) return fallback
  const parsed = Number(raw)
  if (!Number.isInteger(parsed) || parsed < min) {
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(raw)}: expected a whole number >= ${min}.`, {
      hint: `Set ${name} to a whole number >= ${min}, or unset it for the default (${fallback}).`,
    })
  }
  return parsed
}

/** Reads {@link ArteSettings} from `env`; relative paths are resolved against `cwd`. */
export function arteSettingsFromEnv(env: Env = process.env, cwd = process.cwd()): ArteSettings {
  const split = value(env, 'ARTE_SPLIT') ?? 'test'
  if (split !== 'train' && split !== 'test') {
    throw new ConfigError(`Invalid ARTE_SPLIT=${JSON.stringify(split)}: expected train or test.`, {
      hint: 'Set ARTE_SPLIT (or --split) to train or test.',
    })
  }
  const db = value(env, 'ARTE_DB')
  const maildir = value(env, 'ARTE_MAILDIR')
  return {
    dataset: resolve(cwd, value(env, 'ARTE_DATASET') ?? DEFAULT_ARTE_DATASET),
    split,
    limit: wholeNumber(env, 'ARTE_LIMIT', DEFAULT_ARTE_LIMIT, 0),
    db: db === undefined ? undefined : resolve(cwd, db),
    maildir: maildir === undefined ? undefined : resolve(cwd, maildir),
    output: resolve(cwd, value(env, 'ARTE_OUTPUT') ?? DEFAULT_ARTE_OUTPUT),
    tracesDb: resolve(cwd, value(env, 'ARTE_TRACES_DB') ?? DEFAULT_TRACES_DB),
    concurrency: wholeNumber(env, 'BENCH_CONCURRENCY', DEFAULT_BENCH_CONCURRENCY, 1),
    maxTurns: wholeNumber(env, 'ARTE_MAX_TURNS', DEFAULT_MAX_TURNS, 1),
    thresholds: value(env, 'ARTE_THRESHOLDS') ?? '',
    parts: wholeNumber(env, 'ARTE_PARTS', 1, 1),
    resume: flag(env, 'BENCH_RESUME'),
  }
}

/** A boolean variable: `1`/`true`/`yes` or `0`/`false`/`no` (unset = false); anything else is a `ConfigError`. */
export function flag(env: Env, name: string): boolean {
  const raw = value(env, name)?.toLowerCase()
  if (raw === undefined || raw === '0' || raw === 'false' || raw === 'no') return false
  if (raw === '1' || raw === 'true' || raw === 'yes') return true
  throw new ConfigError(`Invalid ${name}=${JSON.stringify(raw)}: expected 1 or 0.`, { hint: `Set ${name}=1 to turn it on, or unset it.` })
}

/**
 * `BENCH_CONCURRENCY` for `maxConcurrency` in a Vitest config (default 5). Reads only that variable
 * and never throws, so a config file can call it; a bad value is reported when the tests start.
 */
export function benchConcurrency(env: Env = process.env): number {
  const parsed = Number(env.BENCH_CONCURRENCY)
  return Number.isInteger(parsed) && parsed >= 1 ? parsed : DEFAULT_BENCH_CONCURRENCY
}
