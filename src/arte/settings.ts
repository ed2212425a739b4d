import { resolve } from 'node:path'
import { z } from 'zod'
import { DEFAULT_AGENT_MAX_RETRIES, DEFAULT_AGENT_TIMEOUT_MS, DEFAULT_MAX_TURNS } from '../agent/trace.ts'
import { DEFAULT_TRACES_DB } from './results/trace-store.ts'
import { ConfigError } from '../core/errors.ts'
import { parseWholeNumber, wholeNumberText } from '../core/whole-number.ts'
import { defaultInput } from '../core/package-root.ts'
import { type HistorySettings, historySettingsFromEnv } from '../core/run-history.ts'
import { ARTE_ROW_SELECTIONS, type ArteRowSelection, ArteRowSelectionSchema } from './dataset/row-selection.ts'

type Env = Record<string, string | undefined>

/** Shipped demo questions, the default `ARTE_DATASET` (the package's copy when the working directory has none). */
export const DEFAULT_ARTE_DATASET = 'data/arte-demo-questions.jsonl'
/** Shipped fictional demo mailbox, the default `ARTE_MAILDIR`. */
export const DEFAULT_ARTE_MAILDIR = 'data/demo-mailbox/maildir'
/** Where the demo email database is built, the default `ARTE_DB`. */
export const DEFAULT_ARTE_DB = '.tmp/arte/demo.db'
/** Default results JSON, `ARTE_OUTPUT`. */
export const DEFAULT_ARTE_OUTPUT = 'evaluation/arte/results.json'
/** Default number of rows, `ARTE_LIMIT`. */
export const DEFAULT_ARTE_LIMIT = 10
/**
 * Tests (rows x `BENCH_TRIALS`) per part file when `ARTE_PARTS` is unset (`ARTE_TESTS_PER_PART`). A test file runs in
 * one worker, which keeps Vitest's objects of every test it ran until the file ends; parts of this size, run one after
 * another, keep a large run's memory flat. Smaller parts hold less for more CPU: at 10,000 tasks (three paired rounds of
 * the harness perf) 1,000 per part peaked at 368 MB against 434 MB, for 1.06x the CPU per task (rounds 0.99-1.11x).
 */
export const DEFAULT_ARTE_TESTS_PER_PART = 5_000
/** Default characters of an email body in a `read_email` result, `ARTE_READ_MAX_CHARS` (longer bodies are cut, with a marker). */
export const DEFAULT_ARTE_READ_MAX_CHARS = 50_000
/**
 * Default milliseconds one `search_emails` or `read_email` call may run, `ARTE_TOOL_TIMEOUT_MS`: the store is read
 * on a worker thread and a call past this is stopped and answered with a tool error (0: read on the test's thread,
 * no budget).
 */
export const DEFAULT_ARTE_TOOL_TIMEOUT_MS = 1_000
/** Default number of tasks run at once, `BENCH_CONCURRENCY`. */
export const DEFAULT_BENCH_CONCURRENCY = 5
/**
 * Default V8 heap growing percent of the process running the ART-E tests, `BENCH_HEAP_GROWING_PERCENT`: V8 lets the
 * old generation grow to (1 + p/100) x what was live after the last full GC. V8's own factor (up to 4x) left 3,000
 * tasks' garbage uncollected (a 340 MB worker holding 55 MB live); 50 keeps it near 210 MB. The price is more full GCs:
 * at 10,000 tasks (worker threads, paired rounds of the harness perf) peak RSS 594 -> 428 MB for 13-15% more CPU per
 * task (8% at 3,000 tasks); 100 gives 471 MB for 2% less CPU than 50, 200 gives 549 MB for 10% less. Issue 41 sets
 * the memory target against plain Vitest's (peak RSS at 10,000 tasks <= 1.2x, growth <= 10 MB per extra 1,000 tasks),
 * which 50 beat by far (519 against 642 MB, 4.9 MB per 1,000): 100 keeps both (548-560 MB, 3.9 MB per 1,000) for 7-12%
 * less CPU per task than 50 (3,000 tasks, paired rounds 1.06-1.18x). 200 keeps both too (594-626 MB against plain
 * Vitest's 634-648 MB, 7.9 MB per extra 1,000) for about 9% less CPU per task than 100 at 10,000 tasks (paired rounds
 * 1.03, 1.18; docs/performance.md, "Harness").
 */
