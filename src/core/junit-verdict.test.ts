import { describe, expect, it } from 'vitest'
import { withJunitVerdicts } from './junit-verdict.ts'

const VITEST_XML = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="vitest tests" tests="2" failures="0" errors="0" time="0.1">
    <testsuite name="bench/arte/arte.eval.ts" tests="2" failures="0" errors="0" skipped="0" time="0.1">
        <testcase classname="bench/arte/arte.eval.ts" name="101" time="0.05">
        </testcase>
        <testcase classname="bench/arte/arte.eval.ts" name="102" time="0.05">
        </testcase>
    </testsuite>
</testsuites>
`

describe('withJunitVerdicts', () => {
  it('adds a failing testcase per failed verdict with its escaped message, and raises the root counts', () => {
    const xml = withJunitVerdicts(VITEST_XML, [
      { suite: 'ART-E', name: 'thresholds', failures: ['ART-E exactMatchAccuracy (0.5) does not meet threshold exactMatchAccuracy >= 0.6'] },
    ])
    expect(xml).toContain('<testsuites name="vitest tests" tests="3" failures="1" errors="0" time="0.1">')
    expect(xml).toMatch(
      /<testsuite name="ART-E" [^>]*tests="1" failures="1" errors="0" skipped="0" time="0">\n {8}<testcase classname="ART-E" name="thresholds" time="0">\n {12}<failure message="ART-E exactMatchAccuracy \(0\.5\) does not meet threshold exactMatchAccuracy &gt;= 0\.6" type="ThresholdError">/,
    )
    expect(xml.trimEnd().endsWith('</testsuite>\n</testsuites>')).toBe(true)
    expect(xml.indexOf('name="ART-E"')).toBeGreaterThan(xml.indexOf('name="102"'))
  })

  it('adds a passing testcase for a verdict without failures, and leaves a file that is not complete XML as it is', () => {
    const xml = withJunitVerdicts(VITEST_XML, [{ suite: 'ART-E', name: 'thresholds', failures: [] }])
    expect(xml).toContain('<testsuites name="vitest tests" tests="3" failures="0"')
    expect(xml).toContain('<testcase classname="ART-E" name="thresholds" time="0"></testcase>')
    expect(xml).not.toContain('<failure')
    expect(withJunitVerdicts('<?xml version="1.0" ?>\n<testsuites', [{ suite: 'ART-E', name: 'thresholds', failures: ['x'] }])).toBe(
      '<?xml version="1.0" ?>\n<testsuites',
    )
  })
})
