import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { trialLogDir } from '../tasks/file-names.ts'
import fg from 'fast-glob'
import { afterAll, inject, test } from 'vitest'
import type { TestContext } from 'vitest'
import { notPreparedHint } from '../../core/bench-only.ts'
import { ConfigError, InvalidFormatError } from '../../core/errors.ts'
import { redact } from '../../core/redact.ts'
import { annotateTest } from '../../eval/annotate.ts'
import type { JudgeInputFormat } from '../judge/judge-input.ts'
import { createJudge } from '../judge/create-judge.ts'
import type { Judge } from '../judge/judge.ts'
import type { ChatModel } from '../../llm/types.ts'
import { modelDisplayName } from '../run/mpcbench-meta.ts'
import type { MpcbenchPlannedTask, MpcbenchTestMeta } from '../run/mpcbench-meta.ts'
import { type DeveloperMessage, resolveHarness } from '../run/harness.ts'
import type { ToolProfile } from '../workplace/tool-profiles.ts'
import { evaluationMeta, harnessOf, runAndJudge, scenarioTools, traceResumedEvaluation } from '../run/run-task.ts'
import { resolveModelMatrix } from '../run/run-task-models.ts'
import type { ModelMatrix } from '../run/run-task-models.ts'
import type { Task, TaskType } from '../tasks/task.ts'
import { inferTaskType, loadTask } from '../tasks/task.ts'
import type { AnyTool } from '../../tools/define-tool.ts'
import { mpcbenchConfigs, mpcbenchInputs, mpcbenchSettingsFromEnv, trialNumbers, writableMpcbenchLogDir } from '../settings.ts'
import './task-meta.ts'
import './provided-context.ts'
import { createAgentModel } from '../../agent/create-agent-model.ts'
import { finishedEvaluation } from '../run/resume.ts'
import { deadlineWithin } from '../../agent/deadline.ts'
import { mpcbenchStrategy } from '../baseline/mpcbench-strategy.ts'
import { trialCacheScope } from '../../llm/response-cache.ts'
import { type AgentUnderTest, createExternalAgent, type ExternalAgent } from '../../agent/external-agent.ts'
import { isRunCancel, skipCancelled, withRunCancel } from '../../eval/run-cancel.ts'
import { flushTracing } from '../../otel/tracing.ts'

/**
 * The test name of one task × agent: `{task_id} [agent={model}]`, and with `BENCH_TRIALS` > 1
 * `{task_id} [agent={model}] [trial={j}]` for every trial (one test per trial, so JUnit and `-t` see each run).
 */
export function mpcbenchTestName(taskId: string, agentModel: string, trial?: number): string {
  return `${taskId} [agent=${agentModel}]${trial === undefined ? '' : ` [trial=${trial}]`}`
}

/** The name of the failing placeholder test of a task file that cannot be loaded: `invalid task file tasks/x/y.json`. */
export function invalidTaskTestName(taskFile: string): string {
  return `invalid task file ${taskFile}`
}

/** Options of {@link defineMpcbenchBench}. */
export interface MpcbenchBenchOptions {
  /** Which `tasks/{taskType}/*.json` to run. */
  taskType: TaskType
  /**
   * Project root holding `tasks/`, `prompt_config.json` and `model_config.json`; each one it lacks is the package's
   * own (see `mpcbenchInputs`), so a project without them runs the shipped tasks.
   * @default process.cwd()
   */
  root?: string
  /** @default process.env */
  env?: Record<string, string | undefined>
}

/** What the models and prompts of a bench file resolve to. */
export interface MpcbenchRunSetup {
  root: string
  /** `MPCBENCH_LOG_DIR` (default `evaluation/logs`) resolved against the working directory of the run. */
  logDir: string
  matrix: ModelMatrix
  systemMessage: string
  judgeSystemPrompt: string
  /** How LLM judges are shown what they grade (`evaluation.judge.input_format`). @default 'upstream' */
  judgeInputFormat?: JudgeInputFormat
  /** The external agent of `MPCBENCH_AGENT_URL`, the only agent of the matrix when set. */
  externalAgent?: ExternalAgent
  /** Tool profile, developer message, temperature and turn cap of the agent runs (see `harness.ts`). */
  toolProfile: ToolProfile
  developerMessage: DeveloperMessage | undefined
  temperature: number
  maxTurns: number
}

