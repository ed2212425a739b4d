/**
 * `vitest-agent-bench/vitest`: the helpers that turn tasks into Vitest tests.
 * `describeEval` for your own dataset, task and scorers; `defineArteTests` and `defineMpcbenchBench` for the two
 * shipped benchmarks (run them with the package's global setups, see the README).
 */

export { describeEval, type DescribeEvalOptions, type EvalCase, EvalThresholdError, EvalThresholdRangeError } from './eval/describe-eval.ts'
export type { EvalScore, EvalTestMeta } from './eval/eval-meta.ts'
export type { Scorer, ScoreResult } from './eval/scorer.ts'
export { exactMatchScorer, jaccardScorer } from './arte/scoring/scorers.ts'
export { createJudgeScorer, DEFAULT_JUDGE_RUBRIC, JudgeScorerError, type JudgeScorerOptions } from './llm/judge-scorer.ts'

export { defineArteTests, type DefineArteTestsOptions } from './arte/vitest/define-arte-tests.ts'
export type { ArteTestMeta } from './arte/vitest/task-meta.ts'
export { defineMpcbenchBench, type MpcbenchBenchOptions } from './mpcbench/vitest/define-mpcbench-bench.ts'
export type { MpcbenchTestMeta } from './mpcbench/vitest/task-meta.ts'
