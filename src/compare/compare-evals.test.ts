import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { type EvalTaskResult, computeEvalResults } from '../results/eval-results.ts'
import { pairedBootstrapDiffCi } from '../stats/bootstrap.ts'
import { signFlipTest } from '../stats/sign-flip-test.ts'
import { command, compareFiles } from './compare-command.ts'

/** A scored trial-1 row: `passed` when `score` meets the threshold 1. */
function row(id: string, score: number, trial = 1): EvalTaskResult {
  return { id, trial, status: 'scored', passed: score >= 1, scores: { exact: score }, mean: score, durationMs: 1 }
}

function resultsFile(dir: string, name: string, rows: EvalTaskResult[]): string {
  const results = computeEvalResults(rows, {
    name: 'capitals',
    trials: 1,
    scorers: ['exact'],
    threshold: 1,
    testRunEndReason: 'passed',
    files: ['capitals.eval.ts'],
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
  })
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(results))
  return file
}

describe('agent-bench compare on two eval results files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compare-evals-'))
  // A: a b c pass, d e fail; B: a b d e pass, c fails, f is new. Trial 2 rows never count.
  const a = resultsFile(dir, 'a.json', [row('a', 1), row('b', 1), row('c', 1), row('d', 0), row('e', 0), row('a', 0, 2)])
  const b = resultsFile(dir, 'b.json', [row('a', 1), row('b', 1), row('c', 0), row('d', 1), row('e', 1), row('f', 1)])

  it("gives the flips of trial 1, the improved and regressed ids, each metric's paired delta and interval, and the p-value", () => {
    const comparison = compareFiles(a, b)
    expect(comparison).toMatchObject({
      kind: 'eval "capitals"',
      tasks: 5,
      flips: ['c', 'd', 'e'],
      improved: ['d', 'e'],
      regressed: ['c'],
      onlyInB: ['f'],
      primaryMetric: 'passRate',
    })
    const before = [1, 1, 1, 0, 0]
    const after = [1, 1, 0, 1, 1]
    expect(comparison.metrics.passRate).toMatchObject({ a: 0.6, b: 0.8, tasks: 5, ci: pairedBootstrapDiffCi(before, after) })
    expect(comparison.metrics.passRate?.delta).toBeCloseTo(0.2, 12)
    expect(comparison.metrics.exact).toMatchObject({ a: 0.6, b: 0.8 })
    const test = signFlipTest(before.map((x, i) => ({ cluster: String(i), a: x, b: after[i] ?? 0 })))
    expect(comparison.pValue).toBe(test?.pValue)
    expect(comparison.significant).toBe(false)
  })

  it('prints the comparison as JSON with --json', async () => {
    const lines: string[] = []
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    try {
      expect(await command.run([a, b, '--json'])).toBe(0)
    } finally {
      spy.mockRestore()
    }
    const json = JSON.parse(lines.join('\n')) as { flips: string[]; improved: string[]; regressed: string[]; pValue: number }
    expect(json).toMatchObject({ flips: ['c', 'd', 'e'], improved: ['d', 'e'], regressed: ['c'] })
    expect(typeof json.pValue).toBe('number')
  })
})
