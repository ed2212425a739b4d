import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import fg from 'fast-glob'
import { TASK_TYPES } from '../tasks/task-types.ts'

/** A Vitest `watchTriggerPatterns` entry (the shape `vitest/node` expects). */
export interface WatchTriggerPattern {
  pattern: RegExp
  testsToRun: (file: string, match: RegExpMatchArray) => string[] | undefined
}

/** Options of {@link mpcbenchWatchTriggerPatterns}. */
export interface MpcbenchWatchOptions {
  /** Project root (`vitest.config.ts` folder). */
  root: string
  /** Read for `MPCBENCH_PROMPT_CONFIG` and `MPCBENCH_LLM_CONTEXT` (see {@link mpcbenchWatchTriggerPatterns}). @default process.env */
  env?: Record<string, string | undefined>
}

/**
 * The upstream bench files (`bench/{type}/upstream-*.eval.ts`, e.g. `upstream-v1.eval.ts`): they run upstream's own
 * tasks on upstream's data under upstream's prompts (see `define-upstream-v1-bench.ts`), so this project's tasks,
 * scenarios and prompts do not reach them.
 */
export const UPSTREAM_BENCH_FILES = 'upstream-*.eval.ts'

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The bench files of `types`; without the upstream v1 ones ({@link UPSTREAM_BENCH_FILES}) unless `upstream` is true. */
function benchFiles(root: string, types: ReadonlyArray<string>, upstream: boolean): string[] | undefined {
  if (types.length === 0) return undefined
  const ignore = upstream ? [] : [`bench/*/**/${UPSTREAM_BENCH_FILES}`]
  const files = fg
    .sync(
      types.map((type) => `bench/${type}/**/*.eval.ts`),
      { cwd: root, absolute: true, ignore },
    )
    .sort()
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
  for (const file of fg.sync(
    TASK_TYPES.map((type) => `tasks/${type}/*.json`),
    { cwd: root },
  )) {
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
 * - `model_config.json` (the agents and judges) → every `bench/{planning,email_reply,document_generation}/**\/*.eval.ts`;
 * - `prompt_config.json` or `llm_context/*.md` (the developer message) → the same files but the upstream v1 ones
 *   ({@link UPSTREAM_BENCH_FILES}, which read upstream's prompts), unless `MPCBENCH_PROMPT_CONFIG` or
 *   `MPCBENCH_LLM_CONTEXT` is set (upstream's benches then read the prompts named there too);
 * - `tasks/{type}/*.json` → `bench/{type}/**\/*.eval.ts` but the upstream v1 ones;
 * - `scenarios/{id}.json` → the bench files (but the upstream v1 ones) of the task types that have a task over that
 *   scenario.
 * Anything else (generated `data/`, `evaluation/` logs) triggers nothing here; see {@link MPCBENCH_WATCH_IGNORED}.
 */
export function mpcbenchWatchTriggerPatterns(options: MpcbenchWatchOptions): WatchTriggerPattern[] {
  const root = resolve(options.root).replaceAll('\\', '/')
  const base = `^${escapeRegExp(root)}/`
  const env = options.env ?? process.env
  const namedPrompts = [env.MPCBENCH_PROMPT_CONFIG, env.MPCBENCH_LLM_CONTEXT].some((value) => (value ?? '').trim() !== '')
  return [
    {
      pattern: new RegExp(`${base}model_config\\.json$`),
      testsToRun: () => benchFiles(root, TASK_TYPES, true),
    },
    {
      pattern: new RegExp(`${base}(prompt_config\\.json|llm_context/[^/]+\\.md)$`),
      testsToRun: () => benchFiles(root, TASK_TYPES, namedPrompts),
    },
    {
      pattern: new RegExp(`${base}tasks/(${TASK_TYPES.join('|')})/[^/]+\\.json$`),
      testsToRun: (_file, match) => benchFiles(root, [match[1] ?? ''], false),
    },
    {
      pattern: new RegExp(`${base}scenarios/([^/]+)\\.json$`),
      testsToRun: (file, match) => benchFiles(root, taskTypesUsingScenario(root, scenarioIdOf(file, match[1] ?? '')), false),
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
