import { describe, expect, it } from 'vitest'
import type { ArteTestMeta } from './arte-meta.ts'
import { type ArteTaskResult, ArteTaskResultSchema, compareTaskIds, computeArteMetrics, sumTaskUsage, toTaskResult } from './results.ts'

function task(taskId: string, fields: Partial<ArteTaskResult>): ArteTaskResult {
  return {
    taskId,
    question: `q${taskId}`,
    groundTruth: 'x',
    agentAnswer: 'x',
    exactMatch: false,
    semanticScore: 0,
    traceId: `t${taskId}`,
    executionTimeMs: 10,
    sources: [],
    inboxAddress: 'a@b.example',
    queryDate: '2001-01-01',
    outcome: { kind: 'answered', via: 'final-tool' },
    usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3, costUsd: 0.5, calls: 1 },
    ...fields,
  }
}

describe('computeArteMetrics', () => {
  const tasks = [
    task('10', { exactMatch: true, semanticScore: 1, executionTimeMs: 40 }),
    task('2', { semanticScore: 0.1, executionTimeMs: 20, toolTimeouts: 1 }),
    task('3', { semanticScore: 0.2, executionTimeMs: 30, outcome: { kind: 'max-turns', maxTurns: 3 }, toolTimeouts: 2 }),
  ]

  it('aggregates as the ART-E doc defines', () => {
    const metrics = computeArteMetrics(tasks, [
      { startTime: 1000, endTime: 1050 },
      { startTime: 1010, endTime: 1200 },
    ])
    expect(metrics).toEqual({
      exactMatchAccuracy: 1 / 3,
      avgSemanticScore: (0.1 + 0.2 + 1) / 3,
      avgExecutionTimeMs: 30,
      completedTasks: 2,
      failedTasks: 1,
      notRunTasks: 0,
      totalTasks: 3,
      totalTimeMs: 200,
      toolTimeouts: 3,
    })
  })

  it('counts not-run tasks apart and leaves them out of the averages', () => {
    const metrics = computeArteMetrics([...tasks, task('9', { outcome: { kind: 'not-run', reason: 'interrupted' }, semanticScore: 0, exactMatch: false })])
    expect(metrics).toMatchObject({ totalTasks: 4, completedTasks: 2, failedTasks: 1, notRunTasks: 1, exactMatchAccuracy: 1 / 3 })
  })

  it('gives bit-identical metrics whatever the report order', () => {
    const many = Array.from({ length: 50 }, (_, i) => task(String(i), { semanticScore: (i * 0.37) % 1 }))
    const reversed = [...many].reverse()
    expect(computeArteMetrics(reversed)).toStrictEqual(computeArteMetrics(many))
  })

  it('is all zeros for no tasks', () => {
    expect(computeArteMetrics([]).exactMatchAccuracy).toBe(0)
    expect(computeArteMetrics([]).totalTasks).toBe(0)
  })
})

describe('toTaskResult', () => {
  it('copies every task result field a test meta has (trial 1 gives the task result)', () => {
    const meta: Required<ArteTestMeta> = {
      taskId: '1',
      question: 'q',
      groundTruth: 'x',
      agentAnswer: 'x',
      agentAnswerChars: 1,
      sources: ['<m@x>'],
      exactMatch: true,
      semanticScore: 1,
      sourcesCorrect: true,
      llmJudgeModel: 'j',
      llmJudgeCorrect: true,
      llmJudgeError: { code: 'E', message: 'm' },
      llmJudgeUsage: { promptTokens: 4, completionTokens: 1, totalTokens: 5, costUsd: null, calls: 1 },
      traceId: 't1',
      otelTraceId: '0af7651916cd43dd8448eb211c80319c',
      executionTimeMs: 10,
      toolTimeouts: 2,
      usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3, costUsd: 0, calls: 1 },
      model: 'm',
      modelKind: 'llm',
      outcome: { kind: 'answered', via: 'text' },
      inboxAddress: 'a@b.example',
      queryDate: '2001-01-01',
      split: 'test',
      dataset: 'd.jsonl',
      rows: 'openpipe',
      trial: 1,
      resumedFrom: 'run-0',
    }
    const result = toTaskResult(meta)
    const fields = Object.keys(ArteTaskResultSchema.shape).filter((key) => key !== 'trialResults')
    expect(Object.keys(result).sort()).toEqual(fields.sort())
    for (const key of fields) expect(result[key as keyof ArteTaskResult]).toEqual(meta[key as keyof ArteTestMeta])
  })
})

describe('sumTaskUsage', () => {
  it('sums tokens and makes the cost unknown when any cost is', () => {
    expect(sumTaskUsage([task('1', {}), task('2', {})])).toEqual({ promptTokens: 2, completionTokens: 4, totalTokens: 6, costUsd: 1, calls: 2 })
    const unknown = task('3', { usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: null, calls: 1 } })
    expect(sumTaskUsage([task('1', {}), unknown]).costUsd).toBeNull()
  })
})

describe('compareTaskIds', () => {
  it('orders numeric ids as numbers', () => {
    expect(['10', '2', 'b', 'a', '1'].sort(compareTaskIds)).toEqual(['1', '2', '10', 'a', 'b'])
  })
})
