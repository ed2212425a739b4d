/** The MPCBench v2 reporter: `--reporter=./reporters/mpcbench-v2.ts`. Implemented in `src/mpcbench-v2/vitest/reporter.ts`. */
export { default } from '../src/mpcbench-v2/vitest/reporter.ts'
export * from '../src/mpcbench-v2/vitest/reporter.ts'
