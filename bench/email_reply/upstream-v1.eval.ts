import { test } from 'vitest'
import { defineUpstreamV1Bench } from '../../src/mpcbench/vitest/define-upstream-v1-bench.ts'
import { hasSharedData, sharedDataDir, sharedDataPath } from '../../src/testing/shared-data.ts'

/**
 * Upstream MPCBench's v1 email_reply task (`tasks/email_reply/*.json` at commit eb0b7ca, read unchanged from ../shared; a
 * companyA task, so it runs on `scenario_A`), against upstream's own data rebuilt from its generation logs. The
 * agent gets the configured tool profile (default `upstream-v1`); the offline `rules` judge uses its default
 * email_reply checks. Skipped, with the reason in its name, when ../shared is absent.
 */
const UPSTREAM = 'mpcbench/v1_eb0b7ca'

if (!hasSharedData) {
  test.skip(`upstream MPCBench v1 email_reply task (skipped: ${sharedDataDir} is absent; upstream data lives in ../shared)`, () => {})
} else {
  defineUpstreamV1Bench({
    taskType: 'email_reply',
    upstreamDir: sharedDataPath(UPSTREAM),
    defaultScenarioId: 'scenario_A',
    taskFileLabel: (file) => `../shared/data/${UPSTREAM}/${file}`,
  })
}