/**
 * Reads `prompt_config.json` and `model_config.json` of `root`, else the package's (see `mpcbenchConfigs`), or the
 * files named by `MPCBENCH_PROMPT_CONFIG` / `MPCBENCH_MODEL_CONFIG` (relative to `root`), resolves the agent × judge
 * matrix and the harness (tool profile `MPCBENCH_TOOLS`, developer message, temperature, turn cap; see
 * `resolveHarness`); with `MPCBENCH_AGENT_URL` set, its external agent is the only agent. The log folder
 * (`MPCBENCH_LOG_DIR`) is resolved against the working directory, where the reporters write the summary and the
 * report; one that cannot be written is a `ConfigError` here, before any task runs.
 */
export function mpcbenchRunSetup(root: string, env?: Record<string, string | undefined>, dataDir?: string): MpcbenchRunSetup {
  const { promptConfig, modelConfig } = mpcbenchConfigs(root, env)
  const harness = resolveHarness(root, env, {
    ...(promptConfig === undefined ? {} : { promptConfig }),
    ...(modelConfig === undefined ? {} : { modelConfig }),
    ...(dataDir === undefined ? {} : { dataDir }),
  })
  const { agent } = mpcbenchSettingsFromEnv(env)
  const externalAgent = agent === undefined ? undefined : createExternalAgent({ url: agent.url, timeoutMs: agent.timeoutMs, maxRetries: agent.maxRetries })
  return {
    root,
    logDir: writableMpcbenchLogDir(env),
    matrix: resolveModelMatrix(harness.modelConfig, env, externalAgent === undefined ? {} : { agents: [externalAgent.id] }),
    systemMessage: harness.systemMessage,
    judgeSystemPrompt: harness.judgeSystemPrompt,
    judgeInputFormat: harness.judgeInputFormat,
    toolProfile: harness.toolProfile,
    developerMessage: harness.developerMessage,
    temperature: harness.temperature,
    maxTurns: harness.maxTurns,
    ...(externalAgent === undefined ? {} : { externalAgent }),
  }
}

/** One model per id for the whole bench file (agents and LLM judges), so tests share its client, cache and call log. */
const models = new Map<string, ChatModel>()
function cachedModel(id: string): ChatModel {
  let model = models.get(id)
  if (model === undefined) {
    model = createAgentModel(id, { baselineStrategies: [mpcbenchStrategy] })
    models.set(id, model)
  }
  return model
}

/** Everything one MPCBench test needs. */
export interface MpcbenchCase {
  task: Task
  /** Path of the task file, relative to the root when possible (recorded in the run log). */
  taskFile?: string
  scenarioId: string
  tools: ReadonlyArray<AnyTool>
  agentModel: string
  setup: MpcbenchRunSetup
  /** Overrides the agent (tests); defaults to `setup.externalAgent` when its id is `agentModel`, else `createAgentModel(agentModel)`. */
  agent?: AgentUnderTest
  /** Overrides the judges (tests); defaults to `createJudge` for each of `setup.matrix.judges`. */
  judges?: ReadonlyArray<Judge>
  /** Which trial this is (`BENCH_TRIALS` > 1): recorded in the meta; trials after the first log under `{logDir}/trial-{j}/`. */
  trial?: number
}

/** The evaluation did not finish: the agent run was aborted, or a judge did not run or gave no score. */
function cutOff(meta: MpcbenchTestMeta, judgeCount: number): boolean {
  return meta.agentOutcome === 'aborted' || meta.judges.length < judgeCount || meta.judges.some((judge) => judge.kind === 'judge-error')
}

/** `3/5`, or `unjudged` for a null score. */
function scoreText(score: number | null): string {
  return score === null ? 'unjudged' : `${score}/5`
}

