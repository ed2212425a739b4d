import { basename, isAbsolute, relative, resolve } from 'node:path'
import { type TestContext, afterAll, beforeAll, inject, test } from 'vitest'
import { type BadArteRow, arteRowSource, loadArteDataset } from '../dataset/load-dataset.ts'
import type { ArteRow } from '../dataset/row.ts'
import {
  arteAnnotation,
  arteExternalAgent,
  arteMetaFromTrace,
  judgeRow,
  runArteTask,
  storedJudgment,
  traceArteScores,
  type ArteTaskRun,
  type StoredArteTrace,
} from '../run-arte-task.ts'
import type { ArteJudgment } from '../scoring/llm-judge.ts'
import type { AgentTrace } from '../../agent/trace.ts'
import type { ChatModel } from '../../llm/types.ts'
import { createModel } from '../../llm/create-model.ts'
import { DEFAULT_TRACES_DB, type StoredTrace, TraceStore } from '../results/trace-store.ts'
import { traceCommandLine } from '../cli/trace.ts'
import { arteConfigKey } from '../results/run-config.ts'
import { formatLastTurns, formatOutcome } from '../results/trace-store-format.ts'
import { capLongStrings } from '../../core/cap-stored.ts'
import { annotateTest } from '../../eval/annotate.ts'
import { notPreparedHint } from '../../core/bench-only.ts'
import type { EmailReader } from '../store/email-reader.ts'
import { EmailStore } from '../store/email-store.ts'
import { EmailStoreWorker } from '../store/store-worker.ts'
import { BenchError, ConfigError, InvalidFormatError } from '../../core/errors.ts'
import { defaultAgentModel } from '../../llm/default-model.ts'
import { arteSettingsFromEnv, type ArteSettings } from '../settings.ts'
import { selectPart } from './arte-parts.ts'
import type { AgentUnderTest } from '../../agent/external-agent.ts'
import './provided-context.ts'
import './task-meta.ts'
import type { ArtePlannedTask } from '../results/arte-meta.ts'
import { createAgentModel } from '../../agent/create-agent-model.ts'
import { deadlineWithin } from '../../agent/deadline.ts'
import { arteStrategy } from '../baseline/arte-strategy.ts'
import { applyHeapGrowingPercent } from './heap-growing.ts'
import { trialCacheScope } from '../../llm/response-cache.ts'
import { isRunCancel, skipCancelled, withRunCancel } from '../../eval/run-cancel.ts'
import { flushTracing, traceTask } from '../../otel/tracing.ts'

/** `ARTE_TRACES_DB` of this process's environment, absolute (the default traces database when unset). */
function tracesDbFromEnv(): string {
  const set = process.env.ARTE_TRACES_DB?.trim()
  return resolve(set === undefined || set === '' ? DEFAULT_TRACES_DB : set)
}

/** A test fails with this when its agent run errored, hit `maxTurns` or was aborted. */
export class ArteTaskFailedError extends BenchError {
  /**
   * @param tracesDb the traces database the run's trace is stored in: the hint's `agent-bench trace ID` gets
   *   `--db FILE` when it is not the default one. Default: `ARTE_TRACES_DB` of the environment.
   */
  constructor(run: ArteTaskRun, tracesDb: string = tracesDbFromEnv()) {
    const { meta, trace } = run
    super('ERR_ARTE_TASK_FAILED', `ART-E task ${meta.taskId}: ${formatOutcome(trace.outcome)}\nLast turns:\n${formatLastTurns(trace)}`, {
      hint: `Inspect the whole run with \`${traceCommandLine(meta.traceId, tracesDb)}\`.`,
    })
  }
}

