import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { startVitest } from 'vitest/node'
import { bootstrapMeanCi } from '../stats/bootstrap.ts'
import { passHatKCi } from '../stats/pass-hat-k.ts'
import { wilsonInterval } from '../stats/wilson.ts'
import { type EvalResults, EvalResultsSchema } from '../results/eval-results.ts'
import { EvalReporter } from './eval-reporter.ts'
import { scaledMs } from '../testing/time-scale.ts'

const root = fileURLToPath(new URL('../../fixtures/eval-results/', import.meta.url))
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

const saved = { ...process.env }
afterEach(() => {
  for (const name of ['BENCH_TRIALS', 'BENCH_RESUME', 'EVAL_OUTPUT_DIR', 'EVAL_CALLS_FILE', 'EVAL_FIXTURE_FIXED', 'BENCH_HISTORY_DIR']) {
    if (saved[name] === undefined) delete process.env[name]
    else process.env[name] = saved[name]
  }
})

/** Runs the fixture's evals with the eval and JUnit reporters; returns the reporter, the tests and the lines printed. */
async function run(env: Record<string, string>, junitFile: string) {
  Object.assign(process.env, env)
  const reporter = new EvalReporter()
  const vitest = await startVitest(
    'test',
    [],
    { root, watch: false, reporters: [reporter, ['junit', { outputFile: junitFile }]] },
    {},
    { stdout: quiet(), stderr: quiet() },
  )
  await vitest.close()
  const tests = vitest.state.getTestModules().flatMap((module) => [...module.children.allTests()])
  return { reporter, tests }
}

function readResults(file: string): EvalResults {
  return EvalResultsSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
}

