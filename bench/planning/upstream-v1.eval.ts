import { join } from 'node:path'
import fg from 'fast-glob'
import { test } from 'vitest'
import { importUpstream } from '../../src/mpcbench/import-upstream.ts'
import { workplaceTools } from '../../src/mpcbench/run-task.ts'
import { loadTask } from '../../src/mpcbench/task.ts'
import type { Check } from '../../src/mpcbench/task.ts'
import type { FreeSlotsResult } from '../../src/mpcbench/workplace/tool-results.ts'
import { loadWorkplace, type Workplace } from '../../src/mpcbench/workplace/workplace.ts'
import { localParts } from '../../src/time/zone.ts'
import { hasSharedData, sharedDataDir, sharedDataPath } from '../../src/testing/shared-data.ts'
import { mpcbenchRunSetup, mpcbenchTestName, runMpcbenchCase } from '../../src/mpcbench/vitest/define-mpcbench-bench.ts'

/**
 * Upstream MPCBench's v1 planning tasks (`tasks/planning/*.json` at commit eb0b7ca, read unchanged from ../shared),
 * run against upstream's own data: `importUpstream` rebuilds `{ID}_*.json` from upstream's generation logs into
 * `.tmp/mpcbench/upstream-v1/`. The agent gets the configured tool profile (default `upstream-v1`, upstream's tools).
 * For the offline `rules` judge, the tasks' prose requirements (45 minutes, 09:00-18:00, next week, all three
 * participants) become checks here: "next week" is Monday to Friday after the week of the scenario's latest Slack,
 * Gmail, Jira or Drive timestamp, and the free slots come from the `extended` free-slot tool (weekdays, DST-correct).
 * Skipped, with the reason in its name, when ../shared is absent.
 */
const UPSTREAM = 'mpcbench/v1_eb0b7ca'

function isoDay(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10)
}

/** Monday to Friday of the week after the one holding the workplace's "now", in its time zone. */
function nextWeek(workplace: Workplace): { from: string; to: string } {
  const now = localParts(workplace.now, workplace.settings.timezone)
  const today = Date.UTC(now.year, now.month - 1, now.day)
  const monday = today + ((8 - now.weekday) % 7 || 7) * 86_400_000
  return { from: isoDay(monday), to: isoDay(monday + 4 * 86_400_000) }
}

/** The participants a task's requirement lists (`... participants: Alex Smith, Jordan Johnson, Sam Williams.`). */
function participantsOf(requirements: ReadonlyArray<string>): string[] {
  const line = requirements.find((r) => /participants:/i.test(r)) ?? ''
  return (line.split(/participants:/i)[1] ?? '')
    .replace(/\.\s*$/, '')
    .split(/,|\band\b/)
    .map((name) => name.trim())
    .filter((name) => name !== '')
}

if (!hasSharedData) {
  test.skip(`upstream MPCBench v1 planning tasks (skipped: ${sharedDataDir} is absent; upstream data lives in ../shared)`, () => {})
} else {
  const taskFiles = fg.sync('tasks/planning/*.json', { cwd: sharedDataPath(UPSTREAM) }).sort()
  const tasks = taskFiles.map((file) => ({ file, task: loadTask(sharedDataPath(UPSTREAM, file)) }))
  const dataDir = join(process.cwd(), '.tmp', 'mpcbench', 'upstream-v1')
  const scenarioIds = [...new Set(tasks.map(({ task }) => task.data_dependencies.scenario_id).filter((id): id is string => id !== undefined))]
  const imported = importUpstream({ logs: sharedDataPath(UPSTREAM, 'generator/logs/llm'), out: dataDir, scenarioIds })
  const setup = mpcbenchRunSetup(process.cwd())
  for (const { file, task } of tasks) {
    const scenarioId = task.data_dependencies.scenario_id ?? ''
    for (const agentModel of setup.matrix.agents) {
      test(mpcbenchTestName(task.task_id, agentModel), async (context) => {
        const skipped = imported.skippedScenarios.find((s) => s.scenarioId === scenarioId)
        if (skipped !== undefined) throw new Error(`Upstream scenario ${scenarioId} could not be imported: ${skipped.reason}`)
        const workplace = loadWorkplace(dataDir, scenarioId)
        const names = participantsOf(task.answer_requirements)
        const attendees = names.map((name) => {
          const contact = workplace.sources.contacts.contacts.find((c) => c.name.toLowerCase() === name.toLowerCase())
          if (contact === undefined) throw new Error(`No contact named ${name} in ${scenarioId}`)
          return contact.email
        })
        const window = { ...nextWeek(workplace), workday_start: '09:00', workday_end: '18:00', duration_minutes: 45 }
        const findSlots = workplaceTools(workplace, 'extended').find((tool) => tool.name === 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree')
        if (findSlots === undefined) throw new Error('The extended tools have no GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree')
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
          { must_mention: [...names, '45'] },
          { time_slot_free: { attendees, ...window, timezone: slots.timezone, free: slots.time_slots } },
        ]
        await runMpcbenchCase(context, {
          task: { ...task, checks },
          taskFile: `../shared/data/${UPSTREAM}/${file}`,
          scenarioId,
          tools: workplaceTools(workplace, setup.toolProfile),
          agentModel,
          setup,
        })
      })
    }
  }
}
