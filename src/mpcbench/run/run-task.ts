import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { writeJsonAtomic } from '../../core/atomic-write.ts'
import { InvalidFormatError } from '../../core/errors.ts'
import { type AgentWireShape, runAgent } from '../../agent/run-agent.ts'
import { withUpstreamExternalAnswer, withUpstreamFinalAnswer } from './final-answer.ts'
import type { Judge, JudgeOptions } from '../judge/judge.ts'
import type { JudgeOutcome, JudgeResultFile } from '../judge/judge-result.ts'
import { JudgeResultFileSchema, judgeResultFile } from '../judge/judge-result.ts'
import { type AgentUnderTest, isExternalAgent, runExternalAgent } from '../../agent/external-agent.ts'
import { parseWith, readJsonFile } from '../../core/parse.ts'
import type { AnyTool } from '../../tools/define-tool.ts'
import { loadWorkplace, sourceFilePath } from '../workplace/workplace.ts'
import { SOURCES } from '../workplace/validate-source.ts'
import type { Workplace } from '../workplace/workplace.ts'
import { createWorkplaceTools, DEFAULT_TOOL_PROFILE, type ToolProfile } from '../workplace/tool-profiles.ts'
import type { DeveloperMessage } from './harness.ts'
import { MPCBENCH_TURN_CAP } from '../settings.ts'
import { evaluationFiles, runLogFileName, safeModelName } from '../tasks/file-names.ts'
import type { JudgeInput } from '../judge/judge-input.ts'
import { JudgeInputSchema, buildJudgeInput } from '../judge/judge-input.ts'
import type { RunLog } from './run-log.ts'
import { RunLogSchema, buildRunLog } from './run-log.ts'
import { MPCBENCH_PASS_SCORE } from '../summary/summary-statistics.ts'
import type { Task } from '../tasks/task.ts'
import type { MpcbenchJudgeMeta, MpcbenchTestMeta } from './mpcbench-meta.ts'
import { type TaskSpan, currentTraceId, traceJudge, traceTask } from '../../otel/tracing.ts'

/** The scenarios with data in `dataDir`: the ids with all six `{scenario_id}_{source}.json` files, sorted. */
export function scenarioDataIds(dataDir: string): string[] {
  let names: string[]
  try {
    names = readdirSync(dataDir)
  } catch {
    return []
  }
  const suffix = `_${SOURCES[0]}.json`
  return names
    .filter((name) => name.endsWith(suffix))
    .map((name) => name.slice(0, -suffix.length))
    .filter((id) => SOURCES.every((source) => existsSync(join(dataDir, `${id}_${source}.json`))))
    .sort()
}

/**
 * Checks that the scenario a task names has its six source files in `dataDir`. A scenario with none of them is an
 * `InvalidFormatError` on the task's `data_dependencies.scenario_id` (naming `taskFile` when given) that lists the
 * scenarios with data; one with some missing names them and the command that regenerates them.
 */
export function assertScenarioData(dataDir: string, scenarioId: string, taskFile?: string): void {
  const missing = SOURCES.filter((source) => !existsSync(sourceFilePath(dataDir, scenarioId, source)))
  if (missing.length === 0) return
  const of = taskFile === undefined ? '' : ` of task ${taskFile}`
  if (missing.length === SOURCES.length) {
    const available = scenarioDataIds(dataDir)
    throw new InvalidFormatError(`data_dependencies.scenario_id ${JSON.stringify(scenarioId)}${of} names a scenario with no data in ${dataDir}`, {
      ...(taskFile === undefined ? {} : { file: taskFile }),
      field: 'data_dependencies.scenario_id',
      hint:
        `Set data_dependencies.scenario_id${taskFile === undefined ? '' : ` in ${taskFile}`} to a scenario with data (${available.join(', ') || `none in ${dataDir}`}), ` +
        `or add scenarios/${scenarioId}.json (the bench generates its data; or run agent-bench generate --scenario-id ${scenarioId}).`,
    })
  }
  throw new InvalidFormatError(
    `Scenario ${JSON.stringify(scenarioId)}${of} lacks ${missing.map((source) => `${scenarioId}_${source}.json`).join(', ')} in ${dataDir}`,
    {
      ...(taskFile === undefined ? {} : { file: taskFile }),
      field: 'data_dependencies.scenario_id',
      hint: `Regenerate its data: agent-bench generate --scenario-id ${scenarioId} (the bench regenerates it too when scenarios/${scenarioId}.json exists).`,
    },
  )
}

