import { describe, expect, it } from 'vitest'
import type { Summary } from '../mpcbench/summary.ts'
import { buildMpcbenchSection, classifyResults } from './report-data.ts'
import { stepSummaryMarkdown } from './step-summary.ts'

const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 }

/** A rules-judged summary: `null` requirements with no error is a task the judge could not judge (no checks). */
function rulesSummary(scores: Array<{ id: string; requirements: number | null; grounding: number | null; error?: string }>): Summary {
  return {
    generated_at: '2026-01-02T00:00:00.000Z',
    tests: scores.length,
    rows: [],
    scores: {
      'agent=baseline__judge=rules': scores.map((score) => ({
        task_id: score.id,
        task_type: 'email_reply',
        answer_requirements_satisfaction: score.requirements,
        source_grounded_reasoning: score.grounding,
        error: score.error ?? null,
      })),
    },
    usage: { agents: usage, judges: usage, total: usage },
  }
}

function worstRows(summary: Summary): string[] {
  const file = classifyResults(summary, 'summary.json')
  if (file?.kind !== 'mpcbench') throw new Error('not a summary')
  const markdown = stepSummaryMarkdown({ generatedAt: 'now', arte: [], mpcbench: [buildMpcbenchSection(file, {})] })
  const after = markdown.split(/Worst \d+ task\(s\):\n\n/)[1] ?? ''
  return after.split('\n').filter((line) => /^\| (?!task |---)/.test(line))
}

describe('stepSummaryMarkdown, MPCBench worst tasks', () => {
  it('lists the lowest scores, an errored task first, and leaves out tasks the judge could not judge (no score)', () => {
    const rows = worstRows(
      rulesSummary([
        { id: 'upstream_reply', requirements: null, grounding: 5 },
        { id: 'unchecked_doc', requirements: null, grounding: 2 },
        { id: 'good', requirements: 4, grounding: 5 },
        { id: 'weak', requirements: 1, grounding: 5 },
        { id: 'crashed', requirements: null, grounding: null, error: 'agent error: ERR_MODEL_REQUEST' },
      ]),
    )
    expect(rows).toEqual([
      '| crashed | baseline | rules | - | - | agent error: ERR_MODEL_REQUEST |',
      '| weak | baseline | rules | 1 | 5 |  |',
      '| good | baseline | rules | 4 | 5 |  |',
    ])
  })
})
