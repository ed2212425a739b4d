import { isAbsolute, relative } from 'node:path'
import { loadArteDataset, loadArteDatasetSync } from '../dataset/load-dataset.ts'
import type { ArteRow } from '../dataset/row.ts'
import type { ArteTestMeta } from '../results/arte-meta.ts'
import { type ArteSettings, arteSettingsFromEnv } from '../settings.ts'
import { partOfFile, selectPart } from './arte-parts.ts'

type Env = Record<string, string | undefined>

/** The agent the run's tests were declared with (read from the tests that were collected). */
export interface NotStartedModel {
  model: string
  modelKind: 'llm' | 'baseline'
}

/** What the never-started files are counted from: the settings the part files read and the rows they select. */
interface Selection {
  settings: ArteSettings
  rows: ArteRow[]
}

/** What {@link notStartedArteTasks} gives. */
export interface NotStartedArteTasks {
  /** The tasks (rows x trials) of the never-started part files, each `not-run`. */
  metas: ArteTestMeta[]
  /** The never-started files whose tasks are in no count (named only). */
  uncounted: string[]
}

/**
 * The ART-E tasks the part files (`ARTE_PARTS`, {@link partOfFile}) an interrupted run never started would have
 * declared, each `not-run` with zero scores: the rows of the selection the part files load (`ARTE_DATASET`,
 * `ARTE_SPLIT`, `ARTE_ROWS`, `ARTE_LIMIT` of `env`, relative paths against `root`) whose position modulo the part count
 * is the part's, once per trial (`BENCH_TRIALS`), as `defineArteTests` declares them. A file this cannot read that way
 * (not a part file, or settings or a dataset that do not load) is returned in `uncounted`: the results name it only.
 * @param files the files, relative to `root` (see `notStartedFiles`)
 * @param agent the model the run's tests were declared with
 */
export async function notStartedArteTasks(
  files: ReadonlyArray<string>,
  root: string,
  agent: NotStartedModel,
  env: Env = process.env,
): Promise<NotStartedArteTasks> {
  let selection: Selection | undefined
  if (files.some((file) => partOfFile(file) !== undefined)) {
    try {
      const settings = arteSettingsFromEnv(env, root)
      // Bad rows fail tests of their own (not ART-E tasks): left out here as they are from the tasks.
      selection = {
        settings,
        rows: await loadArteDataset(settings.dataset, { split: settings.split, rows: settings.rows, limit: settings.limit, badRows: [] }),
      }
    } catch {
      selection = undefined
    }
  }
  return tasksOf(files, root, agent, selection)
}

/**
 * {@link notStartedArteTasks} computed synchronously, for a signal handler that cannot wait: a `.parquet` dataset
 * (read asynchronously only) leaves every file uncounted.
 */
export function notStartedArteTasksSync(files: ReadonlyArray<string>, root: string, agent: NotStartedModel, env: Env = process.env): NotStartedArteTasks {
  let selection: Selection | undefined
  if (files.some((file) => partOfFile(file) !== undefined)) {
    try {
      const settings = arteSettingsFromEnv(env, root)
      const rows = loadArteDatasetSync(settings.dataset, { split: settings.split, rows: settings.rows, limit: settings.limit, badRows: [] })
      selection = rows === undefined ? undefined : { settings, rows }
    } catch {
      selection = undefined
    }
  }
  return tasksOf(files, root, agent, selection)
}

function tasksOf(files: ReadonlyArray<string>, root: string, agent: NotStartedModel, selection: Selection | undefined): NotStartedArteTasks {
  const metas: ArteTestMeta[] = []
  const uncounted: string[] = []
  for (const file of files) {
    const part = partOfFile(file)
    if (part === undefined || selection === undefined) {
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
