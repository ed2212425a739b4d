import { z } from 'zod'
import { readJsonFile } from '../../core/parse.ts'
import { PLAIN_SCENARIO_ID, PLAIN_SCENARIO_ID_MESSAGE } from './file-names.ts'
import { isRealDate } from '../../time/calendar.ts'
import { isValidTimeZone } from '../../time/zone.ts'

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a time as HH:MM')
const isoDate = z.string().refine(isRealDate, 'expected a real calendar day as YYYY-MM-DD (e.g. 2026-03-16)')

/** Time zone and working hours every generated timestamp and free-busy computation uses. */
export const GlobalSettingsSchema = z.looseObject({
  /** IANA time zone, e.g. `Asia/Seoul`. */
  timezone: z.string().refine(isValidTimeZone, { message: 'expected an IANA time zone such as Europe/Berlin' }),
  workday_start: hhmm,
  workday_end: hhmm,
  /**
   * The world's "today" (YYYY-MM-DD, ours; upstream scenarios omit it). "Next week" in a sub-scenario
   * means the week after the one holding this date. Default {@link DEFAULT_REFERENCE_DATE}.
   */
  reference_date: isoDate.optional(),
})
export type GlobalSettings = z.infer<typeof GlobalSettingsSchema>

/** The reference date used when a scenario names none (a Monday, the week upstream data was generated in). */
export const DEFAULT_REFERENCE_DATE = '2025-11-17'

/** One person of the scenario's organisation (or a partner). */
export const PersonSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string().min(1),
  email: z.string().regex(/^[^\s@]+@[^\s@]+$/, 'expected an email address'),
  team: z.string(),
  role: z.string(),
})
export type Person = z.infer<typeof PersonSchema>

export const MilestoneSchema = z.looseObject({ name: z.string(), date: isoDate })
export type Milestone = z.infer<typeof MilestoneSchema>

/** An issue that must exist in the generated Jira data. */
export const JiraSeedSchema = z.looseObject({
  issue_key: z.string().regex(/^[A-Z][A-Z0-9]*-\d+$/, 'expected an issue key such as APP-412'),
  summary: z.string(),
  status: z.string(),
  /** Person id of the assignee (ours; optional). */
  assignee: z.string().optional(),
  /** Due date YYYY-MM-DD (ours; optional). */
  due_date: isoDate.optional(),
})
export type JiraSeed = z.infer<typeof JiraSeedSchema>

/** A project: upstream uses either `project_key` (with milestones and Jira seeds) or a bare `id`. */
export const ProjectSchema = z
  .looseObject({
    project_key: z
      .string()
      .regex(/^[A-Z][A-Z0-9]*$/, 'expected an upper-case Jira project key')
      .optional(),
    id: z.string().optional(),
    name: z.string(),
    milestones: z.array(MilestoneSchema).optional(),
    jira_seeds: z.array(JiraSeedSchema).optional(),
  })
  .refine((p) => p.project_key !== undefined || p.id !== undefined, {
    message: 'a project needs `project_key` or `id`',
    path: ['project_key'],
  })
export type Project = z.infer<typeof ProjectSchema>

/** One abstract sub-scenario; the generators make it concrete. Type-specific hints (`issue_key_hint`, `metrics_hint`, ...) are kept. */
export const SubScenarioSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  abstract_description: z.string(),
  /** Names (full or first), or person ids. */
  participants_hint: z.array(z.string()).optional(),
  /** Structured hints (`approx_duration_minutes`, `time_window`) or free text. */
  constraints_hint: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
})
export type SubScenario = z.infer<typeof SubScenarioSchema>

/** `scenarios/{scenario_id}.json`: the human-written input of generation. Upstream scenario files parse unchanged. */
export const ScenarioSchema = z
  .looseObject({
    scenario_id: z.string().regex(PLAIN_SCENARIO_ID, PLAIN_SCENARIO_ID_MESSAGE),
    description: z.string(),
    /** Company name (ours; optional): names the Slack workspace and the contacts' organization. */
    company: z.string().min(1).optional(),
    noise_level: z.number().min(0).max(1),
    depth: z.number().min(0).max(1),
    global_settings: GlobalSettingsSchema,
    org_units: z.array(z.string()),
    people: z.array(PersonSchema).min(1),
    projects: z.array(ProjectSchema),
    sub_scenarios: z.array(SubScenarioSchema),
  })
  .superRefine((scenario, ctx) => {
    const seen = new Set<string>()
    scenario.people.forEach((person, index) => {
      if (seen.has(person.id)) ctx.addIssue({ code: 'custom', message: `duplicate person id ${person.id}`, path: ['people', index, 'id'] })
      seen.add(person.id)
    })
    const subIds = new Set<string>()
    scenario.sub_scenarios.forEach((sub, index) => {
      if (subIds.has(sub.id)) ctx.addIssue({ code: 'custom', message: `duplicate sub-scenario id ${sub.id}`, path: ['sub_scenarios', index, 'id'] })
      subIds.add(sub.id)
    })
  })
export type Scenario = z.infer<typeof ScenarioSchema>

/** Reads and parses a scenario file; errors name the file and the field. */
export function loadScenario(file: string): Scenario {
  return readJsonFile(ScenarioSchema, file, 'scenario')
}
