import { z } from 'zod'
import { type ArteTaskScore, arteComparable } from './comparable.ts'
import type { ArteResults } from './results.ts'
import { judgeVerdict } from './run-statistics.ts'
import { type RunComparison, RunComparisonSchema, compareRuns, formatRunComparison } from '../../stats/compare-runs.ts'

/**
 * A line a comparison adds about one of its scores: it was not compared and why (`not-compared`), some tasks were left
 * out of its pairs (`left-out`), or the two runs measured it differently (`different-judges`); or about the whole
 * comparison: the runs share no task because they select different rows (`different-selection`, metric `*`).
 */
export const ComparisonNoteSchema = z.object({
  metric: z.string(),
  kind: z.enum(['not-compared', 'left-out', 'different-judges', 'different-selection']),
  message: z.string(),
})

/** See {@link ComparisonNoteSchema}. */
export type ComparisonNote = z.infer<typeof ComparisonNoteSchema>

/**
 * `agent-bench compare A B --json`: the paired comparison, with lines about the scores only some runs carry (ART-E's
 * `sourcesAccuracy` and `llmJudgeAccuracy`; none for MPCBench) and, when both ART-E runs were judged, their judge models.
 */
export const ScoredComparisonSchema = RunComparisonSchema.extend({
  notes: z.array(ComparisonNoteSchema),
  /** The LLM judge model(s) of each run, when both ran one (`llmJudge.model`). */
  judgeModels: z.object({ a: z.string(), b: z.string() }).optional(),
})

/** See {@link ScoredComparisonSchema}. */
export type ScoredComparison = z.infer<typeof ScoredComparisonSchema>

/** A comparison with no notes: what an MPCBench comparison gives. */
export function withoutNotes(comparison: RunComparison): ScoredComparison {
  return { ...comparison, notes: [] }
}

/**
 * A score only some results carry (a task's value is null when it has none, never counted as 0): `missing` says why a
 * run lacks it (`A ...`), undefined when the run carries it.
 */
interface OptionalScore extends ArteTaskScore {
  name: 'sourcesAccuracy' | 'llmJudgeAccuracy'
  missing: (results: ArteResults) => string | undefined
}

const SOURCES: OptionalScore = {
  name: 'sourcesAccuracy',
  missing: (results) =>
    results.taskResults.some((task) => task.outcome.kind !== 'not-run' && task.sourcesCorrect !== undefined)
      ? undefined
      : 'has no per-task sourcesCorrect (results written before it was measured)',
  value: (task) => (task.sourcesCorrect === undefined ? null : task.sourcesCorrect ? 1 : 0),
}

const JUDGE: OptionalScore = {
  name: 'llmJudgeAccuracy',
  missing: (results) => (results.llmJudge === undefined ? 'was not judged (no ARTE_JUDGE_MODEL)' : undefined),
  value: (task) => {
    const verdict = judgeVerdict(task)
    return verdict === undefined ? null : verdict ? 1 : 0
  },
}

/** How the two runs' row selections differ (split, `config.rows`, dataset), or undefined when they select alike. */
function differentSelection(a: ArteResults, b: ArteResults): string | undefined {
  const parts: string[] = []
  if (a.config.split !== b.config.split) parts.push(`A is split ${a.config.split}, B split ${b.config.split}`)
  const rowsA = a.config.rows ?? 'all'
  const rowsB = b.config.rows ?? 'all'
  if (rowsA !== rowsB) parts.push(`A runs rows ${rowsA}, B rows ${rowsB} (ARTE_ROWS)`)
  if (a.config.dataset !== b.config.dataset) parts.push(`A reads ${a.config.dataset}, B ${b.config.dataset}`)
  return parts.length === 0 ? undefined : parts.join('; ')
}

/**
 * Compares ART-E run `b` with run `a` as `agent-bench compare` does (pass = exact match, tasks paired by id, trial 1),
 * adding the paired deltas of `sourcesAccuracy` (over the tasks with `sourcesCorrect` in both) and `llmJudgeAccuracy`
 * (over the tasks both judges gave a verdict on: a judge error on either side leaves the task out) when both runs carry
 * them. When only one run carries a score, a note says it is not compared and why; when neither does, nothing is said.
 * When both runs were judged by different models, a note flags the judge delta (still shown, never the primary metric).
 */
export function compareArteResults(a: ArteResults, b: ArteResults): ScoredComparison {
  const notes: ComparisonNote[] = []
  const compared: OptionalScore[] = []
  for (const score of [SOURCES, JUDGE]) {
    const missingA = score.missing(a)
    const missingB = score.missing(b)
    if (missingA === undefined && missingB === undefined) compared.push(score)
    else if (missingA === undefined || missingB === undefined) {
      notes.push({
        metric: score.name,
        kind: 'not-compared',
        message: `${score.name}: not compared, ${missingA === undefined ? 'B' : 'A'} ${missingA ?? missingB}`,
      })
    }
  }
  const comparison = compareRuns(arteComparable(a, compared), arteComparable(b, compared))
  const selection = differentSelection(a, b)
  if (comparison.tasks === 0 && selection !== undefined) {
    notes.unshift({ metric: '*', kind: 'different-selection', message: `No task is in both runs: ${selection}. Compare runs of the same selection.` })
  }
  if (a.llmJudge === undefined || b.llmJudge === undefined) return { ...comparison, notes }
  const judged = comparison.metrics[JUDGE.name]
  const leftOut = comparison.tasks - (judged?.tasks ?? 0)
  if (leftOut > 0) {
    notes.push({
      metric: JUDGE.name,
      kind: 'left-out',
      message: `${JUDGE.name}: paired over ${judged?.tasks ?? 0} task(s) judged in both runs; ${leftOut} left out (the judge erred or gave no verdict in A or B)`,
    })
  }
  const judgeModels = { a: a.llmJudge.model, b: b.llmJudge.model }
  if (judgeModels.a !== judgeModels.b) {
    notes.push({
      metric: JUDGE.name,
      kind: 'different-judges',
      message: `${JUDGE.name}: judged by different models (A: ${judgeModels.a}, B: ${judgeModels.b}), not the same measurement: its delta mixes the agent's change with the judges' disagreement`,
    })
  }
  return { ...comparison, notes, judgeModels }
}

/** The comparison as text: {@link formatRunComparison}'s lines, then one line per note. */
export function formatScoredComparison(c: ScoredComparison, labels: { a: string; b: string }): string {
  return [formatRunComparison(c, labels), ...c.notes.map((note) => note.message)].join('\n')
}
