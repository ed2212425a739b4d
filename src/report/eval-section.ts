import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type EvalResults, EvalResultsSchema, evalHistoryName } from '../results/eval-results.ts'
import { evalComparableRun } from '../results/eval-comparable.ts'
import { type RunComparison, compareRuns } from '../stats/compare-runs.ts'

/** One eval's results file with everything the page shows about it. */
export interface EvalSection {
  kind: 'eval'
  /** The results file as named to the user. */
  file: string
  results: EvalResults
  /** The same eval's run before this one in the run history, and how this run compares with it. */
  previous?: { file: string; results: EvalResults; comparison: RunComparison }
}

/** Whether ISO time `a` is before `b` (text order when either is no time). */
function isBefore(a: string, b: string): boolean {
  const [x, y] = [Date.parse(a), Date.parse(b)]
  return Number.isNaN(x) || Number.isNaN(y) ? a < b : x < y
}

/**
 * The most recent earlier run of eval `name` kept under `historyDir` (`{run id}/evals/{eval}.json`, as the eval reporter
 * keeps it): the newest whose run started before `startedAt`; unreadable copies are passed over.
 */
export function findPreviousEvalRun(
  historyDir: string | undefined,
  name: string,
  startedAt: string,
  runId?: string,
): { file: string; results: EvalResults } | undefined {
  if (historyDir === undefined || !existsSync(historyDir)) return undefined
  const runs = readdirSync(historyDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== runId)
    .map((entry) => entry.name)
    .sort()
    .reverse()
  for (const run of runs) {
    const file = join(historyDir, run, evalHistoryName(name))
    if (!existsSync(file)) continue
    let parsed: ReturnType<typeof EvalResultsSchema.safeParse>
    try {
      parsed = EvalResultsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    } catch {
      continue
    }
    if (!parsed.success || parsed.data.name !== name) continue
    if (isBefore(parsed.data.config.startedAt, startedAt)) return { file, results: parsed.data }
  }
  return undefined
}

/** The page's section of one eval's results: the results, and the comparison with the previous run when there is one. */
export function buildEvalSection(file: string, results: EvalResults, historyDir: string | undefined): EvalSection {
  const previous = findPreviousEvalRun(historyDir, results.name, results.config.startedAt, results.config.runId)
  return {
    kind: 'eval',
    file,
    results,
    ...(previous === undefined ? {} : { previous: { ...previous, comparison: compareRuns(evalComparableRun(previous.results), evalComparableRun(results)) } }),
  }
}
