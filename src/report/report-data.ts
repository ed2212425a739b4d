import { type Dirent, existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { z } from 'zod'
import type { CompactTrace } from '../agent/compact-trace.ts'
import type { AgentTrace } from '../agent/trace.ts'
import { InvalidFormatError } from '../core/errors.ts'
import { ArteResultsSchema, type ArteResults } from '../arte/results/results.ts'
import { TraceStore } from '../arte/results/trace-store.ts'
import { ARTE_HISTORY_FILE } from '../arte/settings.ts'
import { MPCBENCH_HISTORY_FILE } from '../mpcbench/settings.ts'
import { DEFAULT_REPORT_TRACES_MB } from './report-settings.ts'
import { judgeResultFileName, runLogFileName, trialLogDir } from '../mpcbench/tasks/file-names.ts'
import { JudgeResultFileSchema, type JudgeResultFile } from '../mpcbench/judge/judge-result.ts'
import { RunLogSchema, type RunLog } from '../mpcbench/run/run-log.ts'
import { SummarySchema, type Summary } from '../mpcbench/summary/summary.ts'
import { type EvalResults, EvalResultsSchema, looksLikeEvalResults } from '../results/eval-results.ts'
import type { EvalSection } from './eval-section.ts'
import { looksLikeMpcbenchV2Summary } from '../mpcbench-v2/scoring/comparable.ts'
import { type MpcbenchV2Summary, MpcbenchV2SummarySchema } from '../mpcbench-v2/scoring/summary.ts'
import type { MpcbenchV2Section } from './mpcbench-v2-section.ts'

/** A confidence interval as the results files carry it (when they do). */
export const IntervalSchema = z.object({
  low: z.number(),
  high: z.number(),
  level: z.number().optional(),
  method: z.string().optional(),
})

/** A confidence interval; see {@link IntervalSchema}. */
export type Interval = z.infer<typeof IntervalSchema>

/** Optional fields of an ART-E results JSON that newer reporters add; each is shown when present. */
const ArteExtrasSchema = z.object({
  /** Per metric; a metric without an interval (`null`, e.g. no task ran) is left out. */
  confidenceIntervals: z
    .record(z.string(), IntervalSchema.nullable())
    .transform((cis) => Object.fromEntries(Object.entries(cis).filter((entry): entry is [string, Interval] => entry[1] !== null)))
    .optional()
    .catch(undefined),
  passHatK: z.record(z.string(), z.number()).optional().catch(undefined),
  passHatKTasks: z.number().optional().catch(undefined),
  graderSuspects: z.array(z.unknown()).optional().catch(undefined),
  notRunTasks: z.number().optional().catch(undefined),
})

/** Optional ART-E fields the page shows when present. */
export type ArteExtras = z.infer<typeof ArteExtrasSchema>

/** One ART-E results file with everything the page shows about it. */
export interface ArteSection {
  kind: 'arte'
  /** The results file as named to the user. */
  file: string
  results: ArteResults
  /** The results JSON as written, with fields newer reporters add (`trialResults` per task, ...); embedded in the page. */
  raw: Record<string, unknown>
  extras: ArteExtras
  /**
   * Traces by trace id (those found in the traces database), each in its compact form when it has one (each tool
   * result once, in its tool message: see `compactTrace`); the page expands them.
   */
  traces: Record<string, AgentTrace | CompactTrace>
  /** Why some or all traces are missing, when they are. */
  notes: string[]
  /** The run before this one, from `evaluation/history/`, when there is one. */
  previous?: { file: string; results: ArteResults }
  /** Files of the run history passed over while looking for `previous` (unreadable), newest first. */
  skippedHistory: SkippedHistoryFile[]
}

/**
 * A run log or judge result found under a task's file name that is provably not the summary's own: a later run (or a
 * later judging) wrote it after the summary was generated, or it disagrees with the summary's record of the task. The
 * summary's own file was overwritten; the page shows this one only labelled with `why`, never as the run's.
 */
export interface OtherRunFile<T> {
  content: T
  /** Why it is not this summary's, as the page says it. */
  why: string
}

/** One judged MPCBench task (task × agent × judge) with its run log and judge result when found. */
export interface MpcbenchTaskView {
  taskId: string
  taskType: string
  agentModel: string
  judgeModel: string
  requirements: number | null
  grounding: number | null
  error: string | null
  /** Which trial (`BENCH_TRIALS` > 1); absent for a run of one trial. */
  trial?: number
  /** The evaluation's OpenTelemetry trace id (the summary's `otel_trace_id`), when tracing was on. */
  otelTraceId?: string
  /** The task's run log, when the one found is this summary's (see `otherRunLog`). */
  runLog?: RunLog
  /** The task's judge result, when the one found is this summary's (see `otherJudgeResult`). */
  judgeResult?: JudgeResultFile
  /** The run log found under the task's file name when it is another run's (the summary's own was overwritten). */
  otherRunLog?: OtherRunFile<RunLog>
  /** The judge result found under the task's file name when it is another run's. */
  otherJudgeResult?: OtherRunFile<JudgeResultFile>
}

/** One MPCBench summary with everything the page shows about it. */
export interface MpcbenchSection {
  kind: 'mpcbench'
  file: string
  summary: Summary
  /** The summary as written; embedded in the page. */
  raw: Record<string, unknown>
  /** The summary rows as written, with optional fields (`ci`, pass^k, ...) that newer reporters add. */
  rawRows: Array<Record<string, unknown>>
  /** Optional top-level fields (`graderSuspects`, `notRunTasks`, ...) as written. */
  rawExtras: Record<string, unknown>
  tasks: MpcbenchTaskView[]
  notes: string[]
  previous?: { file: string; summary: Summary }
  /** Files of the run history passed over while looking for `previous` (unreadable), newest first. */
  skippedHistory: SkippedHistoryFile[]
}

/** Everything one report page shows. */
export interface ReportData {
  generatedAt: string
  arte: ArteSection[]
  mpcbench: MpcbenchSection[]
  /** One section per eval results file (`describeEval`); absent in data built before evals were shown. */
  evals?: EvalSection[]
  /** One section per MPCBench v2 summary; absent in data built before v2 was shown. */
  mpcbenchV2?: MpcbenchV2Section[]
}

/** A results file of either benchmark, classified by its shape. */
export type ResultsFile =
  | { kind: 'arte'; file: string; results: ArteResults; raw: Record<string, unknown> }
  | { kind: 'mpcbench'; file: string; summary: Summary; raw: Record<string, unknown> }
  | { kind: 'eval'; file: string; results: EvalResults; raw: Record<string, unknown> }
  | { kind: 'mpcbench-v2'; file: string; summary: MpcbenchV2Summary; raw: Record<string, unknown> }

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new InvalidFormatError(`Cannot read results file ${file}: ${(error as Error).message}`, {
      file,
      hint: 'Pass an ART-E results JSON (evaluation/arte/results.json) or an MPCBench summary (evaluation/summary.json).',
      cause: error,
    })
  }
}

