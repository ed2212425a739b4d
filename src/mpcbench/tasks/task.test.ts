import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fg from 'fast-glob'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { InvalidFormatError } from '../../core/errors.ts'
import { parseWith } from '../../core/parse.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import type { FreeSlotsResult } from '../workplace/tool-results.ts'
import { createWorkplaceTools } from '../workplace/tool-profiles.ts'
import { SOURCES } from '../workplace/validate-source.ts'
import { loadWorkplace } from '../workplace/workplace.ts'
import { unknownKeys } from '../config/unknown-keys.ts'
import { CHECK_KINDS, TASK_TYPES, TaskSchema, inferTaskType, loadTask, upstreamJudgeTaskType } from './task.ts'

describeWithSharedData('TaskSchema on upstream MPCBench tasks', () => {
  const files = fg.sync(['v1_eb0b7ca/tasks/**/*.json', 'v1_cdf38c1/tasks/**/*.json'], {
    cwd: sharedDataPath('mpcbench'),
    absolute: true,
  })

  it('finds the upstream task files', () => {
    expect(files.length).toBeGreaterThanOrEqual(6)
  })

  it.each(files.map((file) => [file.split('/mpcbench/')[1] ?? file, file]))('parses %s unchanged', (_name, file) => {
    const task = loadTask(file)
    expect(task.answer_requirements.length).toBeGreaterThan(0)
    expect(inferTaskType(task, file)).toMatch(/^(planning|email_reply|document_generation)$/)
  })

  it("gives the judge upstream's task_type, while ours comes from the folder", () => {
    const types = Object.fromEntries(
      fg.sync('v1_eb0b7ca/tasks/**/*.json', { cwd: sharedDataPath('mpcbench'), absolute: true }).map((file) => {
        const loaded = loadTask(file)
        return [loaded.task_id, [inferTaskType(loaded, file), upstreamJudgeTaskType(loaded)]]
      }),
    )
    // build_judge_input.py: the file's task_type (the planning tasks have one), else from the id.
    expect(types).toMatchObject({
      companyA_weekly_report_v1: ['document_generation', 'weekly_report'],
      companyA_email_reply_v1: ['email_reply', 'email_reply'],
      scenario_noise0_depth0_planning_task: ['planning', 'planning'],
    })
  })

  it('finds no unknown key (nothing to warn about) in any upstream task', () => {
    for (const file of files) expect(unknownKeys(JSON.parse(readFileSync(file, 'utf8')), Object.keys(TaskSchema.shape)), file).toEqual([])
  })

  it('keeps unknown upstream fields (data_dependencies extras, tool_name/description steps)', () => {
    const task = loadTask(sharedDataPath('mpcbench/v1_eb0b7ca/tasks/email_reply/email_reply_task.json'))
    expect(task.data_dependencies.jira_issue_key).toBe('APP-412')
    expect(task.expected_tool_sequence?.[0]?.tool_name).toBe('Gmail.SearchThreads')
  })
})

