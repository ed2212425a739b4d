/** The ART-E reporter: `--reporter=./reporters/arte.ts`. Implemented in `src/arte/vitest/reporter.ts`. */
export { default } from '../src/arte/vitest/reporter.ts'
export * from '../src/arte/vitest/reporter.ts'