/**
 * The workplace tools of a tool profile for a scenario whose six source files are in `dataDir`
 * (`{scenario_id}_{source}.json`; missing ones are an error naming `taskFile` when given, see
 * {@link assertScenarioData}). MPCBench runs pass their setting (default `upstream-v1`).
 */
export function scenarioTools(dataDir: string, scenarioId: string, profile: ToolProfile = DEFAULT_TOOL_PROFILE, taskFile?: string): AnyTool[] {
  assertScenarioData(dataDir, scenarioId, taskFile)
  return createWorkplaceTools(loadWorkplace(dataDir, scenarioId), profile)
}

/** The workplace tools of a tool profile over an already loaded workplace. */
export function workplaceTools(workplace: Workplace, profile: ToolProfile = DEFAULT_TOOL_PROFILE): AnyTool[] {
  return createWorkplaceTools(workplace, profile)
}

/**
 * How upstream MPCBench's runner shapes its agent requests (`evaluation/openai_agent_runner.py` at `eb0b7ca`):
 * `tool_choice="auto"` sent with the tools, each tool message with the called function's `name`, and an assistant
 * message with tool calls without `content` when the model sent none (`if msg.content:`). MPCBench agents get it, so
 * a model reads the same requests here as upstream; ART-E's requests keep the default shape.
 */
export const UPSTREAM_MPCBENCH_WIRE: Readonly<AgentWireShape> = { toolChoice: 'auto', toolMessageName: true, omitEmptyToolCallContent: true }

/** The name run logs record for {@link UPSTREAM_MPCBENCH_WIRE} (`harness.wire`), so resume reuses only runs sent that way. */
export const UPSTREAM_MPCBENCH_WIRE_NAME = 'upstream-eb0b7ca'

/** Options of {@link runTask} (step 1 of the seed: the agent run and its run log). */
export interface RunTaskOptions {
  task: Task
  /** Recorded in the run log; lets `build-judge-input` find the task again. */
  taskFile?: string
  scenarioId: string
  /** The scenario's tools, e.g. from {@link scenarioTools}. */
  tools: ReadonlyArray<AnyTool>
  /** The profile `tools` come from; recorded in the run log. */
  toolProfile?: ToolProfile
  /** A chat model run in our tool loop, or an external agent (its own loop, the tools over MCP). */
  agent: AgentUnderTest
  /** `evaluation.agent.system_message` of `prompt_config.json`. */
  systemMessage: string
  /** Sent as a developer message after the system prompt (upstream's `llm_context`); none when absent. */
  developerMessage?: DeveloperMessage
  /** Agent sampling temperature; none sent when absent (MPCBench runs send the harness's, default 0). */
  temperature?: number
  /** Where the run log is written. */
  logDir: string
  /** The turn cap; reaching it is the `max-turns` outcome. @default MPCBENCH_TURN_CAP (50) */
  maxTurns?: number
  signal?: AbortSignal
  /** Epoch ms by which each agent and judge model call must end (from the test timeout, see `deadlineWithin`). */
  deadline?: number
  /** The response cache scope of the agent's and the judges' model calls, e.g. of a trial after the first (see `trialCacheScope`). */
  cacheScope?: string
}

/** How {@link runTask} runs the agent, as its run log records it (`harness`). */
export function harnessOf(options: Pick<RunTaskOptions, 'temperature' | 'maxTurns' | 'developerMessage'>): NonNullable<RunLog['harness']> {
  return {
    temperature: options.temperature ?? null,
    max_turns: options.maxTurns ?? MPCBENCH_TURN_CAP,
    developer_message: options.developerMessage?.source ?? null,
    wire: UPSTREAM_MPCBENCH_WIRE_NAME,
  }
}

/** A written run log. */
export interface RunTaskResult {
  runLog: RunLog
  runLogFile: string
}

