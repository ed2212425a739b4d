import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import fg from 'fast-glob'
import { TASK_TYPES } from '../task-types.ts'

/** A Vitest `watchTriggerPatterns` entry (the shape `vitest/node` expects). */
export interface WatchTriggerPattern {
  pattern: RegExp
  testsToRun: (file: string, match: RegExpMatchArray) => string[] | undefined
}

/** Options of {@link mpcbenchWatchTriggerPatterns}. */
export interface MpcbenchWatchOptions {
  /** Project root (`vitest.config.ts` folder). */
  root: string
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function benchFiles(root: string, types: ReadonlyArray<string>): string[] | undefined {
  if (types.length === 0) return undefined
  const files = fg.sync(types.map((type) => `bench/${type}/**/*.eval.ts`), { cwd: root, absolute: true }).sort()
  return files.length === 0 ? undefined : files
}

function scenarioIdOf(file: string, fallback: string): string {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { scenario_id?: unknown }
    return typeof parsed.scenario_id === 'string' ? parsed.scenario_id : fallback
  } catch {
    return fallback
  }
}

/** Task types with at least one task over `scenarioId` (tasks that cannot be read are skipped). */
function taskTypesUsingScenario(root: string, scenarioId: string): string[] {
  const types = new Set<string>()
  for (const file of fg.sync(TASK_TYPES.map((type) => `tasks/${type}/*.json`), { cwd: root })) {
    try {
      const task = JSON.parse(readFileSync(join(root, file), 'utf8')) as { data_dependencies?: { scenario_id?: unknown } }
      if (task.data_dependencies?.scenario_id === scenarioId) types.add(file.split('/')[1] ?? '')
    } catch {
      // A half-written task file: its own change event will rerun its type.
    }
  }
  return [...types].sort()
}

/**
 * Vitest `watchTriggerPatterns` (a root-level option in Vitest 4) for the MPCBench bench files, which read their
 * inputs with `fs` (so the module graph cannot see them):
 * - `prompt_config.json`, `model_config.json` or `llm_context/*.md` (the developer message) → every
 *   `bench/{planning,email_reply,document_generation}/**\/*.eval.ts`;
 * - `tasks/{type}/*.json` → `bench/{type}/**\/*.eval.ts`;
 * - `scenarios/{id}.json` → the bench files of the task types that have a task over that scenario.
 * Anything else (generated `data/`, `evaluation/` logs) triggers nothing here; see {@link MPCBENCH_WATCH_IGNORED}.
 */
export function mpcbenchWatchTriggerPatterns(options: MpcbenchWatchOptions): WatchTriggerPattern[] {
  const root = resolve(options.root).replaceAll('\\', '/')
  const base = `^${escapeRegExp(root)}/`
  return [
    {
      pattern: new RegExp(`${base}((prompt_config|model_config)\\.json|llm_context/[^/]+\\.md)$`),
      testsToRun: () => benchFiles(root, TASK_TYPES),
    },
    {
      pattern: new RegExp(`${base}tasks/(${TASK_TYPES.join('|')})/[^/]+\\.json$`),
      testsToRun: (_file, match) => benchFiles(root, [match[1] ?? '']),
    },
    {
      pattern: new RegExp(`${base}scenarios/([^/]+)\\.json$`),
      testsToRun: (file, match) => benchFiles(root, taskTypesUsingScenario(root, scenarioIdOf(file, match[1] ?? ''))),
    },
  ]
}

/**
 * Watcher globs for generated files, for `server.watch.ignored`: scenario data written by the MPCBench
 * globalSetup (`data/{id}_{world_state|source}.json` and its sidecars) and everything under `evaluation/`
 * (run logs, judge files, call logs, `summary.json`). Changes there never rerun tests.
 */
export const MPCBENCH_WATCH_IGNORED: string[] = [
  '**/evaluation/**',
  '**/data/*_{world_state,slack,gmail,calendar,contacts,jira,drive}.json',
  '**/data/*.generation.json',
  '**/data/*.tmp',
]
