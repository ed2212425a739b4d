import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { readJsonFile } from '../../core/parse.ts'
import { emptyUsage } from '../../llm/types.ts'
import type { JudgeInput } from './judge-input.ts'
import { MPCBENCH_PASS_SCORE } from '../summary/summary-statistics.ts'
import { upstreamJudgeTaskType } from '../tasks/task.ts'
import type { Task } from '../tasks/task.ts'
import { SOURCES } from '../workplace/validate-source.ts'
import { sourceFilePath } from '../workplace/workplace.ts'
import type { Judge } from './judge.ts'

/**
 * The kinds of labelled answer: `right` answers must pass (requirements >= 4); every other kind is wrong and must not:
 * `wrong` (the task's trap: the wrong option, a busy slot, a stale date, another week's data), `hedge` (the right and
 * a wrong version side by side), `fabricated` (the right answer plus made-up specifics), `changed-fact` (a near-copy of
 * the right answer with one key fact changed), `injection` (text addressed to the grader), `dump` (tool output pasted
 * as the answer), `filler` (polite text with no substance).
 */
export const JUDGE_CHECK_KINDS = ['right', 'wrong', 'hedge', 'fabricated', 'changed-fact', 'injection', 'dump', 'filler'] as const

/** One kind of {@link JUDGE_CHECK_KINDS}. */
export type JudgeCheckKind = (typeof JUDGE_CHECK_KINDS)[number]

/** One labelled answer to a task. */
export const LabelledAnswerSchema = z.strictObject({
  kind: z.enum(JUDGE_CHECK_KINDS),
  answer: z.string(),
  /** What is wrong with it (or, for `right`, what it shows). */
  note: z.string().optional(),
})

/** One labelled answer; see {@link LabelledAnswerSchema}. */
export type LabelledAnswer = z.infer<typeof LabelledAnswerSchema>

/** `data/judge-check/answers.json`: labelled answers per task id, written by people, not by a model. */
export const JudgeCheckSetSchema = z.strictObject({
  _about: z.string(),
  answers: z.record(z.string(), z.array(LabelledAnswerSchema).min(1)),
})

/** A labelled answer set; see {@link JudgeCheckSetSchema}. */
export type JudgeCheckSet = z.infer<typeof JudgeCheckSetSchema>

/** Reads and parses a labelled answer set. */
export function loadJudgeCheckSet(file: string): JudgeCheckSet {
  return readJsonFile(JudgeCheckSetSchema, file, 'judge-check answer set')
}

/** The strings a task's checks look for, right or trap: what the records an agent needs hold. */
function checkStrings(task: Task): string[] {
  return (task.checks ?? []).flatMap((check) => {
    if ('must_mention' in check) return check.must_mention
    if ('mentions_any' in check) return check.mentions_any
    if ('must_not_assert' in check) return check.must_not_assert
    if ('choose' in check) return [check.choose, ...check.not]
    return []
  })
}

function records(dataDir: string, task: Task, source: (typeof SOURCES)[number]): unknown[] {
  const data = JSON.parse(readFileSync(sourceFilePath(dataDir, task.data_dependencies.scenario_id ?? '', source), 'utf8')) as Record<string, unknown>
  return Object.values(data).filter(Array.isArray).flat()
}

function freeSlotCalls(task: Task): JudgeInput['raw_tool_calls'] {
  return (task.checks ?? []).flatMap((check) =>
    'time_slot_free' in check
      ? [
          {
            tool_name: 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
            arguments: {},
            result: { time_slots: check.time_slot_free.free },
            status: 'ok' as const,
          },
        ]
      : [],
  )
}

/** Every record of the task's scenario, one call per source, plus the free slots of a planning check: all an agent could read. */
export function scenarioWorldCalls(dataDir: string, task: Task): JudgeInput['raw_tool_calls'] {
  const calls: JudgeInput['raw_tool_calls'] = SOURCES.map((source) => ({
    tool_name: `${source}.records`,
    arguments: {},
    result: { records: records(dataDir, task, source) },
    status: 'ok' as const,
  }))
  return [...calls, ...freeSlotCalls(task)]
}

/**
 * The tool calls a labelled answer is judged against: per source, the records holding a string the task's checks look
 * for (right or trap), the whole address book, and the free slots of a planning check: what an agent that found the
 * facts (and the traps) read, small enough to show an LLM judge.
 */
