import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createAgentModel } from '../agent/create-agent-model.ts'
import { runAgent } from '../agent/run-agent.ts'
import { loadArteDataset } from './dataset/load-dataset.ts'
import { scoreAnswer } from './scoring/score-answer.ts'

const repo = fileURLToPath(new URL('../../', import.meta.url))

describe('the built-in null agent on ART-E (grader check)', () => {
  it('answers empty through the tool loop, and that answer matches none of the shipped demo rows', async () => {
    const trace = await runAgent({ model: createAgentModel('null', { baselineStrategies: [] }), system: 's', user: 'When is the meeting?', tools: [] })
    expect(trace.outcome).toMatchObject({ kind: 'answered', answer: '' })
    expect(trace.toolCalls).toEqual([])
    expect(trace.modelKind).toBe('baseline')
    const rows = await loadArteDataset(join(repo, 'data/arte-demo-questions.jsonl'), { split: 'test', limit: 0 })
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.filter((row) => scoreAnswer('', row.answer).exactMatch).map((row) => row.id)).toEqual([])
  })
})
