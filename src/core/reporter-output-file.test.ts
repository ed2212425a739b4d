import { describe, expect, it } from 'vitest'
import type { Vitest } from 'vitest/node'
import { reporterOutputFile, stdoutHoldsReport } from './reporter-output-file.ts'

const withOutputFile = (outputFile: unknown) => ({ config: { outputFile } }) as unknown as Vitest

describe('reporterOutputFile', () => {
  it("reads Vitest's outputFile.<name> for our reporters, as json and junit read theirs", () => {
    const vitest = withOutputFile({ arte: 'out/arte.json', junit: 'out/junit.xml', mpcbench: ' ' })
    expect(reporterOutputFile(vitest, 'arte')).toBe('out/arte.json')
    expect(reporterOutputFile(vitest, 'mpcbench')).toBeUndefined()
    expect(reporterOutputFile(vitest, 'report')).toBeUndefined()
  })

  it("leaves a single outputFile path to Vitest's own reporters", () => {
    expect(reporterOutputFile(withOutputFile('out/results.json'), 'arte')).toBeUndefined()
    expect(reporterOutputFile(withOutputFile(undefined), 'arte')).toBeUndefined()
  })
})

describe('stdoutHoldsReport', () => {
  const vitest = (reporters: unknown[], outputFile?: unknown) => ({ config: { reporters, outputFile } }) as unknown as Vitest

  it('is true when junit, json or tap writes to standard output, false when each has a file', () => {
    expect(
      stdoutHoldsReport(
        vitest([
          ['junit', {}],
          ['default', {}],
        ]),
      ),
    ).toBe(true)
    expect(stdoutHoldsReport(vitest([['json', {}]], { arte: 'a.json' }))).toBe(true)
    expect(stdoutHoldsReport(vitest([['junit', {}]], { junit: 'out/junit.xml' }))).toBe(false)
    expect(stdoutHoldsReport(vitest([['junit', { outputFile: 'j.xml' }]]))).toBe(false)
    expect(stdoutHoldsReport(vitest([['json', {}]], 'out/results.json'))).toBe(false)
    expect(
      stdoutHoldsReport(
        vitest([
          ['default', {}],
          ['./reporters/arte.ts', {}],
        ]),
      ),
    ).toBe(false)
  })
})
