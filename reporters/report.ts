/** The HTML report reporter: `--reporter=./reporters/report.ts` (after the ART-E and MPCBench reporters). Implemented in `src/report/report-reporter.ts`. */
export { default } from '../src/report/report-reporter.ts'
export * from '../src/report/report-reporter.ts'