/**
 * Runs the agent on the task over the scenario's tools (an external agent gets them over MCP, see
 * `runExternalAgent`) and writes `{task_id}__agent-{model}_run.json` atomically. A model's requests are shaped as
 * upstream's ({@link UPSTREAM_MPCBENCH_WIRE}) and its final reply is read as
 * upstream MPCBench reads it (`final_answer` and `rationale`, see `withUpstreamFinalAnswer`); an external agent's
 * `answer` is read the same way (JSON with `final_answer` and `rationale`, else the answer as sent, see
 * `withUpstreamExternalAnswer`), and the trace it sent is kept in the run log (`agent_trace`).
 */
export function runTask(options: RunTaskOptions): Promise<RunTaskResult> {
  // OpenTelemetry (when on): the run is a task's trace (within `runAndJudge`, the evaluation's).
  return traceTask(
    { benchmark: 'mpcbench', taskId: options.task.task_id, agent: options.agent.id, attributes: { 'bench.mpcbench.scenario_id': options.scenarioId } },
    () => runTaskUntraced(options),
  )
}

async function runTaskUntraced(options: RunTaskOptions): Promise<RunTaskResult> {
  const { agent } = options
  const maxTurns = options.maxTurns ?? MPCBENCH_TURN_CAP
  const signal = options.signal === undefined ? {} : { signal: options.signal }
  const deadline = options.deadline === undefined ? {} : { deadline: options.deadline }
  const trace = isExternalAgent(agent)
    ? withUpstreamExternalAnswer(
        await runExternalAgent({
          agent,
          task: { taskId: options.task.task_id, userPrompt: options.task.user_prompt },
          prompt: options.task.user_prompt,
          tools: options.tools,
          instructions: options.developerMessage === undefined ? options.systemMessage : `${options.systemMessage}\n\n${options.developerMessage.text}`,
          ...signal,
          ...deadline,
        }),
      )
    : withUpstreamFinalAnswer(
        await runAgent({
          model: agent,
          system: options.systemMessage,
          ...(options.developerMessage === undefined ? {} : { developer: options.developerMessage.text }),
          user: options.task.user_prompt,
          tools: [...options.tools],
          maxTurns,
          wire: UPSTREAM_MPCBENCH_WIRE,
          ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          ...(options.cacheScope === undefined ? {} : { cacheScope: options.cacheScope }),
          ...signal,
          ...deadline,
        }),
      )
  const otelTraceId = currentTraceId()
  const built = buildRunLog(trace, {
    task: options.task,
    scenarioId: options.scenarioId,
    agentModel: options.agent.id,
    ...(options.taskFile === undefined ? {} : { taskFile: options.taskFile }),
    ...(options.toolProfile === undefined ? {} : { toolProfile: options.toolProfile }),
    harness: harnessOf(options),
  })
  const runLog: RunLog = otelTraceId === undefined ? built : { ...built, otel_trace_id: otelTraceId }
  const runLogFile = join(options.logDir, runLogFileName(runLog.task_id, runLog.agent_model))
  writeJsonAtomic(runLogFile, runLog)
  return { runLog, runLogFile }
}

/** Reads a run log file, validated; a missing or malformed file is an `InvalidFormatError` naming it. */
export function readRunLog(file: string): RunLog {
  return readJsonFile(RunLogSchema, file, 'run log')
}

/** Reads a judge input file, validated; a missing or malformed file is an `InvalidFormatError` naming it. */
export function readJudgeInput(file: string): JudgeInput {
  return readJsonFile(JudgeInputSchema, file, 'judge input')
}

/** Step 2 of the seed: builds the judge input of a run log for one judge and writes it atomically. */
export function writeJudgeInput(runLog: RunLog, task: Task, judgeModel: string, file: string): JudgeInput {
  const input = buildJudgeInput(runLog, task, judgeModel)
  writeJsonAtomic(file, input)
  return input
}

/** A judged input and its written result. */
export interface JudgeRunResult {
  outcome: JudgeOutcome
  result: JudgeResultFile
  judgeResultFile: string
}

