import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { arteTaskResult } from '../../../fixtures/arte-results/task-result.ts'
import { REPO_ROOT, scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { type ArteResults, computeArteMetrics } from '../results/results.ts'
import { childEnv } from '../../testing/child-env.ts'
import { scaledMs } from '../../testing/time-scale.ts'

const run = promisify(execFile)

/** A results file with one task in the high bucket and one in the low bucket. */
function writeResults(file: string): void {
  const tasks = [arteTaskResult('1', true), arteTaskResult('2', false)]
  const results: ArteResults = {
    ...computeArteMetrics(tasks),
    usage: { promptTokens: 20, completionTokens: 10, totalTokens: 30, costUsd: 0.002, calls: 2 },
    config: {
      model: 'baseline',
      modelKind: 'baseline',
      split: 'test',
      dataset: 'rows.jsonl',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:00.000Z',
    },
    testRunEndReason: 'passed',
    thresholds: [],
    taskResults: tasks,
  }
  writeFileSync(file, JSON.stringify(results))
}

/** `agent-bench generate-evals` from the sources, in a child process started in `cwd`. */
async function generateEvals(args: string[], cwd: string): Promise<string> {
  const tsx = import.meta.resolve('tsx')
  const { stdout } = await run(process.execPath, ['--import', tsx, join(REPO_ROOT, 'src/main.ts'), 'generate-evals', ...args], {
    cwd,
    env: childEnv(),
    timeout: scaledMs(60_000),
  })
  return stdout
}

describe('agent-bench generate-evals', () => {
  const scratch = scratchDir('generate-evals-cli')
  afterAll(() => scratch.remove())

  it("in a user's project, writes files that import the package's exported runtime and prints the Vitest config they need", async () => {
    const project = mkdtempSync(join(tmpdir(), 'generate-evals-project-'))
    writeResults(join(project, 'results.json'))
    const stdout = await generateEvals(['--results', 'results.json', '--out', 'evals/generated'], project)
    expect(stdout).toMatch(/high\s+1 test\(s\)\s+evals\/generated\/arte-high\.eval\.ts/)
    expect(readFileSync(join(project, 'evals/generated/arte-low.eval.ts'), 'utf8')).toContain(
      "import { defineArteRegressionTests } from 'vitest-agent-bench/vitest/arte-regression'\n",
    )
    expect(stdout).toContain("      include: ['evals/generated/*.eval.ts'],\n      globalSetup: ['vitest-agent-bench/vitest/arte-setup'],\n")
    expect(stdout).toContain('`npx vitest run evals/generated`')
    expect(stdout).not.toContain('--project bench')
  })

  it('in this checkout, keeps the import of the sources and names the bench project', async () => {
    writeResults(join(scratch.dir, 'results.json'))
    const out = relative(REPO_ROOT, join(scratch.dir, 'generated'))
    const stdout = await generateEvals(['--results', join(scratch.dir, 'results.json'), '--out', out], REPO_ROOT)
    expect(readFileSync(join(scratch.dir, 'generated/arte-high.eval.ts'), 'utf8')).toContain("from '../../../src/arte/vitest/regression.ts'\n")
    expect(stdout).toContain(`Run them with \`npx vitest run --project bench ${out}\`.`)
    expect(stdout).not.toContain('globalSetup')
  })
})
