import { describe, expect, it } from 'vitest'
import type { Summary } from '../mpcbench/summary/summary.ts'
import { buildArteSection, buildMpcbenchSection, classifyResults } from './report-data.ts'
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
  it('lists the lowest scores that did not pass, an errored task first, and leaves out passed tasks and those the judge could not judge (no score)', () => {
    const rows = worstRows(
      rulesSummary([
        { id: 'upstream_reply', requirements: null, grounding: 5 },
        { id: 'unchecked_doc', requirements: null, grounding: 2 },
        { id: 'good', requirements: 4, grounding: 5 },
        { id: 'weak', requirements: 1, grounding: 5 },
        { id: 'crashed', requirements: null, grounding: null, error: 'agent error: ERR_MODEL_REQUEST' },
      ]),
    )
    expect(rows).toEqual(['| crashed | baseline | rules | - | - | agent error: ERR_MODEL_REQUEST |', '| weak | baseline | rules | 1 | 5 |  |'])
  })
})

describe('stepSummaryMarkdown, ART-E judge', () => {
  /** An ART-E results JSON of 4 tasks: 2 answered (judge errors when `errors`), 2 without an answer (judged false). */
  function judged(errors: boolean): unknown {
    const task = (id: string, answered: boolean, judge: Record<string, unknown>) => ({
      taskId: id,
      question: `q${id}`,
      groundTruth: 'x',
      agentAnswer: answered ? 'x' : '',
      exactMatch: answered,
      semanticScore: answered ? 1 : 0,
      sourcesCorrect: false,
      traceId: `t${id}`,
      executionTimeMs: 1,
      sources: [],
      inboxAddress: 'a@b.example',
      queryDate: '2001-01-01',
      outcome: answered ? { kind: 'answered', via: 'text' } : { kind: 'max-turns', maxTurns: 2 },
      usage,
      ...judge,
    })
    const answeredJudge = errors ? { llmJudgeError: { code: 'ERR_MODEL_AUTH', message: 'HTTP 401' } } : { llmJudgeCorrect: true }
    return {
      exactMatchAccuracy: 0.5,
      avgSemanticScore: 0.5,
      avgExecutionTimeMs: 1,
      completedTasks: 2,
      failedTasks: 2,
      notRunTasks: 0,
      totalTasks: 4,
      totalTimeMs: 4,
      toolTimeouts: 0,
      usage,
      config: {
        model: 'm',
        modelKind: 'llm',
        split: 'test',
        dataset: 'd.jsonl',
        startedAt: '2026-01-01T00:00:00.000Z',
        finishedAt: '2026-01-01T00:00:01.000Z',
      },
      testRunEndReason: 'passed',
      thresholds: [],
      sourcesAccuracy: 0,
      ...(errors ? {} : { llmJudgeAccuracy: 0.5 }),
      llmJudge: { model: 'openai/judge', judgedTasks: errors ? 2 : 4, errors: errors ? 2 : 0, usage },
      taskResults: [
        task('1', true, answeredJudge),
        task('2', true, answeredJudge),
        task('3', false, { llmJudgeCorrect: false }),
        task('4', false, { llmJudgeCorrect: false }),
      ],
    }
  }

  function markdown(raw: unknown): string {
    const file = classifyResults(raw, 'results.json')
    if (file?.kind !== 'arte') throw new Error('not ART-E results')
    return stepSummaryMarkdown({ generatedAt: 'now', arte: [buildArteSection(file, {})], mpcbench: [] })
  }

  it('a judge that gave no verdict on the answered tasks: "no verdict", and how many tasks it judged and erred on', () => {
    const text = markdown(judged(true))
    expect(text).toContain('| llmJudgeAccuracy | no verdict |')
    expect(text).not.toMatch(/\| llmJudgeAccuracy \| 0\.000/)
    expect(text).toContain(
      'Judge openai/judge: over 2 judged of 4 task(s); 2 judge error(s) (the accuracy leaves them out and is biased toward unanswered tasks',
    )
  })

  it('a judge with a verdict on every task: the value, and no coverage warning', () => {
    const text = markdown(judged(false))
    expect(text).toContain('| llmJudgeAccuracy | 0.500 |')
    expect(text).toContain('Judge openai/judge: 4 task(s) judged, 0 judge error(s);')
    expect(text).not.toContain('biased')
  })
})