/** Classifies parsed JSON as an ART-E results JSON or an MPCBench summary, or `undefined` when it is neither. */
export function classifyResults(raw: unknown, file: string): ResultsFile | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined
  const record = raw as Record<string, unknown>
  if (looksLikeMpcbenchV2Summary(raw)) {
    const v2 = MpcbenchV2SummarySchema.safeParse(raw)
    if (v2.success) return { kind: 'mpcbench-v2', file, summary: v2.data, raw: record }
  }
  if (looksLikeEvalResults(raw)) {
    const evalResults = EvalResultsSchema.safeParse(raw)
    if (evalResults.success) return { kind: 'eval', file, results: evalResults.data, raw: record }
  }
  const arte = ArteResultsSchema.safeParse(raw)
  if (arte.success) return { kind: 'arte', file, results: arte.data, raw: record }
  const summary = SummarySchema.safeParse(raw)
  if (summary.success) return { kind: 'mpcbench', file, summary: summary.data, raw: record }
  return undefined
}

/** Reads a results file of either benchmark; an unreadable file or one of neither shape is an error naming it. */
export function readResultsFile(file: string): ResultsFile {
  const raw = readJson(file)
  const classified = classifyResults(raw, file)
  if (classified !== undefined) return classified
  const arteIssue = ArteResultsSchema.safeParse(raw).error?.issues[0]
  const summaryIssue = SummarySchema.safeParse(raw).error?.issues[0]
  const describe = (issue: z.core.$ZodIssue | undefined): string =>
    issue === undefined ? '?' : `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`
  if (looksLikeMpcbenchV2Summary(raw)) {
    throw new InvalidFormatError(`${file} is not a valid MPCBench v2 summary (${describe(MpcbenchV2SummarySchema.safeParse(raw).error?.issues[0])}).`, {
      file,
      hint: 'Pass a summary written by reporters/mpcbench-v2.ts (evaluation/mpcbench-v2/summary.json) by this version; an older one lacks the per-instance results: rerun the bench.',
    })
  }
  throw new InvalidFormatError(
    `${file} is neither an ART-E results JSON (${describe(arteIssue)}) nor an MPCBench summary (${describe(summaryIssue)})${looksLikeEvalResults(raw) ? ` nor an eval's results (${describe(EvalResultsSchema.safeParse(raw).error?.issues[0])})` : ''}.`,
    {
      file,
      hint: 'Pass a file written by reporters/arte.ts (results.json), reporters/mpcbench.ts (summary.json) or reporters/eval.ts (evaluation/evals/{eval}/results.json).',
    },
  )
}

