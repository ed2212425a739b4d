import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { arteTaskResult } from '../../fixtures/arte-results/task-result.ts'
import { fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir, SCRIPTED_USAGE } from '../../fixtures/arte-e2e/harness.ts'
import { type ArteResults, type ArteTaskResult, computeArteMetrics } from '../arte/results/results.ts'
import { ArteReporter } from '../arte/vitest/reporter.ts'
import { compareFiles, command } from './compare-command.ts'
import { ConfigError } from '../core/errors.ts'
import { buildSummary } from '../mpcbench/summary/summary.ts'
import type { MpcbenchTestMeta } from '../mpcbench/run/mpcbench-meta.ts'
import { RunComparisonSchema } from '../stats/compare-runs.ts'
import { type ReceivedRequest, type ScriptedResponder, lastUserText, scriptedToolCalls, startScriptedServer } from '../testing/scripted-server.ts'
import { scaledMs } from '../testing/time-scale.ts'

/** Run B's scripted replies: 101 now answers wrong, 102 now answers exactly; the rest as in run A. Scripted, not model output. */
function runBResponder(): ScriptedResponder {
  const base = fixtureResponder()
  const final = (answer: string) => scriptedToolCalls([{ name: 'return_final_answer', arguments: { answer, sources: [] } }], { usage: SCRIPTED_USAGE })
  return (request: ReceivedRequest, index: number) => {
    const question = lastUserText(request)
    if (question.includes('budget review')) return final('Room 5')
    if (question.includes('catering')) return final('Harbor Street Deli')
    return base(request, index)
  }
}

async function captureLog(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const lines: string[] = []
  const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
    lines.push(String(line))
  })
  try {
    const code = await fn()
    return { code, out: lines.join('\n') }
  } finally {
    spy.mockRestore()
  }
}

describe('agent-bench compare on two scripted ART-E runs', () => {
  const scratch = scratchDir('arte-compare')
  const fileA = join(scratch.dir, 'a.json')
  const fileB = join(scratch.dir, 'b.json')

  beforeAll(async () => {
    for (const [responder, file] of [
      [fixtureResponder(), fileA],
      [runBResponder(), fileB],
    ] as const) {
      await using server = await startScriptedServer(responder)
      await runFixtureVitest(fixtureEnv(server.baseURL, scratch.dir, { ARTE_OUTPUT: file }), { reporters: [new ArteReporter({ silent: true })] })
    }
  }, scaledMs(120_000))

  afterAll(() => scratch.remove())

  it('reports the flips, improved and regressed ids, and paired deltas', () => {
    const c = compareFiles(fileA, fileB)
    expect(c).toMatchObject({ kind: 'ART-E results', tasks: 4, flips: ['101', '102'], flipRate: 0.5, improved: ['102'], regressed: ['101'] })
    expect(c.metrics.exactMatchAccuracy).toMatchObject({ a: 0.25, b: 0.25, delta: 0, tasks: 4 })
    expect(c.metrics.exactMatchAccuracy?.ci?.low).toBeLessThanOrEqual(0)
    expect(c.metrics.exactMatchAccuracy?.ci?.high).toBeGreaterThanOrEqual(0)
    expect(c.significant).toBe(false)
    expect(compareFiles(fileA, fileA)).toMatchObject({ flips: [], flipRate: 0, significant: false })
  })

  it('prints JSON with --json, and text naming the verdict otherwise', async () => {
    const json = await captureLog(() => command.run([fileA, fileB, '--json']))
    expect(json.code).toBe(0)
    const parsed = RunComparisonSchema.parse(JSON.parse(json.out))
    expect(Object.keys(parsed)).toEqual(expect.arrayContaining(['tasks', 'flips', 'flipRate', 'improved', 'regressed', 'metrics', 'significant']))
    expect(Object.keys(parsed.metrics.exactMatchAccuracy ?? {})).toEqual(expect.arrayContaining(['a', 'b', 'delta', 'ci']))
    const text = await captureLog(() => command.run([fileA, fileB]))
    expect(parsed.flipRateCi).toEqual({ low: 0.150039, high: 0.849961, level: 0.95, method: 'Wilson score interval over 4 task(s)' })
    expect(text.out.split('\n')).toContain('flips: 2 (50.0% [15.0%, 85.0%])')
    expect(text.out).toContain('improved (fail -> pass): 102')
    expect(text.out).toContain('regressed (pass -> fail): 101')
    expect(text.out).toContain('significant: no')
  })

  it('compares the two latest kept runs when given no files, and rejects mixed or missing inputs', async () => {
    const history = join(scratch.dir, 'history-test')
    for (const [run, file] of [
      ['2026-01-01T00-00-00-000Z', fileA],
      ['2026-01-02T00-00-00-000Z', fileB],
    ] as const) {
      mkdirSync(join(history, run), { recursive: true })
      copyFileSync(file, join(history, run, 'arte-results.json'))
    }
    vi.stubEnv('BENCH_HISTORY_DIR', history)
    try {
      const latest = await captureLog(() => command.run(['--json']))
      expect(JSON.parse(latest.out)).toMatchObject({ improved: ['102'], regressed: ['101'] })
      await expect(command.run(['--benchmark', 'mpcbench'])).rejects.toThrow(/Found 0 kept mpcbench run/)
      // Runs of the other benchmark are there: the hint names the flag that compares them.
      await expect(command.run(['--benchmark', 'mpcbench'])).rejects.toThrow(/The history holds arte runs: pass --benchmark arte\./)
    } finally {
      vi.unstubAllEnvs()
    }
    const summary = join(scratch.dir, 'summary.json')
    writeFileSync(summary, JSON.stringify(buildSummary([])))
    expect(() => compareFiles(fileA, summary)).toThrow(ConfigError)
    await expect(command.run([fileA])).rejects.toThrow(/Expected two files/)
  })
})