function provided<K extends 'arteDbPath' | 'arteRunId'>(key: K): string {
  const value = inject(key)
  if (typeof value !== 'string' || value === '') {
    throw new ConfigError(`The ART-E tests need \`${key}\`, provided by src/arte/vitest/global-setup.ts, but it was not provided.`, {
      hint: "Run them through the `bench` project (`vitest run --project bench bench/arte`), or add './src/arte/vitest/global-setup.ts' (from the installed package: 'vitest-agent-bench/vitest/arte-setup') to `globalSetup`.",
    })
  }
  return value
}

/**
 * Throws when two rows share an id (as test names: `5` and `"5"` are one): test names (and JUnit / results keys) must
 * be unique. The error names both rows: their `file:line` (or `file row N`) when loaded by `loadArteDataset`, else
 * their positions in `rows`.
 */
export function assertUniqueIds(rows: ReadonlyArray<ArteRow>, dataset: string): void {
  const seen = new Map<string, { row: ArteRow; position: number }>()
  rows.forEach((row, position) => {
    const id = String(row.id)
    const first = seen.get(id)
    if (first === undefined) {
      seen.set(id, { row, position })
      return
    }
    const where = (at: { row: ArteRow; position: number }): string =>
      `${JSON.stringify(at.row.id)} at ${arteRowSource(at.row) ?? `row ${at.position + 1} of the rows given`}`
    throw new InvalidFormatError(`ART-E dataset ${dataset} has two rows with id ${JSON.stringify(id)}: ${where(first)} and ${where({ row, position })}.`, {
      file: arteRowSource(row) ?? dataset,
      field: 'id',
      hint: 'Give every row a unique id: it is the test name.',
    })
  })
}

export { selectPart }

/** Options of {@link defineArteTests}. */
export interface DefineArteTestsOptions {
  /** @default arteSettingsFromEnv() */
  settings?: ArteSettings
  /** @default the rows selected by `settings` (dataset, split, rows, limit) */
  rows?: ReadonlyArray<ArteRow>
  /**
   * Register only part `index` (1-based) of `count`: rows whose position modulo `count` is `index - 1`.
   * Vitest shards by file, so spreading the rows over part files (`arte-part-1.eval.ts`, ...) lets `--shard`
   * split the rows between machines.
   * @default all rows
   */
  part?: { index: number; count: number }
}

/** What the ART-E tests of one file share: settings, model, run id, and the stores opened in `beforeAll`. */
export interface ArteTestRuntime {
  settings: ArteSettings
  /** The agent under test: `ARTE_AGENT_URL` / `ARTE_AGENT_ID` when set, else the model of `BENCH_AGENT_MODEL`. */
  model: AgentUnderTest
  /** The LLM judge of `ARTE_JUDGE_MODEL`, asked after each task; undefined (the default) for none. */
  judge: ChatModel | undefined
  runId: string
  /** Key of this run's configuration, stored with each trace (see `arteConfigKey`). */
  configKey: string
  /** The dataset as recorded in each task's meta: relative to the working directory when inside it (see {@link datasetLabel}). */
  dataset: string
  /**
   * With `BENCH_RESUME=1`: the tasks already finished with this configuration as trial `trial` (read in `beforeAll`),
   * by task id. A run of one trial is trial 1.
   */
  finished(trial?: number): ReadonlyMap<string, StoredTrace>
  /** The email store (on a worker thread with a time budget per call, unless `ARTE_TOOL_TIMEOUT_MS=0`) and traces database (open while tests run). */
  stores(): { store: EmailReader; traces: TraceStore }
  /**
   * Whether tests whose agent answered are annotated too (their scores as a JUnit property): false when no reporter of
   * the run reads annotations (the globalSetup's `arteAnnotations`, see `annotationsRead`); tests that fail always are.
   * @default true
   */
  annotatePassed?: boolean
}

const NONE_FINISHED: ReadonlyMap<string, StoredTrace> = new Map()

