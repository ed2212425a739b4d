import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { type ArteResults, ArteResultsSchema } from '../arte/results/results.ts'
import { ARTE_HISTORY_FILE, arteHistorySettings } from '../arte/settings.ts'
import { defineCommand } from '../cli/define-command.ts'
import { FlagValueError, assertFlagPathExists } from '../cli/flag-value-error.ts'
import { ConfigError, InvalidFormatError } from '../core/errors.ts'
import { parseWith } from '../core/parse.ts'
import { latestInHistory } from '../core/run-history.ts'
import { pairMpcbenchRuns } from '../mpcbench/summary/comparable.ts'
import { MPCBENCH_HISTORY_FILE } from '../mpcbench/settings.ts'
import { SummarySchema } from '../mpcbench/summary/summary.ts'
import { compareRuns } from '../stats/compare-runs.ts'
import { type EvalResults, EvalResultsSchema, evalHistoryName, looksLikeEvalResults } from '../results/eval-results.ts'
import { evalComparableRun } from '../results/eval-comparable.ts'
import { MPCBENCH_V2_HISTORY_NAME } from '../mpcbench-v2/scoring/summary.ts'
import { looksLikeMpcbenchV2Summary, mpcbenchV2ComparableRun, readMpcbenchV2Comparable } from '../mpcbench-v2/scoring/comparable.ts'
import { compareArteResults, formatScoredComparison, type ScoredComparison, withoutNotes } from '../arte/results/score-comparison.ts'

type Loaded =
  | { kind: 'arte'; results: ArteResults }
  | { kind: 'mpcbench'; summary: ReturnType<typeof SummarySchema.parse> }
  | { kind: 'eval'; results: EvalResults }
  | { kind: 'mpcbench-v2'; results: ReturnType<typeof readMpcbenchV2Comparable> }

/**
 * Reads an ART-E results file, an MPCBench summary, an eval's results file, or MPCBench v2 results (a v2 summary, or
 * a `.jsonl` rows file in upstream's format), telling them apart by their keys.
 */
export function loadComparable(file: string): Loaded {
  if (file.endsWith('.jsonl')) return { kind: 'mpcbench-v2', results: readMpcbenchV2Comparable(file) }
  let value: unknown
  try {
    value = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new InvalidFormatError(`Cannot read ${file} as JSON: ${(error as Error).message}`, {
      file,
      hint: "Pass an ART-E results file (evaluation/arte/results.json), an MPCBench summary (evaluation/summary.json) or an eval's results (evaluation/evals/{eval}/results.json).",
      cause: error,
    })
  }
  const record = (value ?? {}) as Record<string, unknown>
  if (looksLikeMpcbenchV2Summary(value)) return { kind: 'mpcbench-v2', results: readMpcbenchV2Comparable(file) }
  if (looksLikeEvalResults(value)) return { kind: 'eval', results: parseWith(EvalResultsSchema, value, 'eval results', file) }
  if ('taskResults' in record) return { kind: 'arte', results: parseWith(ArteResultsSchema, value, 'ART-E results', file) }
  if ('rows' in record && 'scores' in record) return { kind: 'mpcbench', summary: parseWith(SummarySchema, value, 'MPCBench summary', file) }
  throw new InvalidFormatError(`${file} is neither ART-E results (no \`taskResults\`) nor an MPCBench summary (no \`rows\`/\`scores\`).`, {
    file,
    hint: 'Pass two files written by the ART-E reporter or two written by the MPCBench reporter.',
  })
}

/** Compares two loaded files of the same benchmark. */
export function compareFiles(fileA: string, fileB: string): ScoredComparison {
  const a = loadComparable(fileA)
  const b = loadComparable(fileB)
  if (a.kind === 'arte' && b.kind === 'arte') return compareArteResults(a.results, b.results)
  if (a.kind === 'eval' && b.kind === 'eval') return withoutNotes(compareRuns(evalComparableRun(a.results), evalComparableRun(b.results)))
  if (a.kind === 'mpcbench' && b.kind === 'mpcbench') {
    const [runA, runB] = pairMpcbenchRuns(a.summary, b.summary)
    return withoutNotes(compareRuns(runA, runB))
  }
  if (a.kind === 'mpcbench-v2' && b.kind === 'mpcbench-v2')
    return withoutNotes(compareRuns(mpcbenchV2ComparableRun(a.results), mpcbenchV2ComparableRun(b.results)))
  throw new ConfigError(`Cannot compare ${fileA} (${a.kind}) with ${fileB} (${b.kind}).`, {
    hint: 'Compare two ART-E results files, two MPCBench summaries, two results files of evals, or two MPCBench v2 summaries or rows files.',
  })
}

