/** Per-task progress lines in non-TTY logs: `--reporter=./reporters/progress.ts`. Implemented in `src/report/progress-reporter.ts`. */
export { default } from '../src/report/progress-reporter.ts'
export * from '../src/report/progress-reporter.ts'