describe('the eval reporter (fixtures/eval-results)', () => {
  it(
    "writes each eval's results with trials, exact pass rate, scorer means, pass^k and intervals; resume reruns only unfinished cases",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'eval-results-'))
      const out = join(dir, 'evals')
      const calls = join(dir, 'calls.txt')
      const history = join(dir, 'history')
      writeFileSync(calls, '')
      const first = await run({ BENCH_TRIALS: '3', EVAL_OUTPUT_DIR: out, EVAL_CALLS_FILE: calls, BENCH_HISTORY_DIR: history }, join(dir, 'junit.xml'))

      // Tests are named by case id and trial; the `trials` option wins over BENCH_TRIALS.
      expect(first.tests.map((test) => test.fullName).sort()).toEqual([
        ...['fr', 'jp', 'pe', 'xx'].flatMap((id) => [1, 2, 3].map((trial) => `capitals > ${id} [trial=${trial}]`)),
        'slow > hangs',
      ])
      const failed = first.tests
        .filter((test) => test.result().state === 'failed')
        .map((test) => test.fullName)
        .sort()
      expect(failed).toEqual([
        'capitals > jp [trial=2]',
        'capitals > pe [trial=2]',
        'capitals > xx [trial=1]',
        'capitals > xx [trial=2]',
        'capitals > xx [trial=3]',
        'slow > hangs',
      ])

      const file = join(out, 'capitals', 'results.json')
      const results = readResults(file)
      expect(first.reporter.results.get('capitals')).toEqual(results)
      expect(results).toMatchObject({ name: 'capitals', tasks: 4, trials: 3, scorers: ['exact', 'short'], testRunEndReason: 'failed' })
      // Trial 1: fr, jp, pe pass, xx does not.
      expect(results.metrics.passRate).toEqual({ value: 0.75, ci: wilsonInterval(3, 4) })
      // In id order (fr, jp, pe, xx), trial 1: exact 1, 1, 1, 0; short 1, 1, 1, 0.5 ('Atlantis City').
      expect(results.metrics.exact).toEqual({ mean: 0.75, ci: bootstrapMeanCi([1, 1, 1, 0]) })
      expect(results.metrics.short).toEqual({ mean: 0.875, ci: bootstrapMeanCi([1, 1, 1, 0.5]) })
      // Passes per case over 3 trials: fr 3, jp 2 (trial 2 threw), pe 2, xx 0.
      expect(results.passHatK).toEqual({ '1': 7 / 12, '2': 5 / 12, '3': 1 / 4 })
      const passes = [
        [true, true, true],
        [true, false, true],
        [true, false, true],
        [false, false, false],
      ]
      expect(results.passHatKCi).toEqual(passHatKCi(passes, 3))
      expect(results.passHatKTasks).toBe(4)
      expect(results.counts).toEqual({ passed: 7, failed: 4, errors: 1, notRun: 0, resumed: 0 })
      expect(results.taskResults).toHaveLength(12)
      expect(results.taskResults.map((row) => `${row.id}#${row.trial}`)).toEqual(
        ['fr', 'jp', 'pe', 'xx'].flatMap((id) => [1, 2, 3].map((trial) => `${id}#${trial}`)),
      )
      expect(results.taskResults.find((row) => row.id === 'pe' && row.trial === 2)).toEqual({
        id: 'pe',
        trial: 2,
        status: 'scored',
        passed: false,
        scores: { exact: 0, short: 1 },
        reasons: { exact: 'expected Lima, got Cusco' },
        mean: 0.5,
        durationMs: expect.any(Number),
        input: 'Peru',
        expected: 'Lima',
        output: 'Cusco',
      })
      const crashed = results.taskResults.find((row) => row.id === 'jp' && row.trial === 2)
      expect(crashed).toMatchObject({
        status: 'error',
        passed: false,
        scores: {},
        input: 'Japan',
        expected: 'Tokyo',
        error: { code: 'ERR_TEST_FAILED', message: 'the agent crashed' },
      })
      expect(crashed).not.toHaveProperty('output')
      expect(results.config).toMatchObject({ threshold: 1, files: ['capitals.eval.ts'], runId: expect.any(String) })

      // A timed-out case is in its eval's results as an error, not passed.
      const slow = readResults(join(out, 'slow', 'results.json'))
      expect(slow).toMatchObject({ tasks: 1, trials: 1, metrics: { passRate: { value: 0, ci: wilsonInterval(0, 1) } }, passHatK: { '1': 0 } })
      expect(slow.taskResults).toEqual([
        expect.objectContaining({ id: 'hangs', trial: 1, status: 'error', passed: false, error: expect.objectContaining({ code: 'ERR_TEST_TIMEOUT' }) }),
      ])

      // The history keeps a copy of each eval's results under the run's id.
      expect(JSON.parse(readFileSync(join(history, results.config.runId ?? '', 'evals', 'capitals.json'), 'utf8'))).toEqual(results)

      // JUnit: one testcase per case and trial, failures exactly for those below the threshold (and the error, the timeout).
      const junit = readFileSync(join(dir, 'junit.xml'), 'utf8')
      expect(junit.match(/<testcase /g)).toHaveLength(13)
      expect(junit.match(/<failure /g)).toHaveLength(6)
      expect(readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(12)

      // Resume: only the case without a finished result (jp's trial 2 errored) calls the task again.
      writeFileSync(calls, '')
      await run(
        { BENCH_TRIALS: '3', BENCH_RESUME: '1', EVAL_OUTPUT_DIR: out, EVAL_CALLS_FILE: calls, EVAL_FIXTURE_FIXED: '1', BENCH_HISTORY_DIR: history },
        join(dir, 'junit-2.xml'),
      )
      expect(readFileSync(calls, 'utf8')).toBe('Japan#2\n')
      const resumed = readResults(file)
      expect(resumed.counts).toEqual({ passed: 8, failed: 4, errors: 0, notRun: 0, resumed: 11 })
      expect(resumed.passHatK).toEqual({ '1': 8 / 12, '2': 7 / 12, '3': 2 / 4 })
      expect(resumed.taskResults.find((row) => row.id === 'jp' && row.trial === 2)).toMatchObject({ status: 'scored', passed: true, output: 'Tokyo' })
      expect(resumed.taskResults.find((row) => row.id === 'jp' && row.trial === 2)).not.toHaveProperty('resumedFrom')
      expect(resumed.taskResults.find((row) => row.id === 'pe' && row.trial === 2)).toMatchObject({
        passed: false,
        output: 'Cusco',
        resumedFrom: results.config.runId,
      })
      // A resumed case below the threshold still fails its test.
      expect(readFileSync(join(dir, 'junit-2.xml'), 'utf8').match(/<failure /g)).toHaveLength(5)
    },
    scaledMs(240_000),
  )

  it(
    'a run of some cases only (-t) goes to results.subset.json and leaves the full results as they were',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'eval-subset-'))
      const out = join(dir, 'evals')
      process.env.EVAL_OUTPUT_DIR = out
      process.env.BENCH_HISTORY_DIR = join(dir, 'history')
      const full = await startVitest(
        'test',
        [],
        { root, watch: false, reporters: [new EvalReporter({ silent: true })] },
        {},
        { stdout: quiet(), stderr: quiet() },
      )
      await full.close()
      const before = readFileSync(join(out, 'capitals', 'results.json'), 'utf8')
      const subset = await startVitest(
        'test',
        [],
        { root, watch: false, testNamePattern: '^capitals fr$', reporters: [new EvalReporter({ silent: true })] },
        {},
        { stdout: quiet(), stderr: quiet() },
      )
      await subset.close()
      expect(readFileSync(join(out, 'capitals', 'results.json'), 'utf8')).toBe(before)
      expect(existsSync(join(out, 'capitals', 'results.subset.json'))).toBe(true)
      expect(readResults(join(out, 'capitals', 'results.subset.json')).taskResults.map((row) => row.id)).toEqual(['fr'])
    },
    scaledMs(240_000),
  )

  it(
    'two evals whose names give one results folder: the first is written, the second is an error naming both',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'eval-collide-'))
      const reporter = new EvalReporter({ outputDir: join(dir, 'evals'), history: false, silent: true })
      const exitCode = process.exitCode
      process.exitCode = 0
      try {
        const vitest = await startVitest(
          'test',
          [],
          { root: fileURLToPath(new URL('../../fixtures/eval-collide/', import.meta.url)), watch: false, reporters: [reporter] },
          {},
          { stdout: quiet(), stderr: quiet() },
        )
        await vitest.close()
        expect(process.exitCode).toBe(1)
      } finally {
        process.exitCode = exitCode
      }
      expect(readResults(join(dir, 'evals', 'a-b', 'results.json')).name).toBe('a b')
      expect(reporter.problems).toEqual([expect.stringContaining('ERROR: the evals "a b" and "a-b" share the results folder')])
    },
    scaledMs(240_000),
  )
})
