import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { notStartedTasks } from './not-started-tasks.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))

describe('notStartedTasks', () => {
  it('declares the tests of a defineMpcbenchBench file as it would (task x agent x trial), and leaves other files uncounted', () => {
    const files = ['bench/planning/planning.eval.ts', 'bench/planning/upstream-v1.eval.ts', 'bench/nowhere.eval.ts']
    const { tests, uncounted } = notStartedTasks(files, repo, {
      BENCH_AGENT_MODEL: 'baseline,scripted/agent',
      BENCH_TRIALS: '2',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    })
    const tasks = readdirSync(join(repo, 'tasks', 'planning')).filter((name) => name.endsWith('.json')).length
    expect(tests).toHaveLength(tasks * 2 * 2)
    expect(new Set(tests.map((test) => test.agent_model))).toEqual(new Set(['baseline', 'scripted/agent']))
    expect(new Set(tests.map((test) => test.trial))).toEqual(new Set([1, 2]))
    expect(tests[0]).toMatchObject({
      task_type: 'planning',
      outcome: 'not-run',
      message: 'its test file bench/planning/planning.eval.ts never started (the run was interrupted first)',
    })
    expect(uncounted).toEqual(['bench/planning/upstream-v1.eval.ts', 'bench/nowhere.eval.ts'])
  })
})
