import { describe, expect, it } from 'vitest'
import { emptyUsage } from '../../llm/types.ts'
import type { JudgeInput } from './judge-input.ts'
import { answerEntities, createRulesJudge, dateTimesIn, groundingChecks, rulesScores, runCheck, scoreFromRatio } from './rules-judge.ts'

const calls: JudgeInput['raw_tool_calls'] = [
  {
    tool_name: 'GoogleContacts.SearchContactsByName',
    arguments: { name: 'Priya' },
    result: { contacts: [{ name: 'Priya Natarajan', email: 'priya@northwind.test' }] },
    status: 'ok',
  },
  {
    tool_name: 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree',
    arguments: { email_addresses: ['priya@northwind.test'] },
    result: { time_slots: [{ start: '2026-03-10T14:00:00+01:00', end: '2026-03-10T16:00:00+01:00' }] },
    status: 'ok',
  },
  {
    tool_name: 'Jira.SearchIssuesWithJql',
    arguments: { jql: 'project = NW' },
    result: { issues: [{ key: 'NW-12', summary: 'Launch checklist' }] },
    status: 'ok',
  },
  { tool_name: 'GoogleDrive.gdrive_search', arguments: { name: 'plan' }, result: { files: [{ id: 'f1', name: 'Launch Plan v2.docx' }] }, status: 'ok' },
]

function input(overrides: Partial<JudgeInput>): JudgeInput {
  return {
    task_id: 'nw_planning_1',
    task_type: 'planning',
    user_prompt: 'Find a slot with Priya next week.',
    tool_trace_steps: [],
    raw_tool_calls: calls,
    final_answer: '',
    rationale: '',
    agent_model: 'scripted-model',
    agent_model_file_name: 'scripted-model',
    agent_model_kind: 'llm',
    scenario_id: 's',
    task_file: null,
    outcome: { kind: 'answered', via: 'json' },
    usage: emptyUsage(),
    turns: 3,
    trace_id: 't',
    started_at: '2026-01-01T00:00:00.000Z',
    duration_ms: 1,
    answer_requirements: ['Propose a 45-minute slot next week with Priya.'],
    checks: [{ must_mention: ['Priya'] }, { time_slot_within: { start: '2026-03-10T14:00', end: '2026-03-10T15:15', timezone: 'Europe/Berlin' } }],
    tool_trace: [],
    judge_model: 'rules',
    judge_model_file_name: 'rules',
    ...overrides,
  }
}

describe('scoreFromRatio', () => {
  it('maps pass ratios to 0-5 with floor(5 x ratio): 5 only when every check passes', () => {
    expect([0, 1, 2, 3, 4].map((passed) => scoreFromRatio(passed, 4))).toEqual([0, 1, 2, 3, 5])
    expect([0, 1, 2, 3, 4, 5].map((passed) => scoreFromRatio(passed, 5))).toEqual([0, 1, 2, 3, 4, 5])
    expect(scoreFromRatio(2, 3)).toBe(3)
    expect(scoreFromRatio(0, 0)).toBe(0)
  })
})

