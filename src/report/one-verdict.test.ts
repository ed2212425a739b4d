import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FIXTURE_DATASET, fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir } from '../../fixtures/arte-e2e/harness.ts'
import { ArteReporter } from '../arte/vitest/reporter.ts'
import { startScriptedServer } from '../testing/scripted-server.ts'
import { ReportReporter } from './report-reporter.ts'

const unescapeXml = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')

/** The `<testcase>` elements of a JUnit file: name, and the failure message when it failed. */
function testcases(xml: string): Array<{ name: string; failure?: string }> {
  return [...xml.matchAll(/<testcase\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g)].map(([, name = '', body = '']) => {
    const failure = /<failure message="([^"]*)"/.exec(body)?.[1]
    return failure === undefined ? { name } : { name, failure: unescapeXml(failure) }
  })
}

/** The root `<testsuites>` counts of a JUnit file. */
function rootCounts(xml: string): { tests: number; failures: number } {
  const tag = /<testsuites\b[^>]*>/.exec(xml)?.[0] ?? ''
  return { tests: Number(/\btests="(\d+)"/.exec(tag)?.[1]), failures: Number(/\bfailures="(\d+)"/.exec(tag)?.[1]) }
}

describe('one verdict on the ART-E thresholds: exit code, JUnit, job summary and HTML report agree', () => {
  const scratch = scratchDir('one-verdict')
  afterAll(() => scratch.remove())
  // Tasks 101 (answered exactly) and 102 (answered partly): both tests pass, exactMatchAccuracy is 0.5.
  const dataset = join(scratch.dir, 'two-rows.jsonl')
  writeFileSync(
    dataset,
    `${readFileSync(FIXTURE_DATASET, 'utf8')
      .split('\n')
      .filter((line) => /"id": 10[12],/.test(line))
      .join('\n')}\n`,
  )

  async function run(name: string, thresholds: string) {
    await using server = await startScriptedServer(fixtureResponder())
    const files = { junit: join(scratch.dir, `${name}.xml`), summary: join(scratch.dir, `${name}-summary.md`), report: join(scratch.dir, `${name}.html`) }
    writeFileSync(files.summary, '')
    const env = fixtureEnv(server.baseURL, scratch.dir, {
      ARTE_DATASET: dataset,
      ARTE_OUTPUT: join(scratch.dir, `${name}.json`),
      ARTE_THRESHOLDS: thresholds,
      BENCH_REPORT: files.report,
      GITHUB_STEP_SUMMARY: files.summary,
    })
    const result = await runFixtureVitest(env, {
      reporters: [['junit', { outputFile: files.junit }], new ArteReporter({ silent: true }), new ReportReporter()],
    })
    return {
      result,
      junit: readFileSync(files.junit, 'utf8'),
      summary: readFileSync(files.summary, 'utf8'),
      header: /<header>([\s\S]*?)<\/header>/.exec(readFileSync(files.report, 'utf8'))?.[1] ?? '',
    }
  }

  it('a failed threshold: exit code 1, the JUnit testcase `thresholds` fails with its message, the job summary leads with it, the report header says it', async () => {
    const { result, junit, summary, header } = await run('failed', 'exactMatchAccuracy>=0.6')
    const message = 'ART-E exactMatchAccuracy (0.5) does not meet threshold exactMatchAccuracy >= 0.6'
    expect(result.tests.map((test) => `${test.name}:${test.state}`)).toEqual(['101:passed', '102:passed'])
    expect(result.exitCode).toBe(1)
    expect(testcases(junit)).toEqual([{ name: '101' }, { name: '102' }, { name: 'thresholds', failure: message }])
    expect(rootCounts(junit)).toEqual({ tests: 3, failures: 1 })
    expect(junit).toMatch(/<testsuite name="ART-E" [^>]*tests="1" failures="1"/)
    expect(summary.split('\n')[0]).toBe(`**failed: threshold** ${message}`)
    expect(header).toContain(`<p class="verdict fail">failed: threshold ${message.replace('>', '&#62;')}</p>`)
    expect(header).not.toContain('passed')
  })

  it('a threshold met exactly: exit code 0, the testcase `thresholds` passes, the job summary has no failure, the header says met', async () => {
    const { result, junit, summary, header } = await run('met', 'exactMatchAccuracy>=0.5')
    expect(result.exitCode).toBe(0)
    expect(testcases(junit)).toEqual([{ name: '101' }, { name: '102' }, { name: 'thresholds' }])
    expect(rootCounts(junit)).toEqual({ tests: 3, failures: 0 })
    expect(summary).not.toContain('failed: threshold')
    expect(summary.startsWith('## ART-E')).toBe(true)
    expect(header).toContain('<p class="verdict pass">passed: thresholds met</p>')
  })
})
