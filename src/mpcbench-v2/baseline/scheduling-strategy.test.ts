import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBaselineModel } from '../../baseline/baseline-model.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { loadLevel } from '../data/load-data.ts'
import { sanitize } from '../data/sanitize.ts'
import { runInstance } from '../harness/run-instance.ts'
import { scheduleSlots } from './schedule.ts'
import { readTaskFacts, schedulingStrategy } from './scheduling-strategy.ts'

describe('scheduleSlots', () => {
  const base = { timeZone: 'Asia/Seoul', windowStart: '2026-01-19T09:00:00', windowEnd: '2026-01-19T12:00:00', durationMin: 30, numOptions: 3 }

  it('skips busy time and applies a buffer around it', () => {
    const busy = [{ start: '2026-01-19T09:30:00+09:00', end: '2026-01-19T10:00:00+09:00' }]
    expect(scheduleSlots({ ...base, busy, rules: [] }).map((slot) => slot.start)).toEqual([
      '2026-01-19T09:00:00+09:00',
      '2026-01-19T10:00:00+09:00',
      '2026-01-19T10:15:00+09:00',
    ])
    expect(scheduleSlots({ ...base, busy, rules: [{ type: 'buffer_min', minutes: 10 }] }).map((slot) => slot.start)).toEqual([
      '2026-01-19T10:15:00+09:00',
      '2026-01-19T10:30:00+09:00',
      '2026-01-19T10:45:00+09:00',
    ])
  })

  it('applies a Monday ban (2026-01-19 is a Monday) and work hours on listed weekdays only', () => {
    expect(scheduleSlots({ ...base, busy: [], rules: [{ type: 'ban_dow_time', day_of_week: 0, start: '09:00', end: '11:00' }] })[0]?.start).toBe(
      '2026-01-19T11:00:00+09:00',
    )
    expect(scheduleSlots({ ...base, busy: [], rules: [{ type: 'work_hours', start: '09:00', end: '18:00', days_of_week: [1, 2] }] })).toEqual([])
  })
})

describe('readTaskFacts', () => {
  it('reads a level 1 task and refuses a task that hides its facts', () => {
    const prompt =
      '## Task\nSchedule a 60-minute meeting for person_001 and person_005 within 2026-01-20T09:00:00 to 2026-01-20T17:00:00. You must follow company meeting policy (POLICY_2). Provide 3 feasible time candidates sorted by earliest start time.\n\n## Available References\nx\n\n## Participants\nperson_001, person_005\n\n## Instructions\n'
    expect(readTaskFacts(prompt)).toEqual({
      participants: ['person_001', 'person_005'],
      policyId: 'POLICY_2',
      durationMin: 60,
      numOptions: 3,
      windowStart: '2026-01-20T09:00:00',
      windowEnd: '2026-01-20T17:00:00',
    })
    expect(readTaskFacts('## Task\nSchedule a meeting for the team.\n\n## Participants\nAlice, Eve\n')).toBeUndefined()
  })
})

describeWithSharedData('the baseline on upstream level 1 data', () => {
  it.each(['1_exp1', '1_test'])("matches the oracle on every level %s instance, through upstream's harness", async (key) => {
    const output = sharedDataPath('mpcbench', 'v2_e398410', 'generate', 'output')
    const data = loadLevel({
      world: join(output, `world_level${key}.json`),
      instances: join(output, `instances_level${key}.jsonl`),
      oracle: join(output, `oracle_level${key}.jsonl`),
    })
    const model = createBaselineModel([schedulingStrategy])
    const sanitizedWorld = sanitize(data.world) as Record<string, unknown>
    for (const instance of data.instances) {
      const { row, outcome } = await runInstance({ level: 1, sanitizedWorld, instance, oracle: data.oracle.get(instance.instance_id), model })
      expect(outcome, instance.instance_id).toEqual({ kind: 'answered', turns: 2 })
      expect(row.metrics?.exact_match, `${instance.instance_id}: ${JSON.stringify(row.pred)} vs ${JSON.stringify(row.gold)}`).toBe(true)
    }
  })
})
