/** The eval reporter (results files of `describeEval` evals): `--reporter=./reporters/eval.ts`. Implemented in `src/eval/eval-reporter.ts`. */
export { default } from '../src/eval/eval-reporter.ts'
export * from '../src/eval/eval-reporter.ts'
