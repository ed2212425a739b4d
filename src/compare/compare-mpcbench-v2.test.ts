import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { formatResultsRow, type ResultsRow } from '../mpcbench-v2/scoring/results-row.ts'
import { type MpcbenchV2Summary, summarizeLevel } from '../mpcbench-v2/scoring/summary.ts'
import { pairedClusterBootstrapDiffCi } from '../stats/cluster-bootstrap.ts'
import { signFlipTest } from '../stats/sign-flip-test.ts'
import { command, compareFiles } from './compare-command.ts'

/** A row scored with F1 `f1` (exact match when 1), or a failed run when `f1` is null. */
function row(id: string, f1: number | null): ResultsRow {
  if (f1 === null) return { instance_id: id, metrics: null, pred: null, gold: null, error: 'boom' }
  return { instance_id: id, metrics: { f1, precision: f1, recall: f1, exact_match: f1 === 1 }, pred: [['s', 'e']], gold: [['s', 'e']], error: null }
}

function summaryFile(dir: string, name: string, rows: ResultsRow[], model = 'gpt-4o', extra: ResultsRow[] = []): string {
  const levels = [summarizeLevel({ level: 1, worldId: 'world_level1_exp1', model, modelKind: 'llm', trials: new Map(rows.map((r) => [r.instance_id, [r]])) })]
  if (extra.length > 0)
    levels.push(
      summarizeLevel({ level: 1, worldId: 'world_level1_exp1', model: 'other', modelKind: 'llm', trials: new Map(extra.map((r) => [r.instance_id, [r]])) }),
    )
  const summary: MpcbenchV2Summary = { benchmark: 'mpcbench-v2', upstream: 'SeokwonJung-Jay/MPCBench@e398410', generatedAt: '2026-01-01T00:00:00.000Z', levels }
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(summary))
  return file
}

function rowsFile(dir: string, name: string, rows: ResultsRow[]): string {
  const file = join(dir, name)
  writeFileSync(file, rows.map((r) => `${formatResultsRow(r)}\n`).join(''))
  return file
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('agent-bench compare on MPCBench v2 results', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compare-v2-'))
  // A: i1 exact, i2 0.5, i3 exact, i4 error; B: i1 exact, i2 exact, i3 0.4, i4 exact, i5 new.
  const rowsA = [row('i1', 1), row('i2', 0.5), row('i3', 1), row('i4', null)]
  const rowsB = [row('i1', 1), row('i2', 1), row('i3', 0.4), row('i4', 1), row('i5', 1)]

  it('pairs by instance id: flips on exact match, improved and regressed, the paired F1 delta with its interval, the p-value', () => {
    const comparison = compareFiles(summaryFile(dir, 'a.json', rowsA), summaryFile(dir, 'b.json', rowsB))
    expect(comparison).toMatchObject({
      kind: 'MPCBench v2 results',
      tasks: 4,
      flips: ['i2', 'i3', 'i4'],
      improved: ['i2', 'i4'],
      regressed: ['i3'],
      onlyInB: ['i5'],
      primaryMetric: 'f1',
    })
    // A failed run scores 0 (it gave no answer).
    const before = [1, 0.5, 1, 0]
    const after = [1, 1, 0.4, 1]
    expect(comparison.metrics.f1).toMatchObject({ a: 2.5 / 4, b: 3.4 / 4, tasks: 4 })
    expect(comparison.metrics.f1?.ci).toEqual(pairedClusterBootstrapDiffCi(before.map((a, i) => ({ cluster: `i${i + 1}`, a, b: after[i] ?? 0 }))))
    expect(comparison.metrics.exactMatch).toMatchObject({ a: 0.5, b: 0.75 })
    expect(comparison.pValue).toBe(signFlipTest(before.map((a, i) => ({ cluster: `i${i + 1}`, a, b: after[i] ?? 0 })))?.pValue)
  })

  it('reads upstream-format rows files (.jsonl) the same way as summaries', () => {
    const fromRows = compareFiles(rowsFile(dir, 'a.jsonl', rowsA), rowsFile(dir, 'b.jsonl', rowsB))
    const fromSummaries = compareFiles(summaryFile(dir, 'a2.json', rowsA), summaryFile(dir, 'b2.json', rowsB))
    expect(fromRows).toEqual(fromSummaries)
  })

  it('refuses a summary holding one instance under two models, and names a bad rows line', () => {
    const twice = summaryFile(dir, 'twice.json', rowsA, 'gpt-4o', [row('i1', 1)])
    expect(() => compareFiles(twice, summaryFile(dir, 'b3.json', rowsB))).toThrow(/holds i1 twice .*cannot be paired/)
    const bad = join(dir, 'bad.jsonl')
    writeFileSync(bad, `${formatResultsRow(row('i1', 1))}\n{"instance_id": 3}\n`)
    expect(() => compareFiles(bad, rowsFile(dir, 'b4.jsonl', rowsB))).toThrow(`${bad}:2`)
  })

  it('without files, --benchmark mpcbench-v2 compares the two most recent kept summaries; --json prints the comparison', async () => {
    const history = join(dir, 'history')
    for (const [run, rows] of [
      ['2026-01-01T00-00-00-000Z', rowsA],
      ['2026-01-02T00-00-00-000Z', rowsB],
    ] as const) {
      mkdirSync(join(history, run, 'mpcbench-v2'), { recursive: true })
      summaryFile(join(history, run, 'mpcbench-v2'), 'summary.json', [...rows])
    }
    vi.stubEnv('BENCH_HISTORY_DIR', history)
    const lines: string[] = []
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    try {
      expect(await command.run(['--benchmark', 'mpcbench-v2', '--json'])).toBe(0)
    } finally {
      spy.mockRestore()
    }
    expect(JSON.parse(lines.join('\n'))).toMatchObject({ improved: ['i2', 'i4'], regressed: ['i3'], primaryMetric: 'f1' })
  })
})