/** Where {@link buildArteSection} and {@link buildMpcbenchSection} look for traces, run logs and earlier runs. */
export interface SectionSources {
  /** ART-E traces database; absent or missing means no traces. */
  tracesDb?: string
  /** MPCBench run logs and judge results folder. */
  logDir?: string
  /** `evaluation/history/`: earlier runs, one folder each. */
  historyDir?: string
  /**
   * Characters of ART-E trace JSON (compact form) the page holds at most (failed tasks first); the others are named in a note.
   * @default DEFAULT_REPORT_TRACES_MB megabytes
   */
  traceBudgetChars?: number
}

/** Trace ids of the trials of each task, when the results carry `trialResults` (repeated trials). */
function trialTraceIds(raw: Record<string, unknown>): string[] {
  const tasks = Array.isArray(raw.taskResults) ? (raw.taskResults as unknown[]) : []
  return tasks.flatMap((task) => {
    const trials = (task as { trialResults?: unknown }).trialResults
    if (!Array.isArray(trials)) return []
    return trials.flatMap((trial) => {
      const id = (trial as { traceId?: unknown }).traceId
      return typeof id === 'string' ? [id] : []
    })
  })
}

/**
 * The traces the page holds: those of the failed tasks (no exact match) first, then the others, then the other
 * trials' traces, while their JSON fits `budgetChars`; a trace that does not fit and those after it are not read.
 * Traces are held in their compact form (`compactTrace`, as the database stores them; one of an earlier version is
 * compacted here), so a budget holds more of them.
 * A task that did not run has no trace and counts neither as held nor as missing; each trace id is looked at once
 * (trial 1's trace is also the task's).
 */
function loadTraces(
  results: ArteResults,
  raw: Record<string, unknown>,
  tracesDb: string | undefined,
  budgetChars: number,
  notes: string[],
): Record<string, AgentTrace | CompactTrace> {
  const traces: Record<string, AgentTrace | CompactTrace> = {}
  if (tracesDb === undefined || !existsSync(tracesDb)) {
    notes.push(`No traces: the traces database ${tracesDb ?? '(none given)'} does not exist.`)
    return traces
  }
  const ran = results.taskResults.filter((task) => task.outcome.kind !== 'not-run' && task.traceId !== '')
  const tasks = [...ran.filter((task) => !task.exactMatch), ...ran.filter((task) => task.exactMatch)]
  const taskTraceIds = new Set(tasks.map((task) => task.traceId))
  const missing = new Set<string>()
  let used = 0
  let full = false
  using store = TraceStore.open(tracesDb)
  for (const traceId of new Set([...taskTraceIds, ...trialTraceIds(raw).filter((id) => id !== '')])) {
    if (full) break
    const stored = store.getCompact(traceId)
    if (stored === undefined) {
      missing.add(traceId)
      continue
    }
    const size = stored.jsonChars
    if (used + size > budgetChars) {
      full = true
      continue
    }
    used += size
    traces[traceId] = stored.trace
  }
  const held = tasks.filter((task) => traces[task.traceId] !== undefined).length
  const missingTasks = tasks.filter((task) => missing.has(task.traceId)).length
  const count = (n: number): string => n.toLocaleString('en-US')
  if (missingTasks > 0) notes.push(`${count(missingTasks)} of ${count(tasks.length)} trace(s) not found in ${tracesDb}.`)
  if (full) {
    const mb = budgetChars / (1024 * 1024)
    const budget = mb >= 1 ? `${Number(mb.toFixed(1))} MB` : `${Math.round(budgetChars / 1024)} KB`
    notes.push(
      `This page holds the traces of ${count(held)} of ${count(tasks.length)} tasks, failed tasks first ` +
        `(${budget} of traces, BENCH_REPORT_TRACES_MB); \`agent-bench trace <trace id>\` prints any trace of ${tracesDb}.`,
    )
  }
  return traces
}

