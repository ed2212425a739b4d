import { z } from 'zod'

/**
 * The fields of upstream MPCBench v2's data files (commit e398410: `generate/output/world_level*.json`,
 * `instances_level*.jsonl`, `oracle_level*.jsonl`) as upstream's code reads them. Upstream publishes JSON Schemas
 * (`schema/*.json`) but no license, so they are not copied here; these zod schemas describe the files as they are.
 * Upstream's own files do not validate against its own JSON Schemas (`policy_text` is a string, not an object;
 * `people_table` and `rooms_table` are `{rows}` tables, not lists; rules carry `days_of_week`; oracle rows carry
 * `meta.num_generated`): see `load-data.test.ts`, which checks both against the files in `../shared`.
 *
 * Every object keeps keys these schemas do not name (`looseObject`): the tools hand whole rows back to the model, and
 * the loaders return the file's own value (key order included), only validated here.
 */

/** An ISO 8601 date-time as upstream writes it, with or without an offset (`2026-01-19T10:00:00`, `...+09:00`). */
export const DateTimeSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/, 'expected an ISO 8601 date-time such as 2026-01-19T10:00:00+09:00')

/** A busy interval of a person's calendar or a room. */
export const BusyEventSchema = z.looseObject({ start: DateTimeSchema, end: DateTimeSchema, title: z.string().optional() })

const Clock = z.string().regex(/^\d{1,2}:\d{2}$/, 'expected a clock time HH:MM')
const Weekday = z.number().int().min(0).max(6)

/** One machine-readable policy rule (level 1 `policy_json`, levels 2/3 `policy_tags`). Weekdays: 0 = Monday. */
export const PolicyRuleSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('work_hours'), start: Clock, end: Clock, days_of_week: z.array(Weekday).optional() }),
  z.looseObject({ type: z.literal('lunch_block'), start: Clock, end: Clock, days_of_week: z.array(Weekday).optional() }),
  z.looseObject({ type: z.literal('buffer_min'), minutes: z.number().int().min(0) }),
  z.looseObject({ type: z.literal('ban_dow_time'), day_of_week: Weekday, start: Clock, end: Clock }),
])
export type PolicyRule = z.infer<typeof PolicyRuleSchema>

/** Policy id -> its rules. */
export const PolicySetSchema = z.record(z.string(), z.looseObject({ rules: z.array(PolicyRuleSchema) }))

const TableSchema = <T extends z.ZodType>(row: T) => z.looseObject({ rows: z.array(row) })

/** A communication thread as instances and worlds hold it (`thread_tags` are the oracle's; the agent never sees them). */
export const CommThreadSchema = z.looseObject({
  thread_id: z.string(),
  thread_text: z.string().optional(),
  text: z.string().optional(),
  thread_tags: z.record(z.string(), z.unknown()).optional(),
})

/** The sources of a world. Which are present depends on the level (checked by {@link WorldSchema}). */
export const WorldSourcesSchema = z.looseObject({
  calendar_json: z.record(z.string(), z.array(BusyEventSchema)),
  policy_json: PolicySetSchema.optional(),
  policy_text: z.union([z.string(), z.record(z.string(), z.looseObject({ title: z.string().optional(), text: z.string().optional() }))]).optional(),
  policy_tags: PolicySetSchema.optional(),
  comm_threads: z.array(CommThreadSchema).optional(),
  comm_thread_text: z.string().optional(),
  people_table: TableSchema(z.looseObject({ person_id: z.string(), person_name: z.string() })).optional(),
  rooms_table: TableSchema(z.looseObject({ room_id: z.string(), capacity: z.number() })).optional(),
  room_availability_json: z.record(z.string(), z.array(BusyEventSchema)).optional(),
})

/** The sources each level's world must have (upstream's tools and oracle read them). */
const REQUIRED_SOURCES: Record<1 | 2 | 3, ReadonlyArray<string>> = {
  1: ['policy_json'],
  2: ['policy_text', 'policy_tags'],
  3: ['policy_text', 'policy_tags', 'people_table', 'rooms_table', 'room_availability_json'],
}

/** A difficulty level: 1 (easy), 2 (mid), 3 (hard). */
export const LevelSchema = z.union([z.literal(1), z.literal(2), z.literal(3)])
export type Level = z.infer<typeof LevelSchema>

/** `world_level{1,2,3}_*.json`: one fixed world per level. */
export const WorldSchema = z
  .looseObject({
    world_id: z.string().min(1),
    level: LevelSchema,
    timezone: z.string().min(1).optional(),
    world_start: DateTimeSchema,
    world_end: DateTimeSchema,
    sources: WorldSourcesSchema,
  })
  .superRefine((world, ctx) => {
    for (const source of REQUIRED_SOURCES[world.level]) {
      if ((world.sources as Record<string, unknown>)[source] === undefined) {
        ctx.addIssue({ code: 'custom', path: ['sources', source], message: `a level ${world.level} world needs sources.${source}` })
      }
    }
  })
export type World = z.infer<typeof WorldSchema>

/** `instances_level*.jsonl`: one task per line. */
export const InstanceSchema = z.looseObject({
  instance_id: z.string().min(1),
  level: LevelSchema,
  task_text: z.string(),
  slots: z.looseObject({
    time_window: z.looseObject({ start: DateTimeSchema, end: DateTimeSchema }),
    participants: z.array(z.string()).optional(),
    participant_pool: z.array(z.string()).optional(),
    duration_min: z.number().int().positive().optional(),
    num_options: z.number().int().positive().optional(),
    policy_id: z.string().optional(),
  }),
  sources_ref: z.looseObject({
    world_id: z.string(),
    policy_doc_id: z.string().optional(),
    comm_thread_ids: z.array(z.string()).optional(),
  }),
  sources: z
    .looseObject({
      comm_thread_text: z.string().optional(),
      comm_tags: z.record(z.string(), z.unknown()).optional(),
      comm_threads: z.array(CommThreadSchema).optional(),
    })
    .optional(),
})
export type Instance = z.infer<typeof InstanceSchema>

/** One oracle candidate: a slot, with a room at level 3. */
export const OracleCandidateSchema = z.looseObject({ start: DateTimeSchema, end: DateTimeSchema, room_id: z.string().optional() })
export type OracleCandidate = z.infer<typeof OracleCandidateSchema>

/** `oracle_level*.jsonl`: the gold top-N candidates of an instance, joined by `instance_id`. */
export const OracleRowSchema = z.looseObject({
  instance_id: z.string().min(1),
  feasible_candidates: z.array(OracleCandidateSchema),
  explanation_keys: z.array(z.looseObject({ source: z.string(), key: z.string(), note: z.string().optional() })).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
})
export type OracleRow = z.infer<typeof OracleRowSchema>