describe('TaskSchema', () => {
  const base = {
    task_id: 't1',
    user_prompt: 'Find a slot.',
    data_dependencies: { scenario_id: 's' },
    answer_requirements: ['A slot is proposed.'],
  }

  it('accepts every check kind', () => {
    const task = parseWith(
      TaskSchema,
      {
        ...base,
        checks: [
          { must_mention: ['a'] },
          { must_not_mention: ['b'] },
          { must_not_assert: ['e'] },
          { mentions_any: ['c', 'd'] },
          { min_length: 10 },
          { time_slot_within: { start: '2026-03-09T09:00', end: '2026-03-13T18:00', timezone: 'Europe/Berlin' } },
        ],
      },
      'task',
    )
    expect(task.checks).toHaveLength(6)
    expect(task.checks?.[2]).toEqual({ must_not_assert: ['e'] })
  })

  it('rejects a check with two keys or an unknown kind, naming the path', () => {
    expect(() => parseWith(TaskSchema, { ...base, checks: [{ must_mention: ['a'], min_length: 3 }] }, 'task', 'tasks/x.json')).toThrow(
      /Invalid task tasks\/x\.json:\n {2}checks\.0/,
    )
    expect(() => parseWith(TaskSchema, { ...base, checks: [{ sounds_nice: true }] }, 'task')).toThrow(InvalidFormatError)
  })

  it('names the file and field of a bad task file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'task-'))
    const file = join(dir, 'bad.json')
    writeFileSync(file, JSON.stringify({ ...base, answer_requirements: [3] }))
    expect(() => loadTask(file)).toThrow(`Invalid task ${file}:\n  answer_requirements.0: Invalid input: expected string, received number`)
  })

  it('rejects an expected tool step without a tool name', () => {
    expect(() => parseWith(TaskSchema, { ...base, expected_tool_sequence: [{ reason: 'x' }] }, 'task')).toThrow(/tool_name/)
  })

  it('infers the type from task_type, then the folder, then the id', () => {
    expect(inferTaskType({ task_id: 'x', task_type: 'email_reply' }, 'tasks/planning/x.json')).toBe('email_reply')
    expect(inferTaskType({ task_id: 'x' }, 'tasks/document_generation/x.json')).toBe('document_generation')
    expect(inferTaskType({ task_id: 'companyA_weekly_report_v1' })).toBe('document_generation')
    expect(inferTaskType({ task_id: 'companyA_email_reply_v1' })).toBe('email_reply')
    expect(inferTaskType({ task_id: 'scenario_noise0_depth0_planning_task' })).toBe('planning')
    expect(inferTaskType({ task_id: 'x' })).toBeUndefined()
  })

  it("gives upstream's judge task_type: the file's own, else planning / email / weekly-or-report in the id, else planning", () => {
    expect(upstreamJudgeTaskType({ task_id: 'x_report', task_type: 'email_reply' })).toBe('email_reply')
    expect(upstreamJudgeTaskType({ task_id: 'companyA_weekly_report_v1' })).toBe('weekly_report')
    expect(upstreamJudgeTaskType({ task_id: 'Email_Planning' })).toBe('planning')
    expect(upstreamJudgeTaskType({ task_id: 'reply_to_email' })).toBe('email_reply')
    expect(upstreamJudgeTaskType({ task_id: 'lumen_doc' })).toBe('planning')
    // Upstream's weekly report has no task_type: the upstream v1 bench passes it as read (our folder classification
    // stays in the run log), so the judge sees upstream's type.
    expect(upstreamJudgeTaskType({ task_id: 'companyA_weekly_report_v1', task_type: undefined })).toBe('weekly_report')
  })
})

