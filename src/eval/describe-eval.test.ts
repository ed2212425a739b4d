import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { type Vitest, startVitest } from 'vitest/node'
import { TEST_ENDED_SETUP, onTestEnded } from '../../fixtures/test-ended/watch.ts'
import { describeEval } from './describe-eval.ts'
import { EvalReporter } from './eval-reporter.ts'
import { scaledMs } from '../testing/time-scale.ts'

const root = fileURLToPath(new URL('../../fixtures/describe-eval/', import.meta.url))

const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })

describe('describeEval (fixtures/describe-eval)', () => {
  it('declares one test per case, scores it, stores the scores in the meta and fails below the threshold', async () => {
    const vitest = await startVitest('test', [], { root, watch: false, reporters: [] }, {}, { stdout: quiet(), stderr: quiet() })
    await vitest.close()
    const tests = vitest.state.getTestModules().flatMap((module) => [...module.children.allTests()])
    const byName = new Map(tests.map((test) => [test.fullName, test]))
    expect([...byName.keys()].sort()).toEqual(['bad scorer > 1: x', 'capitals > 1: France', 'capitals > 3: Peru', 'capitals > japan (wrong expectation)'])

    const france = byName.get('capitals > 1: France')
    expect(france?.result().state).toBe('passed')
    expect(france?.meta().eval).toEqual({
      suite: 'capitals',
      id: '1: France',
      trial: 1,
      passed: true,
      durationMs: expect.any(Number),
      input: 'France',
      expected: 'Paris',
      output: 'Paris',
      scores: [
        { name: 'exactMatchScorer', score: 1 },
        { name: 'jaccardScorer', score: 1 },
        { name: 'short', score: 1 },
      ],
      mean: 1,
      threshold: 0.5,
    })
    expect(france?.annotations().map((a) => a.message)).toEqual(['exactMatchScorer 1.000, jaccardScorer 1.000, short 1.000'])

    const peru = byName.get('capitals > 3: Peru')
    expect(peru?.result().state).toBe('failed')
    expect(peru?.meta().eval?.scores[0]).toEqual({ name: 'exactMatchScorer', score: 0, reason: 'expected "Lima", got "The city of Lima"' })
    expect(peru?.meta().eval?.scores[2]).toEqual({ name: 'short', score: 0, reason: '16 characters' })
    expect(peru?.result().errors?.[0]?.message).toContain('is below the threshold 0.5')

    expect(byName.get('capitals > japan (wrong expectation)')?.result().state).toBe('failed')
    const bad = byName.get('bad scorer > 1: x')
    expect(bad?.result().errors?.[0]?.message).toContain('Scorer scorer1 returned score 2.')
  })

  it(
    'a cancelled run skips the concurrent cases still running (their signal aborts), not only those Vitest still lists',
    async () => {
      let vitest: Vitest | undefined
      const dir = mkdtempSync(join(tmpdir(), 'describe-eval-cancel-'))
      process.env.TEST_ENDED_FILE = join(dir, 'ended.txt')
      const evalReporter = new EvalReporter({ outputDir: join(dir, 'evals'), history: false, silent: true })
      // Cancels once `fast` has ended (heard through the file; its result can reach the main process late).
      const stopWatching = onTestEnded(process.env.TEST_ENDED_FILE, 'fast', () => void vitest?.cancelCurrentRun('keyboard-input'))
      try {
        const run = await startVitest(
          'test',
          [],
          {
            root: fileURLToPath(new URL('../../fixtures/describe-eval-cancel/', import.meta.url)),
            watch: false,
            setupFiles: [TEST_ENDED_SETUP],
            reporters: [{ onInit: (instance: Vitest) => void (vitest = instance) }, evalReporter],
          },
          {},
          { stdout: quiet(), stderr: quiet() },
        )
        await run.close()
        const tests = run.state.getTestModules().flatMap((module) => [...module.children.allTests()])
        // Had the run waited for the slow cases (their answers come after 40 s), they would have passed: skipped says
        // their signal aborted them, with no wall-time bound that a busy machine could break.
        expect(tests.map((test) => [test.name, test.result().state])).toEqual([
          ['fast', 'passed'],
          ['slow 1', 'skipped'],
          ['slow 2', 'skipped'],
          ['slow 3', 'skipped'],
        ])
        // The eval's results: the cases a cancelled run cut off are not run, left out of the metrics; each appears once.
        const results = evalReporter.results.get('cancel')
        expect(results?.testRunEndReason).toBe('interrupted')
        expect(results?.taskResults.map((row) => [row.id, row.status])).toEqual([
          ['fast', 'scored'],
          ['slow 1', 'not-run'],
          ['slow 2', 'not-run'],
          ['slow 3', 'not-run'],
        ])
        expect(results?.metrics.passRate.value).toBe(1)
        expect(results?.counts).toMatchObject({ passed: 1, notRun: 3 })
        expect(results?.passHatKTasks).toBe(1)
      } finally {
        stopWatching()
        delete process.env.TEST_ENDED_FILE
        rmSync(dir, { recursive: true, force: true })
      }
    },
    scaledMs(90_000),
  )
})

