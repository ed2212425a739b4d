import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fixtureEnv, fixtureResponder, runFixtureVitest, scratchDir, SCRIPTED_USAGE } from '../../fixtures/arte-e2e/harness.ts'
import { ArteReporter } from '../arte/vitest/reporter.ts'
import { compareFiles, command } from './compare-command.ts'
import { ConfigError } from '../core/errors.ts'
import { buildSummary } from '../mpcbench/summary.ts'
import type { MpcbenchTestMeta } from '../mpcbench/vitest/mpcbench-meta.ts'
import { RunComparisonSchema } from '../stats/compare-runs.ts'
import { type ReceivedRequest, type ScriptedResponder, lastUserText, scriptedToolCalls, startScriptedServer } from '../testing/scripted-server.ts'

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
  }, 120_000)

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
    expect(text.out).toContain('flips: 2 (50.0%)')
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
    judges: [{ judgeModel: 'rules', judgeKind: 'rules', judgeInputFile: 'i', judgeResultFile: 'r', usage: noUsage, kind: 'scored', answerRequirementsSatisfaction: ars, sourceGroundedReasoning: 3 }],
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
      expect(c).toMatchObject({ kind: 'MPCBench summary', tasks: 2, leftOut: ['t3 [judge=rules]'], improved: ['t2 [judge=rules]'], regressed: ['t1 [judge=rules]'] })
      expect(c.metrics.answer_requirements_satisfaction).toMatchObject({ a: 3.5, b: 3.5, delta: 0, tasks: 2 })
    } finally {
      scratch.remove()
    }
  })
})
