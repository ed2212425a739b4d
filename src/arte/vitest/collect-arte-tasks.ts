import type { TestCase, TestModule } from 'vitest/node'
import { parseWith } from '../../core/parse.ts'
import { redact } from '../../core/redact.ts'
import type { TaskSpan } from '../results/results.ts'
import { type ArtePlannedTask, ArtePlannedTaskSchema, type ArteTaskOutcome, type ArteTestMeta, ArteTestMetaSchema } from '../results/arte-meta.ts'
import './task-meta.ts'

/** The note Vitest gives the tests it skips when a run is cancelled (SIGINT, `cancelCurrentRun`). */
const CANCEL_NOTE = /aborted by the user/i

/** Error code of a task whose test timed out before its agent run returned. */
export const TEST_TIMEOUT_CODE = 'ERR_TEST_TIMEOUT'
/** Error code of a task whose test failed before its agent run returned (not a timeout). */
export const TEST_FAILED_CODE = 'ERR_TEST_FAILED'

/** Every selected ART-E task of a run, once each, with the time spans of the tasks that ran. */
export interface CollectedArteTasks {
  metas: ArteTestMeta[]
  spans: TaskSpan[]
}

/** A zero-score entry for a declared task without a result; `executionTimeMs` is how long its test ran. */
function unfinished(planned: ArtePlannedTask, outcome: ArteTaskOutcome, executionTimeMs: number): ArteTestMeta {
  const { messageIds: _messageIds, ...fields } = planned
  return {
    ...fields,
    agentAnswer: '',
    sources: [],
    exactMatch: false,
    semanticScore: 0,
    traceId: '',
    executionTimeMs,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 },
    outcome,
  }
}

/**
 * The outcome of a test that carries no `arte` meta, from its state: a timeout or an early failure is an `error`
 * (codes {@link TEST_TIMEOUT_CODE}, {@link TEST_FAILED_CODE}), a test skipped by a cancelled run is `not-run`.
 * `undefined` for a test that was not selected (skipped by a name filter or `.skip`).
 */
export function outcomeWithoutMeta(testCase: TestCase, interrupted: boolean): ArteTaskOutcome | undefined {
  const result = testCase.result()
  if (result.state === 'failed') {
    const message = redact(result.errors?.[0]?.message ?? 'the test failed')
    return { kind: 'error', code: /timed out/i.test(message) ? TEST_TIMEOUT_CODE : TEST_FAILED_CODE, message }
  }
  if (result.state === 'pending') return interrupted ? { kind: 'not-run', reason: 'the run was interrupted before this task ran' } : undefined
  if (result.state === 'skipped' && result.note !== undefined && CANCEL_NOTE.test(result.note)) {
    return { kind: 'not-run', reason: 'the run was interrupted before this task finished' }
  }
  return undefined
}

/**
 * Collects the ART-E tasks of a run: a test with `arte` meta gives its meta (an `aborted` run whose test was skipped
 * by a cancelled run becomes `not-run`); a declared test (`arteTask` meta) without it gives a zero-score entry whose
 * outcome says what happened (timed out, failed, not run). So every selected task appears exactly once. The metas come
 * in the order of the files' paths, then of their tests.
 */
export function collectArteTasks(
  testModules: ReadonlyArray<TestModule>,
  interrupted: boolean,
  /** For a task that would be `not-run`: its result when it finished after all (see `recover-finished.ts`). */
  recover: (planned: ArtePlannedTask) => ArteTestMeta | undefined = () => undefined,
): CollectedArteTasks {
  const metas: ArteTestMeta[] = []
  const spans: TaskSpan[] = []
  // By file path, not in the order the files ran: a task two files report then counts as the same file's every run.
  for (const testModule of [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))) {
    for (const testCase of testModule.children.allTests()) {
      const meta = testCase.meta()
      const where = `${testModule.moduleId} > ${testCase.fullName}`
      const diagnostic = testCase.diagnostic()
      let task: ArteTestMeta | undefined
      if (meta.arte !== undefined) {
        task = parseWith(ArteTestMetaSchema, meta.arte, 'ART-E test meta', where)
        const result = testCase.result()
        if (task.outcome.kind === 'aborted' && result.state === 'skipped')
          task = { ...task, outcome: { kind: 'not-run', reason: `interrupted while running: ${task.outcome.reason}` } }
      } else if (meta.arteTask !== undefined) {
        const outcome = outcomeWithoutMeta(testCase, interrupted)
        if (outcome !== undefined) {
          // A test that timed out or failed ran for its duration (averaged in avgExecutionTimeMs); one not run for none.
          const ranForMs = outcome.kind === 'not-run' ? 0 : (diagnostic?.duration ?? 0)
          const planned = parseWith(ArtePlannedTaskSchema, meta.arteTask, 'ART-E planned task meta', where)
          // Finished in its worker, but its result never reached this process (the run was interrupted first).
          const recovered = outcome.kind === 'not-run' ? recover(planned) : undefined
          task = recovered ?? unfinished(planned, outcome, ranForMs)
        }
      }
      if (task === undefined) continue
      metas.push(task)
      if (diagnostic !== undefined && task.outcome.kind !== 'not-run')
        spans.push({ startTime: diagnostic.startTime, endTime: diagnostic.startTime + diagnostic.duration })
    }
  }
  return { metas, spans }
}
