import { basename, dirname } from 'node:path'
import { z } from 'zod'
import { readJsonFile } from '../../core/parse.ts'
import { PLAIN_SCENARIO_ID, PLAIN_SCENARIO_ID_MESSAGE } from './file-names.ts'
import { isRealDate, parseClock } from '../../time/calendar.ts'
import { isValidTimeZone } from '../../time/zone.ts'
import { TASK_TYPES } from './task-types.ts'
import type { TaskType } from './task-types.ts'
import { warnUnknownKeys } from '../config/unknown-keys.ts'

export { TASK_TYPES }
export type { TaskType }

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::(\d{2}))?(Z|[+-](\d{2}):(\d{2}))?$/

/** Whether `text` is an ISO date-time (`DATE_TIME`) on a real day, at a real time of day (00:00-23:59:59), with a real offset. */
function isRealDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text)
  if (m === null) return false
  const [, date = '', clock = '', seconds = '0', , offsetHours = '0', offsetMinutes = '0'] = m
  const minutes = parseClock(clock)
  return isRealDate(date) && minutes !== undefined && minutes < 24 * 60 && Number(seconds) <= 59 && Number(offsetHours) <= 14 && Number(offsetMinutes) <= 59
}

/** An ISO local or offset date-time (`2026-03-09T09:00`, `2026-03-09T09:00:00-05:00`) at a time that exists. */
const DateTimeString = z
  .string()
  .refine(isRealDateTime, 'expected an ISO date-time YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM] on a real day and time (e.g. 2026-03-16T09:00:00+01:00)')

const IsoDate = z.string().refine(isRealDate, 'expected a real calendar day as YYYY-MM-DD (e.g. 2026-03-16)')
const Clock = z
  .string()
  .regex(/^\d{2}:\d{2}$/, 'expected HH:MM')
  .refine((text) => parseClock(text) !== undefined, 'expected a time of day HH:MM from 00:00 to 24:00')
const TimeZone = z.string().refine(isValidTimeZone, 'expected an IANA time zone such as Europe/Berlin')

const Strings = z.array(z.string().min(1)).min(1)

/** The schema of each check kind, under the key that names it. */
const CHECK_SCHEMAS = {
  must_mention: z.strictObject({ must_mention: Strings }),
  must_not_mention: z.strictObject({ must_not_mention: Strings }),
  must_not_assert: z.strictObject({ must_not_assert: Strings }),
  mentions_any: z.strictObject({ mentions_any: Strings }),
  min_length: z.strictObject({ min_length: z.int().positive() }),
  max_length: z.strictObject({ max_length: z.int().positive() }),
  choose: z.strictObject({ choose: z.string().min(1), not: Strings }),
  time_slot_within: z.strictObject({
    time_slot_within: z.strictObject({ start: DateTimeString, end: DateTimeString, timezone: TimeZone.optional() }),
  }),
  time_slot_free: z.strictObject({
    time_slot_free: z.strictObject({
      attendees: z.array(z.email()).min(1),
      from: IsoDate,
      to: IsoDate,
      workday_start: Clock,
      workday_end: Clock,
      duration_minutes: z.int().positive(),
      timezone: TimeZone,
      excluded_dates: z.array(IsoDate).optional(),
      free: z.array(z.strictObject({ start: DateTimeString, end: DateTimeString })).min(1),
    }),
  }),
}

/** The kinds of check, each the key a check object is named by (`choose` comes with `not`); see {@link CheckSchema}. */
export type CheckKind = keyof typeof CHECK_SCHEMAS

/** Every {@link CheckKind}, in the order {@link CheckSchema} documents them. */
export const CHECK_KINDS = Object.keys(CHECK_SCHEMAS) as CheckKind[]

type AnyCheck = { [K in CheckKind]: z.output<(typeof CHECK_SCHEMAS)[K]> }[CheckKind]

/**
 * Machine-checkable requirement, checked by the offline `rules` judge beside the prose `answer_requirements`.
 * Each check is an object with exactly one key:
 * - `must_mention`: every string appears, not negated, in the final answer (case-insensitive; see `negation.ts`).
 * - `must_not_mention`: no string appears in the final answer (case-insensitive), not even denied: for what must not
 *   leak.
 * - `must_not_assert`: no string is stated in the final answer (case-insensitive; see `negation.ts`): a string the
 *   answer denies (`X no longer holds`, `instead of X`, `moved from X to Y`) passes, for a stale fact a right answer
 *   may correct.
 * - `mentions_any`: at least one string appears, not negated, in the final answer (case-insensitive).
 * - `min_length`: the final answer has at least this many characters.
 * - `max_length`: the final answer has at most this many characters (a reply or a record, not everything found).
 * - `choose` / `not`: a decision task's right option and its wrong ones; the answer must state `choose` as the
 *   decision and must not state any of `not` as the decision (naming them as rejected alternatives is fine).
 * - `time_slot_within`: the answer proposes at least one `YYYY-MM-DD HH:MM` (or `T`) date-time and every one
 *   it proposes lies in `[start, end]`; times without an offset are read in `timezone` (default UTC).
 *   Dates written with a weekday name or a 12-hour clock are not recognised.
 * - `time_slot_free`: the answer proposes at least one date-time and each one starts a `duration_minutes` meeting
 *   that fits inside one of the `free` intervals; a written range (`14:00-14:45`) must last at least
 *   `duration_minutes` and end inside the same interval. `free` is what the ToolBackend's
 *   `GoogleCalendar.FindTimeSlotsWhenEveryoneIsFree` returns for `attendees` over `from`..`to` within
 *   `workday_start`..`workday_end`, minus the intervals on `excluded_dates` (days ruled out by other sources, e.g. a
 *   Slack message); a test recomputes it from the shipped data, so it cannot go stale silently.
 *
 * Days, times and time zones must exist (`2026-02-30`, `T25:00` and `Mars/Olympus` are rejected). A check is read by
 * the key that names its kind, so an error points into that kind's fields; an object with no known kind key is
 * rejected with the list of kinds.
 */
