import { existsSync } from 'node:fs'
import type { ArteRow } from '../dataset/row.ts'
import { TraceStore } from '../results/trace-store.ts'
import { arteMetaFromTrace, storedJudgment } from '../run-arte-task.ts'
import type { ArtePlannedTask, ArteTestMeta } from '../results/arte-meta.ts'

/**
 * What the tasks of the run `runId` finished, read back from the traces database: a test stores its trace before it
 * ends, so a task whose result never reached the reporter (plain `vitest` interrupted: the process exits before the
 * workers' last updates arrive) is rebuilt from its trace, scored as the test scored it, instead of being written as
 * `not-run`. Returns the lookup for `collectArteTasks`; it finds nothing when the database does not exist or cannot be
 * read (the task then stays `not-run`, as before).
 */
export function finishedInRun(tracesDb: string, runId: string | undefined): (planned: ArtePlannedTask) => ArteTestMeta | undefined {
  if (runId === undefined || !existsSync(tracesDb)) return () => undefined
  let traces: ReturnType<TraceStore['tracesOfRun']>
  try {
    using store = TraceStore.open(tracesDb)
    traces = store.tracesOfRun(runId)
  } catch {
    return () => undefined
  }
  return (planned) => {
    const stored = traces.get(`${planned.taskId}#${planned.trial ?? 1}`)
    // A task declared without its message ids (an older meta) cannot be scored on its sources: it stays not run.
    if (stored === undefined || planned.messageIds === undefined) return undefined
    const row: ArteRow = {
      id: planned.taskId,
      question: planned.question,
      answer: planned.groundTruth,
      message_ids: planned.messageIds,
      inbox_address: planned.inboxAddress,
      query_date: planned.queryDate,
      split: planned.split,
    } as ArteRow
    const meta = arteMetaFromTrace(row, stored.trace, planned.dataset, stored.trace.durationMs, storedJudgment(stored.trace))
    return { ...meta, ...(planned.rows === undefined ? {} : { rows: planned.rows }), ...(planned.trial === undefined ? {} : { trial: planned.trial }) }
  }
}
