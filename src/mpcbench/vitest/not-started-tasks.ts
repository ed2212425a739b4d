import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import fg from 'fast-glob'
import { createExternalAgent } from '../../agent/external-agent.ts'
import { resolveHarness } from '../run/harness.ts'
import { resolveModelMatrix } from '../run/run-task-models.ts'
import { mpcbenchConfigs, mpcbenchInputs, mpcbenchSettingsFromEnv, trialNumbers } from '../settings.ts'
import type { UnfinishedTest } from '../summary/summary.ts'
import { inferTaskType, loadTask } from '../tasks/task.ts'

type Env = Record<string, string | undefined>

/** `defineMpcbenchBench({ taskType: 'planning' })` or `defineMpcbenchBench('planning')`, with no other root. */
const DEFINE_CALL = /defineMpcbenchBench\(\s*(?:\{([^}]*)\}|['"]([a-z_]+)['"])/
const TASK_TYPE_OPTION = /taskType:\s*['"]([a-z_]+)['"]/

/**
 * The tests the MPCBench test files an interrupted run never started would have declared, each `not-run`: for a file
 * that calls `defineMpcbenchBench({ taskType })` on the project's tasks, one per task of `tasks/{taskType}/` (a task
 * file that does not load is left out: it fails its own test when it runs), agent model and trial, as that call
 * declares them. A file this cannot read that way (another root, another definition such as the upstream-v1
 * benches, or settings that do not resolve) is returned in `uncounted`: the summary names it only.
 * @param files the files, relative to `root` (see `notStartedFiles`)
 */
export function notStartedTasks(files: ReadonlyArray<string>, root: string, env: Env = process.env): { tests: UnfinishedTest[]; uncounted: string[] } {
  const tests: UnfinishedTest[] = []
  const uncounted: string[] = []
  let plan: { agents: string[]; trials: Array<number | undefined>; tasksRoot: string } | undefined
  for (const file of files) {
    const taskType = declaredTaskType(resolve(root, file))
    if (taskType === undefined) {
      uncounted.push(file)
      continue
    }
    try {
      plan ??= runPlan(root, env)
    } catch {
      uncounted.push(file)
      continue
    }
    for (const taskFile of fg.sync(`tasks/${taskType}/*.json`, { cwd: plan.tasksRoot }).sort()) {
      let taskId: string
      try {
        const task = loadTask(join(plan.tasksRoot, taskFile))
        if (inferTaskType(task, taskFile) !== taskType) continue
        taskId = task.task_id
      } catch {
        continue
      }
      for (const agent of plan.agents) {
        for (const trial of plan.trials) {
          tests.push({
            task_id: taskId,
            task_type: taskType,
            agent_model: agent,
            ...(trial === undefined ? {} : { trial }),
            outcome: 'not-run',
            message: `its test file ${file} never started (the run was interrupted first)`,
          })
        }
      }
    }
  }
  return { tests, uncounted }
}

/** The task type a bench file declares its tests for, when it calls `defineMpcbenchBench` on the project's tasks. */
function declaredTaskType(file: string): string | undefined {
  if (!existsSync(file)) return undefined
  const match = DEFINE_CALL.exec(readFileSync(file, 'utf8'))
  if (match === null) return undefined
  if (match[2] !== undefined) return match[2]
  const options = match[1] ?? ''
  // Another root or environment: its tasks and models are not the run's.
  if (/\b(root|env)\s*:/.test(options)) return undefined
  return TASK_TYPE_OPTION.exec(options)?.[1]
}

/** The agents, trials and tasks folder every `defineMpcbenchBench` call of the run declares its tests with. */
function runPlan(root: string, env: Env): { agents: string[]; trials: Array<number | undefined>; tasksRoot: string } {
  const { promptConfig, modelConfig } = mpcbenchConfigs(root, env)
  const harness = resolveHarness(root, env, { ...(promptConfig === undefined ? {} : { promptConfig }), ...(modelConfig === undefined ? {} : { modelConfig }) })
  const settings = mpcbenchSettingsFromEnv(env)
  const external = settings.agent === undefined ? undefined : createExternalAgent({ url: settings.agent.url })
  const matrix = resolveModelMatrix(harness.modelConfig, env, external === undefined ? {} : { agents: [external.id] })
  return { agents: matrix.agents, trials: trialNumbers(settings.trials), tasksRoot: mpcbenchInputs(root, env).tasksRoot }
}
