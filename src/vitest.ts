/**
 * `vitest-agent-bench/vitest`: the helpers that turn tasks into Vitest tests.
 * `describeEval` for your own dataset, task and scorers; `defineArteTests` and `defineMpcbenchBench` for the two
 * shipped benchmarks (run them with the package's global setups, see the README).
 */

export {
  describeEval,
  type DescribeEvalOptions,
  type EvalCase,
  EvalCaseError,
  type EvalTaskContext,
  EvalThresholdError,
  EvalThresholdRangeError,
} from './eval/describe-eval.ts'
export type { EvalPlannedCase, EvalScore, EvalTestMeta } from './eval/eval-meta.ts'
export { loadDataset, type LoadDatasetOptions } from './eval/load-dataset.ts'
export type { Scorer, ScoreResult } from './eval/scorer.ts'
export { exactMatchScorer, jaccardScorer } from './arte/scoring/scorers.ts'
export { createJudgeScorer, DEFAULT_JUDGE_RUBRIC, JudgeScorerError, type JudgeScorerOptions } from './eval/judge-scorer.ts'

export { defineArteTests, type DefineArteTestsOptions } from './arte/vitest/define-arte-tests.ts'
export type { ArteTestMeta } from './arte/vitest/task-meta.ts'
export { defineMpcbenchBench, type MpcbenchBenchOptions } from './mpcbench/vitest/define-mpcbench-bench.ts'
export type { MpcbenchTestMeta } from './mpcbench/vitest/task-meta.ts'
export { defineMpcbenchV2Tests, type DefineMpcbenchV2TestsOptions } from './mpcbench-v2/vitest/define-mpcbench-v2-tests.ts'
export type { MpcbenchV2TestMeta } from './mpcbench-v2/vitest/test-meta.ts'