/** The ART-E section of the page for one results file. */
export function buildArteSection(input: Extract<ResultsFile, { kind: 'arte' }>, sources: SectionSources): ArteSection {
  const notes: string[] = []
  const traces = loadTraces(input.results, input.raw, sources.tracesDb, sources.traceBudgetChars ?? DEFAULT_REPORT_TRACES_MB * 1024 * 1024, notes)
  const { previous, skipped } = findPreviousRun(sources.historyDir, 'arte', input.results.config.startedAt)
  const extras = ArteExtrasSchema.parse(input.raw)
  return {
    kind: 'arte',
    file: input.file,
    results: input.results,
    raw: input.raw,
    extras,
    traces,
    notes,
    ...(previous?.kind === 'arte' ? { previous: { file: previous.file, results: previous.results } } : {}),
    skippedHistory: skipped,
  }
}

/** Splits a summary's `agent={model}__judge={model}` key. */
export function splitPairKey(key: string): { agentModel: string; judgeModel: string } {
  const at = key.lastIndexOf('__judge=')
  if (!key.startsWith('agent=') || at < 0) return { agentModel: key, judgeModel: '?' }
  return { agentModel: key.slice('agent='.length, at), judgeModel: key.slice(at + '__judge='.length) }
}

function readOptional<S extends z.ZodType>(schema: S, file: string): z.output<S> | undefined {
  if (!existsSync(file)) return undefined
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

type PairScore = Summary['scores'][string][number]

/** Whether ISO time `a` is after `b`; `false` when either is no time. */
function isAfter(a: string, b: string): boolean {
  const [x, y] = [Date.parse(a), Date.parse(b)]
  return Number.isFinite(x) && Number.isFinite(y) && x > y
}

/** A summary's `error` when the agent did not answer (and its judge scored): `agent {outcome kind}`. */
const AGENT_ERROR = /^agent ([a-z-]+)$/

/** How the summary says the task's agent run ended: `answered` when it records no error; `undefined` when it cannot tell (a judge error). */
function summaryAgentOutcome(score: PairScore): string | undefined {
  if (score.error === null) return 'answered'
  return AGENT_ERROR.exec(score.error)?.[1]
}

/**
 * Why the run log found for `score` is provably not the run the summary recorded, or `undefined` when nothing shows
 * that: it started after the summary was generated (a later run overwrote the file), or it ended otherwise than the
 * summary says (`error: "agent max-turns"` beside a log that answered).
 */
function otherRunLogReason(runLog: RunLog, score: PairScore, generatedAt: string): string | undefined {
  if (isAfter(runLog.started_at, generatedAt)) {
    return `This run log was written by a later run (started ${runLog.started_at}, after this summary was generated at ${generatedAt}); the summary's own log was overwritten.`
  }
  const recorded = summaryAgentOutcome(score)
  if (recorded !== undefined && recorded !== runLog.outcome.kind) {
    return `This run log ended "${runLog.outcome.kind}" but the summary's run ended "${recorded}": it was written by another run; the summary's own log was overwritten.`
  }
  return undefined
}

/**
 * Why the judge result found for `score` is provably not the one the summary recorded, or `undefined`: it was
 * judged after the summary was generated, or its scores (or its judge error) are not the summary's.
 */
function otherJudgeResultReason(result: JudgeResultFile, score: PairScore, generatedAt: string): string | undefined {
  if (isAfter(result.judged_at, generatedAt)) {
    return `This judge result was written by a later run (judged ${result.judged_at}, after this summary was generated at ${generatedAt}); the summary's own judge result was overwritten.`
  }
  const summaryJudgeError = score.error !== null && !AGENT_ERROR.test(score.error)
  const show = (value: number | null): string => (value === null ? '-' : String(value))
  const own = `the summary has ${summaryJudgeError ? `a judge error (${score.error})` : `requirements ${show(score.answer_requirements_satisfaction)}, grounding ${show(score.source_grounded_reasoning)}`}`
  const overwritten = "it was written by another run; the summary's own judge result was overwritten."
  if (result.kind === 'judge-error') return summaryJudgeError ? undefined : `This judge result is a judge error, but ${own}: ${overwritten}`
  const found = `requirements ${show(result.answer_requirements_satisfaction.score)}, grounding ${show(result.source_grounded_reasoning.score)}`
  if (summaryJudgeError) return `This judge result scores ${found}, but ${own}: ${overwritten}`
  const same =
    result.answer_requirements_satisfaction.score === score.answer_requirements_satisfaction &&
    result.source_grounded_reasoning.score === score.source_grounded_reasoning
  return same ? undefined : `This judge result scores ${found}, but ${own}: ${overwritten}`
}

/** The MPCBench section of the page for one summary. */
export function buildMpcbenchSection(input: Extract<ResultsFile, { kind: 'mpcbench' }>, sources: SectionSources): MpcbenchSection {
  const notes: string[] = []
  const tasks: MpcbenchTaskView[] = []
  let missingLogs = 0
  let missingJudgeResults = 0
  let otherRunLogs = 0
  let otherJudgeResults = 0
  for (const [pair, scores] of Object.entries(input.summary.scores)) {
    const { agentModel, judgeModel } = splitPairKey(pair)
    for (const score of scores) {
      const view: MpcbenchTaskView = {
        taskId: score.task_id,
        taskType: score.task_type,
        agentModel,
        judgeModel,
        requirements: score.answer_requirements_satisfaction,
        grounding: score.source_grounded_reasoning,
        error: score.error,
        ...(score.trial === undefined ? {} : { trial: score.trial }),
        ...(score.otel_trace_id === undefined ? {} : { otelTraceId: score.otel_trace_id }),
      }
      if (sources.logDir !== undefined) {
        // A later trial's logs are in its own folder: never show trial 1's run under another trial's scores.
        const logDir = trialLogDir(sources.logDir, score.trial)
        const runLog = readOptional(RunLogSchema, join(logDir, runLogFileName(score.task_id, agentModel)))
        const judgeResult = readOptional(JudgeResultFileSchema, join(logDir, judgeResultFileName(score.task_id, agentModel, judgeModel)))
        // A later run of the same task (and trial) writes the same file names: a file that is provably not this
        // summary's is kept aside, labelled, so that no other run's log, numbers or reasons pass for this run's.
        if (runLog === undefined) missingLogs++
        else {
          const why = otherRunLogReason(runLog, score, input.summary.generated_at)
          if (why === undefined) view.runLog = runLog
          else {
            view.otherRunLog = { content: runLog, why }
            otherRunLogs++
          }
        }
        if (judgeResult === undefined) missingJudgeResults++
        else {
          const why = otherJudgeResultReason(judgeResult, score, input.summary.generated_at)
          if (why === undefined) view.judgeResult = judgeResult
          else {
            view.otherJudgeResult = { content: judgeResult, why }
            otherJudgeResults++
          }
        }
      }
      tasks.push(view)
    }
  }
  if (sources.logDir === undefined) notes.push('No run logs: no log folder given.')
  else {
    if (missingLogs > 0) notes.push(`${missingLogs} of ${tasks.length} run log(s) not found in ${sources.logDir}.`)
    if (missingJudgeResults > 0) {
      notes.push(
        `${missingJudgeResults} of ${tasks.length} judge result(s) not found in ${sources.logDir}: the scores shown are the summary's, without the judge's reasons.`,
      )
    }
    if (otherRunLogs > 0) {
      notes.push(
        `${otherRunLogs} of ${tasks.length} run log(s) in ${sources.logDir} are another run's, not this summary's (written after it was generated at ${input.summary.generated_at}, or ending otherwise than it records): ` +
          "a later run overwrote the summary's own. Their tasks show the summary's scores but no outcome, tool calls or time; opened, each says why and shows the other run's log apart.",
      )
    }
    if (otherJudgeResults > 0) {
      notes.push(
        `${otherJudgeResults} of ${tasks.length} judge result(s) in ${sources.logDir} are another run's, not this summary's (judged after it was generated at ${input.summary.generated_at}, or scoring otherwise): ` +
          "the scores shown are the summary's; opened, each such task says why and shows the other run's judge reasons apart.",
      )
    }
  }
  const rawRows = Array.isArray(input.raw.rows) ? (input.raw.rows as Array<Record<string, unknown>>) : []
  const known = new Set(['generated_at', 'tests', 'rows', 'scores', 'usage'])
  const rawExtras = Object.fromEntries(Object.entries(input.raw).filter(([key]) => !known.has(key)))
  const { previous, skipped } = findPreviousRun(sources.historyDir, 'mpcbench', input.summary.generated_at)
  return {
    kind: 'mpcbench',
    file: input.file,
    summary: input.summary,
    raw: input.raw,
    rawRows,
    rawExtras,
    tasks,
    notes,
    ...(previous?.kind === 'mpcbench' ? { previous: { file: previous.file, summary: previous.summary } } : {}),
    skippedHistory: skipped,
  }
}

function jsonFilesUnder(dir: string, depth: number): string[] {
  const files: string[] = []
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return files
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isFile() && entry.name.endsWith('.json')) files.push(path)
    else if (entry.isDirectory() && depth > 0) files.push(...jsonFilesUnder(path, depth - 1))
  }
  return files
}

