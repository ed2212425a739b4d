import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { InvalidFormatError } from '../../core/errors.ts'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { loadInstances, loadLevel, loadOracle, loadWorld } from './load-data.ts'
import { SanitizeError, sanitize } from './sanitize.ts'

const dir = mkdtempSync(join(tmpdir(), 'mpcbench-v2-data-'))
const write = (name: string, text: string): string => {
  const file = join(dir, name)
  writeFileSync(file, text)
  return file
}

const world1 = {
  world_id: 'w1',
  level: 1,
  timezone: 'Asia/Seoul',
  world_start: '2026-01-19T00:00:00',
  world_end: '2026-01-23T23:59:59',
  sources: {
    calendar_json: { person_001: [{ start: '2026-01-19T10:00:00', end: '2026-01-19T11:00:00', title: 'A' }] },
    policy_json: { POLICY_1: { rules: [{ type: 'buffer_min', minutes: 10 }] } },
  },
}
const instance1 = {
  instance_id: 'i1',
  level: 1,
  task_text: 'Schedule',
  slots: {
    time_window: { start: '2026-01-19T09:00:00', end: '2026-01-19T17:00:00' },
    participants: ['person_001'],
    duration_min: 30,
    num_options: 2,
    policy_id: 'POLICY_1',
  },
  sources_ref: { world_id: 'w1' },
}
const oracle1 = { instance_id: 'i1', feasible_candidates: [{ start: '2026-01-19T09:00:00+09:00', end: '2026-01-19T09:30:00+09:00' }], explanation_keys: [] }
const jsonl = (...rows: unknown[]): string => rows.map((row) => JSON.stringify(row)).join('\n')

function thrown(fn: () => unknown): InvalidFormatError {
  try {
    fn()
  } catch (error) {
    if (error instanceof InvalidFormatError) return error
    throw error
  }
  throw new Error('expected an InvalidFormatError')
}

describe('loadLevel', () => {
  it('loads a level and keeps the files own values, key order included', () => {
    const world = { ...world1, extra: { b: 1, a: 2 } }
    const data = loadLevel({
      world: write('w.json', JSON.stringify(world)),
      instances: write('i.jsonl', `${jsonl(instance1)}\n\n`),
      oracle: write('o.jsonl', jsonl(oracle1)),
    })
    expect(JSON.stringify(data.world)).toBe(JSON.stringify(world))
    expect(data.instances.map((instance) => instance.instance_id)).toEqual(['i1'])
    expect(data.oracle.get('i1')?.feasible_candidates).toHaveLength(1)
    expect(data.withoutOracle).toEqual([])
  })

  it('lists instances without an oracle row (upstream scores them against an empty gold list)', () => {
    const data = loadLevel({ world: write('w.json', JSON.stringify(world1)), instances: write('i.jsonl', jsonl(instance1)), oracle: write('o.jsonl', '') })
    expect(data.withoutOracle).toEqual(['i1'])
  })

  it('names the file, line and field of a row that does not fit', () => {
    const file = write(
      'bad.jsonl',
      jsonl(instance1, { ...instance1, instance_id: 'i2', slots: { time_window: { start: 'Monday', end: '2026-01-19T17:00:00' } } }),
    )
    const error = thrown(() => loadInstances(file))
    expect(error.message).toContain(`${file}:2`)
    expect(error.field).toBe('slots.time_window.start')
    expect(error.message).toContain('Fix:')
  })

  it('names the line of a row that is not JSON', () => {
    const file = write('broken.jsonl', `${JSON.stringify(oracle1)}\n{"instance_id": }`)
    expect(thrown(() => loadOracle(file)).message).toContain(`${file}:2`)
  })

  it('rejects a world without the sources of its level', () => {
    const file = write('w-no-policy.json', JSON.stringify({ ...world1, sources: { calendar_json: {} } }))
    const error = thrown(() => loadWorld(file))
    expect(error.field).toBe('sources.policy_json')
    expect(error.message).toContain('a level 1 world needs sources.policy_json')
  })

  it('rejects duplicate ids, an instance of another level or world, and an oracle row without its instance', () => {
    const w = write('w.json', JSON.stringify(world1))
    expect(thrown(() => loadInstances(write('dup.jsonl', jsonl(instance1, instance1)))).message).toContain('lines 1 and 2')
    expect(thrown(() => loadLevel({ world: w, instances: write('l2.jsonl', jsonl({ ...instance1, level: 2 })), oracle: write('o.jsonl', '') })).field).toBe(
      'level',
    )
    expect(
      thrown(() =>
        loadLevel({ world: w, instances: write('w2.jsonl', jsonl({ ...instance1, sources_ref: { world_id: 'w9' } })), oracle: write('o.jsonl', '') }),
      ).field,
    ).toBe('sources_ref.world_id')
    expect(
      thrown(() => loadLevel({ world: w, instances: write('i.jsonl', jsonl(instance1)), oracle: write('o2.jsonl', jsonl({ ...oracle1, instance_id: 'i9' })) }))
        .message,
    ).toContain('has no instance')
  })
})

