import Database from 'better-sqlite3'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { FIXTURE_MAILDIR, fixtureResponder, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import type { AgentTrace } from '../../agent/trace.ts'
import { ConfigError } from '../../core/errors.ts'
import { EmailStore } from '../store/email-store.ts'
import { importMaildir } from '../import/import-maildir.ts'
import { createModel } from '../../llm/create-model.ts'
import { type ScriptedServer, startScriptedServer } from '../../testing/scripted-server.ts'
import type { ArteRow } from '../dataset/row.ts'
import { runArteTask } from '../run-arte-task.ts'
import { BATCH_WINDOW_MS, COMPACT_TRACE_FORMAT, TRACE_STORE_VERSION, TraceStore, TraceStoreVersionError } from './trace-store.ts'
import { COMPACT_TRACE_FIELD } from '../../agent/compact-trace.ts'
import { capLongStrings } from '../../core/cap-stored.ts'
import { redact, registerSecret, REDACTED } from '../../core/redact.ts'
import { formatLastTurns, formatStoredTrace, formatTraceSummaries } from './trace-store-format.ts'

const rows: ArteRow[] = [
  {
    id: 101,
    question: 'Which room is the budget review in?',
    answer: 'Room 4B',
    message_ids: ['<fx-1001@fernwood.example>'],
    inbox_address: 'ann.lee@fernwood.example',
    query_date: '2003-03-10',
    how_realistic: 0.9,
    split: 'test',
  },
  {
    id: 104,
    question: 'When is the launch party?',
    answer: 'Friday March 14',
    message_ids: ['<fx-1003@fernwood.example>'],
    inbox_address: 'ann.lee@fernwood.example',
    query_date: '2003-03-10',
    how_realistic: 0.6,
    split: 'test',
  },
]

describe('TraceStore', () => {
  let server: ScriptedServer
  const scratch = scratchDir('trace-store')
  const runs: Array<Awaited<ReturnType<typeof runArteTask>>> = []

  beforeAll(async () => {
    server = await startScriptedServer(fixtureResponder())
    const model = createModel('scripted-model', {
      env: { OPENAI_BASE_URL: server.baseURL },
      cache: { mode: 'off' },
      callLogDir: false,
      maxRetries: 0,
    })
    using store = EmailStore.open(':memory:')
    await importMaildir(store, FIXTURE_MAILDIR)
    for (const row of rows) runs.push(await runArteTask({ row, store, model, maxTurns: 2, dataset: 'fixture' }))
  })

  afterAll(async () => {
    await server?.close()
    scratch.remove()
  })

  function save(store: TraceStore, runId: string): void {
    for (const { meta, trace } of runs) {
      store.save({
        runId,
        taskId: meta.taskId,
        question: meta.question,
        groundTruth: meta.groundTruth,
        agentAnswer: meta.agentAnswer,
        exactMatch: meta.exactMatch,
        semanticScore: meta.semanticScore,
        trace,
      })
    }
  }

  it('stores a full trace and gives it back by id', () => {
    using store = TraceStore.open(join(scratch.dir, 'a.db'))
    save(store, 'run-1')
    expect(store.count()).toBe(2)
    const [room] = runs
    const stored = store.get(room!.trace.traceId)
    expect(stored).toMatchObject({
      taskId: '101',
      runId: 'run-1',
      exactMatch: true,
      semanticScore: 1,
      agentAnswer: 'room 4b',
      outcome: 'answered',
      model: 'scripted-model',
    })
    expect(stored?.trace).toEqual(JSON.parse(JSON.stringify(room!.trace)) as AgentTrace)
    expect(store.get('no-such-trace')).toBeUndefined()
  })

  it('lists low scorers, lowest first, optionally for one run', () => {
    using store = TraceStore.open(join(scratch.dir, 'b.db'))
    save(store, 'run-1')
    save(store, 'run-2') // same trace ids: replaced, not duplicated
    expect(store.count()).toBe(2)
    expect(store.listBelow(0.5).map((row) => row.taskId)).toEqual(['104'])
    expect(store.listBelow(1.01).map((row) => row.taskId)).toEqual(['104', '101'])
    expect(store.listBelow(1.01, { runId: 'run-1' })).toEqual([])
    expect(store.listBelow(1.01, { limit: 1 })).toHaveLength(1)
  })

  it('commits traces saved in one turn together, visible to another connection once their promises resolve', async () => {
    const file = join(scratch.dir, 'batched.db')
    using writer = TraceStore.open(file)
    using reader = TraceStore.open(file)
    const record = (runId: string, i: number) => {
      const { meta, trace } = runs[i % runs.length]!
      return {
        runId,
        taskId: meta.taskId,
        question: meta.question,
        groundTruth: meta.groundTruth,
        agentAnswer: meta.agentAnswer,
        exactMatch: meta.exactMatch,
        semanticScore: meta.semanticScore,
        trace: { ...trace, traceId: `${runId}-${i}` },
      }
    }
    const saved = Array.from({ length: 5 }, (_, i) => writer.saveBatched(record('run-b', i)))
    expect(reader.count(), 'nothing is committed within the turn that queued the traces').toBe(0)
    await Promise.all(saved)
    expect(reader.count()).toBe(5)
    expect(reader.get('run-b-3')).toMatchObject({ taskId: '104', runId: 'run-b' })
    // close() commits what is queued (the end of a test file, or the process exiting).
    void writer.saveBatched(record('run-c', 0))
    writer.close()
    expect(reader.get('run-c-0')).toMatchObject({ runId: 'run-c' })
    await expect(writer.saveBatched(record('run-d', 0))).rejects.toThrow(/is closed; 1 trace\(s\) were not stored/)
  })

  it('commits traces saved in different turns within the batch window together, once the window ends', async () => {
    const file = join(scratch.dir, 'window.db')
    using writer = TraceStore.open(file)
    using reader = TraceStore.open(file)
    const { meta, trace } = runs[0]!
    const record = (i: number) => ({
      runId: 'run-w',
      taskId: `${meta.taskId}-${i}`,
      question: meta.question,
      groundTruth: meta.groundTruth,
      agentAnswer: meta.agentAnswer,
      exactMatch: meta.exactMatch,
      semanticScore: meta.semanticScore,
      trace: { ...trace, traceId: `run-w-${i}` },
    })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const first = writer.saveBatched(record(0))
      // Tasks seldom end in the same turn: the next trace comes a turn later and still shares the commit.
      await new Promise((resolve) => setImmediate(resolve))
      const second = writer.saveBatched(record(1))
      await new Promise((resolve) => setImmediate(resolve))
      expect(reader.count(), 'nothing is committed before the window ends').toBe(0)
      vi.advanceTimersByTime(BATCH_WINDOW_MS)
      await Promise.all([first, second])
      expect(reader.count()).toBe(2)
    } finally {
      vi.useRealTimers()
    }
  })

  it('refuses a database from a newer version', () => {
    const file = join(scratch.dir, 'future.db')
    const db = new Database(file)
    db.pragma(`user_version = ${TRACE_STORE_VERSION + 1}`)
    db.close()
    expect(() => TraceStore.open(file)).toThrow(TraceStoreVersionError)
    expect(() => TraceStore.open(file)).toThrow(`schema version ${TRACE_STORE_VERSION + 1}; this version knows up to ${TRACE_STORE_VERSION}`)
  })

  it("a file that is not a traces database (not SQLite, damaged, another program's, an email store) is a ConfigError naming it, left as it was", () => {
    const notSqlite = join(scratch.dir, 'notes.db')
    writeFileSync(notSqlite, 'SQLite format 2? no: plain text, not a database\n'.repeat(200))
    const full = join(scratch.dir, 'full.db')
    const big = new Database(full)
    big.exec(
      "CREATE TABLE filler (x TEXT); INSERT INTO filler WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) SELECT printf('%.200c', 'x') FROM n",
    )
    big.close()
    const damaged = join(scratch.dir, 'damaged.db')
    writeFileSync(damaged, readFileSync(full).subarray(0, 4096 * 3))
    const foreign = join(scratch.dir, 'other-program.db')
    const other = new Database(foreign)
    other.exec('CREATE TABLE notes (x TEXT)')
    other.close()
    const emails = join(scratch.dir, 'emails.db')
    const mail = new Database(emails)
    mail.exec('CREATE TABLE emails (x TEXT)')
    mail.pragma('user_version = 2')
    mail.close()
    const expected: Array<[string, RegExp]> = [
      [notSqlite, /^Traces database \S+notes\.db is not an SQLite database\.\n {2}Fix: Point ARTE_TRACES_DB .*this file was left as it was\.$/],
      [damaged, /^Traces database \S+damaged\.db is damaged: database disk image is malformed\.\n {2}Fix: Restore it from a copy, or point ARTE_TRACES_DB /],
      [
        foreign,
        /^\S+other-program\.db is not an ART-E traces database: it has no schema version and holds other tables \(notes\)\.\n {2}Fix: Point ARTE_TRACES_DB/,
      ],
      [emails, /^\S+emails\.db is not an ART-E traces database: it has schema version 2 and holds other tables \(emails\)\./],
    ]
    for (const [file, message] of expected) {
      const before = readFileSync(file)
      let error: unknown
      try {
        TraceStore.open(file).close()
      } catch (caught) {
        error = caught
      }
      expect(error, file).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toMatch(message)
      expect(readFileSync(file).equals(before), `${file} unchanged`).toBe(true)
      expect(existsSync(`${file}-wal`), `${file}: no WAL file`).toBe(false)
    }
  })

  it('migrates a version 1 database (no config_key) and finds finished traces by configuration', () => {
    const file = join(scratch.dir, 'v1.db')
    const db = new Database(file)
    db.exec(`CREATE TABLE traces (trace_id TEXT PRIMARY KEY, run_id TEXT NOT NULL, task_id TEXT NOT NULL, model TEXT NOT NULL,
      model_kind TEXT NOT NULL, outcome TEXT NOT NULL, exact_match INTEGER NOT NULL, semantic_score REAL NOT NULL, question TEXT NOT NULL,
      ground_truth TEXT NOT NULL, agent_answer TEXT NOT NULL, created_at TEXT NOT NULL, trace_json TEXT NOT NULL)`)
    db.pragma('user_version = 1')
    db.close()
    using store = TraceStore.open(file)
    expect(store.finishedTraces('cfg')).toEqual(new Map())
  })

  it('migrates a version 2 database (its traces become trial 1) and keeps each trial to its own finished traces', () => {
    const file = join(scratch.dir, 'v2.db')
    const run = runs[0]
    if (run === undefined) throw new Error('no run')
    const db = new Database(file)
    db.exec(`CREATE TABLE traces (trace_id TEXT PRIMARY KEY, run_id TEXT NOT NULL, task_id TEXT NOT NULL, model TEXT NOT NULL,
      model_kind TEXT NOT NULL, outcome TEXT NOT NULL, exact_match INTEGER NOT NULL, semantic_score REAL NOT NULL, question TEXT NOT NULL,
      ground_truth TEXT NOT NULL, agent_answer TEXT NOT NULL, created_at TEXT NOT NULL, trace_json TEXT NOT NULL, config_key TEXT)`)
    db.prepare(`INSERT INTO traces VALUES ('old', 'run-a', '101', 'm', 'llm', 'answered', 1, 1, 'q', 'a', 'a', '2025-01-01T00:00:00.000Z', ?, 'cfg')`).run(
      JSON.stringify(run.trace),
    )
    db.pragma('user_version = 2')
    db.close()
    using store = TraceStore.open(file)
    expect([...store.finishedTraces('cfg').values()].map((t) => [t.traceId, t.trial])).toEqual([['old', 1]])
    expect(store.finishedTraces('cfg', 2)).toEqual(new Map())
    const base = { runId: 'run-b', taskId: '101', question: 'q', groundTruth: 'a', agentAnswer: 'b', exactMatch: false, semanticScore: 0, configKey: 'cfg' }
    store.save({ ...base, trace: { ...run.trace, traceId: 'second' }, trial: 2 })
    expect([...store.finishedTraces('cfg', 2).values()].map((t) => [t.traceId, t.trial, t.exactMatch])).toEqual([['second', 2, false]])
    expect([...store.finishedTraces('cfg', 1).values()].map((t) => t.traceId)).toEqual(['old'])
    expect(store.get('second')?.trial).toBe(2)
    const listed = formatTraceSummaries(store.listBelow(0.5)).split('\n')
    expect(listed[0]).toMatch(/^score {2}EM {2}task {8}trial trace id/)
    expect(listed.find((line) => line.includes('second'))).toMatch(/^0\.000 {2}0 {3}101 {9}2 {5}second /)
    expect(formatStoredTrace({ ...(store.get('second') as NonNullable<ReturnType<typeof store.get>>) })).toContain('task:          101 [trial=2] (run run-b)')
  })

  /** What `trace_json` and `trace_format` of a stored trace are. */
  function storedRow(file: string, traceId: string): { json: string; format: number | null } {
    const db = new Database(file, { readonly: true })
    try {
      const row = db.prepare('SELECT trace_json AS json, trace_format AS format FROM traces WHERE trace_id = ?').get(traceId) as {
        json: string
        format: number | null
      }
      return row
    } finally {
      db.close()
    }
  }

  it('stores each tool result once (compact form) and gives back the trace the agent made, JSON byte for byte, to every reader', async () => {
    const file = join(scratch.dir, 'compact.db')
    const base = { runId: 'run-c', question: 'q', groundTruth: 'a', agentAnswer: 'a', exactMatch: true, semanticScore: 1, configKey: 'cfg' }
    // A read result over the stored-string cap, as define-arte-tests stores it (capLongStrings), besides the agent's own traces.
    const [room, launch] = runs.map((run) => run.trace)
    if (room === undefined || launch === undefined) throw new Error('no runs')
    const huge: AgentTrace = JSON.parse(JSON.stringify({ ...room, traceId: 'huge' }))
    const read = 0
    const readMessage = huge.messages.findIndex((message) => message.role === 'tool' && message.tool_call_id === huge.toolCalls[read]?.id)
    huge.toolCalls[read]!.result = [...(huge.toolCalls[read]!.result as unknown[]), { snippet: 'y'.repeat(70_000) }]
    huge.messages[readMessage]!.content = JSON.stringify(huge.toolCalls[read]!.result)
    const traces = [room, launch, capLongStrings(huge)]
    {
      using store = TraceStore.open(file)
      await Promise.all(traces.map((trace, i) => store.saveBatched({ ...base, taskId: String(i), trace })))
    }
    using store = TraceStore.open(file)
    const finished = store.finishedTraces('cfg')
    for (const [i, trace] of traces.entries()) {
      const row = storedRow(file, trace.traceId)
      expect(row.format, trace.traceId).toBe(COMPACT_TRACE_FORMAT)
      expect(JSON.parse(row.json)).toHaveProperty(COMPACT_TRACE_FIELD, 1)
      expect(JSON.stringify(store.get(trace.traceId)?.trace), trace.traceId).toBe(JSON.stringify(trace))
      expect(JSON.stringify(finished.get(String(i))?.trace), trace.traceId).toBe(JSON.stringify(trace))
    }
    // Every search and read result is in the row once: the row is smaller by at least their JSON.
    const results = room.toolCalls.map((call) => JSON.stringify(call.result).length).reduce((a, b) => a + b, 0)
    expect(storedRow(file, room.traceId).json.length).toBeLessThanOrEqual(JSON.stringify(room).length - results + 30 * room.toolCalls.length)
    // The cut result is not its (cut) message's JSON: it is kept whole, and so is its message.
    expect(JSON.parse(storedRow(file, 'huge').json).toolCalls[read]).toHaveProperty(
      'result',
      expect.arrayContaining([{ snippet: expect.stringMatching(/\[truncated: 70,000 characters in full\]$/) }]),
    )
  })

  it('redacts a secret in a tool result as the whole trace was redacted before: the trace read back is the same', () => {
    const secret = 'h8-trace-secret-a1b2c3d4e5'
    registerSecret(secret)
    const trace: AgentTrace = JSON.parse(JSON.stringify({ ...runs[0]!.trace, traceId: 'secret' }))
    const call = trace.toolCalls[0]!
    const message = trace.messages.find((m) => m.role === 'tool' && m.tool_call_id === call.id)!
    call.result = { note: `key ${secret} here`, headers: { authorization: `Bearer ${secret}x` }, url: `https://u:${secret}@host.example/?api_key=${secret}` }
    message.content = JSON.stringify(call.result)
    using store = TraceStore.open(':memory:')
    store.save({ runId: 'r', taskId: '1', question: 'q', groundTruth: 'a', agentAnswer: 'a', exactMatch: true, semanticScore: 1, trace })
    const back = store.get('secret')?.trace
    expect(JSON.stringify(back)).not.toContain(secret)
    expect(JSON.stringify(back)).toContain(REDACTED)
    expect(back).toEqual(JSON.parse(redact(JSON.stringify(trace))))
  })

  it('reads traces a version 3 database holds (whole traces) as they are, and writes new ones compact beside them', () => {
    const file = join(scratch.dir, 'v3.db')
    const run = runs[0]
    if (run === undefined) throw new Error('no run')
    const db = new Database(file)
    db.exec(`CREATE TABLE traces (trace_id TEXT PRIMARY KEY, run_id TEXT NOT NULL, task_id TEXT NOT NULL, model TEXT NOT NULL,
      model_kind TEXT NOT NULL, outcome TEXT NOT NULL, exact_match INTEGER NOT NULL, semantic_score REAL NOT NULL, question TEXT NOT NULL,
      ground_truth TEXT NOT NULL, agent_answer TEXT NOT NULL, created_at TEXT NOT NULL, trace_json TEXT NOT NULL, config_key TEXT, trial INTEGER NOT NULL DEFAULT 1)`)
    const whole = JSON.stringify({ ...run.trace, traceId: 'old' })
    db.prepare(`INSERT INTO traces VALUES ('old', 'run-a', '101', 'm', 'llm', 'answered', 1, 1, 'q', 'a', 'a', '2025-01-01T00:00:00.000Z', ?, 'cfg', 1)`).run(
      whole,
    )
    db.pragma('user_version = 3')
    db.close()
    {
      using store = TraceStore.open(file)
      expect(JSON.stringify(store.get('old')?.trace)).toBe(whole)
      expect(JSON.stringify(store.finishedTraces('cfg').get('101')?.trace)).toBe(whole)
      // The report takes the compact form of an old trace too.
      const compact = store.getCompact('old')
      expect(compact?.trace).toHaveProperty(COMPACT_TRACE_FIELD, 1)
      expect(compact?.jsonChars).toBe(JSON.stringify(compact?.trace).length)
      expect(compact?.jsonChars).toBeLessThan(whole.length)
      store.save({
        runId: 'run-b',
        taskId: '101',
        question: 'q',
        groundTruth: 'a',
        agentAnswer: 'a',
        exactMatch: true,
        semanticScore: 1,
        trace: { ...run.trace, traceId: 'new' },
      })
      expect(store.getCompact('new')?.jsonChars).toBe(storedRow(file, 'new').json.length)
    }
    expect(storedRow(file, 'old')).toEqual({ json: whole, format: null })
    expect(storedRow(file, 'new').format).toBe(COMPACT_TRACE_FORMAT)
    const check = new Database(file, { readonly: true })
    expect(check.pragma('user_version', { simple: true })).toBe(TRACE_STORE_VERSION)
    check.close()
  })

  it('prints a trace readably, and the last turns of a failed run', () => {
    using store = TraceStore.open(':memory:')
    save(store, 'run-1')
    const text = formatStoredTrace(store.get(runs[0]!.trace.traceId)!)
    expect(text).toContain(`Trace ${runs[0]!.trace.traceId}`)
    expect(text).toContain('ground truth:  Room 4B')
    expect(text).toContain('agent answer:  room 4b')
    expect(text).toContain('assistant → search_emails({"keywords":["budget","review"]})')
    expect(text).toContain('turn 2 return_final_answer ok')
    const failed = runs[1]!
    expect(failed.meta.outcome).toEqual({ kind: 'max-turns', maxTurns: 2 })
    const tail = formatLastTurns(failed.trace, 2)
    expect(tail).toContain('… 3 earlier message(s)') // user, assistant, tool before the last assistant + tool
    expect(tail).toContain('assistant → search_emails({"keywords":["launch"]})')
    expect(formatTraceSummaries(store.listBelow(0.5))).toMatch(/^score {2}EM {2}task[\s\S]*\n0\.000 {2}0 {3}104 /)
  })
})
