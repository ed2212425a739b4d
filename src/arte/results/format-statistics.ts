import { formatWithCi } from '../../stats/bootstrap.ts'
import { formatCachedPart, paidCostUsd } from '../../llm/usage.ts'
import type { ArteResults } from './results.ts'
import { ARTE_ROW_SELECTION_TEXT } from '../dataset/row-selection.ts'
import { notStartedLine } from '../../core/not-started-files.ts'

/**
 * The reporter's score rows: each score metric with its interval (`0.600 [0.313, 0.832] (6/10)`), the sources and,
 * with a judge, the judge's accuracy (over the judged tasks, judge errors named), how the intervals were computed
 * (see {@link intervalMethods}: with trials it names pass^k's too), and with trials the pass^k line, each pass^j with
 * its bootstrap interval when the results carry one (`1: 0.600 [0.313, 0.832] · 2: 0.500 [0.200, 0.800]`; older
 * results: `1: 0.600 · 2: 0.500`).
 */
export function formatArteStatistics(results: ArteResults, exact: number): Array<[string, string]> {
  const ci = results.confidenceIntervals
  const ran = results.totalTasks - results.notRunTasks
  const rows: Array<[string, string]> = [
    ['exactMatchAccuracy', `${formatWithCi(results.exactMatchAccuracy, ci?.exactMatchAccuracy)} (${exact}/${ran})`],
    ['avgSemanticScore', formatWithCi(results.avgSemanticScore, ci?.avgSemanticScore)],
  ]
  if (results.sourcesAccuracy !== undefined) {
    const cited = results.taskResults.filter((task) => task.outcome.kind !== 'not-run' && task.sourcesCorrect === true).length
    rows.push(['sourcesAccuracy', `${formatWithCi(results.sourcesAccuracy, ci?.sourcesAccuracy)} (${cited}/${ran})`])
  }
  const judge = results.llmJudge
  if (judge !== undefined) rows.push(['llmJudgeAccuracy', formatJudgeAccuracy(results)])
  const interval = intervalMethods(results)
  if (interval !== undefined) rows.push(['interval', interval])
  if ((results.trials ?? 1) > 1 && results.passHatK !== undefined) {
    const cis = results.passHatKCi
    const entries = Object.entries(results.passHatK).map(([k, value]) => `${k}: ${formatWithCi(value, cis?.[k])}`)
    const tasks = results.passHatKTasks
    const over = tasks === undefined || tasks === results.totalTasks ? '' : `, over the ${tasks} task(s) with an outcome in every trial`
    rows.push([`pass^k (${results.trials} trials${over})`, entries.length === 0 ? '-' : entries.join(' · ')])
  }
  return rows
}

/**
 * How the printed intervals were computed, for the reporter's `interval` row: `95% Wilson score interval over 10
 * task(s) (exactMatchAccuracy, sourcesAccuracy); percentile bootstrap over 10 task(s), 2000 resamples, seed 20260311
 * (avgSemanticScore)`, each method once with the metrics it covers, or the method alone when every interval shares it
 * (results written before the proportions had Wilson intervals). With trials, pass^k's intervals are named as
 * `pass^k` when every j has one method, else each as `pass^j` (Wilson's for a j whose per-task values are all 0 or
 * 1). `undefined` without exactMatchAccuracy's interval.
 */
export function intervalMethods(
  results: Pick<ArteResults, 'confidenceIntervals' | 'sourcesAccuracy' | 'llmJudgeAccuracy' | 'trials' | 'passHatKCi'>,
): string | undefined {
  const ci = results.confidenceIntervals
  const first = ci?.exactMatchAccuracy
  if (ci === undefined || first === null || first === undefined) return undefined
  const passCis = (results.trials ?? 1) > 1 ? Object.entries(results.passHatKCi ?? {}) : []
  const onePassMethod = new Set(passCis.map(([, interval]) => interval.method)).size <= 1
  const shown = {
    exactMatchAccuracy: first,
    avgSemanticScore: ci.avgSemanticScore,
    ...(results.sourcesAccuracy === undefined ? {} : { sourcesAccuracy: ci.sourcesAccuracy }),
    ...(results.llmJudgeAccuracy === undefined ? {} : { llmJudgeAccuracy: ci.llmJudgeAccuracy }),
    ...(onePassMethod
      ? passCis[0] === undefined
        ? {}
        : { 'pass^k': passCis[0][1] }
      : Object.fromEntries(passCis.map(([j, interval]) => [`pass^${j}`, interval]))),
  }
  const byMethod = new Map<string, string[]>()
  for (const [name, interval] of Object.entries(shown)) {
    if (interval === null || interval === undefined) continue
    byMethod.set(interval.method, [...(byMethod.get(interval.method) ?? []), name])
  }
  const methods = [...byMethod].map(([method, names]) => (byMethod.size === 1 ? method : `${method} (${names.join(', ')})`))
  return `${Math.round(first.level * 100)}% ${methods.join('; ')}`
}