export const DEFAULT_BENCH_HEAP_GROWING_PERCENT = 200
/**
 * Default V8 young generation (semi-space, MB) of the bench project's test workers, `BENCH_WORKER_SEMI_SPACE_MB`; a
 * value above 0 runs them as forked processes (see {@link benchPool});
 * 0 passes no flag (Node's default, 16 MB). Measured at 10,000 tasks, three interleaved rounds each: 32 MB took 1.5%
 * less CPU per task (2.12 against 2.15 ms) for 30 MB more peak RSS (561 against 531 MB); 8 MB 510 MB for 5% more CPU.
 * No flag also keeps the bench project runnable in worker threads, which refuse V8 flags.
 */
export const DEFAULT_BENCH_WORKER_SEMI_SPACE_MB = 0

/** The agent API of `--agent ID` when `--api-url` / `API_URL` is not given (the ART-E seed's default). */
export const DEFAULT_AGENT_API_URL = 'http://localhost:8787'

/**
 * The external agent under test (`ARTE_AGENT_URL`, or the seed's `ARTE_AGENT_ID` + `API_URL` + `WORKSPACE_ID`).
 * See {@link arteAgentSettings} for the mapping.
 */
export interface ArteAgentSettings {
  /** Where each task is POSTed. */
  url: string
  /** The seed's agent id (`--agent`), sent as `agentId` in the body; undefined with `ARTE_AGENT_URL`. */
  agentId: string | undefined
  /** `WORKSPACE_ID` (`--workspace`), sent as the `X-Workspace-Id` header when set. */
  workspace: string | undefined
  /** `ARTE_AGENT_TIMEOUT_MS`: bound on one POST. */
  timeoutMs: number
  /** `ARTE_AGENT_MAX_RETRIES`: retries of a POST that failed with a network error, a timeout, 408, 429 or 5xx. */
  maxRetries: number
}

/** ART-E run settings read from the environment (the `agent-bench arte` flags set these variables). */
export interface ArteSettings {
  /** `ARTE_DATASET`, absolute. */
  dataset: string
  /** `ARTE_SPLIT`: `train` or `test`. */
  split: 'train' | 'test'
  /**
   * `ARTE_ROWS` (`--rows`): which rows of the split run, before `limit`: `all` (the default), or `openpipe`, the rows
   * OpenPipe's evaluations keep (one source message at most, their known-bad ids left out).
   */
  rows: ArteRowSelection
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
  /** `ARTE_READ_MAX_CHARS`: characters of an email body that `read_email` returns; the rest is cut with a marker. */
  readMaxChars: number
  /** `ARTE_TOOL_TIMEOUT_MS`: milliseconds one email tool call may run on the store's worker thread; 0 reads on the test's thread without a budget. */
  toolTimeoutMs: number
  /** The external agent under test, or undefined to run the model of `BENCH_AGENT_MODEL` in our tool loop. */
  agent: ArteAgentSettings | undefined
  /**
   * `ARTE_JUDGE_MODEL` (`--judge-model`): an LLM (`openai/gpt-4.1-mini`, ...) asked after each task whether the answer
   * is correct, OpenPipe's way (`llmJudgeAccuracy`); undefined (the default): no judge.
   */
  judgeModel: string | undefined
  /** `BENCH_TRIALS`: runs per row (default 1); with more, tests are named `{id} [trial=j]`. */
  trials: number
  /**
   * `ARTE_PARTS`: spread the rows over this many test files (row position modulo n), so `vitest --shard=i/N` splits
   * rows between machines; 1 = one file (`bench/arte/arte.eval.ts`). Undefined (unset): one part per 5,000 tests, run
   * one after another (see `arteTestFiles`).
   */
  parts: number | undefined
  /** `ARTE_TESTS_PER_PART`: tests (rows x trials) per part file when `ARTE_PARTS` is unset (default 5,000). */
  testsPerPart: number
  /** `BENCH_RESUME=1` (`--resume`): rerun only the tasks with no finished result for the same configuration. */
  resume: boolean
  /**
   * `BENCH_HEAP_GROWING_PERCENT`: V8's heap growing percent in the process running the ART-E tests (see
   * {@link DEFAULT_BENCH_HEAP_GROWING_PERCENT}); 0 leaves V8's default.
   */
  heapGrowingPercent: number
}

