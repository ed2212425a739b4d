import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { type CompactTrace, compactTrace, expandTrace } from '../../agent/compact-trace.ts'
import type { AgentTrace } from '../../agent/trace.ts'
import { BenchError, ConfigError } from '../../core/errors.ts'
import { type Redactor, createRedactor } from '../../core/redact.ts'

/** Default location of the ART-E traces database (override with `ARTE_TRACES_DB`). */
export const DEFAULT_TRACES_DB = 'evaluation/arte/traces.db'

/** Schema version this code writes (`PRAGMA user_version`). */
export const TRACE_STORE_VERSION = 4

/** `trace_format` of a row whose `trace_json` is the compact form of its trace (`compactTrace`); NULL is the whole trace. */
export const COMPACT_TRACE_FORMAT = 1

const MIGRATIONS: ReadonlyArray<string> = [
  `CREATE TABLE traces (
    trace_id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    model TEXT NOT NULL,
    model_kind TEXT NOT NULL,
    outcome TEXT NOT NULL,
    exact_match INTEGER NOT NULL,
    semantic_score REAL NOT NULL,
    question TEXT NOT NULL,
    ground_truth TEXT NOT NULL,
    agent_answer TEXT NOT NULL,
    created_at TEXT NOT NULL,
    trace_json TEXT NOT NULL
  );
  CREATE INDEX idx_traces_score ON traces(semantic_score);
  CREATE INDEX idx_traces_task ON traces(task_id);
  CREATE INDEX idx_traces_run ON traces(run_id);`,
  // 2: the run configuration of each trace, so a resumed run finds the tasks that already finished.
  `ALTER TABLE traces ADD COLUMN config_key TEXT;
  CREATE INDEX idx_traces_config ON traces(config_key, task_id);`,
  // 3: the trial of each trace (BENCH_TRIALS), so a resumed run gives each trial its own trace; earlier traces are trial 1.
  `ALTER TABLE traces ADD COLUMN trial INTEGER NOT NULL DEFAULT 1;`,
  // 4: how trace_json is written: NULL (earlier rows) the whole trace, 1 its compact form (each tool result once).
  `ALTER TABLE traces ADD COLUMN trace_format INTEGER;`,
]

/** Outcomes that count as a finished task for a resumed run (errors and aborts are run again). */
export const FINISHED_OUTCOMES: ReadonlyArray<string> = ['answered', 'max-turns']

/** The traces database was written by a newer version of this package. */
export class TraceStoreVersionError extends BenchError {
  constructor(file: string, version: number) {
    super('ERR_TRACE_STORE_VERSION', `Traces database ${file} has schema version ${version}; this version knows up to ${TRACE_STORE_VERSION}.`, {
      hint: 'Upgrade vitest-agent-bench, or point ARTE_TRACES_DB / --db at another file.',
    })
  }
}

/** Where a traces database is chosen, named in its errors. */
const TRACES_DB_SETTING = 'ARTE_TRACES_DB (agent-bench arte and report --traces-db, trace and traces --db)'

/** The error for a database that holds something else than traces (another program's, an email store), or `undefined`. */
function foreignDatabase(db: Database.Database, file: string, version: number): ConfigError | undefined {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite%' ORDER BY name")
    .pluck()
    .all() as string[]
  if (tables.length === 0 || (version > 0 && tables.includes('traces'))) return undefined
  const shown = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', ...' : '')
  return new ConfigError(
    `${file} is not an ART-E traces database: it has ${version === 0 ? 'no schema version' : `schema version ${version}`} and holds other tables (${shown}).`,
    {
      hint: `Point ${TRACES_DB_SETTING} at the traces database an ART-E run wrote, or at a new file for the run to create; this file was left as it was.`,
    },
  )
}