export function taskSourceCalls(dataDir: string, task: Task): JudgeInput['raw_tool_calls'] {
  const wanted = checkStrings(task).map((s) => s.toLowerCase())
  const calls: JudgeInput['raw_tool_calls'] = []
  for (const source of SOURCES) {
    const all = records(dataDir, task, source)
    const found = source === 'contacts' ? all : all.filter((record) => wanted.some((s) => JSON.stringify(record).toLowerCase().includes(s)))
    if (found.length > 0) calls.push({ tool_name: `${source}.records`, arguments: {}, result: { records: found }, status: 'ok' })
  }
  return [...calls, ...freeSlotCalls(task)]
}

/** The string leaves of a value, one per line: tool output pasted as text. */
function textLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(textLeaves)
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(textLeaves)
  return []
}

/**
 * The `dump` answers every task gets besides its written ones, made from its {@link taskSourceCalls}: the records as
 * JSON, and their text values one per line.
 */
export function generatedDumps(calls: JudgeInput['raw_tool_calls']): LabelledAnswer[] {
  return [
    { kind: 'dump', answer: calls.map((call) => JSON.stringify(call.result)).join('\n'), note: 'generated: the tool results as JSON' },
    { kind: 'dump', answer: calls.flatMap((call) => textLeaves(call.result)).join('\n'), note: 'generated: the text of the tool results, one value per line' },
  ]
}

/** The judge input of a labelled answer: the task, the answer, `calls` as the tool calls it rests on. */
export function labelledAnswerInput(task: Task, file: string, answer: string, calls: JudgeInput['raw_tool_calls'], judgeModel: string): JudgeInput {
  return {
    task_id: task.task_id,
    task_type: upstreamJudgeTaskType(task),
    user_prompt: task.user_prompt,
    tool_trace_steps: [],
    raw_tool_calls: calls,
    final_answer: answer,
    rationale: '',
    agent_model: 'judge-check',
    agent_model_file_name: 'judge-check',
    agent_model_kind: 'llm',
    scenario_id: task.data_dependencies.scenario_id ?? '',
    task_file: file,
    outcome: { kind: 'answered', via: 'json' },
    usage: emptyUsage(),
    turns: 1,
    trace_id: 'judge-check',
    started_at: '2026-01-01T00:00:00.000Z',
    duration_ms: 0,
    answer_requirements: task.answer_requirements,
    ...(task.checks === undefined ? {} : { checks: task.checks }),
    tool_trace: calls.map((call, index) => ({ step: index + 1, tool_name: call.tool_name, arguments: call.arguments ?? {}, result: call.result ?? {} })),
    judge_model: judgeModel,
    judge_model_file_name: judgeModel,
  }
}

/** How a judge scored one labelled answer. */
export type JudgeCheckRow =
  | {
      taskId: string
      kind: JudgeCheckKind
      note?: string
      outcome: 'scored'
      requirements: number | null
      grounding: number | null
      passed: boolean
      agrees: boolean
      justification: string
    }
  | { taskId: string; kind: JudgeCheckKind; note?: string; outcome: 'judge-error'; message: string; agrees: false }

/** Agreement of a judge with the labels of one kind. */
export interface JudgeCheckKindSummary {
  kind: JudgeCheckKind
  answers: number
  /** Answers scored requirements >= 4. */
  passed: number
  /** `right` answers that did not pass, or wrong ones that did, or judge errors. */
  disagreements: number
  /** Share of answers whose pass/fail matches the label. */
  agreement: number
}

/** The result of `agent-bench judge-check`. */
export interface JudgeCheckReport {
  judge: string
  judgeKind: Judge['kind']
  tasks: number
  answers: number
  /** Wrong answers (every kind but `right`) scored requirements >= 4. */
  wrongPassed: number
  /** Right answers scored below 4 (or not scored). */
  rightFailed: number
  judgeErrors: number
  byKind: JudgeCheckKindSummary[]
  /** Every row whose pass/fail disagrees with its label. */
  disagreements: JudgeCheckRow[]
}

/** A task of the set with its file and the answers to score. */
export interface JudgeCheckTask {
  task: Task
  file: string
  answers: LabelledAnswer[]
}

