import { join } from 'node:path'
import fg from 'fast-glob'
import { test } from 'vitest'
import { importUpstream } from '../upstream/import-upstream.ts'
import { workplaceTools } from '../run/run-task.ts'
import type { Check, Task, TaskType } from '../tasks/task.ts'
import { inferTaskType, loadTask } from '../tasks/task.ts'
import { loadWorkplace, type Workplace } from '../workplace/workplace.ts'
import { type MpcbenchRunSetup, mpcbenchRunSetup, mpcbenchTestName, runMpcbenchCase } from './define-mpcbench-bench.ts'
import type { MpcbenchPlannedTask } from '../run/mpcbench-meta.ts'
import { mpcbenchSettingsFromEnv, trialNumbers } from '../settings.ts'
import { upstreamV1Env, upstreamV1Judges } from './upstream-v1-env.ts'
import './task-meta.ts'

/** Options of {@link defineUpstreamV1Bench}. */
export interface UpstreamV1BenchOptions {
  taskType: TaskType
  /** A copy of upstream MPCBench v1 (`tasks/`, `generator/logs/llm/`), e.g. `../shared/data/mpcbench/v1_eb0b7ca`. */
  upstreamDir: string
  /** Where the imported data files go. @default `.tmp/mpcbench/upstream-v1` under the working directory */
  dataDir?: string
  /** The scenario of tasks whose `data_dependencies` name none (upstream's companyA tasks ran on `scenario_A`). */
  defaultScenarioId?: string
  /** Checks for the offline `rules` judge; without them it uses its default checks for the task type. */
  checks?: (task: Task, workplace: Workplace) => Check[] | Promise<Check[]>
  /** How the test files name the task files (recorded in run logs). @default the path under `upstreamDir` */
  taskFileLabel?: (file: string) => string
}

/**
 * The run setup of the upstream v1 benches ({@link mpcbenchRunSetup} from `root`): upstream's prompts
 * ({@link upstreamV1Env}) and judges ({@link upstreamV1Judges}), the user's agents.
 */
export function upstreamV1RunSetup(upstreamDir: string, root: string, env: Record<string, string | undefined> = process.env): MpcbenchRunSetup {
  const upstreamEnv = upstreamV1Env(upstreamDir, env)
  const setup = mpcbenchRunSetup(root, upstreamEnv)
  const judges = upstreamV1Judges(upstreamDir, upstreamEnv)
  return judges === undefined ? setup : { ...setup, matrix: { ...setup.matrix, ...judges } }
}

/**
 * Declares one test per upstream v1 task of `taskType` (`{upstreamDir}/tasks/{taskType}/*.json`, read unchanged) ×
 * agent model, on upstream's own data rebuilt from its generation logs by `importUpstream`. The agents get the
 * configured tool profile (default `upstream-v1`) and, unless `MPCBENCH_PROMPT_CONFIG` names another, upstream's
 * prompts ({@link upstreamV1Env}); the judges are upstream's unless `BENCH_JUDGE_MODEL` or `MPCBENCH_MODEL_CONFIG`
 * names others ({@link upstreamV1Judges}). A scenario that cannot be imported fails its tests, naming why. Each test
 * carries its plan (`mpcbenchTask` meta), so the reporter counts one that times out or fails before its result.
 */
export function defineUpstreamV1Bench(options: UpstreamV1BenchOptions): void {
  const taskFiles = fg.sync(`tasks/${options.taskType}/*.json`, { cwd: options.upstreamDir }).sort()
  if (taskFiles.length === 0) {
    test.skip(`no upstream v1 tasks in ${join(options.upstreamDir, 'tasks', options.taskType)}`, () => {})
    return
  }
  const tasks = taskFiles.map((file) => {
    const task = loadTask(join(options.upstreamDir, file))
    return { file, taskFile: options.taskFileLabel?.(file) ?? file, task, scenarioId: task.data_dependencies.scenario_id ?? options.defaultScenarioId }
  })
  const dataDir = options.dataDir ?? join(process.cwd(), '.tmp', 'mpcbench', 'upstream-v1')
  const scenarioIds = [...new Set(tasks.flatMap(({ scenarioId }) => (scenarioId === undefined ? [] : [scenarioId])))]
  const imported = importUpstream({ logs: join(options.upstreamDir, 'generator', 'logs', 'llm'), out: dataDir, scenarioIds })
  const setup = upstreamV1RunSetup(options.upstreamDir, process.cwd())
  const { trials } = mpcbenchSettingsFromEnv()
  for (const { file, taskFile, task, scenarioId } of tasks) {
    for (const [agentModel, trial] of setup.matrix.agents.flatMap((agent) => trialNumbers(trials).map((j) => [agent, j] as const))) {
      const planned: MpcbenchPlannedTask = {
        taskId: task.task_id,
        // As the run log records it (from the task file's folder).
        taskType: inferTaskType(task, taskFile) ?? null,
        scenarioId: scenarioId ?? '',
        agentModel,
        agentModelKind: agentModel === 'baseline' ? 'baseline' : 'llm',
        ...(trial === undefined ? {} : { trial }),
      }
      test(mpcbenchTestName(task.task_id, agentModel, trial), { meta: { mpcbenchTask: planned } }, async (context) => {
        if (scenarioId === undefined) throw new Error(`Upstream task ${file} names no scenario and no default scenario was given`)
        const skipped = imported.skippedScenarios.find((s) => s.scenarioId === scenarioId)
        if (skipped !== undefined) throw new Error(`Upstream scenario ${scenarioId} could not be imported: ${skipped.reason}`)
        const workplace = loadWorkplace(dataDir, scenarioId)
        const checks = options.checks === undefined ? undefined : await options.checks(task, workplace)
        await runMpcbenchCase(context, {
          // As read: a task without `task_type` is classified by its folder (the task file label) and shown to the judge
          // as upstream shows it (`upstreamJudgeTaskType`).
          task: { ...task, ...(checks === undefined ? {} : { checks }) },
          taskFile,
          scenarioId,
          tools: workplaceTools(workplace, setup.toolProfile),
          agentModel,
          setup,
          ...(trial === undefined ? {} : { trial }),
        })
      })
    }
  }
}
