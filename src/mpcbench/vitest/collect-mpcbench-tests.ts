import type { TestModule } from 'vitest/node'
import { redact } from '../../core/redact.ts'
import { sumUsage } from '../../llm/usage.ts'
import type { InvalidTaskFile, UnfinishedTest } from '../summary/summary.ts'
import { type MpcbenchTestMeta, MpcbenchTestMetaSchema } from '../run/mpcbench-meta.ts'
import { parseWith } from '../../core/parse.ts'
import './task-meta.ts'

/** The MPCBench tests of a run: those with scores (`mpcbench` meta), and the selected ones without. */
export interface CollectedMpcbenchTests {
  metas: MpcbenchTestMeta[]
  unfinished: UnfinishedTest[]
  /** Task files that could not be loaded (their placeholder test failed with why). */
  invalid: InvalidTaskFile[]
}

/** The fields an unfinished test shares with its declaration (or its meta). */
function plannedOf(
  test: Pick<MpcbenchTestMeta, 'taskId' | 'taskType' | 'agentModel' | 'trial'>,
): Pick<UnfinishedTest, 'task_id' | 'task_type' | 'agent_model' | 'trial'> {
  return {
    task_id: test.taskId,
    task_type: test.taskType ?? 'unknown',
    agent_model: test.agentModel,
    ...(test.trial === undefined ? {} : { trial: test.trial }),
  }
}

/**
 * Collects every selected MPCBench test once: its `mpcbench` meta when set (unless a cancelled run cut it off, which
 * makes it not run: `runMpcbenchCase` then skips it); else, for a declared test (`mpcbenchTask` meta), what happened to
 * it: timed out, failed before its run ended, or not run (cancelled run). Tests skipped by a name filter or `.skip` are
 * not selected and are left out.
 */
export function collectMpcbenchTests(testModules: ReadonlyArray<TestModule>, interrupted: boolean): CollectedMpcbenchTests {
  const metas: MpcbenchTestMeta[] = []
  const unfinished: UnfinishedTest[] = []
  const invalid: InvalidTaskFile[] = []
  for (const testModule of testModules) {
    for (const testCase of testModule.children.allTests()) {
      const meta = testCase.meta()
      if (meta.mpcbenchInvalidTask !== undefined) {
        const result = testCase.result()
        // A placeholder a name filter skipped was not selected.
        if (result.state === 'failed') {
          const message = redact(result.errors?.[0]?.message ?? 'the task file could not be loaded')
          invalid.push({ task_file: meta.mpcbenchInvalidTask.taskFile, task_type: meta.mpcbenchInvalidTask.taskType, message })
        }
        continue
      }
      if (meta.mpcbench !== undefined) {
        const finished = parseWith(MpcbenchTestMetaSchema, meta.mpcbench, 'MPCBench test meta', `${testModule.moduleId} > ${testCase.fullName}`)
        // `runMpcbenchCase` skips a test a cancelled run cut off: what it ran is not a result.
        if (testCase.result().state === 'skipped') {
          const usage = { agents: finished.usage, judges: sumUsage(finished.judges.map((judge) => judge.usage)) }
          unfinished.push({ ...plannedOf(finished), outcome: 'not-run', message: 'the run was interrupted while this test ran', usage })
        } else metas.push(finished)
        continue
      }
      const planned = meta.mpcbenchTask
      if (planned === undefined) continue
      const result = testCase.result()
      const base = plannedOf(planned)
      if (result.state === 'failed') {
        const message = redact(result.errors?.[0]?.message ?? 'the test failed')
        unfinished.push({ ...base, outcome: /timed out/i.test(message) ? 'timed-out' : 'failed', message })
      } else if (
        (result.state === 'pending' && interrupted) ||
        (result.state === 'skipped' && result.note !== undefined && /aborted by the user/i.test(result.note))
      ) {
        unfinished.push({ ...base, outcome: 'not-run', message: 'the run was interrupted before this test ran' })
      }
    }
  }
  return { metas, unfinished, invalid }
}