describe('describeEval threshold', () => {
  const options = { data: [{ input: 'France', expected: 'Paris' }], task: () => 'Paris', scorers: [] }
  const declared = (threshold: unknown): unknown => {
    try {
      describeEval('capitals', { ...options, threshold: threshold as number })
      return undefined
    } catch (error) {
      return error
    }
  }

  it("refuses a threshold outside the scores' range 0..1 when the eval is declared, naming the eval and the field", () => {
    expect(declared(5)).toMatchObject({
      code: 'ERR_EVAL_INVALID_THRESHOLD',
      message:
        'describeEval("capitals"): `threshold` is 5, but scores are from 0 to 1: every case would fail.\n  Fix: Pass a threshold from 0 to 1 (the mean score a case needs, e.g. 0.5 or 0.8), or leave it out for 1.',
    })
    expect(declared(-0.5)).toMatchObject({
      code: 'ERR_EVAL_INVALID_THRESHOLD',
      message: expect.stringContaining('`threshold` is -0.5, but scores are from 0 to 1: no case could fail.'),
    })
    expect(declared(Number.NaN)).toMatchObject({ code: 'ERR_EVAL_INVALID_THRESHOLD', message: expect.stringContaining('`threshold` is NaN') })
    expect(declared('0.5')).toMatchObject({ code: 'ERR_EVAL_INVALID_THRESHOLD', message: expect.stringContaining('`threshold` is "0.5"') })
  })
})

describe('describeEval cases and trials', () => {
  const base = { task: (input: string) => input, scorers: [] }
  const thrown = (run: () => void): unknown => {
    try {
      run()
      return undefined
    } catch (error) {
      return error
    }
  }

  it('refuses two cases with one id, an empty id, and a scorer named passRate, naming the eval and the cases', () => {
    const duplicate = thrown(() =>
      describeEval('dup', {
        ...base,
        data: [
          { id: 'a', input: 'x', expected: 'x' },
          { id: 'b', input: 'y', expected: 'y' },
          { id: 'a', input: 'z', expected: 'z' },
        ],
      }),
    )
    expect(duplicate).toMatchObject({ code: 'ERR_EVAL_INVALID_CASE', problem: 'describeEval("dup"): cases 1 and 3 have the id "a".' })
    const empty = thrown(() => describeEval('empty', { ...base, data: [{ id: ' ', input: 'x', expected: 'x' }] }))
    expect(empty).toMatchObject({ code: 'ERR_EVAL_INVALID_CASE', problem: 'describeEval("empty"): case 1 has the id " ".' })
    const passRate = function passRate() {
      return { score: 1 }
    }
    expect(thrown(() => describeEval('named', { ...base, data: [], scorers: [passRate] }))).toMatchObject({ code: 'ERR_EVAL_INVALID_CASE' })
  })

  it('refuses a trials option or BENCH_TRIALS that is not a whole number >= 1', () => {
    expect(thrown(() => describeEval('t', { ...base, data: [], trials: 0 }))).toMatchObject({
      code: 'ERR_EVAL_INVALID_CASE',
      problem: 'describeEval("t"): `trials` is 0.',
    })
    process.env.BENCH_TRIALS = 'three'
    try {
      expect(thrown(() => describeEval('t', { ...base, data: [] }))).toMatchObject({
        code: 'ERR_CONFIG',
        problem: 'Invalid BENCH_TRIALS="three": expected a whole number >= 1.',
      })
    } finally {
      delete process.env.BENCH_TRIALS
    }
  })
})