describe('sanitize', () => {
  it("removes every key holding '_tags' at any depth, as upstream's sanitizer", () => {
    const out = sanitize({ sources: { policy_tags: {}, comm_threads: [{ thread_id: 't', thread_tags: { deadline: 'x' } }] } })
    expect(out).toEqual({ sources: { comm_threads: [{ thread_id: 't' }] } })
  })

  it("fails with upstream's message when a key still holds 'tags'", () => {
    expect(() => sanitize({ sources: { Tags: 1 } })).toThrow(SanitizeError)
    expect(() => sanitize({ sources: { Tags: 1 } })).toThrow("Sanitization failed: key 'Tags' contains 'tags'")
  })
})

describeWithSharedData('MPCBench v2 data in ../shared', () => {
  const root = sharedDataPath('mpcbench', 'v2_e398410')
  const output = join(root, 'generate', 'output')
  const levels = ['1_exp1', '1_test', '2_exp1', '2_test', '3_exp1', '3_test']

  it.each(levels)('loads level %s', (key) => {
    const data = loadLevel({
      world: join(output, `world_level${key}.json`),
      instances: join(output, `instances_level${key}.jsonl`),
      oracle: join(output, `oracle_level${key}.jsonl`),
    })
    expect(data.instances.length).toBeGreaterThan(0)
    expect(data.withoutOracle).toEqual(key === '2_test' ? ['instance_level2_test_E'] : [])
  })

  // Upstream's JSON Schemas (schema/*.json; no license, so read from ../shared, not copied) reject every one of
  // upstream's own data files. This records why, so a fix upstream shows up here.
  it("no upstream data file validates against upstream's own JSON Schemas", () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false })
    addFormats(ajv)
    const reasons: Record<string, string> = {}
    for (const [kind, prefix] of [
      ['world', 'world'],
      ['instance', 'instances'],
      ['oracle', 'oracle'],
    ] as const) {
      const validate = ajv.compile(JSON.parse(readFileSync(join(root, 'schema', `${kind}_schema.json`), 'utf8')))
      for (const name of readdirSync(output).filter((file) => file.startsWith(`${prefix}_`))) {
        const text = readFileSync(join(output, name), 'utf8')
        const values = name.endsWith('.json')
          ? [JSON.parse(text)]
          : text
              .split('\n')
              .filter((line) => line.trim() !== '')
              .map((line) => JSON.parse(line))
        const invalid = values.filter((value) => !validate(value))
        expect(invalid, name).toHaveLength(values.length)
        validate(invalid[0])
        reasons[name] = (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`).join('; ')
      }
    }
    expect(Object.keys(reasons)).toHaveLength(18)
    // Worlds: no branch of the schema's `oneOf` over levels accepts them (levels 2/3 hold `policy_text` as a string and
    // `policy_tags`, which `sources` does not allow; the errors list every branch's complaint).
    expect(reasons['world_level2_exp1.json']).toContain("must have required property 'policy_json'")
    // Level 1 instances: date-times without an offset are not RFC 3339 `date-time`s.
    expect(reasons['instances_level1_exp1.jsonl']).toContain('must match format "date-time"')
    // Oracle rows: `meta` holds counts the schema does not allow.
    expect(reasons['oracle_level1_exp1.jsonl']).toContain('/meta must NOT have additional properties')
  })
})
