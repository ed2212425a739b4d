import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { describeWithSharedData, sharedDataPath } from '../../testing/shared-data.ts'
import { repoRoot, worldStateSchemaPath } from '../generate/generate-scenario.ts'
import { GeneratedWorldStateSchema, WorldStateSchema, loadWorldState, worldStateJsonSchema } from './world-state.ts'
import { scanUpstreamLogs, upstreamWorldState } from '../workplace/upstream-logs.ts'

const dataDir = join(repoRoot, 'data')
const shipped = readdirSync(dataDir).filter((f) => f.endsWith('_world_state.json'))

describe('WorldStateSchema', () => {
  it('schemas/world_state_schema.json is GeneratedWorldStateSchema as JSON Schema', () => {
    // Regenerate with: npx tsx -e "import('./src/mpcbench/tasks/world-state.ts').then(m => import('./src/core/atomic-write.ts').then(a => a.writeJsonAtomic('schemas/world_state_schema.json', m.worldStateJsonSchema())))"
    expect(JSON.parse(readFileSync(worldStateSchemaPath, 'utf8'))).toEqual(worldStateJsonSchema())
  })

  it.each(shipped)('%s parses with both schemas and validates against the JSON Schema', (file) => {
    const world = loadWorldState(join(dataDir, file))
    expect(world.generator?.name).toBe('procedural')
    GeneratedWorldStateSchema.parse(world)
    const ajv = new Ajv({ allErrors: true, strict: false })
    addFormats(ajv)
    const validate = ajv.compile(JSON.parse(readFileSync(worldStateSchemaPath, 'utf8')))
    expect(validate(JSON.parse(readFileSync(join(dataDir, file), 'utf8'))), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
  })

  it('rejects a world state without sub_scenarios_expanded, naming the field', () => {
    const world = JSON.parse(readFileSync(join(dataDir, shipped[0] as string), 'utf8')) as Record<string, unknown>
    delete world.sub_scenarios_expanded
    const result = WorldStateSchema.safeParse(world)
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual(['sub_scenarios_expanded'])
  })
})

describeWithSharedData('WorldStateSchema on upstream LLM world states', () => {
  const dir = sharedDataPath('mpcbench', 'v1_eb0b7ca', 'generator', 'logs', 'llm')
  const files = readdirSync(dir).filter((f) => f.endsWith('__world_state__llm.json'))
  it('finds the upstream world-state logs', () => expect(files.length).toBeGreaterThanOrEqual(50))
  it.each(files)('parses the response of %s', (file) => {
    const log = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { response: { raw_message: { content: string } } }
    const world = WorldStateSchema.parse(JSON.parse(log.response.raw_message.content))
    expect(world.sub_scenarios_expanded.length).toBeGreaterThan(0)
  })
})

describeWithSharedData('upstream MPCBench world states', () => {
  it('all 56 logged world states (complete scenarios or not) parse as world states', () => {
    const entries = scanUpstreamLogs(sharedDataPath('mpcbench', 'v1_eb0b7ca', 'generator', 'logs', 'llm')).filter(
      (entry) => entry.kind === 'generation' && entry.part === 'world_state',
    )
    expect(entries).toHaveLength(56)
    for (const entry of entries) {
      if (entry.kind !== 'generation') continue
      const parsed = WorldStateSchema.safeParse(upstreamWorldState(entry))
      expect(parsed.success, `${entry.file}: ${parsed.error?.message ?? ''}`).toBe(true)
    }
  })
})