/**
 * Prepares what ART-E tests need in the current test file: reads the provided database path and run id,
 * creates the agent (an external agent from `ARTE_AGENT_URL` / `ARTE_AGENT_ID`, else the model of `BENCH_AGENT_MODEL`,
 * default `baseline` without an API key), and registers
 * `beforeAll`/`afterAll` hooks that open and close the email store and the traces database.
 */
export function useArteTestRuntime(settings: ArteSettings = arteSettingsFromEnv()): ArteTestRuntime {
  const notPrepared = inject('arteNotPrepared')
  if (notPrepared !== undefined) throw new ConfigError(`The ART-E tests cannot run: ${notPrepared}.`, { hint: notPreparedHint('arte', notPrepared) })
  const dbPath = provided('arteDbPath')
  const runId = provided('arteRunId')
  const annotatePassed = inject('arteAnnotations') !== false
  const model: AgentUnderTest =
    settings.agent === undefined ? createAgentModel(defaultAgentModel(), { baselineStrategies: [arteStrategy] }) : arteExternalAgent(settings.agent)
  const judge = settings.judgeModel === undefined ? undefined : createModel(settings.judgeModel)
  // The judge is no part of the key: a resumed run with another judge keeps the agent's traces (see runArteTestCase).
  const configKey = arteConfigKey({
    model: model.id,
    dataset: settings.dataset,
    split: settings.split,
    maxTurns: settings.maxTurns,
    db: dbPath,
    readMaxChars: settings.readMaxChars,
  })
  let store: EmailStore | EmailStoreWorker | undefined
  let traces: TraceStore | undefined
  // By trial: each trial resumes from its own traces.
  let finished: ReadonlyMap<number, ReadonlyMap<string, StoredTrace>> = new Map()
  // Traces queued for a batched commit are committed before the process exits, whatever ends it.
  const flushOnExit = (): void => traces?.close()
  beforeAll(async () => {
    store =
      settings.toolTimeoutMs > 0 ? await EmailStoreWorker.open(dbPath, { timeoutMs: settings.toolTimeoutMs }) : EmailStore.open(dbPath, { readonly: true })
    traces = TraceStore.open(settings.tracesDb)
    if (settings.resume) {
      const opened = traces
      finished = new Map(Array.from({ length: Math.max(1, settings.trials) }, (_, i) => [i + 1, opened.finishedTraces(configKey, i + 1)]))
    }
    process.once('exit', flushOnExit)
  })
  afterAll(async () => {
    process.off('exit', flushOnExit)
    await store?.close()
    traces?.close()
    // This worker's OpenTelemetry spans are exported before Vitest ends it (nothing to do when tracing is off).
    await flushTracing()
  })
  return {
    settings,
    model,
    judge,
    runId,
    configKey,
    dataset: datasetLabel(settings.dataset),
    finished: (trial) => finished.get(trial ?? 1) ?? NONE_FINISHED,
    annotatePassed,
    stores() {
      if (store === undefined || traces === undefined) throw new Error('ART-E stores are not open (beforeAll did not run)')
      return { store, traces }
    },
  }
}

/**
 * Runs one ART-E row inside a test: runs and scores the agent, stores the trace, and annotates the test
 * with the scores (type `arte`, a JUnit property; a passed test only when a reporter reads annotations, see
 * {@link ArteTestRuntime.annotatePassed}). Does not set meta or fail: callers decide.
 * @param trial which of the `BENCH_TRIALS` runs of the row this is (stored with the trace; resume reads the same
 *   trial's, and the response cache keeps each trial's responses apart).
 */