/** `agent-bench compare A.json B.json [--json]`. */
export const command = defineCommand({
  name: 'compare',
  summary: 'Compare two runs (ART-E results, MPCBench summaries, eval results or MPCBench v2 results): flips, deltas with paired intervals, significance (p)',
  description: `Compares run B with run A, task by task: two ART-E results files (evaluation/arte/results.json; pass = exact
match) or two MPCBench summaries (evaluation/summary.json; pass = requirements >= 4, per task x agent x judge;
a test that timed out or failed before its score fails). Prints the flips (tasks whose pass differs), the improved
(fail -> pass) and regressed (pass -> fail) ids, each metric's delta with a 95% paired bootstrap interval (seeded:
the same files print the same interval; a task's judges are resampled together), and whether the difference is
significant: p < 0.05 in an exact paired sign-flip test of the primary metric by task (the exact McNemar test for
pass/fail scores; a seeded Monte Carlo of 20,000 draws above 20 tasks that differ).

ART-E: sourcesAccuracy is compared when both files carry per-task sourcesCorrect, and llmJudgeAccuracy when
both runs were judged (ARTE_JUDGE_MODEL), over the tasks both judges gave a verdict on (a judge error on either
side leaves the task out). A score only one file carries is not compared, and a line says why; runs judged by
different models are flagged (the judge delta is shown, but it is not the same measurement).

Evals (describeEval; evaluation/evals/{eval}/results.json): trial 1 of each case, pass = met the threshold;
the metrics are passRate (primary) and each scorer's score (an error scores 0).

MPCBench v2 (evaluation/mpcbench-v2/summary.json, or upstream-format rows files eval_L<N>_<data>_<model>.jsonl):
paired by instance id (trial 1), pass = exact match; the metrics are f1 (primary), exactMatch, precision and
recall; a row whose run failed (error) fails and scores 0. A summary holding one instance under two models cannot
be paired: pass the rows files.

Without files, compares the two most recent runs kept under evaluation/history/{run id}/ (BENCH_HISTORY_DIR;
each run of the reporters keeps its results there, the last BENCH_HISTORY_KEEP = 20 runs).`,
  positionals: { usage: '[A.json B.json]', min: 0, max: 2 },
  options: {
    json: {
      type: 'boolean',
      description:
        'print the comparison as JSON {"tasks", "flips", "flipRate", "improved", "regressed", "metrics", "pValue", "test", "significant", "notes", ...}',
    },
    benchmark: { type: 'string', value: 'NAME', description: 'without files: arte, mpcbench or mpcbench-v2', default: 'arte' },
    eval: { type: 'string', value: 'NAME', description: 'without files: the eval (describeEval name) whose two most recent kept runs to compare' },
  },
  async run({ values, positionals }) {
    let files: string[]
    if (positionals.length === 2) {
      files = positionals.map((file) => resolve(file))
      // A file named on the command line that does not exist is a bad command line (exit 2), as a flag's path is.
      for (const [i, file] of files.entries())
        assertFlagPathExists(
          i === 0 ? 'A' : 'B',
          file,
          'Results file',
          'Pass two existing results files: ART-E results JSONs, MPCBench summaries or eval results files.',
        )
    } else if (positionals.length === 0 && values.eval !== undefined) {
      const history = arteHistorySettings()
      files = latestInHistory(history.dir, evalHistoryName(values.eval), 2)
      if (files.length < 2) {
        throw new ConfigError(`Found ${files.length} kept run(s) of eval ${JSON.stringify(values.eval)} under ${history.dir}; comparing needs two.`, {
          hint: 'Run the eval twice with the eval reporter (each run keeps its results there), or pass two files: agent-bench compare A.json B.json.',
        })
      }
    } else if (positionals.length === 0) {
      const benchmark = values.benchmark ?? 'arte'
      if (benchmark !== 'arte' && benchmark !== 'mpcbench' && benchmark !== 'mpcbench-v2') {
        throw new FlagValueError(`Unknown --benchmark ${JSON.stringify(benchmark)}.`, { hint: 'Use --benchmark arte, mpcbench or mpcbench-v2.' })
      }
      const history = arteHistorySettings()
      files = latestInHistory(
        history.dir,
        benchmark === 'arte' ? ARTE_HISTORY_FILE : benchmark === 'mpcbench' ? MPCBENCH_HISTORY_FILE : MPCBENCH_V2_HISTORY_NAME,
        2,
      )
      if (files.length < 2 && benchmark === 'mpcbench-v2') {
        throw new ConfigError(`Found ${files.length} kept mpcbench-v2 run(s) under ${history.dir}; comparing needs two.`, {
          hint: 'Run the MPCBench v2 bench twice with reporters/mpcbench-v2.ts (each run keeps its summary there), or pass two files: agent-bench compare A.json B.json.',
        })
      }
      if (files.length < 2) {
        const other = benchmark === 'arte' ? 'mpcbench' : 'arte'
        const otherRuns = latestInHistory(history.dir, other === 'arte' ? ARTE_HISTORY_FILE : MPCBENCH_HISTORY_FILE, 2).length
        const switchHint = otherRuns >= 2 ? `The history holds ${other} runs: pass --benchmark ${other}. ` : ''
        throw new ConfigError(`Found ${files.length} kept ${benchmark} run(s) under ${history.dir}; comparing needs two.`, {
          hint: `${switchHint}Run the benchmark twice (each run keeps its results there), or pass two files: agent-bench compare A.json B.json.`,
        })
      }
    } else {
      throw new FlagValueError(`Expected two files (A and B) or none, got ${positionals.length}.`, {
        hint: 'Run e.g. `agent-bench compare old.json new.json`.',
      })
    }
    const [fileA = '', fileB = ''] = files
    const comparison = compareFiles(fileA, fileB)
    const label = (file: string): string => relative(process.cwd(), file) || file
    console.log(values.json === true ? JSON.stringify(comparison, null, 2) : formatScoredComparison(comparison, { a: label(fileA), b: label(fileB) }))
    return 0
  },
})
