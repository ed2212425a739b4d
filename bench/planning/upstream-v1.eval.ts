import { test } from 'vitest'
import type { Check } from '../../src/mpcbench/task.ts'
import { workplaceTools } from '../../src/mpcbench/run-task.ts'
import type { FreeSlotsResult } from '../../src/mpcbench/workplace/tool-results.ts'
import type { Workplace } from '../../src/mpcbench/workplace/workplace.ts'
import { defineUpstreamV1Bench } from '../../src/mpcbench/vitest/define-upstream-v1-bench.ts'
import { localParts } from '../../src/time/zone.ts'
import { hasSharedData, sharedDataDir, sharedDataPath } from '../../src/testing/shared-data.ts'

/**
 * Upstream MPCBench's v1 planning tasks (`tasks/planning/*.json` at commit eb0b7ca, read unchanged from ../shared),
 * run against upstream's own data, rebuilt from its generation logs into `.tmp/mpcbench/upstream-v1/`. The agent gets
 * the configured tool profile (default `upstream-v1`, upstream's tools). For the offline `rules` judge, the tasks'
 * prose requirements (45 minutes, 09:00-18:00, next week, all listed participants) become checks here: "next week"
 * is Monday to Friday after the week of the scenario's latest Slack, Gmail, Jira or Drive timestamp, and the free
 * slots come from the `extended` free-slot tool (weekdays, DST-correct).
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

async function planningChecks(requirements: ReadonlyArray<string>, workplace: Workplace): Promise<Check[]> {
  const names = participantsOf(requirements)
  const attendees = names.map((name) => {
    const contact = workplace.sources.contacts.contacts.find((c) => c.name.toLowerCase() === name.toLowerCase())
    if (contact === undefined) throw new Error(`No contact named ${name}`)
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
  return [
    { must_mention: [...names, '45'] },
    { time_slot_free: { attendees, ...window, timezone: slots.timezone, free: slots.time_slots } },
  ]
}

if (!hasSharedData) {
  test.skip(`upstream MPCBench v1 planning tasks (skipped: ${sharedDataDir} is absent; upstream data lives in ../shared)`, () => {})
} else {
  defineUpstreamV1Bench({
    taskType: 'planning',
    upstreamDir: sharedDataPath(UPSTREAM),
    checks: (task, workplace) => planningChecks(task.answer_requirements, workplace),
    taskFileLabel: (file) => `../shared/data/${UPSTREAM}/${file}`,
  })
}