export async function runArteTestCase(
  runtime: ArteTestRuntime,
  row: ArteRow,
  context: Pick<TestContext, 'signal' | 'annotate'> & { task?: { timeout?: number; result?: { state: string } } },
  trial?: number,
): Promise<ArteTaskRun> {
  const { store, traces } = runtime.stores()
  const { settings, judge } = runtime
  // Each model call, retries included, ends before the test timeout: a hanging model gives a stored error trace.
  const deadline = deadlineWithin(context.task?.timeout)
  const cacheScope = trialCacheScope(trial)
  const callOptions = { signal: context.signal, ...(deadline === undefined ? {} : { deadline }), ...(cacheScope === undefined ? {} : { cacheScope }) }
  const finished = runtime.finished(trial).get(String(row.id))
  // A row whose question or answer was edited since is another task: it runs again.
  const earlier = finished !== undefined && finished.question === row.question && finished.groundTruth === row.answer ? finished : undefined
  if (earlier !== undefined) {
    // OpenTelemetry (when on): a resumed task is a short root span of its own, marked `bench.resumed_from`, with its
    // stored scores (and the judge's `bench.judge` span when the judge is asked again).
    const start = { benchmark: 'arte', taskId: String(row.id), trial, agent: runtime.model.id, attributes: { 'bench.resumed_from': earlier.runId } }
    return traceTask(start, async (span) => {
      const run = await resumeArteTask(runtime, row, earlier, callOptions)
      traceArteScores(span, run.meta)
      if (annotates(runtime, run)) await annotateTest(context, `${arteAnnotation(run.meta, run.trace)} (resumed: finished in run ${earlier.runId})`, 'arte')
      return run
    })
  }
  const run = await runArteTask({
    row,
    store,
    model: runtime.model,
    signal: context.signal,
    maxTurns: settings.maxTurns,
    dataset: runtime.dataset,
    emailTools: { maxBodyChars: settings.readMaxChars },
    ...(deadline === undefined ? {} : { deadline }),
    ...(cacheScope === undefined ? {} : { cacheScope }),
    ...(judge === undefined ? {} : { judge }),
    ...(trial === undefined ? {} : { trial }),
  })
  // Traces of tasks that end together share one commit; the test ends only once its trace is committed, so resume
  // and interrupted runs find every finished task in the database (as with one INSERT per task).
  const stored = traces.saveBatched({
    runId: runtime.runId,
    taskId: run.meta.taskId,
    question: run.meta.question,
    groundTruth: run.meta.groundTruth,
    agentAnswer: run.meta.agentAnswer,
    exactMatch: run.meta.exactMatch,
    semanticScore: run.meta.semanticScore,
    configKey: runtime.configKey,
    ...(trial === undefined ? {} : { trial }),
    // Huge strings (a 1 MB answer) are cut in the stored trace; the meta records the answer's full length.
    trace: withJudgment(capLongStrings(run.trace), run.judgment),
  })
  if (annotates(runtime, run)) await Promise.all([stored, annotateTest(context, arteAnnotation(run.meta, run.trace), 'arte')])
  else await stored
  return run
}

/**
 * Whether the test of `run` is annotated: always when it fails (its agent did not answer; the default reporter prints
 * a failed test's annotations under its error), else when a reporter reads annotations ({@link ArteTestRuntime.annotatePassed}).
 */
function annotates(runtime: Pick<ArteTestRuntime, 'annotatePassed'>, run: ArteTaskRun): boolean {
  return runtime.annotatePassed !== false || run.meta.outcome.kind !== 'answered'
}

/**
 * A task that finished earlier with the same configuration (the judge is not part of it), for `BENCH_RESUME=1`: its
 * stored trace stands, no agent call. Its stored judgment stands when it is this judge's verdict; a judgment that is
 * missing, erred (the call failed, or an unusable reply) or came from another judge model is asked again (only the
 * judge is called), and the stored trace gets the new judgment.
 */
