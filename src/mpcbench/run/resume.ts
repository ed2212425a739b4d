import { existsSync } from 'node:fs'
import { readJsonFile } from '../../core/parse.ts'
import { evaluationFiles } from '../tasks/file-names.ts'
import type { Judge } from '../judge/judge.ts'
import { JudgeResultFileSchema } from '../judge/judge-result.ts'
import { type JudgedRun, type TaskEvaluation, readJudgeInput, readRunLog } from './run-task.ts'
import type { RunLog } from './run-log.ts'
import type { Task } from '../tasks/task.ts'
import type { ToolProfile } from '../workplace/index.ts'

/** How the agent runs now: a run log stands for this run only when it was run the same way. */
export interface RunSettings {
  toolProfile: ToolProfile
  /** Temperature, turn cap, developer message and wire shape, as `harnessOf` gives them. */
  harness: NonNullable<RunLog['harness']>
}

function ranAs(runLog: RunLog, settings: RunSettings): boolean {
  const { harness } = runLog
  return (
    runLog.tool_profile === settings.toolProfile &&
    harness !== undefined &&
    harness.temperature === settings.harness.temperature &&
    harness.max_turns === settings.harness.max_turns &&
    harness.developer_message === settings.harness.developer_message &&
    harness.wire === settings.harness.wire
  )
}

/**
 * Whether a judge input and its result belong to `runLog`: the input was built from it (same `trace_id` and
 * `started_at`, which the judge input copies from the run log) and the result was judged after the run began
 * (`judged_at` > `started_at`, both ISO times written by this machine's clock). A result an earlier run left behind
 * was judged before this run started, so it never passes for this run's, even when the judge input beside it is this
 * run's. (A result judged within the millisecond its run started is not reused: the task runs again.)
 */
function belongsTo(runLog: RunLog, input: Pick<RunLog, 'trace_id' | 'started_at'>, judgedAt: string): boolean {
  const started = Date.parse(runLog.started_at)
  const judged = Date.parse(judgedAt)
  return input.trace_id === runLog.trace_id && input.started_at === runLog.started_at && Number.isFinite(started) && Number.isFinite(judged) && judged > started
}

/**
 * Whether a judge input holds what the task asks now (`answer_requirements`, `checks`): a score judged against
 * requirements or checks edited since no longer stands for the task.
 */
function judgedAgainst(input: Pick<ReturnType<typeof readJudgeInput>, 'answer_requirements' | 'checks'>, task: Task): boolean {
  return (
    JSON.stringify(input.answer_requirements) === JSON.stringify(task.answer_requirements) &&
    JSON.stringify(input.checks ?? null) === JSON.stringify(task.checks ?? null)
  )
}

/**
 * The evaluation of a task × agent that already finished in `logDir` with the same task and judges, for
 * `BENCH_RESUME=1`: its run log ended with an answer or at max-turns, its user prompt is the task's, it was run with
 * `settings` when given (tool profile, temperature, turn cap, developer message, wire shape; a log that does not record them does
 * not count), and every judge has a scored result that belongs to this run log (see `belongsTo`), judged against the
 * task's current `answer_requirements` and `checks`. `undefined` when
 * any part is missing, different, stale or failed (the task then runs again).
 */
export function finishedEvaluation(
  logDir: string,
  task: Task,
  agentModel: string,
  judges: ReadonlyArray<Judge>,
  settings?: RunSettings,
): TaskEvaluation | undefined {
  const runLogFile = evaluationFiles(logDir, task.task_id, agentModel, judges[0]?.id ?? 'rules').runLog
  if (!existsSync(runLogFile)) return undefined
  let runLog: ReturnType<typeof readRunLog>
  try {
    runLog = readRunLog(runLogFile)
  } catch {
    return undefined
  }
  const finished = runLog.outcome.kind === 'answered' || runLog.outcome.kind === 'max-turns'
  if (!finished || runLog.task_id !== task.task_id || runLog.agent_model !== agentModel || runLog.user_prompt !== task.user_prompt) return undefined
  if (settings !== undefined && !ranAs(runLog, settings)) return undefined
  const judged: JudgedRun[] = []
  for (const judge of judges) {
    const files = evaluationFiles(logDir, task.task_id, agentModel, judge.id)
    if (!existsSync(files.judgeResult) || !existsSync(files.judgeInput)) return undefined
    let result: ReturnType<typeof JudgeResultFileSchema.parse>
    let input: ReturnType<typeof readJudgeInput>
    try {
      result = readJsonFile(JudgeResultFileSchema, files.judgeResult, 'judge result')
      input = readJudgeInput(files.judgeInput)
    } catch {
      return undefined
    }
    if (result.kind !== 'scored' || result.judge_model !== judge.id || !belongsTo(runLog, input, result.judged_at) || !judgedAgainst(input, task))
      return undefined
    const scores = { answer_requirements_satisfaction: result.answer_requirements_satisfaction, source_grounded_reasoning: result.source_grounded_reasoning }
    judged.push({
      outcome: { kind: 'scored', scores, attempts: result.attempts, usage: result.usage },
      result,
      judgeResultFile: files.judgeResult,
      judge,
      judgeInputFile: files.judgeInput,
    })
  }
  return { runLog, runLogFile, judged }
}
