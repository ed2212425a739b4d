import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fg from 'fast-glob'
import { describe, expect, it } from 'vitest'
import { runAgent } from '../../agent/run-agent.ts'
import { createBaselineModel } from '../../baseline/baseline-model.ts'
import { mpcbenchStrategy } from '../baseline/mpcbench-strategy.ts'
import { buildJudgeInput } from './judge-input.ts'
import { scenarioTools } from '../run/run-task.ts'
import { buildRunLog } from '../run/run-log.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import type { JudgeInput } from './judge-input.ts'
import { loadTask } from '../tasks/task.ts'
import type { Task } from '../tasks/task.ts'
import { SOURCES } from '../workplace/validate-source.ts'
import { rulesScores, toolResultText } from './rules-judge.ts'
import { writtenAnswerInput } from '../../../fixtures/mpcbench-judge/judge-input.ts'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const files = fg.sync('tasks/*/*.json', { cwd: repo }).sort()
const reference = JSON.parse(readFileSync(join(repo, 'fixtures/mpcbench-judge/reference-answers.json'), 'utf8')) as {
  answers: Record<string, { correct: string; wrong: string; also_correct?: string[] }>
}

/** Every string the task's checks look for: what a gaming dump has to contain. */
function needles(task: Task): string[] {
  return (task.checks ?? []).flatMap((check) => {
    if ('must_mention' in check) return check.must_mention
    if ('mentions_any' in check) return check.mentions_any
    if ('choose' in check) return [check.choose, ...check.not]
    return []
  })
}

/**
 * Tool calls that return every source record (message, thread, event, contact, issue, file) holding a string the
 * checks look for, plus the free slots of a planning check: the best material an answer could paste.
 */
function recordCalls(task: Task): JudgeInput['raw_tool_calls'] {
  const scenario = task.data_dependencies.scenario_id ?? ''
  const wanted = needles(task).map((s) => s.toLowerCase())
  const calls: JudgeInput['raw_tool_calls'] = []
  for (const source of SOURCES) {
    const data = JSON.parse(readFileSync(join(repo, 'data', `${scenario}_${source}.json`), 'utf8')) as Record<string, unknown>
    const records = Object.values(data)
      .filter(Array.isArray)
      .flat()
      .filter((record) => wanted.some((s) => JSON.stringify(record).toLowerCase().includes(s)))
    if (records.length > 0) calls.push({ tool_name: `${source}.records`, arguments: {}, result: { records }, status: 'ok' })
  }
  for (const check of task.checks ?? []) {
    if ('time_slot_free' in check) {
      calls.push({
        tool_name: 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
        arguments: {},
        result: { time_slots: check.time_slot_free.free },
        status: 'ok',
      })
    }
  }
  return calls
}

/** The string leaves of a value, one per line: tool output pasted as text rather than JSON. */
function textLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(textLeaves)
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(textLeaves)
  return []
}

describe('rules judge on the shipped tasks: correct answers pass, gaming answers do not', () => {
  it('has a hand-written correct and wrong answer for every shipped task', () => {
    expect(Object.keys(reference.answers).sort()).toEqual(files.map((f) => f.split('/')[2]?.replace(/\.json$/, '')).sort())
  })

  it('holds right answers that name the stale date of the lab-sync reply only to deny it', () => {
    const stale = '2026-04-17'
    const others = reference.answers.tidewater_lab_sync_eta_email_reply?.also_correct ?? []
    expect(others.length).toBeGreaterThan(0)
    for (const answer of others) expect(answer).toContain(stale)
  })

  describe.each(files)('%s', (file) => {
    const task = loadTask(join(repo, file))
    const calls = recordCalls(task)
    const answers = reference.answers[task.task_id] ?? { correct: '', wrong: '' }
    const requirements = (answer: string) => rulesScores(writtenAnswerInput(task, file, answer, calls)).answer_requirements_satisfaction

    it('scores the correct, specific answer >= 4', () => {
      const result = requirements(answers.correct)
      expect(result.score, result.justification).toBeGreaterThanOrEqual(4)
    })

    it('scores every other right wording of the answer (also_correct) 5', () => {
      for (const answer of answers.also_correct ?? []) {
        const result = requirements(answer)
        expect(result.score, `${answer}\n${result.justification}`).toBe(5)
      }
    })

    it('scores the wrong answer (the trap) <= 2', () => {
      const result = requirements(answers.wrong)
      expect(result.score, result.justification).toBeLessThanOrEqual(2)
    })

    it('scores an empty answer <= 2', () => {
      expect(requirements('').score).toBeLessThanOrEqual(2)
      expect(requirements('   \n').score).toBeLessThanOrEqual(2)
    })

    it('scores a dump of every tool result <= 2, as JSON and as plain text', () => {
      expect(calls.length).toBeGreaterThan(0)
      const json = requirements(toolResultText({ raw_tool_calls: calls }))
      expect(json.score, json.justification).toBeLessThanOrEqual(2)
      expect(json.justification).toContain('FAIL not pasted tool output')
      const text = requirements(calls.flatMap((call) => textLeaves(call.result)).join('\n'))
      expect(text.score, text.justification).toBeLessThanOrEqual(2)
      expect(text.justification).toContain('FAIL not pasted tool output')
    })

    it('scores <= 2 a dump of the tool results of a real agent run (the baseline) given as the answer', async () => {
      const scenarioId = task.data_dependencies.scenario_id ?? ''
      const trace = await runAgent({
        model: createBaselineModel([mpcbenchStrategy]),
        system: 'Answer with {"final_answer", "rationale"}.',
        user: task.user_prompt,
        tools: scenarioTools(join(repo, 'data'), scenarioId),
      })
      const runLog = buildRunLog(trace, { task, scenarioId, agentModel: 'baseline' })
      const dump = toolResultText(runLog)
      expect(dump.length).toBeGreaterThan(0)
      const scores = rulesScores({ ...buildJudgeInput(runLog, task, 'rules'), final_answer: dump })
      const result = scores.answer_requirements_satisfaction
      expect(result.score, result.justification).toBeLessThanOrEqual(2)
      // Pasted tool output is all "in the sources", but it is no reasoning: grounding does not reward it either.
      expect(scores.source_grounded_reasoning.score ?? 0, scores.source_grounded_reasoning.justification).toBeLessThanOrEqual(2)
    })
  })
})

describeWithSharedData('rules judge on upstream MPCBench tasks (no checks)', () => {
  const upstream = fg.sync(['v1_eb0b7ca/tasks/**/*.json', 'v1_cdf38c1/tasks/**/*.json'], { cwd: sharedDataPath('mpcbench'), absolute: true })

  it.each(upstream.map((f) => [f.split('/mpcbench/')[1] ?? f, f]))('%s: requirements score null, saying it cannot be judged offline', (_name, file) => {
    const task = loadTask(file)
    expect(task.checks).toBeUndefined()
    const scores = rulesScores(writtenAnswerInput(task, file, 'We could meet 2026-03-10 14:00-14:30.', []))
    expect(scores.answer_requirements_satisfaction.score).toBeNull()
    expect(scores.answer_requirements_satisfaction.justification).toContain('cannot be judged offline')
  })
})