/** A {@link ConfigError} naming `file` for SQLite's "not a database" and "malformed" errors, else `error` itself. */
function openFailure(file: string, error: unknown): unknown {
  if (error instanceof BenchError) return error
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'SQLITE_NOTADB') {
    return new ConfigError(`Traces database ${file} is not an SQLite database.`, {
      hint: `Point ${TRACES_DB_SETTING} at the traces database an ART-E run wrote (evaluation/arte/traces.db by default), or at a new file for the run to create; this file was left as it was.`,
      cause: error,
    })
  }
  if (code === 'SQLITE_CORRUPT') {
    return new ConfigError(`Traces database ${file} is damaged: ${message}.`, {
      hint: `Restore it from a copy, or point ${TRACES_DB_SETTING} at a new file for the run to create (a resumed run then reruns every task); this file was left as it was.`,
      cause: error,
    })
  }
  if (typeof code === 'string' && (code === 'SQLITE_CANTOPEN' || /^E[A-Z]+$/.test(code))) {
    return new ConfigError(`Cannot open traces database ${file}: ${message}.`, {
      hint: `Point ${TRACES_DB_SETTING} at a file (not a folder) in a folder you can write.`,
      cause: error,
    })
  }
  return error
}

/** What is stored for one ART-E task run besides its trace. */
export interface TraceRecordInput {
  runId: string
  taskId: string
  question: string
  groundTruth: string
  agentAnswer: string
  exactMatch: boolean
  semanticScore: number
  trace: AgentTrace
  /** The run configuration (see `arteConfigKey`), for `--resume`. */
  configKey?: string
  /** Which of the `BENCH_TRIALS` runs of the task this is; a run of one trial is trial 1. @default 1 */
  trial?: number
}

/** One row of a trace listing (no trace body). */
export interface TraceSummary {
  traceId: string
  runId: string
  taskId: string
  model: string
  modelKind: string
  outcome: string
  exactMatch: boolean
  semanticScore: number
  question: string
  groundTruth: string
  agentAnswer: string
  createdAt: string
  /** Which of the `BENCH_TRIALS` runs of the task this was (1 for a run of one trial). */
  trial: number
}

/** One stored trace with its scores. */
export interface StoredTrace extends TraceSummary {
  trace: AgentTrace
}

/** One stored trace with its scores, in its compact form when it has one (see {@link TraceStore.getCompact}). */
export interface CompactStoredTrace extends TraceSummary {
  trace: AgentTrace | CompactTrace
  /** Characters of `trace` as JSON. */
  jsonChars: number
}

/** A row's trace as stored: its parsed `trace_json`, compact when `trace_format` says so. */
function storedForm(row: TraceRow): AgentTrace | CompactTrace {
  const parsed = JSON.parse(row.trace_json ?? 'null') as AgentTrace | CompactTrace
  const format = row.trace_format ?? null
  if (format === null) return parsed
  if (format === COMPACT_TRACE_FORMAT) return parsed as CompactTrace
  throw new BenchError('ERR_TRACE_FORMAT', `Trace ${row.trace_id} is stored in format ${format}; this version knows up to ${COMPACT_TRACE_FORMAT}.`, {
    hint: 'Upgrade vitest-agent-bench to read this traces database.',
  })
}

/** A row's full trace (a compact one expanded). */
function fullTrace(row: TraceRow): AgentTrace {
  const stored = storedForm(row)
  return row.trace_format === COMPACT_TRACE_FORMAT ? expandTrace(stored as CompactTrace) : (stored as AgentTrace)
}

interface TraceRow {
  trace_id: string
  run_id: string
  task_id: string
  model: string
  model_kind: string
  outcome: string
  exact_match: number
  semantic_score: number
  question: string
  ground_truth: string
  agent_answer: string
  created_at: string
  trial: number
  trace_json?: string
  trace_format?: number | null
}

