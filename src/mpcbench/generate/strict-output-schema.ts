/**
 * The model-facing form of a JSON Schema for OpenAI strict structured outputs, and the reading back of a reply made
 * in that form. Strict mode takes a subset of JSON Schema: every object closed (`additionalProperties: false`) with
 * every property in `required`, `anyOf` but no `oneOf`/`allOf`, and no `minLength`, `propertyNames` and the like.
 * Our schemas (`schemas/*.json`) also validate files that leave optional fields out, so the model gets a converted
 * copy; its reply is read back with {@link fromStrictOutput} and then validated against the original schema.
 */

type Schema = Record<string, unknown>

/** Validation keywords strict mode refuses; the original schema still applies them (ajv) after the reply is read back. */
const DROPPED = new Set([
  '$schema',
  '$id',
  'minLength',
  'maxLength',
  'propertyNames',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'uniqueItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'default',
])

const PRIMITIVE = new Set<unknown>(['string', 'number', 'integer', 'boolean'])

const OPEN_OBJECT_NOTE = 'Written as a string holding a JSON object.'

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An object schema whose keys are not all listed (`additionalProperties` missing, `true` or a schema): strict mode cannot say it. */
function isOpenObject(schema: Schema): boolean {
  const objectLike = schema.type === 'object' || isSchema(schema.properties)
  return objectLike && schema.additionalProperties !== false
}

function allowsNull(schema: Schema): boolean {
  return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))
}

function nullable(schema: Schema): Schema {
  if (allowsNull(schema)) return schema
  if (PRIMITIVE.has(schema.type) && schema.enum === undefined && schema.const === undefined) return { ...schema, type: [schema.type, 'null'] }
  const { description, ...rest } = schema
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] }
}

function convert(schema: unknown): unknown {
  if (!isSchema(schema)) return schema
  if (isOpenObject(schema)) {
    const description = typeof schema.description === 'string' ? `${schema.description.replace(/\.?$/, '.')} ${OPEN_OBJECT_NOTE}` : OPEN_OBJECT_NOTE
    return { type: 'string', description }
  }
  const allOf = schema.allOf
  if (Array.isArray(allOf) && allOf.length === 1 && isSchema(allOf[0])) {
    const { allOf: _allOf, ...rest } = schema
    return convert({ ...allOf[0], ...rest })
  }
  const out: Schema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue
    if (key === 'oneOf' || key === 'anyOf') out.anyOf = (value as unknown[]).map(convert)
    else if (key === 'items') out.items = convert(value)
    else if (key === 'definitions' || key === '$defs') out[key] = Object.fromEntries(Object.entries(value as Schema).map(([name, s]) => [name, convert(s)]))
    else if (key !== 'properties' && key !== 'required' && key !== 'additionalProperties') out[key] = value
  }
  if (isSchema(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
    // A `const` property (an event's `source`) goes first: `anyOf` branches must differ in their first key.
    const entries = Object.entries(schema.properties)
    const ordered = [...entries.filter(([, s]) => isSchema(s) && 'const' in s), ...entries.filter(([, s]) => !isSchema(s) || !('const' in s))]
    out.properties = Object.fromEntries(
      ordered.map(([name, s]) => {
        const converted = convert(s) as Schema
        return [name, required.has(name) ? converted : nullable(converted)]
      }),
    )
    out.required = ordered.map(([name]) => name)
    out.additionalProperties = false
  }
  return out
}

/**
 * `schema` in the form strict structured outputs accepts: objects closed with every property required (an optional
 * one may be `null`) and their `const` properties first, an object with keys of its own choosing (`facts`) as a
 * string holding that JSON object, `oneOf` as `anyOf`, a one-branch `allOf` inlined, and refused validation keywords
 * left out.
 */
export function toStrictOutputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return convert(schema) as Record<string, unknown>
}

function resolve(schema: Schema, root: Schema): Schema {
  let current = schema
  for (let depth = 0; depth < 32; depth++) {
    const ref = current.$ref
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, part) => (isSchema(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), root)
      if (!isSchema(target)) return current
      current = target
    } else if (Array.isArray(current.allOf) && current.allOf.length === 1 && isSchema(current.allOf[0])) {
      current = current.allOf[0]
    } else {
      return current
    }
  }
  return current
}

/** Whether the `const` properties of a branch agree with `value` (how a reply's event picks its `oneOf` branch). */
function branchMatches(branch: Schema, value: Record<string, unknown>, root: Schema): boolean {
  const properties = resolve(branch, root).properties
  if (!isSchema(properties)) return true
  return Object.entries(properties).every(([name, s]) => !isSchema(s) || !('const' in s) || !(name in value) || value[name] === s.const)
}

function read(value: unknown, schema: unknown, root: Schema): unknown {
  if (!isSchema(schema)) return value
  const s = resolve(schema, root)
  if (isOpenObject(s) && typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value)
      return isSchema(parsed) ? parsed : value
    } catch {
      return value
    }
  }
  const branches = (s.oneOf ?? s.anyOf) as unknown[] | undefined
  if (Array.isArray(branches) && isSchema(value)) {
    const branch = branches.find((b) => isSchema(b) && branchMatches(b, value, root))
    return branch === undefined ? value : read(value, branch, root)
  }
  if (Array.isArray(value)) return isSchema(s.items) ? value.map((item) => read(item, s.items, root)) : value
  if (!isSchema(value) || !isSchema(s.properties) || isOpenObject(s)) return value
  const properties = s.properties
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : [])
  const out: Record<string, unknown> = {}
  for (const [name, item] of Object.entries(value)) {
    const property = properties[name]
    if (item === null && !required.has(name) && isSchema(property) && !allowsNull(resolve(property, root))) continue
    out[name] = read(item, property, root)
  }
  return out
}

/**
 * Reads a reply made against {@link toStrictOutputSchema}`(schema)` back into `schema`'s form: an optional property
 * sent as `null` is left out, and a string standing for an open object is parsed. A reply already in `schema`'s form
 * (no nulls, objects as objects) comes back unchanged; anything else is left for validation to report.
 */
export function fromStrictOutput(value: unknown, schema: Record<string, unknown>): unknown {
  return read(value, schema, schema)
}