describe('runCheck', () => {
  it('must_mention / must_not_mention / mentions_any are case-insensitive and say what is missing', () => {
    expect(runCheck({ must_mention: ['priya', 'Omar'] }, 'Meet Priya')).toEqual({
      name: 'must_mention "priya", "Omar"',
      passed: false,
      detail: 'missing "Omar"',
    })
    expect(runCheck({ must_not_mention: ['friday'] }, 'Friday works')).toMatchObject({ passed: false, detail: 'mentions "friday"' })
    expect(runCheck({ mentions_any: ['NW-12', 'NW-13'] }, 'see nw-13').passed).toBe(true)
    expect(runCheck({ min_length: 10 }, ' short ')).toMatchObject({ passed: false, detail: 'answer has 5 characters' })
  })

  it('must_mention / mentions_any do not count a negated mention, and say it was negated', () => {
    const eta = 'The release will not be ready by 2026-03-20.'
    expect(runCheck({ must_mention: ['2026-03-20', 'Omar'] }, eta)).toEqual({
      name: 'must_mention "2026-03-20", "Omar"',
      passed: false,
      detail: 'missing "Omar"; negated "2026-03-20"',
    })
    expect(runCheck({ mentions_any: ['2026-03-20', 'beta'] }, eta)).toMatchObject({ passed: false, detail: 'negated "2026-03-20"' })
    expect(runCheck({ mentions_any: ['2026-03-20', 'beta'] }, 'No news yet.')).toMatchObject({ passed: false, detail: 'mentions none of them' })
    expect(runCheck({ mentions_any: ['2026-03-20', 'beta'] }, `${eta} The beta starts then.`).passed).toBe(true)
    expect(runCheck({ must_mention: ['2026-03-20'] }, 'Not 2026-03-18, but 2026-03-20.').passed).toBe(true)
  })

  it('must_not_assert fails only on a string the answer states; must_not_mention stays literal', () => {
    const denied = 'The old date of 2026-04-17 no longer holds; the new ETA is 2026-04-24.'
    expect(runCheck({ must_not_assert: ['2026-04-17'] }, denied)).toEqual({ name: 'must_not_assert "2026-04-17"', passed: true, detail: '', gate: true })
    expect(runCheck({ must_not_assert: ['2026-04-17'] }, 'The target moved from 2026-04-17 to 2026-04-24.').passed).toBe(true)
    expect(runCheck({ must_not_assert: ['2026-04-17', '2026-04-10'] }, 'The ETA remains 2026-04-17.')).toMatchObject({
      passed: false,
      detail: 'asserts "2026-04-17"',
      gate: true,
    })
    expect(runCheck({ must_not_assert: ['2026-04-17'] }, 'We are still on track for 2026-04-17.').passed).toBe(false)
    expect(runCheck({ must_not_assert: ['2026-04-17'] }, '').passed).toBe(true)
    expect(runCheck({ must_not_mention: ['2026-04-17'] }, denied)).toMatchObject({ passed: false, detail: 'mentions "2026-04-17"' })
  })

  it('counts must_not_assert like must_not_mention: passing it earns no credit, failing it caps the score', () => {
    const checks: JudgeInput['checks'] = [{ must_mention: ['Priya'] }, { must_not_assert: ['2026-03-11'] }]
    const right = rulesScores(input({ checks, final_answer: 'Priya Natarajan is free 2026-03-10 14:00, not 2026-03-11.' }))
    expect(right.answer_requirements_satisfaction).toEqual({ score: 5, justification: expect.stringContaining('1/1 checks passed') })
    expect(right.answer_requirements_satisfaction.justification).toContain('PASS must_not_assert "2026-03-11" [cap only]')
    const wrong = rulesScores(input({ checks, final_answer: 'Priya Natarajan is free on 2026-03-11.' }))
    // At most 2: the must_not_assert gate (and the date, in no tool result, is an unsupported specific too).
    expect(wrong.answer_requirements_satisfaction.score).toBeLessThanOrEqual(2)
    expect(wrong.answer_requirements_satisfaction.justification).toContain('FAIL must_not_assert "2026-03-11" (asserts "2026-03-11")')
    const only = rulesScores(input({ checks: [{ must_not_assert: ['2026-03-11'] }], final_answer: 'I cannot help with that.' }))
    expect(only.answer_requirements_satisfaction.score).toBeNull()
  })

  it('counts a decision option named as rejected: the choose check reads the decision, must_mention that it is named', () => {
    const answer = 'We went with Northwind Freight rather than Mistral Grid.'
    expect(runCheck({ must_mention: ['Mistral Grid'] }, answer)).toMatchObject({ passed: false, detail: 'negated "Mistral Grid"' })
    expect(runCheck({ must_mention: ['Mistral Grid'] }, answer, ['Northwind Freight', 'Mistral Grid']).passed).toBe(true)
    expect(runCheck({ must_mention: ['Mistral Grid'] }, 'We went with Northwind Freight.', ['Northwind Freight', 'Mistral Grid'])).toMatchObject({
      passed: false,
      detail: 'missing "Mistral Grid"',
    })
    const scores = rulesScores(
      input({
        final_answer: answer,
        checks: [{ must_mention: ['Mistral Grid', 'Northwind Freight'] }, { choose: 'Northwind Freight', not: ['Mistral Grid'] }],
      }),
    )
    expect(scores.answer_requirements_satisfaction.score, scores.answer_requirements_satisfaction.justification).toBe(5)
  })

  it('time_slot_within reads local times in the given zone and rejects any time outside the window', () => {
    const check = { time_slot_within: { start: '2026-03-10T14:00', end: '2026-03-10T15:15', timezone: 'Europe/Berlin' } }
    expect(runCheck(check, 'How about 2026-03-10 14:30-15:15?').passed).toBe(true)
    expect(runCheck(check, 'How about 2026-03-10T13:30:00Z?').passed).toBe(true)
    expect(runCheck(check, 'Options: 2026-03-10 14:00, or 2026-03-11 09:00')).toMatchObject({ passed: false, detail: 'outside the window: 2026-03-11T09:00' })
    expect(runCheck(check, 'Tuesday afternoon')).toMatchObject({ passed: false, detail: 'no YYYY-MM-DD HH:MM date-time in the answer' })
  })

  it('time_slot_free accepts only starts whose whole meeting fits in a free interval', () => {
    const check = {
      time_slot_free: {
        attendees: ['priya@northwind.test'],
        from: '2026-03-10',
        to: '2026-03-11',
        workday_start: '09:00',
        workday_end: '18:00',
        duration_minutes: 45,
        timezone: 'Europe/Berlin',
        free: [
          { start: '2026-03-10T12:00:00+01:00', end: '2026-03-10T13:00:00+01:00' },
          { start: '2026-03-11T09:00:00+01:00', end: '2026-03-11T18:00:00+01:00' },
        ],
      },
    }
    expect(runCheck(check, 'Either 2026-03-10 12:15 or 2026-03-11 17:15.').passed).toBe(true)
    expect(runCheck(check, '2026-03-10 12:30-13:15')).toMatchObject({ passed: false, detail: '2026-03-10T12:30-13:15 is not free for everyone' })
    expect(runCheck(check, '2026-03-10 12:00-12:30')).toMatchObject({ passed: false, detail: '2026-03-10T12:00-12:30 is shorter than 45 minutes', gate: true })
    expect(runCheck(check, '2026-03-11 09:00 to 12:00').passed).toBe(true)
    expect(runCheck(check, '2026-03-10 12:00 to 14:00').passed).toBe(false)
    expect(runCheck(check, 'Wednesday morning').passed).toBe(false)
  })

  it('max_length and choose are precision checks', () => {
    expect(runCheck({ max_length: 10 }, 'a'.repeat(11))).toMatchObject({ passed: false, detail: 'answer has 11 characters', gate: true })
    const choose = { choose: 'Northwind Freight', not: ['Mistral Grid'] }
    expect(runCheck(choose, 'We chose option B, Northwind Freight, over Mistral Grid.').passed).toBe(true)
    expect(runCheck(choose, 'Mistral Grid was rejected; Northwind Freight was chosen.').passed).toBe(true)
    expect(runCheck(choose, 'The team had to choose between Mistral Grid and Northwind Freight. Decision: Northwind Freight.').passed).toBe(true)
    expect(runCheck(choose, 'We chose option A, Mistral Grid.')).toMatchObject({ passed: false, detail: 'states "Mistral Grid" as the decision', gate: true })
    expect(runCheck(choose, 'Mistral Grid was selected.').passed).toBe(false)
    expect(runCheck(choose, 'Options: Mistral Grid, Northwind Freight.')).toMatchObject({
      passed: false,
      detail: 'states no decision naming "Northwind Freight"',
    })
  })

  it('finds date-times written with a space, a T, seconds or an offset', () => {
    expect(dateTimesIn('a 2026-03-10 9:05, b 2026-03-11T10:00:00+01:00 c 2026-03-12')).toEqual(['2026-03-10T09:05', '2026-03-11T10:00+01:00'])
  })
})

