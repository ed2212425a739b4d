import { isAbsolute, relative } from 'node:path'
import { loadArteDataset } from '../dataset/load-dataset.ts'
import type { ArteTestMeta } from '../results/arte-meta.ts'
import { arteSettingsFromEnv } from '../settings.ts'
import { partOfFile, selectPart } from './arte-parts.ts'

type Env = Record<string, string | undefined>

/** The agent the run's tests were declared with (read from the tests that were collected). */
export interface NotStartedModel {
  model: string
  modelKind: 'llm' | 'baseline'
}

/**
 * The ART-E tasks the part files (`ARTE_PARTS`, {@link partOfFile}) an interrupted run never started would have
 * declared, each `not-run` with zero scores: the rows of the selection the part files load (`ARTE_DATASET`,
 * `ARTE_SPLIT`, `ARTE_ROWS`, `ARTE_LIMIT` of `env`, relative paths against `root`) whose position modulo the part count
 * is the part's, once per trial (`BENCH_TRIALS`), as `defineArteTests` declares them. A file this cannot read that way
 * (not a part file, or settings or a dataset that do not load) is returned in `uncounted`: the results name it only.
 * @param files the files, relative to `root` (see `notStartedFiles`)
 */
export async function notStartedArteTasks(
  files: ReadonlyArray<string>,
  root: string,
  agent: NotStartedModel,
  env: Env = process.env,
): Promise<{ metas: ArteTestMeta[]; uncounted: string[] }> {
  const metas: ArteTestMeta[] = []
  const uncounted: string[] = []
  let selection: { rows: Awaited<ReturnType<typeof loadArteDataset>>; settings: ReturnType<typeof arteSettingsFromEnv> } | undefined
  for (const file of files) {
    const part = partOfFile(file)
    if (part === undefined) {
      uncounted.push(file)
      continue
    }
    try {
      if (selection === undefined) {
        const settings = arteSettingsFromEnv(env, root)
        // Bad rows fail tests of their own (not ART-E tasks): left out here as they are from the tasks.
        const rows = await loadArteDataset(settings.dataset, { split: settings.split, rows: settings.rows, limit: settings.limit, badRows: [] })
        selection = { rows, settings }
      }
    } catch {
      uncounted.push(file)
      continue
    }
    const { rows, settings } = selection
    const inside = relative(root, settings.dataset)
    const dataset = inside === '' || inside.startsWith('..') || isAbsolute(inside) ? settings.dataset : inside.replaceAll('\\', '/')
    const trials = settings.trials <= 1 ? [undefined] : Array.from({ length: settings.trials }, (_, i) => i + 1)
    for (const row of selectPart(rows, part)) {
      for (const trial of trials) {
        metas.push({
          taskId: String(row.id),
          question: row.question,
          groundTruth: row.answer,
          agentAnswer: '',
          sources: [],
          exactMatch: false,
          semanticScore: 0,
          traceId: '',
          executionTimeMs: 0,
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 },
          model: agent.model,
          modelKind: agent.modelKind,
          outcome: { kind: 'not-run', reason: `its test file ${file} never started (the run was interrupted first)` },
          inboxAddress: row.inbox_address,
          queryDate: row.query_date,
          split: row.split,
          dataset,
          rows: settings.rows,
          ...(trial === undefined ? {} : { trial }),
        })
      }
    }
  }
  return { metas, uncounted }
}
