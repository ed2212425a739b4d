import { z } from 'zod'
import { readJsonFile } from '../../core/parse.ts'
import { GlobalSettingsSchema, PersonSchema, ProjectSchema } from './scenario.ts'

/** Which generator made a file, with the inputs that shape its output. Written into every generated file. */
export const GeneratorRecordSchema = z.object({
  name: z.enum(['procedural', 'llm']),
  /** Version of the procedural algorithm (bumped when its output changes for the same inputs). */
  version: z.number().int().optional(),
  seed: z.number().int().optional(),
  scale: z.number().positive().optional(),
  /** The data-generation model id (llm only). */
  model: z.string().optional(),
})
export type GeneratorRecord = z.infer<typeof GeneratorRecordSchema>

const isoDateTime = z.iso.datetime({ offset: true })

const eventBase = {
  event_id: z.string().min(1),
  /** When it happened (or was last changed), ISO 8601 with the scenario time zone's offset. */
  timestamp: isoDateTime,
}

/** A Slack message; `user` is a person id, `channel` a channel name, `thread_of` the `event_id` of the thread's first message. */
export const SlackEventSchema = z.object({
  ...eventBase,
  source: z.literal('slack'),
  channel: z.string(),
  user: z.string(),
  text: z.string(),
  thread_of: z.string().optional(),
})

/** One email of a thread. */
export const GmailEventSchema = z.object({
  ...eventBase,
  source: z.literal('gmail'),
  thread_id: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  body: z.string(),
})

/** A calendar event; `attendees` and `organizer` are emails. */
export const CalendarEventSchema = z.object({
  ...eventBase,
  source: z.literal('calendar'),
  calendar_event_id: z.string(),
  title: z.string(),
  start: isoDateTime,
  end: isoDateTime,
  organizer: z.string(),
  attendees: z.array(z.string()),
  description: z.string(),
  location: z.string().optional(),
})

/** The latest state of a Jira issue; people are emails. */
export const JiraEventSchema = z.object({
  ...eventBase,
  source: z.literal('jira'),
  issue_key: z.string(),
  project_key: z.string(),
  summary: z.string(),
  description: z.string(),
  status: z.string(),
  issue_type: z.string(),
  priority: z.string(),
  assignee: z.string().nullable(),
  reporter: z.string(),
  created: isoDateTime,
  due_date: z.string().optional(),
  fix_version: z.string().optional(),
  labels: z.array(z.string()),
})

/** The latest version of a Drive file. */
export const DriveEventSchema = z.object({
  ...eventBase,
  source: z.literal('drive'),
  file_id: z.string(),
  name: z.string(),
  mime_type: z.string(),
  owner: z.string(),
  content: z.string(),
})

/** A contact that is not one of the scenario's people (customer, vendor, shared mailbox). */
export const ContactEventSchema = z.object({
  ...eventBase,
  source: z.literal('contacts'),
  contact_id: z.string(),
  name: z.string(),
  email: z.string(),
  organization: z.string(),
  phone: z.string().optional(),
})

/** One concrete event of our world state, tagged by the source it shows up in. */
export const WorldEventSchema = z.discriminatedUnion('source', [
  SlackEventSchema,
  GmailEventSchema,
  CalendarEventSchema,
  JiraEventSchema,
  DriveEventSchema,
  ContactEventSchema,
])
export type WorldEvent = z.infer<typeof WorldEventSchema>
export type SlackEvent = z.infer<typeof SlackEventSchema>
export type GmailEvent = z.infer<typeof GmailEventSchema>
export type CalendarEvent = z.infer<typeof CalendarEventSchema>
export type JiraEvent = z.infer<typeof JiraEventSchema>
export type DriveEvent = z.infer<typeof DriveEventSchema>
export type ContactEvent = z.infer<typeof ContactEventSchema>

/** A participant of an expanded scenario. */
export const ParticipantSchema = z.object({ id: z.string(), email: z.string() })

/**
 * One expanded (core) sub-scenario or noise scenario. Ours always carry `timestamp`, `participants`,
 * `event_description`, `facts` and `events`; upstream LLM output varies, so only `id` and `type` are required
 * and the rest is kept as given.
 */
export const ExpandedScenarioSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  timestamp: z.string().optional(),
  start_time: z.string().optional(),
  end_time: z.string().optional(),
  participants: z.array(z.unknown()).optional(),
  event_description: z.string().optional(),
  /** Ground truth a task author can rely on (e.g. the common free slots of a planning meeting). Ours only. */
  facts: z.record(z.string(), z.unknown()).optional(),
  events: z.array(z.looseObject({})).optional(),
})
export type ExpandedScenario = z.infer<typeof ExpandedScenarioSchema>

