import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { mpcbenchV2ComparableRun } from '../mpcbench-v2/scoring/comparable.ts'
import { type LevelSummary, MPCBENCH_V2_HISTORY_NAME, type MpcbenchV2Summary, MpcbenchV2SummarySchema } from '../mpcbench-v2/scoring/summary.ts'
import { type RunComparison, compareRuns } from '../stats/compare-runs.ts'

/** A level x data x model of the run compared with the same one of the previous run (paired by instance id). */
export interface MpcbenchV2GroupComparison {
  level: number
  worldId: string
  model: string
  comparison: RunComparison
}

/** One MPCBench v2 summary with everything the page shows about it. */
export interface MpcbenchV2Section {
  kind: 'mpcbench-v2'
  /** The summary file as named to the user. */
  file: string
  summary: MpcbenchV2Summary
  /**
   * `BENCH_TRACE_URL`: a trace viewer's address of a trace, `{traceId}` standing for the id (appended when absent;
   * Jaeger: `http://localhost:16686/trace/{traceId}`); each instance's OpenTelemetry trace id links to it. Without it
   * the id is shown to paste into the viewer's search.
   */
  traceUrl?: string
  /** The run before this one in the run history, and each level x data x model both runs have, compared. */
  previous?: { file: string; summary: MpcbenchV2Summary; comparisons: MpcbenchV2GroupComparison[] }
}

/** Whether ISO time `a` is before `b` (text order when either is no time). */
function isBefore(a: string, b: string): boolean {
  const [x, y] = [Date.parse(a), Date.parse(b)]
  return Number.isNaN(x) || Number.isNaN(y) ? a < b : x < y
}

/**
 * The most recent earlier v2 summary kept under `historyDir` (`{run id}/mpcbench-v2/summary.json`, as the v2 reporter
 * keeps it): the newest written before `generatedAt`, not of run `runId`; unreadable copies are passed over.
 */
export function findPreviousMpcbenchV2Run(
  historyDir: string | undefined,
  generatedAt: string,
  runId?: string,
): { file: string; summary: MpcbenchV2Summary } | undefined {
  if (historyDir === undefined || !existsSync(historyDir)) return undefined
  const runs = readdirSync(historyDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== runId)
    .map((entry) => entry.name)
    .sort()
    .reverse()
  for (const run of runs) {
    const file = join(historyDir, run, MPCBENCH_V2_HISTORY_NAME)
    if (!existsSync(file)) continue
    let parsed: ReturnType<typeof MpcbenchV2SummarySchema.safeParse>
    try {
      parsed = MpcbenchV2SummarySchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    } catch {
      continue
    }
    if (parsed.success && isBefore(parsed.data.generatedAt, generatedAt)) return { file, summary: parsed.data }
  }
  return undefined
}

const groupKey = (level: LevelSummary): string => JSON.stringify([level.level, level.worldId, level.model])

/** Each level x data x model in both summaries, B compared with A by instance id (trial 1; pass = exact match). */
export function compareMpcbenchV2Summaries(a: MpcbenchV2Summary, b: MpcbenchV2Summary): MpcbenchV2GroupComparison[] {
  const before = new Map(a.levels.map((level) => [groupKey(level), level]))
  return b.levels.flatMap((level) => {
    const old = before.get(groupKey(level))
    if (old === undefined) return []
    return [
      {
        level: level.level,
        worldId: level.worldId,
        model: level.model,
        comparison: compareRuns(mpcbenchV2ComparableRun(old.results), mpcbenchV2ComparableRun(level.results)),
      },
    ]
  })
}

/** The page's section of one v2 summary: the summary, and the comparison with the previous run when there is one. */
export function buildMpcbenchV2Section(
  file: string,
  summary: MpcbenchV2Summary,
  historyDir: string | undefined,
  env: Record<string, string | undefined> = process.env,
): MpcbenchV2Section {
  const previous = findPreviousMpcbenchV2Run(historyDir, summary.generatedAt, summary.runId)
  const traceUrl = env.BENCH_TRACE_URL?.trim()
  return {
    kind: 'mpcbench-v2',
    file,
    summary,
    ...(traceUrl === undefined || traceUrl === '' ? {} : { traceUrl: traceUrl.includes('{traceId}') ? traceUrl : `${traceUrl}{traceId}` }),
    ...(previous === undefined ? {} : { previous: { ...previous, comparisons: compareMpcbenchV2Summaries(previous.summary, summary) } }),
  }
}