function value(env: Env, name: string): string | undefined {
  const raw = env[name]
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim()
}

function wholeNumber(env: Env, name: string, fallback: number, min: number): number {
  const raw = value(env, name)
  if (raw === undefined) return fallback
  const parsed = parseWholeNumber(raw, min)
  if (parsed === undefined) {
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(raw)}: expected a whole number >= ${min}.`, {
      hint: `Set ${name} to a whole number >= ${min}, or unset it for the default (${fallback}).`,
    })
  }
  return parsed
}

/** A yes/no variable: `1`, `true`, `yes` or `0`, `false`, `no` (any case). */
const YesNo = z
  .string()
  .toLowerCase()
  .pipe(z.enum(['0', '1', 'false', 'true', 'no', 'yes'], { error: 'expected 1 or 0' }))
  .transform((text) => text === '1' || text === 'true' || text === 'yes')

/**
 * The ART-E variables (unset or blank = the default), one zod schema parsed once by {@link arteSettingsFromEnv};
 * the `agent-bench arte` flags set the same variables. The external agent's variables are read by
 * {@link arteAgentSettings}.
 */
export const ArteEnvSchema = z.object({
  ARTE_DATASET: z.string().optional(),
  ARTE_SPLIT: z.enum(['train', 'test'], { error: 'expected train or test' }).default('test'),
  ARTE_ROWS: ArteRowSelectionSchema.default('all'),
  ARTE_LIMIT: wholeNumberText(0).default(DEFAULT_ARTE_LIMIT),
  ARTE_DB: z.string().optional(),
  ARTE_MAILDIR: z.string().optional(),
  ARTE_OUTPUT: z.string().default(DEFAULT_ARTE_OUTPUT),
  ARTE_TRACES_DB: z.string().default(DEFAULT_TRACES_DB),
  BENCH_CONCURRENCY: wholeNumberText(1).default(DEFAULT_BENCH_CONCURRENCY),
  ARTE_MAX_TURNS: wholeNumberText(1).default(DEFAULT_MAX_TURNS),
  ARTE_THRESHOLDS: z.string().default(''),
  ARTE_JUDGE_MODEL: z
    .string()
    .refine((id) => !['baseline', 'null'].includes(id), { error: 'the judge must be an LLM, not a built-in agent' })
    .optional(),
  ARTE_READ_MAX_CHARS: wholeNumberText(100).default(DEFAULT_ARTE_READ_MAX_CHARS),
  ARTE_TOOL_TIMEOUT_MS: wholeNumberText(0).default(DEFAULT_ARTE_TOOL_TIMEOUT_MS),
  BENCH_TRIALS: wholeNumberText(1).default(1),
  ARTE_PARTS: wholeNumberText(1).optional(),
  ARTE_TESTS_PER_PART: wholeNumberText(1).default(DEFAULT_ARTE_TESTS_PER_PART),
  BENCH_RESUME: YesNo.default(false),
  BENCH_HEAP_GROWING_PERCENT: wholeNumberText(0).default(DEFAULT_BENCH_HEAP_GROWING_PERCENT),
  BENCH_WORKER_SEMI_SPACE_MB: wholeNumberText(0).default(DEFAULT_BENCH_WORKER_SEMI_SPACE_MB),
})

const HINTS: Record<string, string> = {
  ARTE_SPLIT: 'Set ARTE_SPLIT (or --split) to train or test.',
  ARTE_ROWS: `Set ARTE_ROWS (or --rows) to ${ARTE_ROW_SELECTIONS.join(' or ')}, or unset it for all.`,
  BENCH_RESUME: 'Set BENCH_RESUME=1 to turn it on, or unset it.',
  ARTE_JUDGE_MODEL: 'Set ARTE_JUDGE_MODEL (or --judge-model) to an LLM id such as openai/gpt-4.1-mini, or unset it for no judge.',
}

/** Reads {@link ArteSettings} from `env`; relative paths are resolved against `cwd`. A bad value names the variable and the fix. */
export function arteSettingsFromEnv(env: Env = process.env, cwd = process.cwd()): ArteSettings {
  const present: Record<string, string> = {}
  for (const name of Object.keys(ArteEnvSchema.shape)) {
    const raw = value(env, name)
    if (raw !== undefined) present[name] = raw
  }
  const parsed = ArteEnvSchema.safeParse(present)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const name = String(issue?.path[0] ?? 'environment')
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(present[name])}: ${issue?.message ?? 'invalid value'}.`, {
      hint: HINTS[name] ?? `Set ${name} to a valid value (${issue?.message ?? 'docs/settings.md'}), or unset it for the default.`,
      cause: parsed.error,
    })
  }
  const e = parsed.data
  return {
    dataset: e.ARTE_DATASET === undefined ? defaultInput(DEFAULT_ARTE_DATASET, cwd) : resolve(cwd, e.ARTE_DATASET),
    split: e.ARTE_SPLIT,
    rows: e.ARTE_ROWS,
    limit: e.ARTE_LIMIT,
    db: e.ARTE_DB === undefined ? undefined : resolve(cwd, e.ARTE_DB),
    maildir: e.ARTE_MAILDIR === undefined ? undefined : resolve(cwd, e.ARTE_MAILDIR),
    output: resolve(cwd, e.ARTE_OUTPUT),
    tracesDb: resolve(cwd, e.ARTE_TRACES_DB),
    concurrency: e.BENCH_CONCURRENCY,
    maxTurns: e.ARTE_MAX_TURNS,
    thresholds: e.ARTE_THRESHOLDS,
    readMaxChars: e.ARTE_READ_MAX_CHARS,
    toolTimeoutMs: e.ARTE_TOOL_TIMEOUT_MS,
    agent: arteAgentSettings(env),
    judgeModel: e.ARTE_JUDGE_MODEL,
    trials: e.BENCH_TRIALS,
    parts: e.ARTE_PARTS,
    testsPerPart: e.ARTE_TESTS_PER_PART,
    resume: e.BENCH_RESUME,
    heapGrowingPercent: e.BENCH_HEAP_GROWING_PERCENT,
  }
}