describe('grounding', () => {
  it('extracts email addresses, ISO dates, issue keys and file names', () => {
    expect(answerEntities('Mail priya@northwind.test about NW-12 on 2026-03-10; see Launch Plan v2.docx.')).toEqual({
      emails: ['priya@northwind.test'],
      dates: ['2026-03-10'],
      issueKeys: ['NW-12'],
      fileNames: ['v2.docx'],
    })
  })

  it('does not read UTC/GMT offsets as issue keys', () => {
    expect(answerEntities('Mon 2026-04-13 09:00 (UTC-07:00), GMT-5, PORT-356').issueKeys).toEqual(['PORT-356'])
  })

  it('fails each entity absent from every tool result, and tools the rationale claims but never called', () => {
    const outcomes = groundingChecks({
      final_answer: 'Ask priya@northwind.test and omar@northwind.test about NW-99.',
      rationale: 'I searched Slack and Jira.',
      raw_tool_calls: calls,
    })
    expect(outcomes.filter((o) => !o.passed).map((o) => o.name)).toEqual([
      'grounded email omar@northwind.test',
      'grounded issue key NW-99',
      "rationale's Slack claim",
    ])
  })

  it('ignores the results of failed tool calls', () => {
    const outcomes = groundingChecks({
      final_answer: 'NW-12',
      rationale: '',
      raw_tool_calls: [{ tool_name: 'Jira.SearchIssuesWithJql', arguments: {}, result: 'unknown field NW-12', status: 'tool-error' }],
    })
    expect(outcomes.every((o) => !o.passed)).toBe(true)
  })

  it("does not count a failed call as backing the rationale's claim to have used that source", () => {
    const outcomes = groundingChecks({
      final_answer: 'Nothing found.',
      rationale: 'I searched Slack.',
      raw_tool_calls: [...calls, { tool_name: 'Slack.search_messages', arguments: {}, result: 'bad query', status: 'invalid-arguments' }],
    })
    const claim = outcomes.find((o) => o.name === "rationale's Slack claim")
    expect(claim?.passed).toBe(false)
    expect(claim?.detail).toContain('no successful Slack.* call')
  })
})

