import { existsSync, readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { resolve } from 'node:path'
import type { Reporter } from 'vitest/node'
import type { Vitest } from 'vitest/node'
import { writeFileAtomic } from './atomic-write.ts'

/**
 * A verdict a benchmark reporter reaches over the whole run (not one test's), e.g. its quality thresholds: written
 * into the JUnit XML as one testcase, so a CI that reads JUnit tells the same story as the exit code.
 */
export interface JunitVerdict {
  /** The testsuite, e.g. `ART-E`. */
  suite: string
  /** The testcase, e.g. `thresholds`. */
  name: string
  /** Why it failed, one line each; empty when it passed. */
  failures: string[]
}

/** The verdict sources added to each JUnit reporter instance. */
const sources = new WeakMap<object, Array<() => JunitVerdict | undefined>>()

/**
 * Whether `reporter` is Vitest's JUnit reporter (or a subclass), told by its class name: Vitest 4.0 exports the class
 * only from `vitest/reporters`, which 4.1 deprecates with a warning on every import, and 4.1 moved it to `vitest/node`.
 */
function isJunitReporter(reporter: Reporter): boolean {
  for (let proto: unknown = Object.getPrototypeOf(reporter); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if ((proto as { constructor?: { name?: unknown } }).constructor?.name === 'JUnitReporter') return true
  }
  return false
}

/** The file a JUnit reporter writes: its own `reportFile` (set in its `onInit`), else Vitest's `outputFile` setting. */
function junitFile(reporter: Reporter, vitest: Vitest): string | undefined {
  const own = (reporter as unknown as { reportFile?: unknown }).reportFile
  if (typeof own === 'string') return own
  const setting: unknown = vitest.config.outputFile
  const file = typeof setting === 'string' ? setting : setting !== null && typeof setting === 'object' ? (setting as Record<string, unknown>).junit : undefined
  return typeof file === 'string' && file.trim() !== '' ? resolve(vitest.config.root, file) : undefined
}

/**
 * Adds the run's verdict (`verdict()`, read when the run ends; `undefined` adds nothing) as a testcase to the file each
 * of Vitest's JUnit reporters writes (`--reporter=junit --outputFile.junit=...`).
 *
 * Why this way: Vitest's JUnit reporter writes one testcase per test task, and a benchmark's thresholds are checked by
 * a reporter over every test of the run (all part files, shards merged), so no test can carry them. Vitest calls the
 * reporters' `onTestRunEnd` together, so a reporter cannot simply edit the file after JUnit wrote it; instead the JUnit
 * reporter's `onTestRunEnd` is wrapped (once per instance) to add the testcases once its file is complete, still inside
 * the run's end (Vitest awaits it). The XML keeps Vitest's layout: one more `<testsuite>` before `</testsuites>`, whose
 * counts are raised. A JUnit reporter that writes to standard output (no file) is left as it is.
 */
export function addJunitVerdict(vitest: Vitest, verdict: () => JunitVerdict | undefined): void {
  // Vitest's reporter instances (not in its public types; src/report/one-verdict.test.ts fails if that changes).
  const reporters = (vitest as unknown as { reporters?: Reporter[] }).reporters ?? []
  for (const reporter of reporters) {
    if (!isJunitReporter(reporter)) continue
    let added = sources.get(reporter)
    if (added === undefined) {
      const list: Array<() => JunitVerdict | undefined> = []
      added = list
      sources.set(reporter, list)
      const original = reporter.onTestRunEnd?.bind(reporter)
      reporter.onTestRunEnd = async (...args: Parameters<NonNullable<Reporter['onTestRunEnd']>>) => {
        await original?.(...args)
        const file = junitFile(reporter, vitest)
        const verdicts = list.map((source) => source()).filter((found): found is JunitVerdict => found !== undefined)
        if (file !== undefined && verdicts.length > 0 && existsSync(file)) writeFileAtomic(file, withJunitVerdicts(readFileSync(file, 'utf8'), verdicts))
      }
    }
    added.push(verdict)
  }
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

/** `xml` (a JUnit report as Vitest writes it) with one `<testsuite>` per verdict added and the root's counts raised. */
export function withJunitVerdicts(xml: string, verdicts: ReadonlyArray<JunitVerdict>): string {
  const end = xml.lastIndexOf('</testsuites>')
  if (end < 0) return xml
  const failed = verdicts.filter((verdict) => verdict.failures.length > 0).length
  const suites = verdicts.map((verdict) => {
    const failures = verdict.failures.length === 0 ? 0 : 1
    const failure =
      failures === 0
        ? ''
        : `\n            <failure message="${escapeXml(verdict.failures.join('; '))}" type="ThresholdError">\n${escapeXml(verdict.failures.join('\n'))}\n            </failure>`
    return [
      `    <testsuite name="${escapeXml(verdict.suite)}" timestamp="${new Date().toISOString()}" hostname="${escapeXml(hostname())}" tests="1" failures="${failures}" errors="0" skipped="0" time="0">`,
      `        <testcase classname="${escapeXml(verdict.suite)}" name="${escapeXml(verdict.name)}" time="0">${failure}${failure === '' ? '' : '\n        '}</testcase>`,
      '    </testsuite>',
    ].join('\n')
  })
  const raise = (tag: string, name: string, by: number) =>
    tag.replace(new RegExp(`\\b${name}="(\\d+)"`), (_all, count: string) => `${name}="${Number(count) + by}"`)
  const head = xml.slice(0, end).replace(/<testsuites\b[^>]*>/, (tag) => raise(raise(tag, 'tests', verdicts.length), 'failures', failed))
  return `${head}${suites.join('\n')}\n${xml.slice(end)}`
}