/**
 * The external agent of the environment, or undefined when none is set:
 * - `ARTE_AGENT_URL=URL` (`--agent-url`): tasks are POSTed to URL;
 * - `ARTE_AGENT_ID=ID` (`--agent`): tasks are POSTed to `{API_URL}/agents/{ID}/run` (`API_URL` / `--api-url`,
 *   default {@link DEFAULT_AGENT_API_URL}; ID percent-encoded) with `"agentId": ID` in the body;
 * - with either, `WORKSPACE_ID` (`--workspace`) is sent as the `X-Workspace-Id` header.
 */
export function arteAgentSettings(env: Env = process.env): ArteAgentSettings | undefined {
  const url = value(env, 'ARTE_AGENT_URL')
  const agentId = value(env, 'ARTE_AGENT_ID')
  if (url === undefined && agentId === undefined) return undefined
  if (url !== undefined && agentId !== undefined) {
    throw new ConfigError('Both ARTE_AGENT_URL (--agent-url) and ARTE_AGENT_ID (--agent) are set: they both choose the agent.', {
      hint: 'Set only one: ARTE_AGENT_URL for a full URL, or ARTE_AGENT_ID with API_URL for an agent API.',
    })
  }
  const base = (value(env, 'API_URL') ?? DEFAULT_AGENT_API_URL).replace(/\/+$/, '')
  const target = url ?? `${base}/agents/${encodeURIComponent(agentId ?? '')}/run`
  if (!/^https?:\/\/[^/]/.test(target)) {
    const [name, flag] = url === undefined ? ['API_URL', '--api-url'] : ['ARTE_AGENT_URL', '--agent-url']
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(url ?? value(env, 'API_URL'))} (${flag}): expected an http(s) URL.`, {
      hint: `Set ${name} (or pass ${flag}) to e.g. http://localhost:8787${url === undefined ? '' : '/run'}.`,
    })
  }
  return {
    url: target,
    agentId,
    workspace: value(env, 'WORKSPACE_ID'),
    timeoutMs: wholeNumber(env, 'ARTE_AGENT_TIMEOUT_MS', DEFAULT_AGENT_TIMEOUT_MS, 1),
    maxRetries: wholeNumber(env, 'ARTE_AGENT_MAX_RETRIES', DEFAULT_AGENT_MAX_RETRIES, 0),
  }
}

