import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { TestProject } from 'vitest/node'
import { FIXTURE_DATASET, FIXTURE_MAILDIR, fixtureEnv, runFixtureVitest, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import setup from './global-setup.ts'
import { scaledMs } from '../../testing/time-scale.ts'

afterEach(() => {
  vi.unstubAllEnvs()
})

const scratch = scratchDir('arte-global-setup')
afterAll(() => scratch.remove())

/** A project that records what the setup provides and prints. */
function fakeProject(): { project: TestProject; provided: Record<string, unknown>; printed: string[] } {
  const provided: Record<string, unknown> = {}
  const printed: string[] = []
  const logger = {
    error: (...args: unknown[]) => void printed.push(args.map(String).join(' ')),
    printError: (error: unknown) => void printed.push(String(error)),
  }
  const project = { provide: (key: string, value: unknown) => void (provided[key] = value), vitest: { logger, config: {} } } as unknown as TestProject
  return { project, provided, printed }
}

/** The fixture dataset with its second row's `query_date` removed. */
function datasetMissingQueryDate(): string {
  const lines = readFileSync(FIXTURE_DATASET, 'utf8').trimEnd().split('\n')
  const row = JSON.parse(lines[1] as string) as Record<string, unknown>
  delete row.query_date
  lines[1] = JSON.stringify(row)
  const file = join(scratch.dir, 'missing-date.jsonl')
  writeFileSync(file, `${lines.join('\n')}\n`)
  return file
}

describe('ART-E globalSetup', () => {
  it('with BENCH_ONLY leaving ART-E out, reads no ART-E variable, builds nothing and provides why', async () => {
    vi.stubEnv('BENCH_ONLY', 'mpcbench')
    // Invalid, and never read: a run that leaves ART-E out cannot fail on it.
    vi.stubEnv('ARTE_LIMIT', 'not-a-number')
    const { project, provided } = fakeProject()
    await setup(project)
    expect(provided).toEqual({ arteNotPrepared: 'BENCH_ONLY=mpcbench leaves arte out of this run, so its globalSetup prepared nothing' })
  })

  it('on a BENCH_ONLY that names no benchmark, prints the error with its fix and gives it to the tests instead of throwing', async () => {
    vi.stubEnv('BENCH_ONLY', 'arte-e')
    const { project, provided, printed } = fakeProject()
    await setup(project)
    expect(printed.join('\n')).toMatch(
      /ART-E setup failed[\s\S]*BENCH_ONLY=arte-e names "arte-e", which is not a benchmark\.\n {2}Fix: List benchmarks from arte, mpcbench/,
    )
    expect(provided.arteNotPrepared).toMatch(/^its globalSetup failed: BENCH_ONLY=arte-e names "arte-e"/)
    expect(provided.arteDbPath).toBeUndefined()
  })

  it('does not fail on a bad dataset row: the database is built, and the row fails its own test (bad-input.test.ts)', async () => {
    const dataset = datasetMissingQueryDate()
    const db = join(scratch.dir, 'built-anyway.db')
    vi.stubEnv('BENCH_ONLY', 'arte')
    vi.stubEnv('ARTE_DATASET', dataset)
    vi.stubEnv('ARTE_MAILDIR', FIXTURE_MAILDIR)
    vi.stubEnv('ARTE_DB', db)
    vi.stubEnv('ARTE_LIMIT', '0')
    const { project, provided, printed } = fakeProject()
    await setup(project)
    expect(printed.join('\n')).not.toContain('setup failed')
    expect(provided.arteNotPrepared).toBeUndefined()
    expect(provided.arteDbPath).toBe(db)
  })

  it('on a dataset file that is not JSON at all, prints file, line and fix before building anything, and gives the error to the tests', async () => {
    const dataset = join(scratch.dir, 'not-json.json')
    writeFileSync(dataset, '[{"id": 1,\n oops]\n')
    const db = join(scratch.dir, 'never-built.db')
    vi.stubEnv('BENCH_ONLY', 'arte')
    vi.stubEnv('ARTE_DATASET', dataset)
    vi.stubEnv('ARTE_MAILDIR', FIXTURE_MAILDIR)
    vi.stubEnv('ARTE_DB', db)
    const { project, provided, printed } = fakeProject()
    await setup(project)
    const output = printed.join('\n')
    expect(output).toMatch(/ART-E setup failed[\s\S]*Invalid ART-E dataset \S+not-json\.json[\s\S]*Fix: Fix the JSON at \S+not-json\.json:2:/)
    expect(output).not.toMatch(/\n\s+at /)
    expect(provided.arteNotPrepared).toContain('not-json.json')
    expect(provided.arteDbPath).toBeUndefined()
    expect(() => readFileSync(db)).toThrow()
  })

  it('on a missing ARTE_DB, says how to build it', async () => {
    vi.stubEnv('BENCH_ONLY', 'arte')
    vi.stubEnv('ARTE_DATASET', FIXTURE_DATASET)
    vi.stubEnv('ARTE_DB', join(scratch.dir, 'nope.db'))
    const { project, provided, printed } = fakeProject()
    await setup(project)
    expect(printed.join('\n')).toMatch(/ARTE_DB=\S+nope\.db does not exist\.\n {2}Fix: Build it with `agent-bench import-enron/)
    expect(provided.arteNotPrepared).toMatch(/nope\.db does not exist/)
  })
})

describe('ART-E globalSetup failure in a Vitest run', () => {
  it(
    'fails the ART-E test file with the real error, and Vitest never says "No test files found"',
    async () => {
      const dataset = join(scratch.dir, 'broken.json')
      writeFileSync(dataset, '[{"id": 1,\n oops]\n')
      const stderr: string[] = []
      const stdout: string[] = []
      const errorSpy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0)
      const outSpy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => stdout.push(String(chunk)) > 0)
      let run: Awaited<ReturnType<typeof runFixtureVitest>>
      try {
        run = await runFixtureVitest(fixtureEnv('http://127.0.0.1:9', scratch.dir, { ARTE_DATASET: dataset, ARTE_DB: join(scratch.dir, 'run.db') }), {
          reporters: ['default'],
        })
      } finally {
        errorSpy.mockRestore()
        outSpy.mockRestore()
      }
      const printed = [...stderr, ...stdout].join('')
      expect(run.exitCode).toBe(1)
      expect(printed).not.toContain('No test files found')
      expect(printed).not.toContain('Unhandled Error')
      expect(stderr.join('')).toMatch(/ART-E setup failed[\s\S]*Invalid ART-E dataset \S+broken\.json[\s\S]*Fix: Fix the JSON at/)
      expect(run.moduleErrors.join('\n')).toMatch(/Invalid ART-E dataset \S+broken\.json/)
    },
    scaledMs(60_000),
  )
})
