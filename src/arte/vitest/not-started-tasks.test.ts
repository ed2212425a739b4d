import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { scratchDir } from '../../../fixtures/arte-e2e/harness.ts'
import { partOfFile } from './arte-parts.ts'
import { notStartedArteTasks, notStartedArteTasksSync } from './not-started-tasks.ts'

const scratch = scratchDir('arte-not-started')
const agent = { model: 'scripted-model', modelKind: 'llm' as const }

/** A project root with a dataset of test rows 1..`count` and one train row. */
function project(name: string, count: number): { root: string; env: Record<string, string> } {
  const root = join(scratch.dir, name)
  mkdirSync(root, { recursive: true })
  const row = (id: string, split: string) =>
    JSON.stringify({
      id,
      question: `q${id}?`,
      answer: `a${id}`,
      message_ids: ['<m@x>'],
      inbox_address: 'a@x.example',
      query_date: '2001-05-01',
      how_realistic: 0.8,
      split,
    })
  const lines = Array.from({ length: count }, (_, i) => row(String(i + 1), 'test'))
  writeFileSync(join(root, 'rows.jsonl'), `${[row('train-1', 'train'), ...lines].join('\n')}\n`)
  return { root, env: { ARTE_DATASET: 'rows.jsonl', ARTE_LIMIT: '0', ARTE_SPLIT: 'test' } }
}

afterEach(() => scratch.remove())

describe('partOfFile', () => {
  it('reads the part of a part file path, and nothing of other files', () => {
    expect(partOfFile('bench/arte/parts/part-2-of-3.eval.ts')).toEqual({ index: 2, count: 3 })
    expect(partOfFile('bench/arte/parts/part-03-of-12.eval.ts')).toEqual({ index: 3, count: 12 })
    expect(partOfFile('bench/arte/parts/part-3-of-12.eval.ts')).toBeUndefined()
    expect(partOfFile('bench/arte/parts/part-4-of-3.eval.ts')).toBeUndefined()
    expect(partOfFile('bench/arte/arte.eval.ts')).toBeUndefined()
    expect(partOfFile('other/parts/part-1-of-2.eval.ts')).toBeUndefined()
  })
})

describe('notStartedArteTasks', () => {
  it("gives the part's rows (position modulo the count, of the split, within the limit) as not run", async () => {
    const { root, env } = project('rows', 7)
    const { metas, uncounted } = await notStartedArteTasks(['bench/arte/parts/part-2-of-3.eval.ts'], root, agent, env)
    expect(uncounted).toEqual([])
    expect(metas.map((meta) => meta.taskId)).toEqual(['2', '5'])
    expect(metas[0]).toEqual({
      taskId: '2',
      question: 'q2?',
      groundTruth: 'a2',
      agentAnswer: '',
      sources: [],
      exactMatch: false,
      semanticScore: 0,
      traceId: '',
      executionTimeMs: 0,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 },
      model: 'scripted-model',
      modelKind: 'llm',
      outcome: { kind: 'not-run', reason: 'its test file bench/arte/parts/part-2-of-3.eval.ts never started (the run was interrupted first)' },
      inboxAddress: 'a@x.example',
      queryDate: '2001-05-01',
      split: 'test',
      dataset: 'rows.jsonl',
      rows: 'all',
    })
    const limited = await notStartedArteTasks(['bench/arte/parts/part-1-of-3.eval.ts', 'bench/arte/parts/part-3-of-3.eval.ts'], root, agent, {
      ...env,
      ARTE_LIMIT: '5',
    })
    expect(limited.metas.map((meta) => meta.taskId)).toEqual(['1', '4', '3'])
  })

  it('gives every trial of each row with BENCH_TRIALS', async () => {
    const { root, env } = project('trials', 4)
    const { metas } = await notStartedArteTasks(['bench/arte/parts/part-1-of-2.eval.ts'], root, agent, { ...env, BENCH_TRIALS: '2' })
    expect(metas.map((meta) => [meta.taskId, meta.trial])).toEqual([
      ['1', 1],
      ['1', 2],
      ['3', 1],
      ['3', 2],
    ])
  })

  it('reads the same tasks synchronously (for a signal handler)', async () => {
    const { root, env } = project('sync', 7)
    const files = ['bench/arte/arte.eval.ts', 'bench/arte/parts/part-1-of-3.eval.ts', 'bench/arte/parts/part-3-of-3.eval.ts']
    const trials = { ...env, BENCH_TRIALS: '2', ARTE_LIMIT: '6' }
    expect(notStartedArteTasksSync(files, root, agent, trials)).toEqual(await notStartedArteTasks(files, root, agent, trials))
    expect(notStartedArteTasksSync(files, root, agent, trials).metas).toHaveLength(8)
    expect(notStartedArteTasksSync(files, root, agent, { ...env, ARTE_DATASET: 'missing.jsonl' })).toEqual({ metas: [], uncounted: files })
  })

  it('leaves uncounted a file that is not a part file, and every file when the dataset does not load', async () => {
    const { root, env } = project('uncounted', 4)
    const files = ['bench/arte/arte.eval.ts', 'bench/arte/parts/part-1-of-2.eval.ts']
    const read = await notStartedArteTasks(files, root, agent, env)
    expect(read.uncounted).toEqual(['bench/arte/arte.eval.ts'])
    expect(read.metas).toHaveLength(2)
    const missing = await notStartedArteTasks(files, root, agent, { ...env, ARTE_DATASET: 'missing.jsonl' })
    expect(missing).toEqual({ metas: [], uncounted: files })
  })
})
