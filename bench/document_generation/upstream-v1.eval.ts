import { test } from 'vitest'
import { defineUpstreamV1Bench } from '../../src/mpcbench/vitest/define-upstream-v1-bench.ts'
import { hasSharedData, sharedDataDir, sharedDataPath } from '../../src/testing/shared-data.ts'

/**
 * Upstream MPCBench's v1 document_generation task (`tasks/document_generation/*.json` at commit eb0b7ca, read unchanged from ../shared; a
 * companyA task, so it runs on `scenario_A`), against upstream's own data rebuilt from its generation logs. The
 * agent gets the configured tool profile (default `upstream-v1`); the offline `rules` judge uses its default
 * document_generation checks. Skipped, with the reason in its name, when ../shared is absent.
 */
const UPSTREAM = 'mpcbench/v1_eb0b7ca'

if (!hasSharedData) {
  test.skip(`upstream MPCBench v1 document_generation task (skipped: ${sharedDataDir} is absent; upstream data lives in ../shared)`, () => {})
} else {
  defineUpstreamV1Bench({
    taskType: 'document_generation',
    upstreamDir: sharedDataPath(UPSTREAM),
    defaultScenarioId: 'scenario_A',
    taskFileLabel: (file) => `../shared/data/${UPSTREAM}/${file}`,
  })
}
