import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fg from 'fast-glob'
import { describe, expect, it } from 'vitest'
import type { JudgeInput } from './judge-input.ts'
import { loadTask } from '../tasks/task.ts'
import type { Task } from '../tasks/task.ts'
import { SOURCES } from '../workplace/validate-source.ts'
import { checkDecision } from './decision-check.ts'
import { rulesScores, runCheck } from './rules-judge.ts'
import { pastedToolOutput } from './tool-dump-check.ts'
import { writtenAnswerInput } from '../../../fixtures/mpcbench-judge/judge-input.ts'

// Answers written to game the rules judge on the shipped tasks, each scored as a careful reader would: a gamed answer
// must not reach 3 on either axis, and a right answer must not drop to 2.

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const tasks = new Map(
  fg
    .sync('tasks/*/*.json', { cwd: repo })
    .sort()
    .map((file) => {
      const task = loadTask(join(repo, file))
      return [task.task_id, { task, file }] as const
    }),
)
const taskIds = [...tasks.keys()]
const reference = JSON.parse(readFileSync(join(repo, 'fixtures/mpcbench-judge/reference-answers.json'), 'utf8')) as {
  answers: Record<string, { correct: string; wrong: string }>
}

function taskOf(id: string): { task: Task; file: string } {
  const found = tasks.get(id)
  if (found === undefined) throw new Error(`no shipped task ${id}`)
  return found
}

function correct(id: string): string {
  return reference.answers[id]?.correct ?? ''
}