async function resumeArteTask(runtime: ArteTestRuntime, row: ArteRow, earlier: StoredTrace, callOptions: Parameters<typeof judgeRow>[3]): Promise<ArteTaskRun> {
  const { traces } = runtime.stores()
  const { judge } = runtime
  let judgment = storedJudgment(earlier.trace)
  if (judge !== undefined && needsJudging(judgment, judge.id)) {
    judgment = await judgeRow(judge, row, earlier.trace, callOptions)
    await traces.saveBatched({
      runId: earlier.runId,
      taskId: earlier.taskId,
      question: earlier.question,
      groundTruth: earlier.groundTruth,
      agentAnswer: earlier.agentAnswer,
      exactMatch: earlier.exactMatch,
      semanticScore: earlier.semanticScore,
      configKey: runtime.configKey,
      trial: earlier.trial,
      trace: withJudgment(earlier.trace, judgment),
    })
  }
  const current = judge === undefined ? undefined : judgment
  const meta = { ...arteMetaFromTrace(row, earlier.trace, runtime.dataset, earlier.trace.durationMs, current), resumedFrom: earlier.runId }
  const run = { trace: earlier.trace, meta, ...(current === undefined ? {} : { judgment: current }) }
  return run
}

/** `trace` stored with `judgment` (as `llmJudge`), or as it is without one. */
function withJudgment(trace: AgentTrace, judgment: ArteJudgment | undefined): StoredArteTrace {
  return judgment === undefined ? trace : { ...trace, llmJudge: judgment }
}

/** Whether a resumed task's stored judgment must be asked again of the judge `judgeModel`: none, an error, or another judge's. */
function needsJudging(judgment: ArteJudgment | undefined, judgeModel: string): boolean {
  return judgment === undefined || judgment.error !== undefined || judgment.model !== judgeModel
}

/** The name of the failing test of a dataset row that cannot be read: `invalid ART-E row questions.jsonl:3`. */
export function invalidArteRowTestName(source: string): string {
  return `invalid ART-E row ${basename(source)}`
}

/**
 * The test names of one row over `trials` runs: the row id alone for one trial (names unchanged), else
 * `{id} [trial=1]` .. `{id} [trial=k]`, one test per trial so JUnit and `-t` see every run.
 */
export function trialCases(id: string, trials: number): Array<{ name: string; trial: number | undefined }> {
  if (trials <= 1) return [{ name: id, trial: undefined }]
  return Array.from({ length: trials }, (_, i) => ({ name: `${id} [trial=${i + 1}]`, trial: i + 1 }))
}

/**
 * Registers one concurrent Vitest test per ART-E row, named by the row id. Each test runs the agent with the
 * email tools scoped to the row's inbox and query date, scores the answer, sets `task.meta.arte`, annotates the
 * scores, and stores the trace in the traces database. It fails when the agent did not answer. With
 * `BENCH_TRIALS=k` (k > 1) each row gets k tests, `{id} [trial=1]` .. `{id} [trial=k]` (see {@link trialCases}).
 * Call it at the top level of an `*.eval.ts` file in a project with the ART-E globalSetup.
 */
