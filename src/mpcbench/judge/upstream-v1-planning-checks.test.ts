import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseInstant } from '../../time/zone.ts'
import { loadWorkplace } from '../workplace/workplace.ts'
import { writtenAnswerInput } from '../../../fixtures/mpcbench-judge/judge-input.ts'
import type { Task } from '../tasks/task.ts'
import { rulesScores } from './rules-judge.ts'
import { nextWorkWeek, participantsOf, upstreamV1PlanningChecks } from './upstream-v1-planning-checks.ts'

const data = fileURLToPath(new URL('../../../data/', import.meta.url))

describe('nextWorkWeek', () => {
  it.each([
    ['a Thursday', '2026-03-12T15:00', '2026-03-16', '2026-03-20'],
    ['a Monday', '2026-03-09T10:00', '2026-03-16', '2026-03-20'],
    ['a Sunday', '2026-03-15T10:00', '2026-03-16', '2026-03-20'],
    ['a Saturday', '2026-03-14T23:30', '2026-03-16', '2026-03-20'],
  ])('from %s gives Monday to Friday of the next week', (_day, now, from, to) => {
    expect(nextWorkWeek(parseInstant(now, 'Europe/Berlin') ?? Number.NaN, 'Europe/Berlin')).toEqual({ from, to })
  })

  it('reads the day in the time zone, not in UTC', () => {
    // Monday 2026-03-16 00:30 in Berlin is still Sunday in UTC.
    expect(nextWorkWeek(parseInstant('2026-03-16T00:30', 'Europe/Berlin') ?? Number.NaN, 'Europe/Berlin').from).toBe('2026-03-23')
  })
})

describe('upstreamV1PlanningChecks', () => {
  const requirements = ['Schedule a 45-minute meeting next week between 09:00 and 18:00 with the participants: Greta Vogel, Jonas Albrecht.']
  const workplace = loadWorkplace(data, 'lumen_robotics', { now: parseInstant('2026-03-12T15:00', 'Europe/Berlin') ?? Number.NaN })
  const task = {
    task_id: 'upstream-like',
    user_prompt: 'Find a time next week.',
    answer_requirements: requirements,
    data_dependencies: { scenario_id: 'lumen_robotics' },
  } as unknown as Task

  it('reads the participants of the requirement', () => {
    expect(participantsOf(requirements)).toEqual(['Greta Vogel', 'Jonas Albrecht'])
  })

  it('gives 5 to a correct Monday slot of next week, <= 2 to the Saturday after it', async () => {
    const checks = await upstreamV1PlanningChecks(requirements, workplace)
    const slot = checks.find((check) => 'time_slot_free' in check)
    expect(slot !== undefined && 'time_slot_free' in slot ? [slot.time_slot_free.from, slot.time_slot_free.to] : []).toEqual(['2026-03-16', '2026-03-20'])
    const score = (answer: string) => rulesScores(writtenAnswerInput({ ...task, checks }, 'tasks/planning/x.json', answer, [])).answer_requirements_satisfaction
    const monday = score('Greta Vogel and Jonas Albrecht can meet for 45 minutes on Monday 2026-03-16 09:00-09:45 (Europe/Berlin).')
    expect(monday.score, monday.justification).toBe(5)
    const saturday = score('Greta Vogel and Jonas Albrecht can meet for 45 minutes on 2026-03-21 09:00-09:45 (Europe/Berlin).')
    expect(saturday.score, saturday.justification).toBeLessThanOrEqual(2)
  })
})