/**
 * `data/{scenario_id}_world_state.json`: the scenario made concrete (step 1 of generation).
 * Parses both our files and the upstream LLM-generated world states.
 */
export const WorldStateSchema = z.looseObject({
  scenario_id: z.string(),
  description: z.string().optional(),
  company: z.string().optional(),
  noise_level: z.number().min(0).max(1).optional(),
  depth: z.number().min(0).max(1).optional(),
  global_settings: GlobalSettingsSchema,
  org_units: z.array(z.string()).optional(),
  people: z.array(PersonSchema),
  projects: z.array(ProjectSchema),
  sub_scenarios_expanded: z.array(ExpandedScenarioSchema),
  noise_scenarios: z.array(ExpandedScenarioSchema),
  /** Scenario-level events that belong to no sub-scenario (e.g. Jira seed issues). Ours only. */
  background_events: z.array(z.looseObject({})).optional(),
  /** Absent in upstream files. */
  generator: GeneratorRecordSchema.optional(),
})
export type WorldState = z.infer<typeof WorldStateSchema>

/**
 * The stricter shape our generators produce (and the LLM generator asks for): every expanded scenario has
 * concrete events. `schemas/world_state_schema.json` is this schema as JSON Schema.
 */
export const GeneratedWorldStateSchema = z.object({
  scenario_id: z.string(),
  description: z.string(),
  company: z.string(),
  noise_level: z.number().min(0).max(1),
  depth: z.number().min(0).max(1),
  global_settings: z.object({
    timezone: z.string(),
    workday_start: z.string(),
    workday_end: z.string(),
    reference_date: z.string(),
  }),
  org_units: z.array(z.string()),
  people: z.array(z.object({ id: z.string(), name: z.string(), email: z.string(), team: z.string(), role: z.string() })),
  projects: z.array(z.looseObject({ name: z.string() })),
  sub_scenarios_expanded: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      abstract_description: z.string(),
      timestamp: isoDateTime,
      start_time: isoDateTime.optional(),
      end_time: isoDateTime.optional(),
      participants: z.array(ParticipantSchema),
      event_description: z.string(),
      facts: z.record(z.string(), z.unknown()),
      events: z.array(WorldEventSchema),
    }),
  ),
  noise_scenarios: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      timestamp: isoDateTime,
      participants: z.array(ParticipantSchema),
      event_description: z.string(),
      events: z.array(WorldEventSchema),
    }),
  ),
  background_events: z.array(WorldEventSchema),
  /** Added by us after generation; a model need not write it. */
  generator: GeneratorRecordSchema.optional(),
})
export type GeneratedWorldState = z.infer<typeof GeneratedWorldStateSchema>

/** Reads and parses a world-state file. */
export function loadWorldState(file: string): WorldState {
  return readJsonFile(WorldStateSchema, file, 'world state')
}

/** {@link GeneratedWorldStateSchema} as a draft-07 JSON Schema: the content of `schemas/world_state_schema.json`. */
export function worldStateJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(GeneratedWorldStateSchema, { target: 'draft-7', reused: 'ref' }) as Record<string, unknown>
  const definitions = (generated.definitions ?? {}) as Record<string, Record<string, unknown>>
  const names = new Map<string, string>()
  for (const [key, definition] of Object.entries(definitions)) names.set(key, definitionName(definition, key))
  let text = JSON.stringify(generated)
  for (const [from, to] of names) text = text.replaceAll(`"#/definitions/${from}"`, `"#/definitions/${to}"`).replaceAll(`"${from}":`, `"${to}":`)
  return {
    $id: 'https://vitest-agent-bench.local/schemas/world_state_schema.json',
    title: 'World state',
    description: 'A scenario made concrete: people, projects, expanded sub-scenarios and noise scenarios with their events',
    ...(JSON.parse(text) as Record<string, unknown>),
  }
}

function definitionName(definition: Record<string, unknown>, fallback: string): string {
  if (definition.format === 'date-time') return 'iso_date_time'
  if (Array.isArray(definition.anyOf) || Array.isArray(definition.oneOf)) return 'world_event'
  const properties = (definition.properties ?? {}) as Record<string, { const?: unknown }>
  if (typeof properties.source?.const === 'string') return `${properties.source.const}_event`
  if (properties.id !== undefined && properties.email !== undefined) return 'participant'
  if (definition.type === 'string' && definition.minLength === 1) return 'non_empty_string'
  return fallback
}
