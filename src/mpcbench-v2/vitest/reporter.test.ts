import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestModule } from 'vitest/node'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { takeRunOutput } from '../../core/run-outputs.ts'
import { passHatKSummary } from '../../results/pass-hat-k-summary.ts'
import { MpcbenchV2SummarySchema } from '../scoring/summary.ts'
import type { ResultsRow } from '../scoring/results-row.ts'
import { mpcbenchV2Settings } from '../settings.ts'
import MpcbenchV2Reporter from './reporter.ts'
import type { MpcbenchV2TestMeta } from './test-meta.ts'

function row(id: string, exact: boolean): ResultsRow {
  const value = exact ? 1 : 0.5
  return {
    instance_id: id,
    metrics: { f1: value, precision: value, recall: value, exact_match: exact },
    pred: [['a', 'b']],
    gold: [['a', 'b']],
    error: null,
    trace: [],
  }
}

function modules(metas: MpcbenchV2TestMeta[]): TestModule[] {
  return [{ children: { allTests: () => metas.map((meta) => ({ meta: () => ({ mpcbenchV2: meta }) })) } } as unknown as TestModule]
}

const meta = (instanceId: string, trial: number, exact: boolean, model = 'gpt-4o'): MpcbenchV2TestMeta => ({
  level: 1,
  worldId: 'world_level1_exp1',
  model,
  modelKind: 'llm',
  instanceId,
  trial,
  row: row(instanceId, exact),
})

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('MpcbenchV2Reporter', () => {
  it("writes upstream's rows per level and model, trial files, and a summary with Avg F1, EM rate and pass^k", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mpcbench-v2-reporter-'))
    vi.stubEnv('BENCH_HISTORY_DIR', join(dir, 'history'))
    const reporter = new MpcbenchV2Reporter({ outputFile: join(dir, 'summary.json'), rowsFile: join(dir, 'rows.jsonl'), print: false })
    const traced = { ...meta('i2', 2, true), otelTraceId: 'a'.repeat(32) }
    reporter.onTestRunEnd(modules([meta('i1', 1, true), meta('i2', 1, false), meta('i1', 2, true), traced, meta('i1', 1, true, 'openai/o4-mini')]))
    const rows = readFileSync(join(dir, 'eval_L1_exp1_gpt-4o.jsonl'), 'utf8').trim().split('\n')
    expect(rows).toHaveLength(2)
    expect(rows[0]).toBe(
      '{"instance_id": "i1", "metrics": {"f1": 1.0, "precision": 1.0, "recall": 1.0, "exact_match": true}, "pred": [["a", "b"]], "gold": [["a", "b"]], "error": null, "trace": []}',
    )
    expect(readFileSync(join(dir, 'eval_L1_exp1_gpt-4o_trial2.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2)
    expect(readFileSync(join(dir, 'eval_L1_exp1_openai_o4-mini.jsonl'), 'utf8')).toContain('"i1"')
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))
    const gpt = summary.levels.find((level: { model: string }) => level.model === 'gpt-4o')
    expect(gpt).toMatchObject({ instances: 2, scored: 2, avgF1: 0.75, emRate: 0.5, trials: 2, passHatK: { 1: 0.75, 2: 0.5 }, passHatKTasks: 2 })
    // pass^k and its intervals come from the shared results core (pass = exact match), instances in id order.
    const core = passHatKSummary(
      [
        [
          { trial: 1, passed: true },
          { trial: 2, passed: true },
        ],
        [
          { trial: 1, passed: false },
          { trial: 2, passed: true },
        ],
      ],
      2,
    )
    expect(gpt.passHatKCi).toEqual(core.passHatKCi)
    expect(gpt.emRateCi.low).toBeLessThan(0.5)
    // Every instance x trial, in id then trial order, without the trace; the trace id where tracing gave one.
    expect(gpt.results.map((r: { instanceId: string; trial: number }) => `${r.instanceId}#${r.trial}`)).toEqual(['i1#1', 'i1#2', 'i2#1', 'i2#2'])
    expect(gpt.results[3]).toEqual({
      instanceId: 'i2',
      trial: 2,
      metrics: { f1: 1, precision: 1, recall: 1, exact_match: true },
      pred: [['a', 'b']],
      gold: [['a', 'b']],
      error: null,
      otelTraceId: 'a'.repeat(32),
    })
    expect(gpt.results[0].otelTraceId).toBeUndefined()
    expect(MpcbenchV2SummarySchema.parse(summary).runId).toBe(summary.runId)
    // A copy under the run history, and the file recorded for the HTML report of the same run.
    const runs = readdirSync(join(dir, 'history'))
    expect(runs).toEqual([summary.runId])
    expect(JSON.parse(readFileSync(join(dir, 'history', summary.runId, 'mpcbench-v2', 'summary.json'), 'utf8'))).toEqual(summary)
    expect(takeRunOutput('mpcbench-v2-summary')).toBe(join(dir, 'summary.json'))
    expect(readFileSync(join(dir, 'rows.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3)
  })

  it('keeps no history copy with `history: false` or BENCH_HISTORY_KEEP=0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mpcbench-v2-reporter-'))
    vi.stubEnv('BENCH_HISTORY_DIR', join(dir, 'history'))
    new MpcbenchV2Reporter({ outputFile: join(dir, 'a.json'), print: false, history: false }).onTestRunEnd(modules([meta('i1', 1, true)]))
    vi.stubEnv('BENCH_HISTORY_KEEP', '0')
    new MpcbenchV2Reporter({ outputFile: join(dir, 'b.json'), print: false }).onTestRunEnd(modules([meta('i1', 1, true)]))
    expect(existsSync(join(dir, 'history'))).toBe(false)
    expect(JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')).runId).toBeUndefined()
    expect(JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8')).levels[0]).toMatchObject({ trials: 1, passHatK: { 1: 1 }, passHatKCi: {} })
  })
})

describe('mpcbenchV2Settings', () => {
  it('reads the files of a level from the data folder and suffix, or the three files given', () => {
    const settings = mpcbenchV2Settings({ MPCBENCH_V2_DATA_DIR: '/d', MPCBENCH_V2_SUFFIX: 'test', MPCBENCH_V2_IDS: 'a, b', MPCBENCH_V2_MODEL: 'baseline' })
    expect(settings.files(2)).toEqual({
      world: '/d/world_level2_test.json',
      instances: '/d/instances_level2_test.jsonl',
      oracle: '/d/oracle_level2_test.jsonl',
    })
    expect([...(settings.ids ?? [])]).toEqual(['a', 'b'])
    expect(mpcbenchV2Settings({ MPCBENCH_V2_WORLD: '/w.json', MPCBENCH_V2_INSTANCES: '/i.jsonl', MPCBENCH_V2_ORACLE: '/o.jsonl' }).files(3).world).toBe(
      '/w.json',
    )
  })

  it('names the variable and the fix of a bad setting', () => {
    expect(() => mpcbenchV2Settings({ MPCBENCH_V2_WORLD: '/w.json' })).toThrow('must be set together')
    expect(() => mpcbenchV2Settings({ BENCH_TRIALS: '0' })).toThrow('BENCH_TRIALS')
  })

  it('reads a blank variable as unset, as the other benchmarks do', () => {
    const settings = mpcbenchV2Settings({ BENCH_TRIALS: '', MPCBENCH_V2_SUFFIX: ' ', MPCBENCH_V2_DATA_DIR: '/d' })
    expect(settings.trials).toBe(1)
    expect(settings.files(1).world).toBe('/d/world_level1_exp1.json')
  })
})