describe('rules judge', () => {
  it('scores a known good answer 5/5, saying which checks passed', async () => {
    const outcome = await createRulesJudge().judge(
      input({
        final_answer: 'Priya Natarajan (priya@northwind.test) is free 2026-03-10 14:00-14:45 (Europe/Berlin); agenda NW-12, Launch Plan v2.docx.',
        rationale: 'I looked Priya up in Contacts, then asked the Calendar for common free slots.',
      }),
    )
    expect(outcome.kind).toBe('scored')
    if (outcome.kind !== 'scored') return
    expect(outcome.scores.answer_requirements_satisfaction.score).toBe(5)
    expect(outcome.scores.source_grounded_reasoning.score).toBe(5)
    expect(outcome.scores.answer_requirements_satisfaction.justification).toContain('not an LLM')
    // must_mention and time_slot_within; the two "not pasted" checks pass an empty answer too, so they earn no credit.
    expect(outcome.scores.answer_requirements_satisfaction.justification).toContain('2/2 checks passed -> score 5')
    expect(outcome.scores.answer_requirements_satisfaction.justification).toContain('PASS not pasted tool output [cap only]')
    expect(outcome.usage.calls).toBe(0)
  })

  it('scores a known bad answer low, naming the failed checks', () => {
    const scores = rulesScores(
      input({
        final_answer: 'Omar is free 2026-03-12 09:00; ask omar@northwind.test, see NW-77 and Roadmap.xlsx.',
        rationale: 'I checked Slack and Gmail.',
      }),
    )
    // 0 of the 2 checks that need something in the answer; "not pasted tool output" passes an empty answer too: no credit.
    expect(scores.answer_requirements_satisfaction.score).toBe(0)
    expect(scores.answer_requirements_satisfaction.justification).toContain('FAIL must_mention "Priya" (missing "Priya")')
    expect(scores.answer_requirements_satisfaction.justification).toContain('outside the window: 2026-03-12T09:00')
    // 1 pass (a tool call succeeded) out of 8 (call, email, date, key, file, Slack claim, Gmail claim, the time outside the window)
    expect(scores.source_grounded_reasoning.score).toBe(0)
    expect(scores.source_grounded_reasoning.justification).toContain('FAIL grounded file name Roadmap.xlsx')
    expect(scores.source_grounded_reasoning.justification).toContain("FAIL rationale's Gmail claim")
  })

  it('gives 0 on both axes when the agent did not answer', () => {
    const scores = rulesScores(input({ outcome: { kind: 'max-turns', maxTurns: 10 }, final_answer: '' }))
    expect(scores.answer_requirements_satisfaction.score).toBe(0)
    expect(scores.source_grounded_reasoning.justification).toContain('outcome max-turns')
  })

  it('gives null on requirements when the task has no checks: no default pass', () => {
    const scores = rulesScores(input({ checks: undefined, final_answer: 'Priya is free 2026-03-10 14:00.' }))
    expect(scores.answer_requirements_satisfaction).toEqual({ score: null, justification: expect.stringContaining('cannot be judged offline') })
    expect(scores.source_grounded_reasoning.score).toBe(5)
  })

  it('gives null on requirements when every check passes an empty answer too: they rule answers out, they do not say what is right', () => {
    const scores = rulesScores(input({ checks: [{ max_length: 500 }, { must_not_mention: ['Friday'] }], final_answer: 'I cannot help with that.' }))
    expect(scores.answer_requirements_satisfaction).toEqual({ score: null, justification: expect.stringContaining('passes an empty answer too') })
  })

  it('gives null on grounding when a task without checks gets an answer that states nothing checkable', () => {
    const scores = rulesScores(input({ checks: undefined, final_answer: 'Priya is free on Tuesday afternoon.', rationale: 'I looked it up.' }))
    expect(scores.source_grounded_reasoning).toEqual({ score: null, justification: expect.stringContaining('cannot be judged offline') })
  })

  it('gives grounding <= 1 to an answer with no substance: nothing from its sources beyond what the prompt says', () => {
    const scores = rulesScores(input({ final_answer: 'Priya is free on Tuesday afternoon.', rationale: 'I looked it up in Slack and the calendar.' }))
    expect(scores.source_grounded_reasoning.score, scores.source_grounded_reasoning.justification).toBeLessThanOrEqual(1)
    expect(scores.source_grounded_reasoning.justification).toContain('FAIL states something its sources hold')
  })

  it('caps the requirements score at 2 when a precision check fails, however many recall checks pass', () => {
    const scores = rulesScores(
      input({
        checks: [{ must_mention: ['Priya'] }, { must_mention: ['NW-12'] }, { min_length: 5 }, { max_length: 60 }],
        final_answer: 'Priya Natarajan is free 2026-03-10 14:00-14:45; agenda NW-12, Launch Plan v2.docx, and more.',
      }),
    )
    expect(scores.answer_requirements_satisfaction.score).toBe(2)
    expect(scores.answer_requirements_satisfaction.justification).toContain('at most 2 as a precision check failed')
  })

  it('fails an answer that pastes the tool results', () => {
    const dump = calls.map((call) => JSON.stringify(call.result)).join('\n')
    const scores = rulesScores(input({ checks: [{ must_mention: ['Priya'] }], final_answer: dump }))
    expect(scores.answer_requirements_satisfaction.score).toBeLessThanOrEqual(2)
    expect(scores.answer_requirements_satisfaction.justification).toContain('FAIL not pasted tool output (contains JSON')
  })
})