function toSummary(row: TraceRow): TraceSummary {
  return {
    traceId: row.trace_id,
    runId: row.run_id,
    taskId: row.task_id,
    model: row.model,
    modelKind: row.model_kind,
    outcome: row.outcome,
    exactMatch: row.exact_match === 1,
    semanticScore: row.semantic_score,
    question: row.question,
    groundTruth: row.ground_truth,
    agentAnswer: row.agent_answer,
    createdAt: row.created_at,
    trial: row.trial,
  }
}

const SUMMARY_COLUMNS =
  'trace_id, run_id, task_id, model, model_kind, outcome, exact_match, semantic_score, question, ground_truth, agent_answer, created_at, trial'

/** Options of {@link TraceStore.listBelow}. */
export interface ListBelowOptions {
  /** Only traces of this run. */
  runId?: string
  /** At most this many rows, lowest score first. @default 100 */
  limit?: number
}

/**
 * SQLite store of full ART-E agent traces keyed by trace id, with their scores.
 * Safe to write from several Vitest workers at once (WAL, busy timeout).
 */
export class TraceStore {
  readonly file: string
  readonly #db: Database.Database
  readonly #insert: Database.Statement
  readonly #get: Database.Statement
  readonly #below: Database.Statement
  readonly #belowInRun: Database.Statement
  readonly #finished: Database.Statement
  readonly #insertMany: (rows: ReadonlyArray<Record<string, unknown>>) => void
  /** Rows queued by {@link TraceStore.saveBatched}, with the callbacks of their callers, committed together. */
  #pending: Array<{ row: Record<string, unknown>; resolve: () => void; reject: (error: unknown) => void }> = []
  /** The commit of the rows queued in {@link TraceStore.saveBatched}'s window, while one is scheduled. */
  #flushTimer: NodeJS.Timeout | undefined
  /** Secrets of the environment, read once when the store opens (see `createRedactor`). */
  readonly #redactor: Redactor = createRedactor()