describe('TaskSchema on impossible days, times, time zones and check kinds', () => {
  const free = {
    attendees: ['priya@northwind.test'],
    from: '2026-03-16',
    to: '2026-03-20',
    workday_start: '09:00',
    workday_end: '18:00',
    duration_minutes: 45,
    timezone: 'Europe/Berlin',
    free: [{ start: '2026-03-16T09:00:00+01:00', end: '2026-03-16T12:00:00+01:00' }],
  }
  const task = (checks: unknown[]) => ({
    task_id: 't1',
    user_prompt: 'Find a slot.',
    data_dependencies: { scenario_id: 's' },
    answer_requirements: ['A slot is proposed.'],
    checks,
  })
  const parse = (checks: unknown[]) => parseWith(TaskSchema, task(checks), 'task', 'tasks/planning/t1.json')
  const fieldOf = (checks: unknown[]): string | undefined => {
    try {
      parse(checks)
    } catch (error) {
      if (error instanceof InvalidFormatError) return error.field
      throw error
    }
    return undefined
  }

  it('accepts real days, times and zones, a leap day included', () => {
    expect(parse([{ time_slot_free: { ...free, from: '2028-02-29', excluded_dates: ['2028-03-01'] } }]).checks).toHaveLength(1)
    expect(parse([{ time_slot_within: { start: '2026-03-16T00:00', end: '2026-03-16T23:59:59Z', timezone: 'Asia/Kolkata' } }]).checks).toHaveLength(1)
  })

  it('rejects a time zone that does not exist, naming the task file and the field path', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'task-')), 'badtz.json')
    writeFileSync(file, JSON.stringify(task([{ must_mention: ['Priya'] }, { time_slot_free: { ...free, timezone: 'Mars/Olympus' } }])))
    expect(() => loadTask(file)).toThrow(`Invalid task ${file}:\n  checks.1.time_slot_free.timezone: expected an IANA time zone such as Europe/Berlin`)
    expect(fieldOf([{ time_slot_within: { start: '2026-03-16T09:00', end: '2026-03-16T10:00', timezone: 'Mars/Olympus' } }])).toBe(
      'checks.0.time_slot_within.timezone',
    )
  })

  it('rejects days and times that do not exist, naming the field', () => {
    expect(fieldOf([{ time_slot_free: { ...free, from: '2026-02-30' } }])).toBe('checks.0.time_slot_free.from')
    expect(fieldOf([{ time_slot_free: { ...free, to: '2026-13-01' } }])).toBe('checks.0.time_slot_free.to')
    expect(fieldOf([{ time_slot_free: { ...free, excluded_dates: ['2027-02-29'] } }])).toBe('checks.0.time_slot_free.excluded_dates.0')
    expect(fieldOf([{ time_slot_free: { ...free, workday_end: '25:00' } }])).toBe('checks.0.time_slot_free.workday_end')
    expect(fieldOf([{ time_slot_free: { ...free, free: [{ start: '2026-03-16T25:00:00+01:00', end: '2026-03-16T26:00:00+01:00' }] } }])).toBe(
      'checks.0.time_slot_free.free.0.start',
    )
    expect(fieldOf([{ time_slot_free: { ...free, free: [{ start: '2026-03-16T09:60', end: '2026-03-16T10:00:61' }] } }])).toBe(
      'checks.0.time_slot_free.free.0.start',
    )
    expect(fieldOf([{ time_slot_within: { start: '2026-03-16T09:00+25:00', end: '2026-03-16T10:00' } }])).toBe('checks.0.time_slot_within.start')
    expect(fieldOf([{ time_slot_within: { start: '2026-03-16T09:00', end: '2026-04-31T10:00' } }])).toBe('checks.0.time_slot_within.end')
  })

  it('answers a check of no known kind with the list of kinds', () => {
    expect(CHECK_KINDS).toEqual([
      'must_mention',
      'must_not_mention',
      'must_not_assert',
      'mentions_any',
      'min_length',
      'max_length',
      'choose',
      'time_slot_within',
      'time_slot_free',
    ])
    const message = (() => {
      try {
        parse([{ must_mention: ['Priya'] }, { must_mention_all: ['Greta'] }])
      } catch (error) {
        return (error as Error).message
      }
      return ''
    })()
    expect(message).toContain(
      'checks.1: expected a check object with one of the keys must_mention, must_not_mention, must_not_assert, mentions_any, min_length, max_length, choose, time_slot_within, time_slot_free',
    )
    expect(message).toContain('got the key(s) must_mention_all')
    expect(fieldOf(['must_mention'])).toBe('checks.0')
  })

  it("points into a known kind's own fields", () => {
    expect(fieldOf([{ must_mention: [] }])).toBe('checks.0.must_mention')
    expect(fieldOf([{ must_mention: ['Kwame'] }, { must_not_assert: [] }])).toBe('checks.1.must_not_assert')
    expect(fieldOf([{ must_not_assert: ['2026-04-17', ''] }])).toBe('checks.0.must_not_assert.1')
    expect(fieldOf([{ must_not_assert: '2026-04-17' }])).toBe('checks.0.must_not_assert')
    expect(() => parse([{ must_not_assert: '2026-04-17' }])).toThrow(
      'Invalid task tasks/planning/t1.json:\n  checks.0.must_not_assert: Invalid input: expected array, received string',
    )
    expect(fieldOf([{ must_not_assert: ['2026-04-17'], must_not_mention: ['x'] }])).toBe('checks.0')
    expect(fieldOf([{ choose: 'Quillstone' }])).toBe('checks.0.not')
    expect(fieldOf([{ time_slot_free: { ...free, duration_minutes: 0 } }])).toBe('checks.0.time_slot_free.duration_minutes')
  })
})

