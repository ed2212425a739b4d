import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import { toStrictJsonSchema } from 'openai/lib/transform'
import { describe, expect, it } from 'vitest'
import { loadScenario } from '../tasks/scenario.ts'
import { SOURCES } from '../workplace/validate-source.ts'
import { repoRoot } from './generate-scenario.ts'
import { projectSource, worldEvents } from './procedural/sources.ts'
import { buildProceduralWorld } from './procedural/world.ts'
import { fromStrictOutput, toStrictOutputSchema } from './strict-output-schema.ts'

// ajv-formats is CommonJS: Node's loader gives its `module.exports`, TypeScript's nodenext types the namespace.
const addFormats = ((addFormatsModule as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin
type Schema = Record<string, unknown>
const schemaOf = (name: string): Schema => JSON.parse(readFileSync(join(repoRoot, 'schemas', `${name}_schema.json`), 'utf8')) as Schema
const names = ['world_state', ...SOURCES]

/** Keywords of OpenAI's documented strict subset (types, anyOf, $ref/definitions, string pattern/format, number and array bounds, annotations). */
const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
])

/** What strict mode would refuse in `schema`, as `path: reason` lines. */
function strictProblems(schema: unknown, path = '#', problems: string[] = []): string[] {
  if (typeof schema !== 'object' || schema === null) return problems
  const s = schema as Schema
  for (const key of Object.keys(s)) if (!STRICT_KEYWORDS.has(key)) problems.push(`${path}: keyword ${key}`)
  if (s.type === 'object' || s.properties !== undefined) {
    if (s.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`)
    const required = (s.required ?? []) as string[]
    for (const key of Object.keys((s.properties ?? {}) as Schema)) if (!required.includes(key)) problems.push(`${path}: ${key} is not required`)
  }
  for (const key of ['properties', 'definitions', '$defs'])
    for (const [k, v] of Object.entries((s[key] ?? {}) as Schema)) strictProblems(v, `${path}/${key}/${k}`, problems)
  if (s.items !== undefined) strictProblems(s.items, `${path}/items`, problems)
  if (Array.isArray(s.anyOf)) s.anyOf.forEach((v, i) => strictProblems(v, `${path}/anyOf/${i}`, problems))
  return problems
}

function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref
  if (typeof ref === 'string')
    return resolve(
      ref
        .slice(2)
        .split('/')
        .reduce<Schema>((node, part) => node[part] as Schema, root),
      root,
    )
  const allOf = schema.allOf as Schema[] | undefined
  return allOf?.length === 1 ? resolve(allOf[0] as Schema, root) : schema
}

/** A value in the form a strict-mode model must send it: absent optional properties as null, open objects as JSON text. */
function toStrictForm(value: unknown, schema: Schema, root: Schema): unknown {
  const s = resolve(schema, root)
  const open = (s.type === 'object' || s.properties !== undefined) && s.additionalProperties !== false
  if (open) return JSON.stringify(value)
  const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined
  if (branches !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const source = (value as { source?: unknown }).source
    const branch = branches.find((b) => (resolve(b, root).properties as Record<string, Schema> | undefined)?.source?.const === source)
    return branch === undefined ? value : toStrictForm(value, branch, root)
  }
  if (Array.isArray(value)) return value.map((item) => toStrictForm(item, s.items as Schema, root))
  if (typeof value !== 'object' || value === null || s.properties === undefined) return value
  const properties = s.properties as Record<string, Schema>
  return Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, k in value ? toStrictForm((value as Schema)[k], p, root) : null]))
}

describe('toStrictOutputSchema: what the llm generator gives the model', () => {
  it.each(names)('%s: is in the subset strict structured outputs accepts, and the openai SDK strictifier finds nothing to change', (name) => {
    const original = schemaOf(name)
    const strict = toStrictOutputSchema(original)
    expect(strictProblems(strict)).toEqual([])
    expect(strict.type).toBe('object')
    expect(toStrictJsonSchema(structuredClone(strict) as Parameters<typeof toStrictJsonSchema>[0])).toEqual(strict)
  })

  it('puts the discriminating const first in every anyOf branch, so branches differ in their first key', () => {
    const strict = toStrictOutputSchema(schemaOf('world_state')) as {
      definitions: { world_event: { anyOf: Array<{ properties: Record<string, { const?: string }> }> } }
    }
    const firsts = strict.definitions.world_event.anyOf.map((b) => Object.entries(b.properties)[0])
    expect(firsts.map((entry) => entry?.[0])).toEqual(['source', 'source', 'source', 'source', 'source', 'source'])
    expect(new Set(firsts.map((entry) => entry?.[1].const)).size).toBe(6)
  })
})

describe('fromStrictOutput: a strict-mode reply read back', () => {
  const scenarios = readdirSync(join(repoRoot, 'scenarios'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => loadScenario(join(repoRoot, 'scenarios', f)))
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)

  it.each(scenarios.map((s) => [s.scenario_id, s] as const))(
    '%s: every generated file, sent in strict form, validates against the strict schema and reads back to itself',
    (_id, scenario) => {
      const { generator: _generator, ...world } = buildProceduralWorld(scenario, 3, 2)
      const events = worldEvents(world)
      const files: Record<string, unknown> = { world_state: world, ...Object.fromEntries(SOURCES.map((s) => [s, projectSource(s, world, events)])) }
      for (const name of names) {
        const original = schemaOf(name)
        const sent = toStrictForm(files[name], original, original)
        const validate = ajv.compile(toStrictOutputSchema(original))
        expect(validate(sent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true)
        expect(fromStrictOutput(sent, original), name).toEqual(files[name])
      }
    },
  )

  it("leaves a reply in the schema's own form alone, keeps null where the schema allows it, and leaves what it cannot read for validation", () => {
    const world = schemaOf('world_state')
    const jiraEvent = {
      source: 'jira',
      event_id: 'ev_1',
      timestamp: '2026-03-12T10:00:00+01:00',
      issue_key: 'A-1',
      project_key: 'A',
      summary: 's',
      description: 'd',
      status: 'To Do',
      issue_type: 'Task',
      priority: 'Low',
      assignee: null,
      reporter: 'r@x.example',
      created: '2026-03-12T10:00:00+01:00',
      labels: [],
      due_date: null,
    }
    const read = fromStrictOutput({ background_events: [jiraEvent], projects: ['{"name": "P", "milestones": []}', 'not json'] }, world) as {
      background_events: Array<Record<string, unknown>>
      projects: unknown[]
    }
    expect(read.background_events[0]).toHaveProperty('assignee', null)
    expect(read.background_events[0]).not.toHaveProperty('due_date')
    expect(read.projects).toEqual([{ name: 'P', milestones: [] }, 'not json'])
    const plain = { threads: [{ id: 't', subject: 's', messages: [{ id: 'm', from: 'a', to: ['b'], subject: 's', body: 'b', date: 'd' }] }] }
    expect(fromStrictOutput(plain, schemaOf('gmail'))).toEqual(plain)
  })
})