  private constructor(file: string, db: Database.Database) {
    this.file = file
    this.#db = db
    this.#insert = db.prepare(
      `INSERT OR REPLACE INTO traces (${SUMMARY_COLUMNS}, trace_json, config_key, trace_format)
       VALUES (@trace_id, @run_id, @task_id, @model, @model_kind, @outcome, @exact_match, @semantic_score, @question, @ground_truth, @agent_answer, @created_at, @trial, @trace_json, @config_key, @trace_format)`,
    )
    this.#insertMany = db.transaction((rows: ReadonlyArray<Record<string, unknown>>) => {
      for (const row of rows) this.#insert.run(row)
    })
    this.#finished = db.prepare(
      `SELECT ${SUMMARY_COLUMNS}, trace_json, trace_format FROM traces WHERE config_key = ? AND trial = ? AND outcome IN (${FINISHED_OUTCOMES.map(() => '?').join(', ')})
       ORDER BY created_at, trace_id`,
    )
    this.#get = db.prepare(`SELECT ${SUMMARY_COLUMNS}, trace_json, trace_format FROM traces WHERE trace_id = ?`)
    this.#below = db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM traces WHERE semantic_score < ? ORDER BY semantic_score, created_at, task_id LIMIT ?`)
    this.#belowInRun = db.prepare(
      `SELECT ${SUMMARY_COLUMNS} FROM traces WHERE semantic_score < ? AND run_id = ? ORDER BY semantic_score, created_at, task_id LIMIT ?`,
    )
  }

  /**
   * Opens (creating and migrating as needed) the traces database at `file`, or `:memory:`. A file that is not a
   * traces database (not SQLite, damaged, another program's tables) is a {@link ConfigError} naming it, and is left
   * as it was.
   */
  static open(file: string): TraceStore {
    let db: Database.Database
    try {
      if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
      db = new Database(file)
    } catch (error) {
      throw openFailure(file, error)
    }
    try {
      db.pragma('busy_timeout = 10000')
      // Read before anything is written (WAL mode changes the file's header): a foreign file stays as it was.
      const foreign = foreignDatabase(db, file, db.pragma('user_version', { simple: true }) as number)
      if (foreign !== undefined) throw foreign
      if (file !== ':memory:') db.pragma('journal_mode = WAL')
      // In WAL mode, NORMAL syncs at checkpoints instead of every commit: a crash of the process loses no committed
      // trace (only a power loss can lose the last commits), and a run no longer waits on an fsync per batch.
      db.pragma('synchronous = NORMAL')
      migrate(db, file)
      return new TraceStore(file, db)
    } catch (error) {
      db.close()
      throw openFailure(file, error)
    }
  }

  /** Stores one trace (replacing a trace with the same id), redacted (`redact`). */
  save(record: TraceRecordInput): void {
    this.#insert.run(toRow(record, this.#redactor))
  }

  /**
   * Stores one trace like {@link TraceStore.save}, in one transaction with the other traces saved within
   * {@link BATCH_WINDOW_MS} of the first one queued (or once {@link MAX_BATCH} are queued): concurrent tasks that end
   * close together share one commit. Resolves once the trace is committed, so a test that awaits it ends with its trace
   * readable (resume and interrupted runs read finished traces from the database); rejects when the commit fails.
   * {@link TraceStore.flush} and {@link TraceStore.close} commit what is queued at once.
   */
  saveBatched(record: TraceRecordInput): Promise<void> {
    const row = toRow(record, this.#redactor)
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ row, resolve, reject })
      if (this.#pending.length >= MAX_BATCH) this.flush()
      else this.#flushTimer ??= setTimeout(() => this.flush(), BATCH_WINDOW_MS)
    })
  }

  /** Commits the traces queued by {@link TraceStore.saveBatched}, in one transaction. */
  flush(): void {
    clearTimeout(this.#flushTimer)
    this.#flushTimer = undefined
    if (this.#pending.length === 0) return
    const batch = this.#pending
    this.#pending = []
    try {
      if (!this.#db.open) throw new Error(`Traces database ${this.file} is closed; ${batch.length} trace(s) were not stored`)
      this.#insertMany(batch.map((item) => item.row))
    } catch (error) {
      for (const item of batch) item.reject(error)
      return
    }
    for (const item of batch) item.resolve()
  }

  /**
   * The latest finished trace (see {@link FINISHED_OUTCOMES}) of each task run with this configuration as trial
   * `trial`, by task id. Each trial has its own: a trace never stands in for another trial's run.
   */
  finishedTraces(configKey: string, trial = 1): Map<string, StoredTrace> {
    const out = new Map<string, StoredTrace>()
    for (const row of this.#finished.all(configKey, trial, ...FINISHED_OUTCOMES) as TraceRow[]) {
      out.set(row.task_id, { ...toSummary(row), trace: fullTrace(row) })
    }
    return out
  }

  /**
   * Every trace stored by the run `runId`, keyed `{taskId}#{trial}` (the latest of a task and trial stored twice):
   * what an interrupted run finished, when the tests' results did not reach the reporter before the process exited.
   */
  tracesOfRun(runId: string): Map<string, StoredTrace> {
    const out = new Map<string, StoredTrace>()
    const statement = this.#db.prepare(`SELECT ${SUMMARY_COLUMNS}, trace_json, trace_format FROM traces WHERE run_id = ? ORDER BY created_at, trace_id`)
    for (const row of statement.all(runId) as TraceRow[]) out.set(`${row.task_id}#${row.trial}`, { ...toSummary(row), trace: fullTrace(row) })
    return out
  }

  /** The stored trace with this id, whole as the agent loop made it (a compact one expanded), or `undefined`. */
  get(traceId: string): StoredTrace | undefined {
    const row = this.#get.get(traceId) as TraceRow | undefined
    if (row === undefined) return undefined
    return { ...toSummary(row), trace: fullTrace(row) }
  }

  /**
   * The stored trace with this id in its compact form (`compactTrace`; a trace of an earlier version is compacted
   * here) with the length of its JSON, or `undefined`. For readers that keep traces as they are (the HTML report
   * embeds them and its page expands them).
   */
  getCompact(traceId: string): CompactStoredTrace | undefined {
    const row = this.#get.get(traceId) as TraceRow | undefined
    if (row === undefined) return undefined
    const stored = storedForm(row)
    const trace = row.trace_format === COMPACT_TRACE_FORMAT ? stored : compactTrace(stored as AgentTrace)
    return { ...toSummary(row), trace, jsonChars: trace === stored ? (row.trace_json ?? 'null').length : JSON.stringify(trace).length }
  }

  /** Traces whose semantic score is strictly below `maxScore`, lowest first. */
  listBelow(maxScore: number, options: ListBelowOptions = {}): TraceSummary[] {
    const limit = options.limit ?? 100
    const rows = (options.runId === undefined ? this.#below.all(maxScore, limit) : this.#belowInRun.all(maxScore, options.runId, limit)) as TraceRow[]
    return rows.map(toSummary)
  }

  /** Number of stored traces. */
  count(): number {
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM traces').get() as { n: number }).n
  }

  /** Commits what {@link TraceStore.saveBatched} queued, then closes the database; safe to call twice. */
  close(): void {
    this.flush()
    if (this.#db.open) this.#db.close()
  }

  [Symbol.dispose](): void {
    this.close()
  }
}

/** At most this many traces wait for one commit of {@link TraceStore.saveBatched}. */
export const MAX_BATCH = 256

/**
 * Milliseconds {@link TraceStore.saveBatched} waits, from the first trace queued, for more traces to commit with it.
 * Concurrent tasks seldom end in the same turn of the event loop, so a commit per turn was mostly a commit per trace:
 * about 0.1 ms CPU per trace, against 0.04 ms in commits of 16 (measured with 3,000 ART-E traces). A task's test ends
 * up to this much later; against a model's latency of seconds per call that is nothing.
 */
export const BATCH_WINDOW_MS = 10

/**
 * The row of a trace, every text redacted. The trace is written in its compact form (`compactTrace`: each tool result
 * once, in its tool message) when it has one, with `trace_format` saying so. The trace JSON is redacted as text, as
 * the call log's lines are (a secret inside it becomes `[REDACTED]` within its JSON string), not serialized a second
 * time as a field of the row.
 */
function toRow(record: TraceRecordInput, redactor: Redactor): Record<string, unknown> {
  const text = (value: string): string => redactor.redact(value)
  const stored = compactTrace(record.trace)
  return {
    trace_id: text(record.trace.traceId),
    run_id: text(record.runId),
    task_id: text(record.taskId),
    model: text(record.trace.model),
    model_kind: text(record.trace.modelKind),
    outcome: text(record.trace.outcome.kind),
    exact_match: record.exactMatch ? 1 : 0,
    semantic_score: record.semanticScore,
    question: text(record.question),
    ground_truth: text(record.groundTruth),
    agent_answer: text(record.agentAnswer),
    created_at: text(record.trace.startedAt),
    trace_json: text(JSON.stringify(stored)),
    config_key: record.configKey === undefined ? null : text(record.configKey),
    trial: record.trial ?? 1,
    trace_format: stored === record.trace ? null : COMPACT_TRACE_FORMAT,
  }
}

function migrate(db: Database.Database, file: string): void {
  const version = db.pragma('user_version', { simple: true }) as number
  if (version > TRACE_STORE_VERSION) throw new TraceStoreVersionError(file, version)
  if (version === TRACE_STORE_VERSION) return
  db.transaction(() => {
    // Re-read inside the write transaction: another worker may have migrated meanwhile.
    const current = db.pragma('user_version', { simple: true }) as number
    for (let next = current; next < TRACE_STORE_VERSION; next++) {
      db.exec(MIGRATIONS[next] ?? '')
      db.pragma(`user_version = ${next + 1}`)
    }
  }).immediate()
}
