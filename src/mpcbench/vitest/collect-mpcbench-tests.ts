import type { TestModule } from 'vitest/node'
import { redact } from '../../core/redact.ts'
import type { UnfinishedTest } from '../summary.ts'
import { type MpcbenchTestMeta, MpcbenchTestMetaSchema } from './mpcbench-meta.ts'
import { parseWith } from '../../core/parse.ts'
import './task-meta.ts'

/** The MPCBench tests of a run: those with scores (`mpcbench` meta), and the selected ones without. */
export interface CollectedMpcbenchTests {
  metas: MpcbenchTestMeta[]
  unfinished: UnfinishedTest[]
}

/**
 * Collects every selected MPCBench test once: its `mpcbench` meta when set; else, for a declared test
 * (`mpcbenchTask` meta), what happened to it: timed out, failed before its run ended, or not run (cancelled run).
 * Tests skipped by a name filter or `.skip` are not selected and are left out.
 */
export function collectMpcbenchTests(testModules: ReadonlyArray<TestModule>, interrupted: boolean): CollectedMpcbenchTests {
  const metas: MpcbenchTestMeta[] = []
  const unfinished: UnfinishedTest[] = []
  for (const testModule of testModules) {
    for (const testCase of testModule.children.allTests()) {
      const meta = testCase.meta()
      if (meta.mpcbench !== undefined) {
        metas.push(parseWith(MpcbenchTestMetaSchema, meta.mpcbench, 'MPCBench test meta', `${testModule.moduleId} > ${testCase.fullName}`))
        continue
      }
      const planned = meta.mpcbenchTask
      if (planned === undefined) continue
      const result = testCase.result()
      const base = { task_id: planned.taskId, task_type: planned.taskType ?? 'unknown', agent_model: planned.agentModel, ...(planned.trial === undefined ? {} : { trial: planned.trial }) }
      if (result.state === 'failed') {
        const message = redact(result.errors?.[0]?.message ?? 'the test failed')
        unfinished.push({ ...base, outcome: /timed out/i.test(message) ? 'timed-out' : 'failed', message })
      } else if ((result.state === 'pending' && interrupted) || (result.state === 'skipped' && result.note !== undefined && /aborted by the user/i.test(result.note))) {
        unfinished.push({ ...base, outcome: 'not-run', message: 'the run was interrupted before this test ran' })
      }
    }
  }
  return { metas, unfinished }
}
