import { expect, test } from 'vitest'
import { type EvalBucket, type RegressionCase, type RegressionCheck, RegressionCaseSchema } from '../generate-evals.ts'
import type { ArteRow } from '../dataset/row.ts'
import { parseWith } from '../../core/parse.ts'
import { annotateTest } from '../../eval/annotate.ts'
import { exactMatch } from '../scoring/exact-match.ts'
import { jaccardWords } from '../scoring/jaccard.ts'
import { arteSettingsFromEnv } from '../settings.ts'
import { ArteTaskFailedError, runArteTestCase, useArteTestRuntime } from './define-arte-tests.ts'

/** Whether an answer passes a regression check; `missing` lists what it lacks. */
export function applyCheck(check: RegressionCheck, answer: string): { passed: boolean; missing: string[] } {
  if (check.kind === 'exact') {
    const passed = exactMatch(answer, check.expected)
    return { passed, missing: passed ? [] : [check.expected] }
  }
  const words = new Set(jaccardWords(answer))
  const missing = check.keywords.filter((keyword) => !words.has(keyword))
  return { passed: missing.length === 0, missing }
}

function describeCheck(check: RegressionCheck): string {
  return check.kind === 'exact' ? `exactly ${JSON.stringify(check.expected)}` : `all of the keywords ${check.keywords.map((k) => JSON.stringify(k)).join(', ')}`
}

/**
 * Registers the regression tests written by `agent-bench generate-evals`: each re-runs the agent on its row
 * (in the current ART-E database, with the current model) and checks the answer. Tests are named by task id
 * and annotated with the trace they were generated from (type `arte-source`).
 */
export async function defineArteRegressionTests(bucket: EvalBucket, cases: ReadonlyArray<RegressionCase>): Promise<void> {
  const parsed = cases.map((value, index) => parseWith(RegressionCaseSchema, value, 'generated ART-E regression case', `${bucket} case ${index}`))
  const runtime = useArteTestRuntime(arteSettingsFromEnv())
  test.concurrent.for(parsed.map((item) => [item.taskId, item] as const))('%s', async ([, item], context) => {
    await annotateTest(
      context,
      `${bucket}: generated from trace ${item.sourceTraceId} (answer ${JSON.stringify(item.source.agentAnswer)}, J=${item.source.semanticScore.toFixed(2)})`,
      'arte-source',
    )
    const row: ArteRow = {
      id: item.taskId,
      question: item.question,
      answer: item.groundTruth,
      message_ids: [],
      inbox_address: item.inboxAddress,
      query_date: item.queryDate,
      how_realistic: 1,
      split: 'test',
    }
    const run = await runArteTestCase(runtime, row, context)
    if (run.meta.outcome.kind !== 'answered') throw new ArteTaskFailedError(run)
    const result = applyCheck(item.check, run.meta.agentAnswer)
    expect(
      result.passed,
      `task ${item.taskId}: expected the answer to contain ${describeCheck(item.check)}; got ${JSON.stringify(run.meta.agentAnswer)} (trace ${run.meta.traceId}; generated from ${item.sourceTraceId})`,
    ).toBe(true)
  })
}
