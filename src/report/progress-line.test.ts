import { describe, expect, it } from 'vitest'
import { ProgressTracker, finishedTask } from './progress-line.ts'

const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 }

describe('ProgressTracker', () => {
  it('prints count, pass/fail, score, time, running mean and ETA per finished task', () => {
    const tracker = new ProgressTracker(0)
    tracker.expectFiles(1)
    tracker.expect(4)
    const meta = (semanticScore: number, exactMatch: boolean) => ({ arte: { semanticScore, exactMatch } }) as unknown as Parameters<typeof finishedTask>[1]
    const first = finishedTask('7', meta(1, true), 'passed', 1200)
    const second = finishedTask('8', meta(0.5, false), 'failed', 800, 'AssertionError: expected\nmore')
    if (first === undefined || second === undefined) throw new Error('no task')
    expect(tracker.finish(first, 10_000)).toBe('[1/4] ✓ 7  EM 1 · semantic 1.000 · 1.2 s · ART-E mean 1.000 · ETA 30.0 s')
    expect(tracker.finish(second, 20_000)).toBe('[2/4] ✗ 8  EM 0 · semantic 0.500 · 0.8 s · ART-E mean 0.750 · ETA 20.0 s · AssertionError: expected')
  })

  it('estimates the total while files are still being collected, and says so', () => {
    const tracker = new ProgressTracker(0)
    tracker.expectFiles(3)
    tracker.expect(2)
    const task = finishedTask(
      't [agent=a]',
      {
        mpcbench: {
          judges: [
            {
              kind: 'scored',
              judgeModel: 'j',
              judgeKind: 'llm',
              judgeInputFile: '',
              judgeResultFile: '',
              usage,
              answerRequirementsSatisfaction: 4,
              sourceGroundedReasoning: 3,
            },
          ],
        } as never,
      },
      'passed',
      61_000,
    )
    if (task === undefined) throw new Error('no task')
    expect(tracker.finish(task, 65_000)).toBe('[1/~6] ✓ t [agent=a]  requirements 4/5 · grounding 3/5 · 1 min 1 s · MPCBench mean 4.00 · ETA ~5 min 25 s')
  })

  it("says how many of a task's calls were replayed from the cache", () => {
    const task = finishedTask(
      '7',
      { arte: { semanticScore: 1, exactMatch: true, usage: { ...usage, calls: 3, cached: { ...usage, calls: 2 } } } } as never,
      'passed',
      100,
    )
    expect(task?.score?.text).toBe('EM 1 · semantic 1.000 · 2/3 call(s) replayed from the cache')
  })

  it('counts a declared task that ended without scores as a finished task with no score, left out of the mean', () => {
    const tracker = new ProgressTracker(0)
    tracker.expectFiles(1)
    tracker.expect(2)
    const scored = finishedTask('1', { arte: { semanticScore: 0.5, exactMatch: false } } as never, 'passed', 100)
    const timedOut = finishedTask('2', { arteTask: { taskId: '2' } } as never, 'failed', 300_000, 'Test timed out in 300000ms.')
    if (scored === undefined || timedOut === undefined) throw new Error('no task')
    expect(timedOut.score).toBeUndefined()
    expect(tracker.finish(scored, 1_000)).toBe('[1/2] ✓ 1  EM 0 · semantic 0.500 · 0.1 s · ART-E mean 0.500 · ETA 1.0 s')
    expect(tracker.finish(timedOut, 2_000)).toBe('[2/2] ✗ 2  5 min 0 s · done · Test timed out in 300000ms.')
    expect(finishedTask('t [agent=a]', { mpcbenchTask: { taskId: 't' } } as never, 'failed', 1)?.error).toBe('ended without a score')
  })

  it('ignores tests without benchmark meta', () => {
    expect(finishedTask('unit test', {}, 'passed', 1)).toBeUndefined()
  })
})

describe('progress lines of evals', () => {
  it("counts an eval case with its scores and the eval's running mean; a case that ended unscored has no score", () => {
    const tracker = new ProgressTracker(0)
    tracker.expectFiles(1)
    tracker.expect(2)
    const scored = finishedTask(
      'fr [trial=1]',
      {
        eval: {
          suite: 'capitals',
          id: 'fr',
          trial: 1,
          scores: [
            { name: 'exact', score: 1 },
            { name: 'short', score: 0.5 },
          ],
          mean: 0.75,
          threshold: 0.5,
          passed: true,
          durationMs: 5,
        },
      },
      'passed',
      1000,
    )
    const crashed = finishedTask(
      'jp [trial=2]',
      { evalCase: { suite: 'capitals', id: 'jp', trial: 2, trials: 3, threshold: 0.5, scorers: ['exact'] } },
      'failed',
      500,
      'Error: the agent crashed',
    )
    if (scored === undefined || crashed === undefined) throw new Error('no task')
    expect(tracker.finish(scored, 10_000)).toBe('[1/2] ✓ fr [trial=1]  exact 1.000 · short 0.500 · 1.0 s · eval capitals mean 0.750 · ETA 10.0 s')
    expect(tracker.finish(crashed, 20_000)).toBe('[2/2] ✗ jp [trial=2]  0.5 s · done · Error: the agent crashed')
  })

  it('counts MPCBench v2 instances: F1 and exact match, the running mean of F1; a run with no answer has no score', () => {
    const tracker = new ProgressTracker(0)
    tracker.expectFiles(1)
    tracker.expect(3)
    const v2 = (f1: number | null, error: string | null = null) =>
      ({
        mpcbenchV2: { level: 2, model: 'gpt-4o', row: { metrics: f1 === null ? null : { f1, precision: f1, recall: f1, exact_match: f1 === 1 }, error } },
      }) as unknown as Parameters<typeof finishedTask>[1]
    const lines = [
      finishedTask('i1', v2(1), 'passed', 1000),
      finishedTask('i2', v2(0.5), 'passed', 1000),
      finishedTask('i3', v2(null, 'boom'), 'failed', 1000),
    ].map((task) => {
      if (task === undefined) throw new Error('no task')
      return tracker.finish(task, 3000)
    })
    expect(lines[0]).toBe('[1/3] ✓ i1  F1 1.000 · EM 1 · level 2 gpt-4o · 1.0 s · MPCBench v2 mean 1.000 · ETA 6.0 s')
    expect(lines[1]).toContain('F1 0.500 · EM 0 · level 2 gpt-4o · 1.0 s · MPCBench v2 mean 0.750')
    expect(lines[2]).toBe('[3/3] ✗ i3  1.0 s · done · boom')
  })
})
