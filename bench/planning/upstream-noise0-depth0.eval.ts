import { test } from 'vitest'
import { workplaceTools } from '../../src/mpcbench/run-task.ts'
import { loadTask } from '../../src/mpcbench/task.ts'
import type { Check } from '../../src/mpcbench/task.ts'
import type { FreeSlotsResult } from '../../src/mpcbench/workplace/tool-results.ts'
import { hasSharedData, sharedDataDir, sharedDataPath } from '../../src/testing/shared-data.ts'
import { mpcbenchRunSetup, mpcbenchTestName, runMpcbenchCase } from '../../src/mpcbench/vitest/define-mpcbench-bench.ts'
import { readUpstreamScenario } from '../../src/mpcbench/workplace/upstream-logs.ts'
import { Workplace } from '../../src/mpcbench/workplace/workplace.ts'

/**
 * The upstream MPCBench planning task `scenario_noise0_depth0_planning_task`, run against the data upstream
 * generated for that scenario (the `response` of its seven generation logs in ../shared). The task file is read
 * unchanged; for the offline `rules` judge its prose requirements (45 minutes, 09:00-18:00, next week, all three
 * participants) are turned into checks here, with "next week" read as the week after the scenario's events
 * (2025-01-13 to 2025-01-17) and the free slots taken from the ToolBackend.
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
      const tools = workplaceTools(workplace, setup.toolProfile)
      const attendees = ['alex.smith@company.com', 'jordan.johnson@company.com', 'sam.williams@company.com']
      const window = { from: '2025-01-13', to: '2025-01-17', workday_start: '09:00', workday_end: '18:00', duration_minutes: 45 }
      // The checks' free slots come from the extended tool (weekday-only, DST-correct), whatever profile the agent has.
      const findSlots = workplaceTools(workplace, 'extended').find((tool) => tool.name === 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree')
      if (findSlots === undefined) throw new Error('The workplace tools have no GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree')
      const slots = (await findSlots.handler(
        findSlots.parameters.parse({
          email_addresses: attendees,
          date_range_start: window.from,
          date_range_end: window.to,
          workday_start_time: window.workday_start,
          workday_end_time: window.workday_end,
          slot_minimum_minutes: window.duration_minutes,
        }),
        {},
      )) as FreeSlotsResult
      const checks: Check[] = [
        { must_mention: ['Alex Smith', 'Jordan Johnson', 'Sam Williams', '45'] },
        { time_slot_free: { attendees, ...window, timezone: slots.timezone, free: slots.time_slots } },
      ]
      await runMpcbenchCase(context, {
        task: { ...task, checks },
        taskFile: `../shared/data/${UPSTREAM}/tasks/planning/scenario_noise0_depth0_planning_task.json`,
        scenarioId: SCENARIO,
        tools,
        agentModel,
        setup,
      })
    })
  }
}