/**
 * Runs one MPCBench test: agent run → run log → for each judge, judge input → judge result; sets
 * `task.meta.mpcbench`, annotates one line for the agent and one per judge (non-LLM models marked `(not an LLM)`),
 * and fails the test when the agent run errored or was aborted, or a judge gave no usable reply (after the files are
 * written). Low scores do not fail the test. When a cancelled run (SIGINT, `cancelCurrentRun`) cut the evaluation
 * off, no judge is called after the abort (the run log is kept) and the test is skipped with Vitest's cancel error, so
 * the reporter counts it as not run.
 */
export async function runMpcbenchCase(context: TestContext, testCase: MpcbenchCase): Promise<MpcbenchTestMeta> {
  return withRunCancel(context.signal, (signal) => runCase(context, signal, testCase))
}

/** {@link runMpcbenchCase} with the test's signal linked to a cancel of the run (`withRunCancel`). */
async function runCase(context: TestContext, signal: AbortSignal, testCase: MpcbenchCase): Promise<MpcbenchTestMeta> {
  const { setup } = testCase
  const deadline = deadlineWithin(context.task.timeout)
  const judges =
    testCase.judges ??
    setup.matrix.judges.map((id) =>
      createJudge(id, {
        systemPrompt: setup.judgeSystemPrompt,
        makeModel: cachedModel,
        ...(setup.judgeInputFormat === undefined ? {} : { inputFormat: setup.judgeInputFormat }),
      }),
    )
  // Trials after the first log apart, and a resumed trial reads its own logs (never another trial's run).
  const logDir = trialLogDir(setup.logDir, testCase.trial)
  const cacheScope = trialCacheScope(testCase.trial)
  // BENCH_RESUME=1: a task × agent that finished earlier with the same task and judges is read back, not rerun.
  const resumed = mpcbenchSettingsFromEnv().resume
    ? finishedEvaluation(logDir, testCase.task, testCase.agent?.id ?? testCase.agentModel, judges, {
        toolProfile: setup.toolProfile,
        harness: harnessOf({
          temperature: setup.temperature,
          maxTurns: setup.maxTurns,
          ...(setup.developerMessage === undefined ? {} : { developerMessage: setup.developerMessage }),
        }),
      })
    : undefined
  if (resumed !== undefined) await annotateTest(context, `resumed: finished in an earlier run (${relative(process.cwd(), resumed.runLogFile)})`, 'mpcbench')
  // OpenTelemetry (when on): a resumed evaluation is a short root span marked `bench.resumed_from`, with its stored scores.
  const evaluation =
    resumed !== undefined
      ? await traceResumedEvaluation(
          {
            task: testCase.task,
            agentId: testCase.agent?.id ?? testCase.agentModel,
            scenarioId: testCase.scenarioId,
            judges,
            ...(testCase.trial === undefined ? {} : { trial: testCase.trial }),
          },
          resumed,
        )
      : await runAndJudge({
          task: testCase.task,
          ...(testCase.taskFile === undefined ? {} : { taskFile: testCase.taskFile }),
          scenarioId: testCase.scenarioId,
          tools: testCase.tools,
          toolProfile: setup.toolProfile,
          agent: testCase.agent ?? (setup.externalAgent?.id === testCase.agentModel ? setup.externalAgent : cachedModel(testCase.agentModel)),
          systemMessage: setup.systemMessage,
          ...(setup.developerMessage === undefined ? {} : { developerMessage: setup.developerMessage }),
          temperature: setup.temperature,
          maxTurns: setup.maxTurns,
          logDir,
          // The response cache keeps each trial's responses apart: no trial replays another's.
          ...(cacheScope === undefined ? {} : { cacheScope }),
          judges,
          signal,
          ...(deadline === undefined ? {} : { deadline }),
          ...(testCase.trial === undefined ? {} : { trial: testCase.trial }),
        })
  const meta = { ...evaluationMeta(evaluation, testCase.scenarioId, process.cwd()), ...(testCase.trial === undefined ? {} : { trial: testCase.trial }) }
  context.task.meta.mpcbench = meta
  await annotateTest(
    context,
    `agent ${modelDisplayName(meta.agentModel, meta.agentModelKind)}: ${meta.agentOutcome}, ${meta.toolCalls} tool call(s), tools ${setup.toolProfile}`,
    'mpcbench',
  )
  for (const judge of meta.judges) {
    const label = modelDisplayName(judge.judgeModel, judge.judgeKind)
    const message =
      judge.kind === 'scored'
        ? `judge ${label}: answer_requirements_satisfaction ${scoreText(judge.answerRequirementsSatisfaction)}, source_grounded_reasoning ${scoreText(judge.sourceGroundedReasoning)}`
        : `judge ${label}: error ${judge.code}: ${judge.message}`
    await annotateTest(context, redact(message), 'mpcbench')
  }
  // A cancelled run (SIGINT, `cancelCurrentRun`) that cut this test off skips it, as Vitest does the tests it had not
  // started: the reporter counts it as not run, not as a failure, and its cut-off run is left out of the means.
  if (isRunCancel(signal.reason) && cutOff(meta, judges.length)) skipCancelled(context, signal.reason)
  const problems: string[] = []
  const outcome = evaluation.runLog.outcome
  if (outcome.kind === 'error') problems.push(`agent ${meta.agentModel} failed: ${outcome.code}: ${outcome.message}`)
  if (outcome.kind === 'aborted') problems.push(`agent ${meta.agentModel} was aborted: ${outcome.reason}`)
  for (const judge of meta.judges) {
    if (judge.kind === 'judge-error') problems.push(`judge ${judge.judgeModel} gave no score: ${judge.message}`)
  }
  if (problems.length > 0) throw new Error(redact(`${problems.join('\n')}\nRun log: ${meta.runLogFile}`))
  return meta
}

