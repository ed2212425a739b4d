import { test } from 'vitest'
import { upstreamV1PlanningChecks } from '../../src/mpcbench/judge/upstream-v1-planning-checks.ts'
import { defineUpstreamV1Bench } from '../../src/mpcbench/vitest/define-upstream-v1-bench.ts'
import { hasSharedData, sharedDataDir, sharedDataPath } from '../../src/testing/shared-data.ts'

/**
 * Upstream MPCBench's v1 planning tasks (`tasks/planning/*.json` at commit eb0b7ca, read unchanged from ../shared),
 * run against upstream's own data, rebuilt from its generation logs into `.tmp/mpcbench/upstream-v1/`. The agent gets
 * the configured tool profile (default `upstream-v1`, upstream's tools). For the offline `rules` judge, the tasks'
 * prose requirements (45 minutes, 09:00-18:00, next week, all listed participants) become checks here: "next week"
 * is Monday to Friday after the week of the scenario's latest Slack, Gmail, Jira or Drive timestamp, and the free
 * slots come from the `extended` free-slot tool (weekdays, DST-correct); see `upstreamV1PlanningChecks`.
 * Skipped, with the reason in its name, when ../shared is absent.
 */
const UPSTREAM = 'mpcbench/v1_eb0b7ca'

if (!hasSharedData) {
  test.skip(`upstream MPCBench v1 planning tasks (skipped: ${sharedDataDir} is absent; upstream data lives in ../shared)`, () => {})
} else {
  defineUpstreamV1Bench({
    taskType: 'planning',
    upstreamDir: sharedDataPath(UPSTREAM),
    checks: (task, workplace) => upstreamV1PlanningChecks(task.answer_requirements, workplace),
    taskFileLabel: (file) => `../shared/data/${UPSTREAM}/${file}`,
  })
}