/** Whether run stamp `a` (an ISO time: `config.startedAt`, `generated_at`) is before `b`; text order when either is no time. */
function isBefore(a: string, b: string): boolean {
  const [x, y] = [Date.parse(a), Date.parse(b)]
  return Number.isNaN(x) || Number.isNaN(y) ? a < b : x < y
}

/** A file of the run history passed over while looking for the previous run: it could not be read as a results file. */
export interface SkippedHistoryFile {
  file: string
  /** Why, as the page says it (`not valid JSON: Unexpected end of JSON input`). */
  reason: string
}

/** The previous run found in the run history, and the files passed over on the way (newest first). */
export interface PreviousRunSearch {
  previous: ResultsFile | undefined
  skipped: SkippedHistoryFile[]
}

/** The history file name of each benchmark (`ARTE_HISTORY_FILE`, `MPCBENCH_HISTORY_FILE`). */
const HISTORY_FILE_NAMES = { arte: ARTE_HISTORY_FILE, mpcbench: MPCBENCH_HISTORY_FILE } as const

/**
 * The most recent earlier run of one benchmark kept under `historyDir` (one folder per run, named by its run id, so
 * newest last by name, as `agent-bench compare` reads them): the newest results file of that kind whose run started
 * before the current one (`currentStamp` is the run's `config.startedAt` or `generated_at`), so neither the current
 * run nor a later one is ever shown as the previous run; `undefined` when there is none. A file that cannot be read
 * (a truncated copy, say) is passed over and named in `skipped` with why, unless its name is the other benchmark's
 * history file; so is a file named as this benchmark's history file that is not its results.
 */