/** Step 3 of the seed: runs one judge on a judge input and writes the result, validated against its schema, atomically to `file`. */
export async function judgeAndWrite(judge: Judge, input: JudgeInput, file: string, options: JudgeOptions = {}): Promise<JudgeRunResult> {
  const outcome = await traceJudge({ judge: judge.id, kind: judge.kind }, () => judge.judge(input, options))
  const result = parseWith(
    JudgeResultFileSchema,
    judgeResultFile(outcome, {
      taskId: input.task_id,
      agentModel: input.agent_model,
      agentModelFileName: input.agent_model_file_name,
      judgeModel: judge.id,
      judgeModelFileName: safeModelName(judge.id),
      judgeKind: judge.kind,
    }),
    'judge result',
    file,
  )
  writeJsonAtomic(file, result)
  return { outcome, result, judgeResultFile: file }
}

/** One judge's part of an evaluation. */
export interface JudgedRun extends JudgeRunResult {
  judge: Judge
  judgeInputFile: string
}

/** Everything one task × agent evaluation produced. */
export interface TaskEvaluation extends RunTaskResult {
  judged: JudgedRun[]
  /** The OpenTelemetry trace id of the evaluation, when tracing was on. */
  otelTraceId?: string
}

/** Options of {@link runAndJudge}: a {@link RunTaskOptions} plus the judges. */
export interface RunAndJudgeOptions extends RunTaskOptions {
  judges: ReadonlyArray<Judge>
  /** Which of the `BENCH_TRIALS` runs this is (`bench.trial` of its OpenTelemetry span). @default 1 */
  trial?: number
}

/**
 * The seed's end-to-end step for one agent: run the task (run log), then for each judge build the judge input and
 * judge it, writing every documented file under `logDir`. Judges run one after another. Once `signal` has aborted
 * (a cancelled run), no further judge is called, so a cut-off answer is never judged (nor paid for): an aborted agent
 * run leaves its run log only, and `judged` holds the judges that ran before the abort.
 *
 * As soon as the new run log is written, the judge inputs and results an earlier run of this task × agent left for
 * these judges are removed (each removal is atomic): they judged another answer, so none may stay beside the new run
 * log, where a judge that fails, throws or is not reached would leave them to pass for its result (`BENCH_RESUME`, the
 * report). A run that fails before its run log is written keeps the earlier run's files, which still belong together.
 */
export function runAndJudge(options: RunAndJudgeOptions): Promise<TaskEvaluation> {
  // OpenTelemetry (when on): the evaluation is one trace; its root span carries each judge's scores and pass / fail.
  const start = {
    benchmark: 'mpcbench',
    taskId: options.task.task_id,
    trial: options.trial,
    agent: options.agent.id,
    attributes: { 'bench.mpcbench.scenario_id': options.scenarioId },
  }
  return traceTask(start, async (span) => traceEvaluationScores(span, await runAndJudgeUntraced(options), options.judges.length))
}

/** The root span's scores (each judge's) and pass / fail of an evaluation; with tracing on, the evaluation gets its trace id. */
function traceEvaluationScores(span: TaskSpan, evaluation: TaskEvaluation, judges: number): TaskEvaluation {
  if (span.traceId === undefined) return evaluation
  for (const { judge, outcome } of evaluation.judged) {
    span.score(`${judge.id}.answer_requirements_satisfaction`, outcome.kind === 'scored' ? outcome.scores.answer_requirements_satisfaction.score : null)
    span.score(`${judge.id}.source_grounded_reasoning`, outcome.kind === 'scored' ? outcome.scores.source_grounded_reasoning.score : null)
  }
  const agentOutcome = evaluation.runLog.outcome.kind
  // Passed as MPCBench counts a pass in pass^k and compare: every judge scored requirements >= MPCBENCH_PASS_SCORE.
  const passedAll =
    evaluation.judged.length === judges &&
    evaluation.judged.every(({ outcome }) => outcome.kind === 'scored' && (outcome.scores.answer_requirements_satisfaction.score ?? -1) >= MPCBENCH_PASS_SCORE)
  span.result(agentOutcome !== 'error' && agentOutcome !== 'aborted' && passedAll, agentOutcome)
  return { ...evaluation, otelTraceId: span.traceId }
}

/**
 * An evaluation read back for `BENCH_RESUME=1` (see `finishedEvaluation`), traced (when on) as a short root span of its
 * own: `bench.resumed_from` the run log it was read from (relative to `cwd`), `bench.resumed_trace_id` the trace of the
 * run that wrote it (when it recorded one), and its stored scores; no model or tool call under it.
 */
