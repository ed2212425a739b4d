import { test } from 'vitest'
import { workplaceTools } from '../../src/mpcbench/run-task.ts'
import { loadTask } from '../../src/mpcbench/task.ts'
import { hasSharedData, sharedDataDir, sharedDataPath } from '../../src/testing/shared-data.ts'
import { mpcbenchRunSetup, mpcbenchTestName, runMpcbenchCase } from '../../src/vitest/mpcbench-bench.ts'
import { readUpstreamScenario } from '../../src/workplace/upstream-logs.ts'
import { Workplace } from '../../src/workplace/workplace.ts'

/**
 * The upstream MPCBench planning task `scenario_noise0_depth0_planning_task`, run unchanged against the data
 * upstream generated for that scenario (the `response` of its seven generation logs in ../shared).
 * Skipped, with the reason in its name, when ../shared is absent.
 */
const UPSTREAM = 'mpcbench/v1_eb0b7ca'
const SCENARIO = 'scenario_noise0_depth0'

if (!hasSharedData) {
  test.skip(`scenario_noise0_depth0_planning_task (skipped: ${sharedDataDir} is absent; upstream data lives in ../shared)`, () => {})
} else {
  const task = loadTask(sharedDataPath(UPSTREAM, 'tasks/planning/scenario_noise0_depth0_planning_task.json'))
  const setup = mpcbenchRunSetup(process.cwd())
  for (const agentModel of setup.matrix.agents) {
    test(mpcbenchTestName(task.task_id, agentModel), async (context) => {
      const upstream = readUpstreamScenario(sharedDataPath(UPSTREAM, 'generator/logs/llm'), SCENARIO)
      const settings = (upstream.worldState.global_settings ?? {}) as { timezone?: string; workday_start?: string; workday_end?: string }
      const workplace = Workplace.fromSources(upstream.sources, {
        ...(settings.timezone === undefined ? {} : { timezone: settings.timezone }),
        ...(settings.workday_start === undefined ? {} : { workdayStart: settings.workday_start }),
        ...(settings.workday_end === undefined ? {} : { workdayEnd: settings.workday_end }),
      })
      await runMpcbenchCase(context, {
        task,
        taskFile: `../shared/data/${UPSTREAM}/tasks/planning/scenario_noise0_depth0_planning_task.json`,
        scenarioId: SCENARIO,
        tools: workplaceTools(workplace),
        agentModel,
        setup,
      })
    })
  }
}