/**
 * The task files of `root` (every `tasks/{type}/{name}.json`, sorted) by their `task_id`, read leniently: a file
 * that is not JSON or has no string `task_id` is left out (its own bench file reports it when it loads the task).
 */
function taskFilesById(root: string): Map<string, string[]> {
  const byId = new Map<string, string[]>()
  for (const file of fg.sync('tasks/*/*.json', { cwd: root }).sort()) {
    let id: unknown
    try {
      id = (JSON.parse(readFileSync(join(root, file), 'utf8')) as { task_id?: unknown } | null)?.task_id
    } catch {
      continue
    }
    if (typeof id === 'string') byId.set(id, [...(byId.get(id) ?? []), file])
  }
  return byId
}

/**
 * The error of a task file whose `task_id` an earlier task file (of any task type, in sorted path order) already
 * has, or `undefined`: the id names the tests and the log files, so the second file would overwrite the first's logs.
 */
export function duplicateTaskIdError(taskFile: string, taskId: string, byId: ReadonlyMap<string, ReadonlyArray<string>>): InvalidFormatError | undefined {
  const first = byId.get(taskId)?.[0]
  if (first === undefined || first === taskFile) return undefined
  return new InvalidFormatError(`Task ${taskFile} has task_id ${JSON.stringify(taskId)}, which ${first} already has`, {
    file: taskFile,
    field: 'task_id',
    hint: `Give ${taskFile} a task_id of its own: the id names the test and the log files, so two tasks with one id overwrite each other's logs (${first} runs; ${taskFile} does not).`,
  })
}

/**
 * Declares one test per task file in `tasks/{taskType}/*.json` × agent model, named `{task_id} [agent={model}]`
 * (× trial with `BENCH_TRIALS` > 1: `{task_id} [agent={model}] [trial={j}]`). A task file that cannot be loaded, sits
 * in the wrong folder or repeats an earlier task file's `task_id` (see {@link duplicateTaskIdError}) gets one failing
 * test instead, named after the file.
 * Models come from {@link resolveModelMatrix} (`BENCH_AGENT_MODEL` / `BENCH_JUDGE_MODEL`, else `model_config.json`
 * when an LLM is configured, else `baseline` and the `rules` judge). Scenario data comes from the MPCBench
 * globalSetup (`inject('mpcbenchDataDir')`). Tests are `test.concurrent`: Vitest's `maxConcurrency` bounds how many
 * model calls run at once within a file.
 */