export function traceResumedEvaluation(
  options: Pick<RunAndJudgeOptions, 'task' | 'scenarioId' | 'trial' | 'judges'> & { agentId: string },
  evaluation: TaskEvaluation,
  cwd: string = process.cwd(),
): Promise<TaskEvaluation> {
  const attributes = {
    'bench.mpcbench.scenario_id': options.scenarioId,
    'bench.resumed_from': relative(cwd, evaluation.runLogFile),
    'bench.resumed_trace_id': evaluation.runLog.otel_trace_id,
  }
  const start = { benchmark: 'mpcbench', taskId: options.task.task_id, trial: options.trial, agent: options.agentId, attributes }
  return traceTask(start, async (span) => traceEvaluationScores(span, evaluation, options.judges.length))
}

async function runAndJudgeUntraced(options: RunAndJudgeOptions): Promise<TaskEvaluation> {
  const run = await runTask(options)
  for (const judge of options.judges) {
    const files = evaluationFiles(options.logDir, run.runLog.task_id, run.runLog.agent_model, judge.id)
    rmSync(files.judgeResult, { force: true })
    rmSync(files.judgeInput, { force: true })
  }
  const judged: JudgedRun[] = []
  for (const judge of options.judges) {
    if (options.signal?.aborted === true) break
    judged.push(
      await judgeRunLog(run.runLog, options.task, judge, options.logDir, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
        ...(options.cacheScope === undefined ? {} : { cacheScope: options.cacheScope }),
      }),
    )
  }
  return { ...run, judged }
}

/** Steps 2 and 3 for one run log and one judge: writes the judge input and the judge result under `logDir`. */
export async function judgeRunLog(runLog: RunLog, task: Task, judge: Judge, logDir: string, options: JudgeOptions = {}): Promise<JudgedRun> {
  const files = evaluationFiles(logDir, runLog.task_id, runLog.agent_model, judge.id)
  const input = writeJudgeInput(runLog, task, judge.id, files.judgeInput)
  const result = await judgeAndWrite(judge, input, files.judgeResult, options)
  return { ...result, judge, judgeInputFile: files.judgeInput }
}

/** The test meta (`task.meta.mpcbench`) of one evaluation; file paths relative to `root`. */
export function evaluationMeta(evaluation: TaskEvaluation, scenarioId: string, root: string): MpcbenchTestMeta {
  const { runLog } = evaluation
  const judges: MpcbenchJudgeMeta[] = evaluation.judged.map((judged) => {
    const base = {
      judgeModel: judged.judge.id,
      judgeKind: judged.judge.kind,
      judgeInputFile: relative(root, judged.judgeInputFile),
      judgeResultFile: relative(root, judged.judgeResultFile),
      usage: judged.outcome.usage,
    }
    const { outcome } = judged
    return outcome.kind === 'scored'
      ? {
          ...base,
          kind: 'scored' as const,
          answerRequirementsSatisfaction: outcome.scores.answer_requirements_satisfaction.score,
          sourceGroundedReasoning: outcome.scores.source_grounded_reasoning.score,
        }
      : { ...base, kind: 'judge-error' as const, code: outcome.code, message: outcome.message }
  })
  return {
    taskId: runLog.task_id,
    taskType: runLog.task_type,
    scenarioId,
    agentModel: runLog.agent_model,
    agentModelKind: runLog.agent_model_kind,
    agentOutcome: runLog.outcome.kind,
    toolCalls: runLog.raw_tool_calls.length,
    turns: runLog.turns,
    durationMs: runLog.duration_ms,
    costUsd: runLog.usage.costUsd,
    totalTokens: runLog.usage.totalTokens,
    usage: runLog.usage,
    runLogFile: relative(root, evaluation.runLogFile),
    ...(runLog.tool_profile === undefined ? {} : { toolProfile: runLog.tool_profile }),
    judges,
    emptyAnswer: runLog.final_answer.trim() === '',
    ...(evaluation.otelTraceId === undefined ? {} : { otelTraceId: evaluation.otelTraceId }),
  }
}