/**
 * The reporter's row naming the run's row selection (`ARTE_ROWS`), printed under the run line when it is not `all`
 * (`rows  openpipe (OpenPipe's evaluation rows: ...)`); none for `all` or results that do not record it.
 */
export function rowSelectionRows(results: Pick<ArteResults, 'config'>): Array<[string, string]> {
  const { rows } = results.config
  if (rows === undefined || rows === 'all') return []
  if (rows === 'mixed') return [['rows', `mixed (the merged tests selected their rows differently: ${Object.keys(ARTE_ROW_SELECTION_TEXT).join(', ')})`]]
  return [['rows', `${rows} (${ARTE_ROW_SELECTION_TEXT[rows]})`]]
}

/** The warning printed when an empty answer passed some task, or `undefined` when none did. */
export function graderSuspectWarning(results: Pick<ArteResults, 'graderSuspects'>): string | undefined {
  const suspects = results.graderSuspects ?? []
  if (suspects.length === 0) return undefined
  return `WARNING: grader suspects: an empty answer passed ART-E task(s) ${suspects.join(', ')}; a task an empty answer passes measures nothing (check its ground truth).`
}

/** What `llmJudgeAccuracy` shows when it has no value: the judge gave no verdict on any task it was asked about. */
export const NO_VERDICT = 'no verdict'

/**
 * How much of the run the judge covered, when it did not cover it all: `over 2 judged of 4 task(s); 2 judge error(s)
 * (the accuracy leaves them out and is biased toward unanswered tasks)`; `undefined` with no judge or no judge error.
 * Printed beside `llmJudgeAccuracy` by the reporter, the job summary and the report.
 */
export function judgeCoverageText(results: Pick<ArteResults, 'llmJudge' | 'totalTasks' | 'notRunTasks'>): string | undefined {
  const judge = results.llmJudge
  if (judge === undefined || judge.errors === 0) return undefined
  const ran = results.totalTasks - results.notRunTasks
  return `over ${judge.judgedTasks} judged of ${ran} task(s); ${judge.errors} judge error(s) (the accuracy leaves them out and is biased toward unanswered tasks, which need no judge call)`
}

/**
 * The reporter's `llmJudgeAccuracy` value: `0.500 [0.000, 1.000] (2/4 judged by MODEL)`, then the coverage when some
 * task has no verdict (see {@link judgeCoverageText}), or {@link NO_VERDICT} when it has no value.
 */
export function formatJudgeAccuracy(
  results: Pick<ArteResults, 'llmJudge' | 'llmJudgeAccuracy' | 'confidenceIntervals' | 'totalTasks' | 'notRunTasks'>,
): string {
  const judge = results.llmJudge
  if (judge === undefined) return ''
  const coverage = judgeCoverageText(results)
  if (results.llmJudgeAccuracy === undefined) return `${NO_VERDICT} from ${judge.model} (${coverage ?? `${judge.judgedTasks} task(s) judged`})`
  const correct = Math.round(results.llmJudgeAccuracy * judge.judgedTasks)
  const value = `${formatWithCi(results.llmJudgeAccuracy, results.confidenceIntervals?.llmJudgeAccuracy)} (${correct}/${judge.judgedTasks} judged by ${judge.model})`
  return coverage === undefined ? value : `${value} ${coverage}`
}

/** The reporter's rows of the judge's tokens and cost (apart from the agent's), or none when no judge ran. */
export function judgeUsageRows(results: Pick<ArteResults, 'llmJudge'>): Array<[string, string]> {
  const judge = results.llmJudge
  if (judge === undefined) return []
  const { usage } = judge
  const paid = paidCostUsd(usage)
  const cost = paid === null ? 'unknown (no price for the model)' : `$${paid.toFixed(4)}${usage.cached === undefined ? '' : ' paid'}`
  const n = (value: number): string => value.toLocaleString('en-US')
  return [
    [
      'judge tokens',
      `${n(usage.totalTokens)} (${n(usage.promptTokens)} prompt, ${n(usage.completionTokens)} completion) in ${n(usage.calls)} call(s)${formatCachedPart(usage)}`,
    ],
    ['judge cost', cost],
  ]
}

