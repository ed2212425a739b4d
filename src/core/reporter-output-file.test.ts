import { describe, expect, it } from 'vitest'
import type { Vitest } from 'vitest/node'
import { reporterOutputFile } from './reporter-output-file.ts'

const withOutputFile = (outputFile: unknown) => ({ config: { outputFile } }) as unknown as Vitest

describe('reporterOutputFile', () => {
  it("reads Vitest's outputFile.<name> for our reporters, as json and junit read theirs", () => {
    const vitest = withOutputFile({ arte: 'out/arte.json', junit: 'out/junit.xml', mpcbench: ' ' })
    expect(reporterOutputFile(vitest, 'arte')).toBe('out/arte.json')
    expect(reporterOutputFile(vitest, 'mpcbench')).toBeUndefined()
    expect(reporterOutputFile(vitest, 'report')).toBeUndefined()
  })

  it('leaves a single outputFile path to Vitest\'s own reporters', () => {
    expect(reporterOutputFile(withOutputFile('out/results.json'), 'arte')).toBeUndefined()
    expect(reporterOutputFile(withOutputFile(undefined), 'arte')).toBeUndefined()
  })
})