/**
 * Scores every labelled answer of `tasks` with `judge` (one at a time) against {@link taskSourceCalls} of `dataDir`
 * and sums up agreement with the labels: pass = requirements >= 4 (`null` is no pass).
 */
export async function runJudgeCheck(judge: Judge, tasks: ReadonlyArray<JudgeCheckTask>, dataDir: string): Promise<JudgeCheckReport> {
  const rows: JudgeCheckRow[] = []
  for (const { task, file, answers } of tasks) {
    const calls = taskSourceCalls(dataDir, task)
    for (const labelled of [...answers, ...generatedDumps(calls)]) {
      const base = { taskId: task.task_id, kind: labelled.kind, ...(labelled.note === undefined ? {} : { note: labelled.note }) }
      const outcome = await judge.judge(labelledAnswerInput(task, file, labelled.answer, calls, judge.id))
      if (outcome.kind !== 'scored') {
        rows.push({ ...base, outcome: 'judge-error', message: outcome.message, agrees: false })
        continue
      }
      const requirements = outcome.scores.answer_requirements_satisfaction.score
      const passed = requirements !== null && requirements >= MPCBENCH_PASS_SCORE
      rows.push({
        ...base,
        outcome: 'scored',
        requirements,
        grounding: outcome.scores.source_grounded_reasoning.score,
        passed,
        agrees: passed === (labelled.kind === 'right'),
        justification: outcome.scores.answer_requirements_satisfaction.justification,
      })
    }
  }
  const byKind = JUDGE_CHECK_KINDS.map((kind): JudgeCheckKindSummary => {
    const of = rows.filter((row) => row.kind === kind)
    const agreeing = of.filter((row) => row.agrees).length
    return {
      kind,
      answers: of.length,
      passed: of.filter((row) => row.outcome === 'scored' && row.passed).length,
      disagreements: of.length - agreeing,
      agreement: of.length === 0 ? 1 : agreeing / of.length,
    }
  }).filter((summary) => summary.answers > 0)
  const scored = rows.flatMap((row) => (row.outcome === 'scored' ? [row] : []))
  return {
    judge: judge.id,
    judgeKind: judge.kind,
    tasks: tasks.length,
    answers: rows.length,
    wrongPassed: scored.filter((row) => row.kind !== 'right' && row.passed).length,
    rightFailed: scored.filter((row) => row.kind === 'right' && !row.passed).length,
    judgeErrors: rows.length - scored.length,
    byKind,
    disagreements: rows.filter((row) => !row.agrees),
  }
}

/** The report as the command prints it: a table per kind, then each disagreement. */
export function formatJudgeCheckReport(report: JudgeCheckReport): string {
  const lines = [
    `judge-check: judge ${report.judge} (${report.judgeKind === 'rules' ? 'offline rules, not an LLM' : 'LLM'}) on ${report.answers} labelled answers to ${report.tasks} tasks; pass = requirements >= ${MPCBENCH_PASS_SCORE}`,
    '',
    `${'kind'.padEnd(14)}${'answers'.padStart(8)}${'passed'.padStart(8)}${'disagree'.padStart(10)}${'agreement'.padStart(11)}`,
    ...report.byKind.map(
      (k) =>
        `${k.kind.padEnd(14)}${String(k.answers).padStart(8)}${String(k.passed).padStart(8)}${String(k.disagreements).padStart(10)}${`${(k.agreement * 100).toFixed(0)}%`.padStart(11)}`,
    ),
    '',
    `wrong answers passed: ${report.wrongPassed}; right answers failed: ${report.rightFailed}${report.judgeErrors > 0 ? `; judge errors: ${report.judgeErrors}` : ''}`,
  ]
  for (const row of report.disagreements) {
    const what = row.outcome === 'scored' ? `requirements ${row.requirements ?? 'null'}: ${row.justification.slice(0, 300)}` : `judge error: ${row.message}`
    lines.push(
      `  ${row.kind === 'right' ? 'RIGHT FAILED' : 'WRONG PASSED'} ${row.taskId} [${row.kind}]${row.note === undefined ? '' : ` (${row.note})`}: ${what}`,
    )
  }
  return lines.join('\n')
}

/** The default labelled set: `data/judge-check/answers.json` under `root`. */
export function defaultJudgeCheckSet(root: string): string {
  return join(root, 'data', 'judge-check', 'answers.json')
}