/** The warning printed when the judge gave no verdict on some task (trial 1), naming the first few; `undefined` when it always did. */
export function judgeErrorWarning(results: Pick<ArteResults, 'llmJudge' | 'taskResults'>): string | undefined {
  if (results.llmJudge === undefined || results.llmJudge.errors === 0) return undefined
  const erred = results.taskResults.filter((task) => task.outcome.kind !== 'not-run' && task.llmJudgeError !== undefined)
  const shown = erred.slice(0, 3).map((task) => `${task.taskId} (${task.llmJudgeError?.code}: ${task.llmJudgeError?.message})`)
  const more = erred.length > shown.length ? `, and ${erred.length - shown.length} more` : ''
  return `WARNING: the ART-E judge ${results.llmJudge.model} gave no verdict on ${erred.length} task(s), left out of llmJudgeAccuracy, which is then biased toward the unanswered tasks (judged false without a call): ${shown.join('; ')}${more}. \`agent-bench arte --resume\` asks the judge again for these tasks only (the agent does not run again).`
}

/** How a resumed run's tests (one per task and trial) ended up: reused from earlier runs, run now, or not run. */
export interface ResumeCounts {
  reused: number
  ranNow: number
  notRun: number
  /** What the reused tasks' agents spent in their earlier runs (part of the run's `usage`); absent means none. */
  reusedUsage?: ArteResults['usage']
}

/**
 * The reporter's row of a resumed run (`--resume`, `BENCH_RESUME=1`): `10 task(s) reused from earlier runs, 22 run
 * now`, then the tasks not run when it was interrupted again; with trials each trial counts. None without counts.
 */
export function resumedRows(counts: ResumeCounts | undefined, trials = 1): Array<[string, string]> {
  if (counts === undefined) return []
  const unit = trials > 1 ? 'task run(s) (each trial counts)' : 'task(s)'
  const none = counts.reused === 0 ? ' (none had a finished result for this model, dataset, split, max turns and email database in the traces database)' : ''
  const notRun = counts.notRun > 0 ? `, ${counts.notRun} not run` : ''
  const rows: Array<[string, string]> = [['resumed', `${counts.reused} ${unit} reused from earlier runs${none}, ${counts.ranNow} run now${notRun}`]]
  const spent = counts.reusedUsage
  if (counts.reused > 0 && spent !== undefined) {
    const paid = paidCostUsd(spent)
    const cost = paid === null ? 'cost unknown' : `$${paid.toFixed(4)}`
    rows.push([
      '',
      `the reused tasks' ${spent.calls} call(s), ${spent.totalTokens} tokens, ${cost}, were spent in their earlier runs (counted in tokens and cost, which are the results' own)`,
    ])
  }
  return rows
}

/**
 * The line printed after an interrupted run's metrics: how many tasks did not run and how to run only the unfinished
 * ones (and the test files that never started); `undefined` when the run was not interrupted or every task ran.
 * @param uncounted the never-started files whose tasks are in no count; the others' tasks are counted as not run.
 *   Default: all of `notStartedFiles` (results that do not say).
 */
export function resumeHint(
  results: Pick<ArteResults, 'testRunEndReason' | 'notRunTasks' | 'notStartedFiles'>,
  uncounted?: ReadonlyArray<string>,
): string | undefined {
  const notStarted = results.notStartedFiles ?? []
  if (results.testRunEndReason !== 'interrupted' || (results.notRunTasks === 0 && notStarted.length === 0)) return undefined
  const notCounted = uncounted ?? notStarted
  const counted = notStarted.length - notCounted.length
  const never = [counted === 0 ? undefined : `${counted} test file(s) never started: their tasks are counted as not run.`, notStartedLine(notCounted)]
    .filter((line) => line !== undefined)
    .join(' ')
  return `ART-E run interrupted: ${results.notRunTasks} task(s) not run.${never === '' ? '' : ` ${never}`} To run only the tasks without a finished result, run the same command again with --resume (agent-bench arte) or BENCH_RESUME=1 (vitest run).`
}