export async function defineArteTests(options: DefineArteTestsOptions = {}): Promise<void> {
  const settings = options.settings ?? arteSettingsFromEnv()
  const badRows: BadArteRow[] = []
  const selected = options.rows ?? (await loadArteDataset(settings.dataset, { split: settings.split, rows: settings.rows, limit: settings.limit, badRows }))
  assertUniqueIds(selected, settings.dataset)
  // A bad row fails its own test (in the first part only); the other rows run.
  if (options.part === undefined || options.part.index === 1) {
    for (const bad of badRows) {
      test(invalidArteRowTestName(bad.source), () => {
        throw bad.error
      })
    }
  }
  if (selected.length === 0 && badRows.length > 0) return
  if (selected.length === 0) {
    const error = await emptyDatasetError(settings)
    test(`no ART-E rows selected from ${basename(settings.dataset)}`, () => {
      throw error
    })
    return
  }
  const { part } = options
  const rows = selectPart(selected, part)
  if (rows.length === 0 && part !== undefined) {
    test.skip(`ART-E part ${part.index} of ${part.count}: no rows (${selected.length} selected)`, () => {})
    return
  }
  applyHeapGrowingPercent(settings.heapGrowingPercent)
  const runtime = useArteTestRuntime(settings)
  // Read once: each `test.concurrent` read builds a new chain of Vitest's (getters and closures) that the test keeps.
  const concurrentTest = test.concurrent
  for (const row of rows) {
    for (const { name, trial } of trialCases(String(row.id), settings.trials)) {
      concurrentTest(name, { meta: { arteTask: plannedTask(row, runtime, trial) } }, async (context) => {
        const { run, reason } = await withRunCancel(context.signal, async (signal) => ({
          run: await runArteTestCase(runtime, row, { signal, annotate: context.annotate, task: context.task }, trial),
          reason: signal.reason as unknown,
        }))
        context.task.meta.arte = { ...run.meta, rows: settings.rows, ...(trial === undefined ? {} : { trial }) }
        // `arte` holds everything `arteTask` did: one copy per test is kept (here and in the main process).
        delete context.task.meta.arteTask
        // A cancelled run (SIGINT, SIGTERM) skips the task rather than failing it: it is `not-run` in the results (a
        // task whose judge it cut off keeps its answer and scores, without a verdict; --resume asks the judge again).
        const cutOff = run.meta.outcome.kind === 'aborted' || run.meta.llmJudgeError?.code === 'ERR_ABORTED'
        if (cutOff && isRunCancel(reason)) skipCancelled(context, reason)
        if (run.meta.outcome.kind !== 'answered') throw new ArteTaskFailedError(run, settings.tracesDb)
      })
    }
  }
}

/** The error of a selection with no rows, naming the dataset and the filters (and what the file holds). */
async function emptyDatasetError(settings: ArteSettings): Promise<ConfigError> {
  const all = await loadArteDataset(settings.dataset, {})
  const splits = [...new Set(all.map((row) => row.split))].sort()
  const holds = all.length === 0 ? 'the file holds no rows' : `the file holds ${all.length} row(s), of split ${splits.join(' and ')}`
  const rows = settings.rows === 'all' ? '' : ` selected by ARTE_ROWS=${settings.rows}`
  const inSplit = all.some((row) => row.split === settings.split)
  return new ConfigError(
    `ART-E dataset ${settings.dataset} has no rows${rows} for split ${settings.split} (ARTE_SPLIT; limit ${settings.limit === 0 ? 'none' : settings.limit}): ${holds}.`,
    {
      hint:
        all.length === 0
          ? 'Point ARTE_DATASET (--dataset) at a file with rows.'
          : rows !== '' && inSplit
            ? 'Run every row of the split (--rows all), or point ARTE_DATASET (--dataset) at another file.'
            : `Select a split the file holds (--split ${splits[0] ?? 'test'}), or point ARTE_DATASET (--dataset) at another file.`,
    },
  )
}

/** What the reporter needs to count a task whose test never sets `arte` (timed out, failed early, not run), as its own trial. */
function plannedTask(row: ArteRow, runtime: ArteTestRuntime, trial: number | undefined): ArtePlannedTask {
  return {
    taskId: String(row.id),
    question: row.question,
    groundTruth: row.answer,
    inboxAddress: row.inbox_address,
    queryDate: row.query_date,
    split: row.split,
    messageIds: row.message_ids,
    dataset: runtime.dataset,
    rows: runtime.settings.rows,
    model: runtime.model.id,
    modelKind: runtime.model.kind === 'baseline' ? 'baseline' : 'llm',
    ...(trial === undefined ? {} : { trial }),
  }
}

/**
 * The dataset path as recorded in test meta: relative to `cwd` when the file is inside it (the reporters resolve it
 * against the root), else absolute. Thousands of tasks then carry a short path, not the full one.
 */
export function datasetLabel(dataset: string, cwd = process.cwd()): string {
  const inside = relative(cwd, dataset)
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? dataset : inside.replaceAll('\\', '/')
}