export function defineMpcbenchBench(options: MpcbenchBenchOptions): void {
  const root = options.root ?? process.cwd()
  const { env } = options
  const { tasksRoot } = mpcbenchInputs(root, env)
  const taskFiles = fg.sync(`tasks/${options.taskType}/*.json`, { cwd: tasksRoot }).sort()
  if (taskFiles.length === 0) {
    test.skip(`no tasks in ${join(tasksRoot, 'tasks', options.taskType)}`, () => {})
    return
  }
  const setup = mpcbenchRunSetup(root, env)
  const { trials } = mpcbenchSettingsFromEnv(env)
  const byId = taskFilesById(tasksRoot)
  // This worker's OpenTelemetry spans are exported before Vitest ends it (nothing to do when tracing is off).
  afterAll(() => flushTracing())
  for (const taskFile of taskFiles) {
    let task: Task
    let taskType: TaskType | undefined
    try {
      task = loadTask(join(tasksRoot, taskFile))
      taskType = inferTaskType(task, taskFile)
      if (taskType !== options.taskType) {
        throw new ConfigError(`Task ${taskFile} has task_type ${taskType ?? '(none)'} but sits in tasks/${options.taskType}/`, {
          hint: `Move it to tasks/${taskType ?? '<type>'}/ or correct its task_type.`,
        })
      }
      const duplicate = duplicateTaskIdError(taskFile, task.task_id, byId)
      if (duplicate !== undefined) throw duplicate
    } catch (error) {
      // A bad task file fails its own placeholder test (named after the file); the other tasks still run.
      test(invalidTaskTestName(taskFile), { meta: { mpcbenchInvalidTask: { taskFile, taskType: options.taskType } } }, () => {
        throw error
      })
      continue
    }
    const scenarioId = task.data_dependencies.scenario_id
    for (const [agentModel, trial] of setup.matrix.agents.flatMap((agent) => trialNumbers(trials).map((j) => [agent, j] as const))) {
      const planned: MpcbenchPlannedTask = {
        taskId: task.task_id,
        taskType,
        scenarioId: scenarioId ?? '',
        agentModel,
        agentModelKind: agentModel === 'baseline' ? 'baseline' : 'llm',
        ...(trial === undefined ? {} : { trial }),
      }
      test.concurrent(mpcbenchTestName(task.task_id, agentModel, trial), { meta: { mpcbenchTask: planned } }, async (context) => {
        if (scenarioId === undefined) {
          throw new ConfigError(`Task ${taskFile} has no data_dependencies.scenario_id`, {
            hint: 'Name the scenario whose data the task runs against in data_dependencies.scenario_id.',
          })
        }
        const notPrepared = inject('mpcbenchNotPrepared')
        if (notPrepared !== undefined)
          throw new ConfigError(`MPCBench task ${taskFile} cannot run: ${notPrepared}.`, { hint: notPreparedHint('mpcbench', notPrepared) })
        const scenarioError = inject('mpcbenchScenarioErrors')?.[scenarioId]
        if (scenarioError !== undefined) {
          throw new ConfigError(`Scenario ${scenarioId} (of task ${taskFile}) could not be prepared, so this task cannot run:\n${scenarioError}`, {
            hint: `Fix scenarios/${scenarioId}.json as the message says; the tests of other scenarios are not affected.`,
          })
        }
        const dataDir = inject('mpcbenchDataDir')
        await runMpcbenchCase(context, {
          // This project's tasks are typed by their folder (checked above): the judge sees that type, where upstream
          // guessed one from the task id for a file without `task_type` (upstream's own tasks keep its rule).
          task: { ...task, task_type: options.taskType },
          taskFile,
          scenarioId,
          tools: scenarioTools(dataDir, scenarioId, setup.toolProfile, taskFile),
          agentModel,
          setup,
          ...(trial === undefined ? {} : { trial }),
        })
      })
    }
  }
}
