import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startVitest } from 'vitest/node'
import { afterAll, describe, expect, it } from 'vitest'
import { scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { readArteResults } from '../results/results.ts'
import { outputRecorder } from '../../testing/output-recorder.ts'
import { ArteReporter } from './reporter.ts'

const TASK_META = fileURLToPath(new URL('./task-meta.ts', import.meta.url))
const PLANNED = fileURLToPath(new URL('../../../fixtures/accounting/planned-arte-task.ts', import.meta.url))

/**
 * An eval file that registers ART-E rows 1 and 2 with fixed results (test inputs, not model output): row 1 answered
 * `answer1` after `toolTimeouts1` tool timeouts, row 2 answered 'yes' (exact); one model call each.
 */
function evalFile(name: string, answer1: string, toolTimeouts1: number): string {
  const result = (id: string, answer: string, toolTimeouts: number) => `{
    ...plannedArteTask('${id}'),
    agentAnswer: '${answer}',
    sources: [],
    exactMatch: ${answer === 'yes'},
    semanticScore: ${answer === 'yes' ? 1 : 0},
    traceId: '${name}-${id}',
    executionTimeMs: 5,
    toolTimeouts: ${toolTimeouts},
    usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12, costUsd: 0, calls: 1 },
    outcome: { kind: 'answered', via: 'final-tool' },
  }`
  return `import { test } from 'vitest'
import ${JSON.stringify(TASK_META)}
import { plannedArteTask } from ${JSON.stringify(PLANNED)}

test('1', { meta: { arteTask: plannedArteTask('1') } }, ({ task }) => {
  task.meta.arte = ${result('1', answer1, toolTimeouts1)}
})

test('2', { meta: { arteTask: plannedArteTask('2') } }, ({ task }) => {
  task.meta.arte = ${result('2', 'yes', 1)}
})
`
}

describe('ART-E reporter: rows registered by two eval files', () => {
  const scratch = scratchDir('arte-duplicates')
  afterAll(() => scratch.remove())

  it('counts each task once, as the first file by path reported it, warns, and sums the usage of every test', async () => {
    writeFileSync(join(scratch.dir, 'a.eval.ts'), evalFile('a', 'yes', 2))
    writeFileSync(join(scratch.dir, 'b.eval.ts'), evalFile('b', 'no', 3))
    const stderr = outputRecorder()
    const output = join(scratch.dir, 'results.json')
    const reporter = new ArteReporter({ silent: true, history: false, outputFile: output, thresholds: 'toolTimeouts<=0' })
    const savedExitCode = process.exitCode
    let exitCode: typeof process.exitCode
    try {
      const vitest = await startVitest(
        'test',
        [],
        { config: false, root: scratch.dir, include: ['*.eval.ts'], watch: false, reporters: [reporter] },
        {},
        { stdout: outputRecorder().stream, stderr: stderr.stream },
      )
      await vitest.close()
      exitCode = process.exitCode
    } finally {
      process.exitCode = savedExitCode
    }

    const results = readArteResults(output)
    // a.eval.ts counts, the first file by path, whichever of the two ran first.
    expect(results.taskResults.map((task) => [task.taskId, task.traceId, task.agentAnswer])).toEqual([
      ['1', 'a-1', 'yes'],
      ['2', 'a-2', 'yes'],
    ])
    expect(results).toMatchObject({ totalTasks: 2, completedTasks: 2, trials: 1, exactMatchAccuracy: 1, passHatK: { '1': 1 }, toolTimeouts: 3 })
    expect(results.usage).toMatchObject({ calls: 4, totalTokens: 48 })
    expect(results.thresholds).toEqual([{ metric: 'toolTimeouts', op: '<=', value: 0, measured: 3, passed: false }])
    expect(exitCode).toBe(1)
    expect(stderr.text()).toContain(
      "ART-E task id(s) 1, 2 reported by more than one test (two eval files register the same rows?); the first test's result counts, the others are left out of the metrics",
    )
  })
})
