/** The MPCBench reporter: `--reporter=./reporters/mpcbench.ts`. Implemented in `src/mpcbench/vitest/reporter.ts`. */
export { default } from '../src/mpcbench/vitest/reporter.ts'
export * from '../src/mpcbench/vitest/reporter.ts'
