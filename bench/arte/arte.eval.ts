/**
 * ART-E as Vitest tests: one test per selected row, named by the row id.
 * Rows: ARTE_DATASET (default data/arte-demo-questions.jsonl), ARTE_SPLIT (default test), ARTE_LIMIT (default 10, 0 = all).
 * Model: BENCH_AGENT_MODEL (default `baseline` when no API key is set). See README "ART-E".
 */
import { defineArteTests } from '../../src/arte/vitest/define-arte-tests.ts'

await defineArteTests()
