import { relative } from 'node:path'
import type { TestModule } from 'vitest/node'
import { compareNatural } from './natural-order.ts'

/**
 * The test files an interrupted run never started (they still waited for a worker when it was cancelled): Vitest
 * never collected their tests, so no count of the run includes them. Paths relative to `root`, `/`-separated, in
 * natural order. Only a module with no result, no tests and no errors is one.
 */
export function notStartedFiles(testModules: ReadonlyArray<TestModule>, root: string): string[] {
  return testModules
    .filter((testModule) => testModule.state() === 'pending' && testModule.children.size === 0 && testModule.errors().length === 0)
    .map((testModule) => relative(root, testModule.moduleId).replaceAll('\\', '/'))
    .sort(compareNatural)
}

/** The line that names {@link notStartedFiles}, or `undefined` when there are none. */
export function notStartedLine(files: ReadonlyArray<string>): string | undefined {
  if (files.length === 0) return undefined
  const shown = files.length > 5 ? [...files.slice(0, 5), `and ${files.length - 5} more`] : files
  return `${files.length} test file(s) never started, so their tasks are in no count: ${shown.join(', ')}.`
}