export function findPreviousRun(historyDir: string | undefined, kind: 'arte' | 'mpcbench', currentStamp: string): PreviousRunSearch {
  const skipped: SkippedHistoryFile[] = []
  if (historyDir === undefined || !existsSync(historyDir)) return { previous: undefined, skipped }
  const otherName = HISTORY_FILE_NAMES[kind === 'arte' ? 'mpcbench' : 'arte']
  const runs = readdirSync(historyDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(historyDir, entry.name))
    .sort()
    .reverse()
  for (const run of runs) {
    for (const file of jsonFilesUnder(run, 2).sort()) {
      let raw: unknown
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'))
      } catch (error) {
        if (basename(file) !== otherName)
          skipped.push({ file, reason: `${error instanceof SyntaxError ? 'not valid JSON' : 'cannot be read'}: ${(error as Error).message}` })
        continue
      }
      const classified = classifyResults(raw, file)
      if (classified === undefined || classified.kind !== kind) {
        if (basename(file) === HISTORY_FILE_NAMES[kind])
          skipped.push({ file, reason: `not ${kind === 'arte' ? 'an ART-E results JSON' : 'an MPCBench summary'}` })
        continue
      }
      const stamp = classified.kind === 'arte' ? classified.results.config.startedAt : classified.summary.generated_at
      if (isBefore(stamp, currentStamp)) return { previous: classified, skipped }
    }
  }
  return { previous: undefined, skipped }
}