describe('compare on MPCBench summaries', () => {
  const noUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 }
  const meta = (taskId: string, agentModel: string, ars: number | null): MpcbenchTestMeta => ({
    taskId,
    taskType: 'planning',
    scenarioId: 's',
    agentModel,
    agentModelKind: 'llm',
    agentOutcome: 'answered',
    toolCalls: 1,
    turns: 1,
    durationMs: 1,
    costUsd: 0,
    totalTokens: 0,
    usage: noUsage,
    runLogFile: 'r',
    judges: [
      {
        judgeModel: 'rules',
        judgeKind: 'rules',
        judgeInputFile: 'i',
        judgeResultFile: 'r',
        usage: noUsage,
        kind: 'scored',
        answerRequirementsSatisfaction: ars,
        sourceGroundedReasoning: 3,
      },
    ],
  })

  it('pairs tasks by task x judge when each summary ran one agent, pass = requirements >= 4', () => {
    const scratch = scratchDir('mpc-compare')
    try {
      const a = join(scratch.dir, 'a.json')
      const b = join(scratch.dir, 'b.json')
      writeFileSync(a, JSON.stringify(buildSummary([meta('t1', 'agent-x', 5), meta('t2', 'agent-x', 2), meta('t3', 'agent-x', null)])))
      writeFileSync(b, JSON.stringify(buildSummary([meta('t1', 'agent-y', 3), meta('t2', 'agent-y', 4), meta('t3', 'agent-y', 4)])))
      const c = compareFiles(a, b)
      // t3 is unjudged in A: left out of the flips and of the paired metric, as the row means leave it out.
      expect(c).toMatchObject({
        kind: 'MPCBench summary',
        tasks: 2,
        leftOut: ['t3 [judge=rules]'],
        improved: ['t2 [judge=rules]'],
        regressed: ['t1 [judge=rules]'],
      })
      expect(c.metrics.answer_requirements_satisfaction).toMatchObject({ a: 3.5, b: 3.5, delta: 0, tasks: 2 })
    } finally {
      scratch.remove()
    }
  })

  it('resamples and tests by task, not by task x judge, prints p, and counts a timed-out test as a failure', async () => {
    const judged = (taskId: string, ars: number): MpcbenchTestMeta => {
      const base = meta(taskId, 'agent-x', ars)
      return { ...base, judges: ['j1', 'j2', 'j3'].map((judgeModel) => ({ ...base.judges[0], judgeModel }) as MpcbenchTestMeta['judges'][number]) }
    }
    const scratch = scratchDir('mpc-compare-clusters')
    try {
      const a = join(scratch.dir, 'a.json')
      const b = join(scratch.dir, 'b.json')
      const scoresB = [5, 4, 4, 2, 3, 3, 3, 3, 3, 3, 3, 3]
      writeFileSync(a, JSON.stringify(buildSummary(scoresB.map((_, i) => judged(`t${i + 1}`, 3)))))
      writeFileSync(b, JSON.stringify(buildSummary(scoresB.map((score, i) => judged(`t${i + 1}`, score)))))
      const json = RunComparisonSchema.parse(JSON.parse((await captureLog(() => command.run([a, b, '--json']))).out))
      expect(json).toMatchObject({ tasks: 36, pValue: 0.5, test: 'exact paired sign-flip test by task, 12 task(s), 4 differ', significant: false })
      expect(json.metrics.answer_requirements_satisfaction).toMatchObject({ tasks: 36, clusters: 12, ci: { low: -0.166667, high: 0.666667 } })
      // 9 of the 36 entries flip (t1, t2, t3 under each judge): the flip rate's interval draws the 12 tasks.
      expect(json).toMatchObject({
        flipRate: 0.25,
        flipRateCi: {
          low: 0,
          high: 0.5,
          method: "cluster percentile bootstrap over 12 benchmark task(s) (36 entries, each task's taken together), 2000 resamples, seed 20260311",
        },
      })
      const text = (await captureLog(() => command.run([a, b]))).out.split('\n')
      expect(text).toContain('answer_requirements_satisfaction: 3.000 -> 3.250  delta +0.250 [-0.167, +0.667]  (36 paired task(s) of 12 benchmark task(s))')
      expect(text).toContain('flips: 9 (25.0% [0.0%, 50.0%])')
      expect(text).toContain(
        'significant: no (p = 0.5, exact paired sign-flip test by task, 12 task(s), 4 differ, on answer_requirements_satisfaction): the runs may differ only by chance',
      )

      const unfinished = [{ task_id: 't1', task_type: 'planning', agent_model: 'agent-x', outcome: 'timed-out' as const, message: 'test timed out' }]
      writeFileSync(b, JSON.stringify(buildSummary([judged('t2', 3)], new Date(), unfinished)))
      const c = compareFiles(a, b)
      const t1 = ['j1', 'j2', 'j3'].map((judge) => `t1 [agent=agent-x] [judge=${judge}]`)
      expect(c).toMatchObject({ tasks: 6, leftOut: [], regressed: [], flips: [] })
      writeFileSync(a, JSON.stringify(buildSummary([judged('t1', 5), judged('t2', 3)])))
      expect(compareFiles(a, b)).toMatchObject({ tasks: 6, leftOut: [], regressed: t1, flips: t1 })
    } finally {
      scratch.remove()
    }
  })
})