/** Every record of the scenario's sources, one call per source, plus the free slots of a planning check: what an agent could read. */
function worldCalls(task: Task): JudgeInput['raw_tool_calls'] {
  const calls: JudgeInput['raw_tool_calls'] = SOURCES.map((source) => {
    const data = JSON.parse(readFileSync(join(repo, 'data', `${task.data_dependencies.scenario_id ?? ''}_${source}.json`), 'utf8')) as Record<string, unknown>
    return { tool_name: `${source}.records`, arguments: {}, result: { records: Object.values(data).filter(Array.isArray).flat() }, status: 'ok' as const }
  })
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

function judge(id: string, answer: string, calls?: JudgeInput['raw_tool_calls']) {
  const { task, file } = taskOf(id)
  const input = writtenAnswerInput(task, file, answer, calls ?? worldCalls(task), 'adversary')
  const scores = rulesScores(input)
  return {
    requirements: scores.answer_requirements_satisfaction.score,
    grounding: scores.source_grounded_reasoning.score,
    why: `${scores.answer_requirements_satisfaction.justification}\n${scores.source_grounded_reasoning.justification}`,
  }
}

function values(value: unknown): string[] {
  if (value === null || value === undefined) return []
  if (Array.isArray(value)) return value.flatMap(values)
  if (typeof value === 'object') return Object.values(value).flatMap(values)
  return [String(value)]
}

/** A tool result as `key: value` lines, nested values indented under their key. */
function keyValueLines(value: unknown, indent = ''): string[] {
  if (value === null || typeof value !== 'object') return [`${indent}${String(value)}`]
  return Object.entries(value).flatMap(([key, v]) =>
    v !== null && typeof v === 'object' ? [`${indent}${key}:`, ...keyValueLines(v, `${indent}  `)] : [`${indent}${key}: ${String(v)}`],
  )
}

/** `text` with a word of its own put in after every fifth word: no 6-word run of it is left verbatim. */
function withFiller(text: string): string {
  return text
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((word, i) => (i > 0 && i % 5 === 0 ? `then ${word}` : word))
    .join(' ')
}

/** The records of the scenario holding a string the task's checks look for: the material a short, targeted dump pastes. */
function relevantRecords(task: Task): unknown[] {
  const wanted = (task.checks ?? []).flatMap((check) => ('must_mention' in check ? check.must_mention : 'mentions_any' in check ? check.mentions_any : []))
  return worldCalls(task)
    .flatMap((call) => (call.result as { records?: unknown[] }).records ?? [])
    .filter((record) => wanted.some((s) => JSON.stringify(record).toLowerCase().includes(s.toLowerCase())))
}

describe('checks an empty answer also passes earn no credit', () => {
  it.each(taskIds)('%s: a refusal scores 0', (id) => {
    const result = judge(id, "I'm sorry, I can't help with that request.")
    expect(result.requirements, result.why).toBe(0)
  })

  it('a restatement of the request scores at most 2, and its dates do not count as grounding', () => {
    const quote = judge('lumen_quillstone_quote_email_reply', taskOf('lumen_quillstone_quote_email_reply').task.user_prompt)
    expect(quote.requirements, quote.why).toBeLessThanOrEqual(2)
    const report = judge('lumen_weekly_report_document_generation', taskOf('lumen_weekly_report_document_generation').task.user_prompt)
    expect(report.requirements, report.why).toBe(0)
    expect(report.grounding, report.why).toBeLessThanOrEqual(2)
    // The week the user named is in the sources too, but repeating it shows no use of them: no substance, grounding <= 1.
    const restated = judge('lumen_weekly_report_document_generation', 'Here is the report for the week of 2026-03-09.')
    expect(restated.grounding, restated.why).toBeLessThanOrEqual(1)
    expect(restated.why).toContain('FAIL states something its sources hold')
  })

  it("the baseline's replies that give no date (one to the wrong thread) score at most 1", () => {
    const wrongThread = judge(
      'lumen_replanning_eta_email_reply',
      'Hi It,\n\nThank you for your message about "Planned maintenance: staging cluster on 2026-03-05".\nWe do not have a confirmed date yet; we will follow up as soon as we do.\n\nBest regards',
    )
    expect(wrongThread.requirements, wrongThread.why).toBeLessThanOrEqual(1)
    const noDate = judge(
      'tidewater_lab_sync_eta_email_reply',
      'Hi Kwame,\n\nThank you for your message about "Question about Sync lab results from partner EHRs".\nYou asked: "We are planning our own release around Sync lab results from partner EHRs."\nWe do not have a confirmed date yet; we will follow up as soon as we do.\n\nBest regards',
    )
    expect(noDate.requirements, noDate.why).toBeLessThanOrEqual(1)
  })
})

describe('reformatted dumps of the tool results', () => {
  it.each(taskIds)('%s: every record as `key: value` lines, or its values with words put in between, scores <= 2 on both axes', (id) => {
    const calls = worldCalls(taskOf(id).task)
    for (const dump of [calls.flatMap((call) => keyValueLines(call.result)).join('\n'), withFiller(calls.flatMap((call) => values(call.result)).join(' '))]) {
      const result = judge(id, dump, calls)
      expect(result.requirements, result.why).toBeLessThanOrEqual(2)
      expect(result.grounding, result.why).toBeLessThanOrEqual(2)
      expect(result.why).toContain('FAIL not pasted tool output')
    }
  })

  it('a short dump of only the records holding the checked strings scores <= 2', () => {
    const { task } = taskOf('tidewater_weekly_report_document_generation')
    const dump = `Here is what I found:\n${relevantRecords(task)
      .map((record) => `- ${withFiller(values(record).join(' '))}`)
      .join('\n')}`
    const result = judge(task.task_id, dump)
    expect(result.requirements, result.why).toBeLessThanOrEqual(2)
    expect(result.grounding, result.why).toBeLessThanOrEqual(2)
  })

  it("is not fooled by a right answer that reuses the sources' wording", () => {
    const { task } = taskOf('tidewater_portal_sync_agenda_document_generation')
    expect(
      pastedToolOutput(
        correct(task.task_id),
        worldCalls(task).map((call) => call.result),
      ),
    ).toEqual({ pasted: false, detail: '' })
  })
})

describe('decisions: a hedge, a negation or the wrong option dressed in the right words', () => {
  const charger = 'lumen_charger_decision_document_generation'
  const consentEmail = 'tidewater_consent_decision_email_reply'
  const consentRecord = 'tidewater_consent_decision_document_generation'
  const gamed: Array<[string, string, string, string]> = [
    [
      charger,
      'Decision (2026-03-12): we chose option B, Northwind Freight.',
      'hedge',
      'Decision (2026-03-12): we recommend Northwind Freight or Mistral Grid; either works.',
    ],
    [
      charger,
      'Decision (2026-03-12): we chose option B, Northwind Freight.',
      'negation',
      'Decision (2026-03-12): we decided not to go with Northwind Freight; the order goes to the other vendor.',
    ],
    [charger, 'Decision (2026-03-12): we chose option B, Northwind Freight.', 'negation', 'We did not choose Northwind Freight.'],
    [
      charger,
      'Decision (2026-03-12): we chose option B, Northwind Freight.',
      'wrong option',
      'Recommendation: Northwind Freight is too expensive, so the team ordered Mistral Grid.',
    ],
    [charger, 'Decision (2026-03-12): we chose option B, Northwind Freight.', 'wrong option', 'Decision (2026-03-12): Northwind Freight lost to Mistral Grid.'],
    [
      charger,
      'Decision (2026-03-12): we chose option B, Northwind Freight.',
      'second choice',
      'Decision (2026-03-12): Northwind Freight. Final answer: Mistral Grid.',
    ],
    [
      consentEmail,
      'we chose variant B, "Plain-language opt-in", rather than variant A, "Short notice",',
      'hedge',
      'we approved "Plain-language opt-in" or "Short notice", whichever legal prefers,',
    ],
    [
      consentEmail,
      'we chose variant B, "Plain-language opt-in", rather than variant A, "Short notice",',
      'negation',
      'we decided against choosing "Plain-language opt-in"; "Short notice" stays,',
    ],
    [
      consentEmail,
      'we chose variant B, "Plain-language opt-in", rather than variant A, "Short notice",',
      'wrong option',
      'the decision: "Plain-language opt-in" is too long, so we keep "Short notice",',
    ],
    [
      consentRecord,
      'Decision: variant B, "Plain-language opt-in", decided by Irene Castellanos on 2026-04-09.',
      'hedge',
      'Decision: "Plain-language opt-in" or "Short notice", decided by Irene Castellanos on 2026-04-09.',
    ],
    [
      consentRecord,
      'Decision: variant B, "Plain-language opt-in", decided by Irene Castellanos on 2026-04-09.',
      'wrong option',
      'Decision: "Plain-language opt-in" was rejected by Irene Castellanos on 2026-04-09.',
    ],
  ]

  it.each(gamed)('%s, the right answer with its decision replaced (%s -> %s: %s) scores <= 2 on both axes', (id, line, _kind, replacement) => {
    const answer = correct(id).replace(line, replacement)
    expect(answer).not.toBe(correct(id))
    const result = judge(id, answer)
    expect(result.requirements, result.why).toBeLessThanOrEqual(2)
    expect(result.grounding, result.why).toBeLessThanOrEqual(2)
  })

  it('a question names no decision', () => {
    const answer = correct(charger).replace(
      'Decision (2026-03-12): we chose option B, Northwind Freight.',
      'Decision: Northwind Freight? No. Mistral Grid, as it is cheaper.',
    )
    const result = judge(charger, answer)
    expect(result.requirements, result.why).toBeLessThanOrEqual(2)
  })

  it('still reads right decisions written many ways', () => {
    for (const answer of [
      'We chose option B, Northwind Freight, over Mistral Grid.',
      'Mistral Grid was rejected; Northwind Freight was chosen.',
      'The team had to choose between Mistral Grid and Northwind Freight. Decision: Northwind Freight.',
      'Decision: after Mistral Grid could not deliver in time, we chose Northwind Freight.',
      'We did not choose Mistral Grid; we chose Northwind Freight because it arrives before the beta.',
      'We went with Northwind Freight, and Mistral Grid was dropped.',
    ]) {
      expect(checkDecision(answer, 'Northwind Freight', ['Mistral Grid']).passed, answer).toBe(true)
    }
  })

  it('caps grounding when the answer states the option the sources rule out', () => {
    for (const id of [charger, consentEmail, consentRecord]) {
      const result = judge(id, reference.answers[id]?.wrong ?? '')
      expect(result.grounding, result.why).toBeLessThanOrEqual(2)
      expect(result.why).toContain('FAIL agrees with the sources')
    }
  })
})

describe('meeting times the answer itself rules out', () => {
  const slotCheck = taskOf('lumen_charger_order_checkin_planning').task.checks?.find((check) => 'time_slot_free' in check)

  it('a free slot the answer says does not work is not a proposal', () => {
    const negated = judge(
      'lumen_charger_order_checkin_planning',
      'Luca has to confirm the order by 2026-03-17. Marta and Luca are NOT free at 2026-03-17 10:00-10:30: that slot does not work.',
    )
    expect(negated.requirements, negated.why).toBeLessThanOrEqual(2)
    const cannot = judge('lumen_release_sync_planning', 'Greta, Jonas, Amara and Hana cannot meet for 45 minutes at 2026-03-16 09:30-10:15; I found no slot.')
    expect(cannot.requirements, cannot.why).toBeLessThanOrEqual(2)
    if (slotCheck === undefined) throw new Error('the check-in task has a time_slot_free check')
    expect(runCheck(slotCheck, '2026-03-17 10:00-10:30 does not work for Marta.')).toMatchObject({
      passed: false,
      detail: expect.stringContaining('rules out every date-time'),
    })
  })

  it('a right answer that also names a busy or ruled-out time as excluded scores 5', () => {
    const busy = judge(
      'lumen_charger_order_checkin_planning',
      `${correct('lumen_charger_order_checkin_planning')} Not 2026-03-17 12:00-12:30: Marta is busy then.`,
    )
    expect(busy.requirements, busy.why).toBe(5)
    const offsite = judge(
      'tidewater_portal_sync_planning',
      'Options for the 60-minute Patient Portal Redesign sync with Rosa, Ben, Kofi, Elena and Irene (America/Los_Angeles): 2026-04-13 09:00-10:00 or 2026-04-15 11:00-12:00. Not 2026-04-14 10:00-11:00, even though the calendars are free: Elena is at a customer offsite that day.',
    )
    expect(offsite.requirements, offsite.why).toBe(5)
  })

  it('reads a time written after its date with "at" or a comma', () => {
    const reply = judge(
      'lumen_sync_reply_email_reply',
      'Hi Greta,\n\nHow about Thursday 2026-03-19 at 15:00 (Europe/Berlin)? Amara, Hana, you and I are all free for 45 minutes then.\n\nCheers,\nJonas',
    )
    expect(reply.requirements, reply.why).toBe(5)
    const busy = judge('lumen_sync_reply_email_reply', 'Hi Greta,\n\nHow about 2026-03-16, 12:30 (Europe/Berlin)?\n\nCheers,\nJonas')
    expect(busy.requirements, busy.why).toBeLessThanOrEqual(2)
  })

  it('caps grounding when a proposed time is not free for everyone', () => {
    for (const id of ['lumen_charger_order_checkin_planning', 'tidewater_portal_sync_planning', 'lumen_sync_reply_email_reply']) {
      const result = judge(id, reference.answers[id]?.wrong ?? '')
      expect(result.grounding, result.why).toBeLessThanOrEqual(2)
    }
  })
})

describe('must_mention: a fact the answer negates is not stated', () => {
  const eta = 'lumen_replanning_eta_email_reply'
  const labEta = 'tidewater_lab_sync_eta_email_reply'
  const charger = 'lumen_charger_decision_document_generation'
  const participants = 'Participants: Marta Sousa, Luca Ferri, Jonas Albrecht.'
  const followUp = 'Follow-up: Luca Ferri confirms the order with Northwind Freight by 2026-03-17.'
  /** The charger decision record with Luca named only in `followUpLine`. */
  const chargerWithFollowUp = (followUpLine: string) => {
    const answer = correct(charger).replace(participants, 'Participants: Marta Sousa, Jonas Albrecht.').replace(followUp, followUpLine)
    expect(answer).not.toContain(participants)
    expect(answer).not.toContain(followUp)
    return answer
  }

  it.each([
    [
      eta,
      'Our current target for making it available to you is 2026-03-20. This is a target and may change;',
      'It will not be available to you by 2026-03-20; the date may change, and',
      '2026-03-20',
    ],
    [eta, 'Our current target for making it available to you is 2026-03-20.', 'The old target of 2026-03-20 is not realistic any more.', '2026-03-20'],
    [
      labEta,
      'Our latest engineering target for lab results sync (EHR-88) is 2026-04-24.',
      'Lab results sync (EHR-88) will not be live by 2026-04-24.',
      '2026-04-24',
    ],
  ])('%s: the right ETA date negated ("%s" -> "%s") does not pass must_mention', (id, line, replacement, date) => {
    const answer = correct(id).replace(line, replacement)
    expect(answer).not.toBe(correct(id))
    const result = judge(id, answer)
    expect(result.requirements, result.why).toBeLessThan(5)
    expect(result.why).toContain(`negated "${date}"`)
  })

  it("the auditor's negated ETA (no other date given) does not pass must_mention", () => {
    const result = judge(
      eta,
      'Hi Yuki,\n\nRoute replanning (FLT-212) will not be ready by 2026-03-20; the date may change and I have no new one. I will follow up.\n\nBest regards,\nOskar Lind',
    )
    expect(result.requirements, result.why).toBeLessThanOrEqual(3)
    expect(result.why).toContain('FAIL must_mention "Yuki", "2026-03-20", "Oskar" (negated "2026-03-20")')
  })

  it.each([
    'Follow-up: the order with Northwind Freight is confirmed by 2026-03-17, not by Luca Ferri.',
    'Follow-up: Luca Ferri is not the owner; Jonas Albrecht confirms the order with Northwind Freight by 2026-03-17.',
    'Follow-up: Jonas Albrecht, rather than Luca Ferri, confirms the order with Northwind Freight by 2026-03-17.',
  ])('the owner of the follow-up negated (%s) does not pass must_mention', (line) => {
    const result = judge(charger, chargerWithFollowUp(line))
    expect(result.requirements, result.why).toBeLessThan(5)
    expect(result.why).toContain('negated "Luca"')
  })

  it('a negated mention alongside an asserted one still scores 5', () => {
    const oldDate = correct(eta).replace('Our current target', 'It will not be ready by 2026-03-13 as first planned. Our current target')
    expect(oldDate).not.toBe(correct(eta))
    const both = `${correct(charger)}\nLuca Ferri is not the approver: Marta Sousa made the call.`
    for (const [id, answer] of [
      [eta, oldDate],
      [charger, both],
    ] as const) {
      const result = judge(id, answer)
      expect(result.requirements, result.why).toBe(5)
    }
  })

  it('a name or date after a negation in another clause, a time bound or a hedge still counts: right answers score 5', () => {
    for (const [id, answer] of [
      [charger, chargerWithFollowUp('Follow-up: the vendor has not replied yet and Luca Ferri confirms the order with Northwind Freight by 2026-03-17.')],
      [charger, chargerWithFollowUp('Follow-up: we have not ordered yet; Luca Ferri confirms the order with Northwind Freight no later than 2026-03-17.')],
      [eta, correct(eta).replace('This is a target and may change;', 'This date is not final and may change;')],
      [
        eta,
        correct(eta).replace(
          'Our current target for making it available to you is 2026-03-20.',
          'It will not be available to you until 2026-03-20, our current target.',
        ),
      ],
      [labEta, correct(labEta).replace('Our latest engineering target', "I couldn't confirm it earlier, but our latest engineering target")],
    ] as const) {
      expect(answer).not.toBe(correct(id))
      const result = judge(id, answer)
      expect(result.requirements, `${answer}\n${result.why}`).toBe(5)
    }
  })

  it('a person named with their role in a relative clause after a negated verb counts: right answers score 5', () => {
    for (const line of [
      'Follow-up: we have not heard back from Luca Ferri, who confirms the order with Northwind Freight by 2026-03-17.',
      "Follow-up: I haven't heard from Luca Ferri, who owns the order with Northwind Freight; it is due by 2026-03-17.",
    ]) {
      const result = judge(charger, chargerWithFollowUp(line))
      expect(result.requirements, `${line}\n${result.why}`).toBe(5)
    }
  })

  it.each([
    "Follow-up: Jonas Albrecht confirms the order with Northwind Freight by 2026-03-17; I haven't heard from Luca Ferri, who does not own it.",
    'Follow-up: the order with Northwind Freight is confirmed by 2026-03-17, not by Luca Ferri, who owns the budget.',
    'Follow-up: Jonas Albrecht confirms the order with Northwind Freight by 2026-03-17; the owner is not Luca Ferri, who leads procurement.',
    'Follow-up: the order with Northwind Freight was not confirmed by Luca Ferri, who was on leave, by 2026-03-17.',
  ])('a relative clause does not rescue a person the answer denies (%s)', (line) => {
    const result = judge(charger, chargerWithFollowUp(line))
    expect(result.requirements, result.why).toBeLessThan(5)
    expect(result.why).toContain('negated "Luca"')
  })

  it('a ticket under a negated verb stays negated: `did not close X` would credit a report that lists open work as done', () => {
    const weekly = 'lumen_weekly_report_document_generation'
    const answer = correct(weekly).replace('- FLT-226 Add request tracing to gateway', '- We did not close FLT-226 (request tracing).')
    expect(answer).not.toBe(correct(weekly))
    const result = judge(weekly, answer)
    expect(result.requirements, result.why).toBeLessThan(5)
    expect(result.why).toContain('negated "FLT-226"')
  })

  it('the rejected option named with "rather than" still counts for must_mention', () => {
    const answer =
      'Rotterdam charging docks: the team went with Northwind Freight (option B, $31,000, 1 week) rather than Mistral Grid (option A, $19,000, 2 weeks), because only Northwind Freight arrives before the beta at the pilot sites on 2026-03-20. Marta Sousa made the call on 2026-03-12 with Luca Ferri and Jonas Albrecht; the extra cost is within budget. Next step: Luca Ferri confirms the order by 2026-03-17.'
    const result = judge(charger, answer)
    expect(result.requirements, result.why).toBe(5)
  })
})

describe('must_not_assert: a stale date the answer denies is not stated', () => {
  const labEta = 'tidewater_lab_sync_eta_email_reply'
  const target = 'Our latest engineering target for lab results sync (EHR-88) is 2026-04-24.'

  it('the lab-sync reply checks the stale date with must_not_assert, not must_not_mention', () => {
    const checks = taskOf(labEta).task.checks ?? []
    expect(checks).toContainEqual({ must_not_assert: ['2026-04-17'] })
    expect(checks.some((check) => 'must_not_mention' in check)).toBe(false)
  })

  it.each([
    'The old date of 2026-04-17 no longer holds; our latest engineering target for lab results sync (EHR-88) is 2026-04-24.',
    '2026-04-17 is no longer the date: our latest engineering target for lab results sync (EHR-88) is 2026-04-24.',
    'Our latest engineering target for lab results sync (EHR-88) is 2026-04-24, instead of 2026-04-17.',
    'Our latest engineering target for lab results sync (EHR-88) moved from 2026-04-17 to 2026-04-24.',
    'The target for lab results sync (EHR-88) was pushed back from 2026-04-17 to 2026-04-24.',
    'The earlier 2026-04-17 estimate is outdated: our latest engineering target for lab results sync (EHR-88) is 2026-04-24.',
  ])('a right reply that names the stale date to deny it ("%s") scores 5', (line) => {
    const answer = correct(labEta).replace(target, line)
    expect(answer).not.toBe(correct(labEta))
    const result = judge(labEta, answer)
    expect(result.requirements, `${answer}\n${result.why}`).toBe(5)
    expect(result.why).toContain('PASS must_not_assert "2026-04-17"')
  })

  it.each([
    `${target} The ETA is 2026-04-17 for your region.`,
    `${target} For you the ETA remains 2026-04-17.`,
    `${target} We are still on track for 2026-04-17.`,
    `${target} For you it is not 2026-05-02 but 2026-04-17.`,
    `${target} The date has not moved from 2026-04-17 for you.`,
    `${target} We will not miss 2026-04-17.`,
    'Our latest engineering target for lab results sync (EHR-88) moved from 2026-04-24 to 2026-04-17.',
    'Our latest engineering target for lab results sync (EHR-88) moved to 2026-04-17 from 2026-04-24.',
  ])('a reply that states the stale date ("%s") is capped at 2 even when it names the new one', (line) => {
    const answer = correct(labEta).replace(target, line)
    expect(answer).not.toBe(correct(labEta))
    const result = judge(labEta, answer)
    expect(result.requirements, `${answer}\n${result.why}`).toBeLessThanOrEqual(2)
    expect(result.why).toContain('FAIL must_not_assert "2026-04-17" (asserts "2026-04-17")')
  })
})

describe("the task's own text given back", () => {
  it.each(taskIds)('%s: its answer requirements pasted as the answer score <= 2 on both axes', (id) => {
    const result = judge(id, taskOf(id).task.answer_requirements.join('\n'))
    expect(result.requirements, result.why).toBeLessThanOrEqual(2)
    expect(result.grounding ?? 0, result.why).toBeLessThanOrEqual(2)
  })
})

describe('no false negatives', () => {
  it.each(taskIds)('%s: the hand-written correct answer scores 5 on requirements and >= 3 on grounding', (id) => {
    const result = judge(id, correct(id))
    expect(result.requirements, result.why).toBe(5)
    expect(result.grounding, result.why).toBeGreaterThanOrEqual(3)
  })
})

describe('the Quillstone reply: neither accepting nor declining, in any wording', () => {
  const id = 'lumen_quillstone_quote_email_reply'
  const reply = (middle: string) =>
    `Hi Mateo, thank you for the renewal quote. Greta here: finance is still reviewing it, ${middle} The quote is valid for 30 days, until 2026-04-01. Best, Greta`

  it('a right reply that says a decision is still to come is not read as accepting or declining', () => {
    expect(judge(id, reply('and we will get back to you before we accept or decline.')).requirements).toBeGreaterThanOrEqual(4)
  })

  it('a reply that accepts the quote, however it says so, is capped', () => {
    for (const middle of ['but please go ahead and sign it on our side.', 'and we accept the quote as sent.']) {
      expect(judge(id, reply(middle)).requirements, middle).toBeLessThanOrEqual(2)
    }
  })
})