describe('loadTask on unknown keys', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('keeps the task but warns once per file, naming the key, the file and the closest known key', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const file = join(mkdtempSync(join(tmpdir(), 'task-')), 'typo.json')
    writeFileSync(
      file,
      JSON.stringify({
        task_id: 't1',
        user_prompt: 'Find a slot.',
        data_dependencies: {},
        answer_requirements: ['A slot.'],
        chekcs: [{ must_mention: ['Priya'] }],
        zzz_notes: 'x',
      }),
    )
    expect(loadTask(file).checks).toBeUndefined()
    loadTask(file)
    expect(warn).toHaveBeenCalledTimes(1)
    const line = String(warn.mock.calls[0]?.[0])
    expect(line).toContain(file)
    expect(line).toContain('"chekcs" (did you mean "checks"?)')
    expect(line).toContain('"zzz_notes" (no known key is close)')
  })

  it('finds no unknown key (nothing to warn about) in the shipped tasks', () => {
    const repo = fileURLToPath(new URL('../../../', import.meta.url))
    for (const file of fg.sync('tasks/*/*.json', { cwd: repo, absolute: true })) {
      expect(unknownKeys(JSON.parse(readFileSync(file, 'utf8')), Object.keys(TaskSchema.shape)), file).toEqual([])
    }
  })
})

describe('shipped tasks (tasks/**) against the shipped scenario data', () => {
  const repo = fileURLToPath(new URL('../../../', import.meta.url))
  const files = fg.sync('tasks/*/*.json', { cwd: repo }).sort()

  it('ships at least five tasks of each type', () => {
    for (const type of TASK_TYPES) expect(files.filter((f) => f.startsWith(`tasks/${type}/`)).length, type).toBeGreaterThanOrEqual(5)
  })

  describe.each(files)('%s', (file) => {
    const task = loadTask(join(repo, file))
    const scenarioId = task.data_dependencies.scenario_id ?? ''
    const sourceText = () =>
      SOURCES.map((source) => readFileSync(join(repo, 'data', `${scenarioId}_${source}.json`), 'utf8'))
        .join('\n')
        .toLowerCase()

    it('is named by its id, sits in its type folder, and has checks over a shipped scenario', () => {
      expect(basename(file, '.json')).toBe(task.task_id)
      expect(inferTaskType(task, file)).toBe(basename(dirname(file)))
      expect(existsSync(join(repo, 'scenarios', `${scenarioId}.json`))).toBe(true)
      expect(task.checks?.length).toBeGreaterThan(0)
    })

    it('only asks to mention what the sources contain', () => {
      const text = sourceText()
      for (const check of task.checks ?? []) {
        if ('must_mention' in check) for (const s of check.must_mention) expect(text, s).toContain(s.toLowerCase())
        if ('mentions_any' in check)
          expect(
            check.mentions_any.some((s) => text.includes(s.toLowerCase())),
            JSON.stringify(check),
          ).toBe(true)
        if ('choose' in check) for (const s of [check.choose, ...check.not]) expect(text, s).toContain(s.toLowerCase())
      }
    })

    it('lists as free exactly what the ToolBackend finds free (minus excluded dates)', async () => {
      const slotChecks = (task.checks ?? []).flatMap((check) => ('time_slot_free' in check ? [check.time_slot_free] : []))
      if (slotChecks.length === 0) return
      const tool = createWorkplaceTools(loadWorkplace(join(repo, 'data'), scenarioId)).find((t) => t.name === 'GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree')
      for (const check of slotChecks) {
        const args = tool?.parameters.parse({
          email_addresses: check.attendees,
          date_range_start: check.from,
          date_range_end: check.to,
          workday_start_time: check.workday_start,
          workday_end_time: check.workday_end,
          slot_minimum_minutes: check.duration_minutes,
        })
        const result = (await tool?.handler(args, {})) as FreeSlotsResult
        expect(result.unknown_emails).toEqual([])
        expect(result.timezone).toBe(check.timezone)
        const excluded = check.excluded_dates ?? []
        expect(check.free).toEqual(result.time_slots.filter((slot) => !excluded.includes(slot.start.slice(0, 10))))
        expect(check.free.length).toBeGreaterThan(0)
        if (excluded.length > 0) expect(result.time_slots.some((slot) => excluded.includes(slot.start.slice(0, 10)))).toBe(true)
      }
    })
  })
})
