import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FIXTURE_MAILDIR, fixtureResponder, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { createModel } from '../../llm/create-model.ts'
import { startScriptedServer } from '../../testing/scripted-server.ts'
import type { ArteRow } from '../dataset/row.ts'
import { importMaildir } from '../import/import-maildir.ts'
import { TraceStore } from '../results/trace-store.ts'
import { runArteTask } from '../run-arte-task.ts'
import { EmailStore } from '../store/email-store.ts'
import type { ArtePlannedTask } from '../results/arte-meta.ts'
import { finishedInRun } from './recover-finished.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const row: ArteRow = {
  id: 101,
  question: 'Which room is the budget review in?',
  answer: 'Room 4B',
  message_ids: ['<fx-1001@fernwood.example>'],
  inbox_address: 'ann.lee@fernwood.example',
  query_date: '2003-03-10',
  how_realistic: 0.9,
  split: 'test',
}

const planned = (taskId: string, trial?: number): ArtePlannedTask => ({
  taskId,
  question: row.question,
  groundTruth: row.answer,
  inboxAddress: row.inbox_address,
  queryDate: row.query_date,
  split: row.split,
  messageIds: row.message_ids,
  dataset: 'fixture',
  rows: 'all',
  model: 'scripted-model',
  modelKind: 'llm',
  ...(trial === undefined ? {} : { trial }),
})

describe('finishedInRun', () => {
  const scratch = scratchDir('recover-finished')
  afterAll(() => scratch.remove())

  it(
    'rebuilds a task that finished (its trace is stored) but whose result never reached the reporter, as the test scored it',
    async () => {
      await using server = await startScriptedServer(fixtureResponder())
      const model = createModel('scripted-model', { env: { OPENAI_BASE_URL: server.baseURL }, cache: { mode: 'off' }, callLogDir: false, maxRetries: 0 })
      using mail = EmailStore.open(':memory:')
      await importMaildir(mail, FIXTURE_MAILDIR)
      const run = await runArteTask({ row, store: mail, model, maxTurns: 2, dataset: 'fixture' })
      expect(run.meta.exactMatch).toBe(true)
      const db = join(scratch.dir, 'traces.db')
      {
        using traces = TraceStore.open(db)
        const { meta } = run
        traces.save({
          runId: 'run-now',
          taskId: meta.taskId,
          question: meta.question,
          groundTruth: meta.groundTruth,
          agentAnswer: meta.agentAnswer,
          exactMatch: meta.exactMatch,
          semanticScore: meta.semanticScore,
          trace: run.trace,
        })
      }
      const recover = finishedInRun(db, 'run-now')
      expect(recover(planned('101'))).toEqual({ ...run.meta, executionTimeMs: run.trace.durationMs, rows: 'all' })
      // Another task, another trial, another run, or no database: nothing to rebuild, the task stays not run.
      expect(recover(planned('102'))).toBeUndefined()
      expect(recover(planned('101', 2))).toBeUndefined()
      expect(finishedInRun(db, 'run-before')(planned('101'))).toBeUndefined()
      expect(finishedInRun(join(scratch.dir, 'none.db'), 'run-now')(planned('101'))).toBeUndefined()
    },
    scaledMs(60_000),
  )
})