export const CheckSchema = z.unknown().transform((value, ctx): AnyCheck => {
  const keys = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : []
  const kind = CHECK_KINDS.find((name) => keys.includes(name))
  if (kind === undefined) {
    const got = keys.length > 0 ? `the key(s) ${keys.join(', ')}` : (JSON.stringify(value) ?? String(value))
    ctx.addIssue({
      code: 'custom',
      message: `expected a check object with one of the keys ${CHECK_KINDS.join(', ')} (choose goes with not); got ${got}`,
      input: value,
    })
    return z.NEVER
  }
  const parsed = CHECK_SCHEMAS[kind].safeParse(value)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue })
    return z.NEVER
  }
  return parsed.data
})

/** One machine-checkable requirement; see {@link CheckSchema}. */
export type Check = z.infer<typeof CheckSchema>

/** One step of the expected tool sequence; upstream uses both `{tool, reason}` and `{tool_name, description}`. */
export const ExpectedToolStepSchema = z
  .looseObject({
    tool: z.string().optional(),
    tool_name: z.string().optional(),
    reason: z.string().optional(),
    description: z.string().optional(),
  })
  .refine((step) => step.tool !== undefined || step.tool_name !== undefined, { message: 'expected `tool` or `tool_name`' })

/**
 * An MPCBench task file, `tasks/{task_type}/{task_id}.json`. Upstream task files parse unchanged;
 * `checks` is ours (optional) and feeds the offline `rules` judge.
 */
export const TaskSchema = z.looseObject({
  task_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected letters, digits, `.`, `_` or `-` (it names files)'),
  task_type: z.enum(TASK_TYPES).optional(),
  user_prompt: z.string().min(1),
  data_dependencies: z.looseObject({
    /** Names files under the data folder, so it may not hold a path: `../x` is rejected. */
    scenario_id: z.string().regex(PLAIN_SCENARIO_ID, PLAIN_SCENARIO_ID_MESSAGE).optional(),
    required_sources: z.array(z.string()).optional(),
  }),
  expected_tool_sequence: z.array(ExpectedToolStepSchema).optional(),
  answer_requirements: z.array(z.string().min(1)).min(1),
  checks: z.array(CheckSchema).optional(),
})

/** An MPCBench task; see {@link TaskSchema}. */
export type Task = z.infer<typeof TaskSchema>

/**
 * Reads and validates a task file; errors name the file and the field. A top-level key the schema does not know is
 * kept (upstream files may carry their own) but warned about once per file, with the closest known key.
 */
export function loadTask(file: string): Task {
  const task = readJsonFile(TaskSchema, file, 'task')
  warnUnknownKeys(task, Object.keys(TaskSchema.shape), 'task', file)
  return task
}

/**
 * The `task_type` upstream MPCBench shows its judge (`infer_task_type` of `evaluation/build_judge_input.py`, commit
 * eb0b7ca): the task's own `task_type` when it has one, else from the lower-cased id: `planning` → `planning`, else
 * `email` → `email_reply`, else `weekly` or `report` → `weekly_report`, else `planning`. Only the judge sees it; our
 * classification is {@link inferTaskType}, which also reads the task's folder (upstream's companyA_weekly_report_v1,
 * which has no `task_type`: `weekly_report` here, `document_generation` there). This project's benches give each task
 * its folder's type, so the judge sees that.
 */
export function upstreamJudgeTaskType(task: Pick<Task, 'task_id' | 'task_type'>): string {
  if (task.task_type !== undefined) return task.task_type
  const id = task.task_id.toLowerCase()
  if (id.includes('planning')) return 'planning'
  if (id.includes('email')) return 'email_reply'
  if (id.includes('weekly') || id.includes('report')) return 'weekly_report'
  return 'planning'
}

function isTaskType(value: string): value is TaskType {
  return (TASK_TYPES as ReadonlyArray<string>).includes(value)
}

/**
 * The task's type: its `task_type` when set, else the folder it sits in (`tasks/planning/x.json`),
 * else a keyword in its id (`planning`, `email`/`reply`, `report`/`document`/`doc`), else `undefined`.
 */
export function inferTaskType(task: Pick<Task, 'task_id' | 'task_type'>, file?: string): TaskType | undefined {
  if (task.task_type !== undefined) return task.task_type
  if (file !== undefined) {
    const folder = basename(dirname(file))
    if (isTaskType(folder)) return folder
  }
  const id = task.task_id.toLowerCase()
  if (/plan|meeting|schedul/.test(id)) return 'planning'
  if (/email|reply|mail/.test(id)) return 'email_reply'
  if (/report|document|doc|summary/.test(id)) return 'document_generation'
  return undefined
}
