import { describe, expect, it } from 'vitest'
import { InvalidFormatError } from '../../core/errors.ts'
import { loadSourceSchema, SOURCES, sourceValidationErrors, validateSource } from './validate-source.ts'

/** Every node of a schema, with its JSON path. */
function* nodes(schema: unknown, path = '#'): Generator<[string, Record<string, unknown>]> {
  if (schema === null || typeof schema !== 'object') return
  const node = schema as Record<string, unknown>
  yield [path, node]
  for (const [key, child] of Object.entries((node.properties as Record<string, unknown> | undefined) ?? {})) yield* nodes(child, `${path}/properties/${key}`)
  if (node.items !== undefined) yield* nodes(node.items, `${path}/items`)
}

describe('source schemas', () => {
  it.each(SOURCES)('%s_schema.json stays simple enough for structured output', (source) => {
    const allowed = new Set(['$schema', '$id', 'title', 'description', 'type', 'properties', 'required', 'additionalProperties', 'items'])
    for (const [path, node] of nodes(loadSourceSchema(source))) {
      expect(
        Object.keys(node).filter((k) => !allowed.has(k)),
        path,
      ).toEqual([])
      expect(node.type, path).toMatch(/^(object|array|string)$/)
      if (node.type === 'object') {
        expect(node.additionalProperties, path).toBe(false)
        const props = Object.keys(node.properties as object)
        expect(
          (node.required as string[]).filter((r) => !props.includes(r)),
          path,
        ).toEqual([])
      }
    }
  })

  it('hands out a copy of the schema', () => {
    const schema = loadSourceSchema('drive')
    schema.title = 'changed'
    expect(loadSourceSchema('drive').title).toBe('Drive source')
  })

  it('accepts minimal valid data of every source', () => {
    const minimal = {
      slack: { workspace_name: 'w', channels: [], messages: [], users: [] },
      gmail: { threads: [] },
      calendar: { events: [], calendars: [] },
      contacts: { contacts: [] },
      jira: { projects: [], issues: [] },
      drive: { files: [] },
    }
    for (const source of SOURCES) expect(sourceValidationErrors(source, minimal[source]), source).toEqual([])
  })

  it('lists each problem as a dotted path and a reason', () => {
    const errors = sourceValidationErrors('gmail', {
      threads: [{ id: 't1', subject: 's', messages: [{ id: 'm1', from: 'a@b.c', to: 'b@b.c', subject: 's', date: '2025-11-17T10:00:00Z', labels: [] }] }],
    })
    expect(errors).toEqual([
      'threads.0.messages.0.body: is required',
      'threads.0.messages.0.labels: is not a field of this object',
      'threads.0.messages.0.to: must be array',
    ])
  })

  it('throws an InvalidFormatError naming the file, the path and the reason', () => {
    const bad = { files: [{ id: 'f1', name: 'Plan', content: 'x' }] }
    let thrown: unknown
    try {
      validateSource('drive', bad, 'data/acme_drive.json')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(InvalidFormatError)
    const error = thrown as InvalidFormatError
    expect(error.file).toBe('data/acme_drive.json')
    expect(error.field).toBe('files.0.modifiedTime')
    expect(error.message).toContain('Invalid drive source data/acme_drive.json:\n  files.0.modifiedTime: is required')
    expect(error.hint).toContain('schemas/drive_schema.json')
  })

  it('returns the data when valid', () => {
    const data = { contacts: [{ id: 'c1', name: 'Ana Lima', email: 'ana@acme.test' }] }
    expect(validateSource('contacts', data).contacts[0]?.email).toBe('ana@acme.test')
  })
})