/** A boolean variable: `1`/`true`/`yes` or `0`/`false`/`no` (unset = false); anything else is a `ConfigError`. */
/**
 * `BENCH_CONCURRENCY` for `maxConcurrency` in a Vitest config (default 5). Reads only that variable
 * and never throws, so a config file can call it; a bad value is reported when the tests start.
 */
export function benchConcurrency(env: Env = process.env): number {
  return parseWholeNumber(env.BENCH_CONCURRENCY ?? '', 1) ?? DEFAULT_BENCH_CONCURRENCY
}

/**
 * `execArgv` of the bench project's test workers for a Vitest config: `--max-semi-space-size` from
 * `BENCH_WORKER_SEMI_SPACE_MB` (default {@link DEFAULT_BENCH_WORKER_SEMI_SPACE_MB}; 0 = none). Empty when the command
 * line chooses a pool (`--pool`): worker threads refuse V8 flags. Never throws (a bad value is reported when the tests
 * start, by {@link arteSettingsFromEnv}).
 */
export function benchWorkerExecArgv(env: Env = process.env, argv: ReadonlyArray<string> = process.argv): string[] {
  const raw = env.BENCH_WORKER_SEMI_SPACE_MB ?? ''
  const mb = raw.trim() === '' ? DEFAULT_BENCH_WORKER_SEMI_SPACE_MB : parseWholeNumber(raw, 0)
  if (mb === undefined || mb === 0 || argv.some((arg) => arg === '--pool' || arg.startsWith('--pool='))) return []
  return [`--max-semi-space-size=${mb}`]
}

/**
 * `pool` of the bench project's test workers for a Vitest config: `threads` (one process: measured at 10,000 ART-E
 * tasks, 453 MB peak RSS against 517 MB for forked workers, CPU per task within noise), or `forks` when
 * `BENCH_WORKER_SEMI_SPACE_MB` asks for a V8 flag, which worker threads refuse. `--pool` on the command line overrides
 * it as usual. Never throws (a bad value is reported when the tests start).
 */
export function benchPool(env: Env = process.env): 'threads' | 'forks' {
  return benchWorkerExecArgv(env, []).length > 0 ? 'forks' : 'threads'
}

/** File name of an ART-E run's results in its history folder (`evaluation/history/{run id}/`). */
export const ARTE_HISTORY_FILE = 'arte-results.json'

/** `BENCH_HISTORY_DIR` (default `evaluation/history`, relative to `root`) and `BENCH_HISTORY_KEEP` (default 20, 0 = off). */
export function arteHistorySettings(env: Env = process.env, root = process.cwd()): HistorySettings {
  return historySettingsFromEnv(env, root)
}

/** {@link arteSettingsFromEnv} of this process's environment, relative paths resolved against `cwd`. */
export function arteSettings(cwd = process.cwd()): ArteSettings {
  return arteSettingsFromEnv(process.env, cwd)
}

/**
 * Writes the variables the `agent-bench arte` flags set into this process's environment, so the Vitest run it starts
 * (its workers inherit the environment) reads the flags through this module like the variables; returns the result.
 */
export function applyArteFlags(variables: Readonly<Record<string, string>>): Env {
  Object.assign(process.env, variables)
  return process.env
}