describe("compare on the ART-E scores that compare with OpenPipe's (sourcesAccuracy, llmJudgeAccuracy)", () => {
  const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15, costUsd: 0.001, calls: 1 }
  /** A task that ran; `judge` is the judge's verdict, `'error'` a judge error, undefined no judge field. */
  const task = (taskId: string, exactMatch: boolean, extra: { sources?: boolean; judge?: boolean | 'error' } = {}): ArteTaskResult =>
    arteTaskResult(taskId, exactMatch, {
      semanticScore: exactMatch ? 1 : 0.5,
      ...(extra.sources === undefined ? {} : { sourcesCorrect: extra.sources }),
      ...(extra.judge === undefined
        ? {}
        : extra.judge === 'error'
          ? { llmJudgeError: { code: 'JUDGE_REPLY', message: 'neither True nor False' } }
          : { llmJudgeCorrect: extra.judge }),
    })
  const results = (tasks: ArteTaskResult[], judgeModel?: string): ArteResults => ({
    ...computeArteMetrics(tasks),
    usage,
    ...(judgeModel === undefined
      ? {}
      : {
          llmJudge: {
            model: judgeModel,
            judgedTasks: tasks.filter((t) => t.llmJudgeCorrect !== undefined).length,
            errors: tasks.filter((t) => t.llmJudgeError !== undefined).length,
            usage,
          },
        }),
    config: {
      model: 'openai/gpt-x',
      modelKind: 'llm',
      split: 'test',
      dataset: 'rows.jsonl',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:00.000Z',
    },
    testRunEndReason: 'passed',
    thresholds: [],
    taskResults: tasks,
  })
  // Sources: A 2/6 correct, B 4/6. Judge: task 3 erred in A, task 4 in B, so tasks 1, 2, 5, 6 pair: A 2/4, B 3/4.
  const judgedA = (model = 'judge/one') =>
    results(
      [
        task('1', true, { sources: true, judge: true }),
        task('2', false, { sources: false, judge: false }),
        task('3', false, { sources: false, judge: 'error' }),
        task('4', true, { sources: true, judge: true }),
        task('5', false, { sources: false, judge: false }),
        task('6', false, { sources: false, judge: true }),
      ],
      model,
    )
  const judgedB = (model = 'judge/one') =>
    results(
      [
        task('1', true, { sources: true, judge: true }),
        task('2', true, { sources: true, judge: true }),
        task('3', false, { sources: true, judge: true }),
        task('4', true, { sources: true, judge: 'error' }),
        task('5', false, { sources: false, judge: false }),
        task('6', false, { sources: false, judge: true }),
      ],
      model,
    )
  const oldFile = () => results([1, 2, 3, 4, 5, 6].map((id) => task(String(id), id % 2 === 0)))

  function compareWritten(a: ArteResults, b: ArteResults): { c: ReturnType<typeof compareFiles>; fileA: string; fileB: string; remove: () => void } {
    const scratch = scratchDir('arte-compare-scores')
    const fileA = join(scratch.dir, 'a.json')
    const fileB = join(scratch.dir, 'b.json')
    writeFileSync(fileA, JSON.stringify(a))
    writeFileSync(fileB, JSON.stringify(b))
    return { c: compareFiles(fileA, fileB), fileA, fileB, remove: scratch.remove }
  }

  it('pairs sourcesAccuracy over every task and llmJudgeAccuracy over the tasks both judges judged, with intervals', async () => {
    const { c, fileA, fileB, remove } = compareWritten(judgedA(), judgedB())
    try {
      expect(c.metrics.sourcesAccuracy).toMatchObject({ a: 2 / 6, b: 4 / 6, tasks: 6 })
      expect(c.metrics.sourcesAccuracy?.delta).toBeCloseTo(1 / 3)
      expect(c.metrics.sourcesAccuracy?.ci?.level).toBe(0.95)
      expect(c.metrics.llmJudgeAccuracy).toMatchObject({ a: 0.5, b: 0.75, delta: 0.25, tasks: 4 })
      expect(c.metrics.llmJudgeAccuracy?.ci?.low).toBeLessThanOrEqual(0.25)
      expect(c.metrics.llmJudgeAccuracy?.ci?.high).toBeGreaterThanOrEqual(0.25)
      // The primary metric (and so the verdict) stays exact match.
      expect(c).toMatchObject({ primaryMetric: 'exactMatchAccuracy', tasks: 6, improved: ['2'] })
      const text = await captureLog(() => command.run([fileA, fileB]))
      expect(text.out).toMatch(/sourcesAccuracy: 0\.333 -> 0\.667 {2}delta \+0\.333 \[[^\]]+\] {2}\(6 paired task\(s\)\)/)
      expect(text.out).toMatch(/llmJudgeAccuracy: 0\.500 -> 0\.750 {2}delta \+0\.250 \[[^\]]+\] {2}\(4 paired task\(s\)\)/)
      expect(text.out).toContain('llmJudgeAccuracy: paired over 4 task(s) judged in both runs; 2 left out (the judge erred or gave no verdict in A or B)')
      expect(text.out).not.toContain('not compared')
      expect(text.out).not.toContain('different models')
      const json = JSON.parse((await captureLog(() => command.run([fileA, fileB, '--json']))).out)
      expect(json.judgeModels).toEqual({ a: 'judge/one', b: 'judge/one' })
      expect(json.notes).toEqual([expect.objectContaining({ metric: 'llmJudgeAccuracy', kind: 'left-out' })])
    } finally {
      remove()
    }
  })

  it('says in one line why a score one file lacks is not compared, and never counts the missing field as false', async () => {
    const { c, fileA, fileB, remove } = compareWritten(oldFile(), judgedB())
    try {
      expect(Object.keys(c.metrics)).toEqual(['exactMatchAccuracy', 'avgSemanticScore'])
      const text = (await captureLog(() => command.run([fileA, fileB]))).out.split('\n')
      expect(text).toContain('sourcesAccuracy: not compared, A has no per-task sourcesCorrect (results written before it was measured)')
      expect(text).toContain('llmJudgeAccuracy: not compared, A was not judged (no ARTE_JUDGE_MODEL)')
      expect(compareWritten(judgedA(), results(judgedB().taskResults)).c.notes).toEqual([
        { metric: 'llmJudgeAccuracy', kind: 'not-compared', message: 'llmJudgeAccuracy: not compared, B was not judged (no ARTE_JUDGE_MODEL)' },
      ])
    } finally {
      remove()
    }
    // Two files without the scores: nothing to compare, nothing said.
    const old = compareWritten(oldFile(), oldFile())
    old.remove()
    expect(old.c.notes).toEqual([])
    // A task without sourcesCorrect in a run that has it elsewhere is left out of the pairs, not counted as 0.
    const partial = judgedB()
    const { sourcesCorrect: _, ...withoutSources } = partial.taskResults[1] ?? task('2', true)
    partial.taskResults[1] = withoutSources
    const mixed = compareWritten(judgedA(), partial)
    mixed.remove()
    expect(mixed.c.metrics.sourcesAccuracy).toMatchObject({ a: 2 / 5, b: 3 / 5, tasks: 5 })
  })

  it('says why two runs share no task when they select different rows (ARTE_ROWS) or splits', async () => {
    const openpipe = oldFile()
    openpipe.config = { ...openpipe.config, rows: 'openpipe' }
    const { c, fileA, fileB, remove } = compareWritten(oldFile(), openpipe)
    try {
      expect(c.tasks).toBe(0)
      expect(c.notes).toEqual([
        {
          metric: '*',
          kind: 'different-selection',
          message: 'No task is in both runs: A runs rows all, B rows openpipe (ARTE_ROWS). Compare runs of the same selection.',
        },
      ])
      expect((await captureLog(() => command.run([fileA, fileB]))).out).toContain('No task is in both runs: A runs rows all, B rows openpipe (ARTE_ROWS).')
    } finally {
      remove()
    }
    // Rows of another split have other ids (as in ART-E's data).
    const train = results([7, 8, 9].map((id) => task(String(id), true)))
    train.config = { ...train.config, split: 'train' }
    const splits = compareWritten(oldFile(), train)
    splits.remove()
    expect(splits.c.notes.map((note) => note.message)).toEqual(['No task is in both runs: A is split test, B split train. Compare runs of the same selection.'])
    // Same selection: the runs pair, and nothing is said.
    const same = compareWritten(openpipe, openpipe)
    same.remove()
    expect(same.c.tasks).toBe(6)
    expect(same.c.notes).toEqual([])
  })

  it('flags the judge comparison when the runs were judged by different models, still showing its delta', async () => {
    const { c, fileA, fileB, remove } = compareWritten(judgedA('openai/gpt-4.1'), judgedB('anthropic/claude-x'))
    try {
      expect(c.metrics.llmJudgeAccuracy).toMatchObject({ delta: 0.25, tasks: 4 })
      expect(c.notes).toContainEqual(expect.objectContaining({ metric: 'llmJudgeAccuracy', kind: 'different-judges' }))
      const text = await captureLog(() => command.run([fileA, fileB]))
      expect(text.out).toContain(
        "llmJudgeAccuracy: judged by different models (A: openai/gpt-4.1, B: anthropic/claude-x), not the same measurement: its delta mixes the agent's change with the judges' disagreement",
      )
    } finally {
      remove()
    }
  })
})
