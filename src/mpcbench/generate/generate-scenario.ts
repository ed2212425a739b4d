import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { writeFileAtomic, writeJsonAtomic } from '../../core/atomic-write.ts'
import { ConfigError, InvalidFormatError } from '../../core/errors.ts'
import { createModel } from '../../llm/create-model.ts'
import type { ChatModel } from '../../llm/types.ts'
import { parseWith } from '../../core/parse.ts'
import { SOURCES, type SourceName, loadSourceSchema, sourceValidationErrors } from '../workplace/validate-source.ts'
import { loadModelConfig } from '../config/model-config.ts'
import { loadPromptConfig } from '../config/prompt-config.ts'
import { type Scenario, ScenarioSchema, loadScenario } from '../tasks/scenario.ts'
import { GeneratorRecordSchema, type WorldState, WorldStateSchema, loadWorldState } from '../tasks/world-state.ts'
import type { GenerationContext, Generator } from './generator.ts'
import { LlmGenerator } from './llm-generator.ts'
import { ProceduralGenerator } from './procedural-generator.ts'

/** The repository root (where `prompt_config.json`, `model_config.json`, `schemas/` and `scenarios/` live). */
export const repoRoot: string = fileURLToPath(new URL('../../../', import.meta.url))

/** Path of `schemas/world_state_schema.json`. */
export const worldStateSchemaPath: string = join(repoRoot, 'schemas', 'world_state_schema.json')

/** Default seed of the procedural generator. */
export const DEFAULT_SEED = 1

/** Name of a generator implementation. */
export type GeneratorName = 'procedural' | 'llm'

/** Options of {@link generateScenario}. */
export interface GenerateScenarioOptions {
  /** A scenario file; or pass `scenario`. */
  scenarioPath?: string
  scenario?: Scenario
  /** Folder receiving `{id}_world_state.json`, `{id}_{source}.json` and `{id}.generation.json`. */
  outDir: string
  /** @default 'procedural' */
  generator?: GeneratorName
  /** @default DEFAULT_SEED */
  seed?: number
  /** Noise multiplier (procedural). @default 1 */
  scale?: number
  /** Regenerate even when the recorded input hashes match. @default false */
  force?: boolean
  /** The data-generation model (llm); default: `createModel(model_config.json → data_generation_model)`. */
  model?: ChatModel
  /** @default `prompt_config.json` at the repository root */
  promptConfigPath?: string
  /** @default `model_config.json` at the repository root */
  modelConfigPath?: string
  /** Attempts per file of the llm generator (first try plus retries with the validation errors). @default 3 */
  maxAttempts?: number
  signal?: AbortSignal
}

/** What happened to one file. */
export type FileOutcome = { kind: 'generated' } | { kind: 'skipped' }

/** Result of {@link generateScenario}: `skipped` when every file was up to date. */
export interface GenerateScenarioResult {
  scenarioId: string
  kind: 'generated' | 'skipped'
  generator: GeneratorName
  files: Array<{ name: 'world_state' | SourceName; path: string; outcome: FileOutcome }>
}

const FileRecordSchema = z.object({
  file: z.string(),
  generator: GeneratorRecordSchema,
  input_sha256: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  output_sha256: z.string(),
})

/** `data/{scenario_id}.generation.json`: which generator made each file, from which inputs (by hash). */
export const GenerationRecordSchema = z.object({
  scenario_id: z.string(),
  files: z.record(z.string(), FileRecordSchema),
})
export type GenerationRecord = z.infer<typeof GenerationRecordSchema>

/** Path of the sidecar record of a scenario's generated files. */
export function generationRecordPath(outDir: string, scenarioId: string): string {
  return join(outDir, `${scenarioId}.generation.json`)
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

/**
 * The sidecar record; a missing or unreadable one counts as empty, so every file is regenerated
 * (an unreadable one is reported on stderr, since with the llm generator that spends model calls again).
 */
function readRecord(path: string, scenarioId: string): GenerationRecord {
  if (!existsSync(path)) return { scenario_id: scenarioId, files: {} }
  try {
    return parseWith(GenerationRecordSchema, JSON.parse(readFileSync(path, 'utf8')), 'generation record', path)
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    console.warn(`mpcbench: ignoring unreadable ${path} (${reason}); regenerating every file of ${scenarioId}`)
    return { scenario_id: scenarioId, files: {} }
  }
}

function fileText(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined
}

/**
 * Removes the source files not recorded as made from the world state whose hash is `worldSha`, with their entries:
 * once a new world state is written, a failed or interrupted generation leaves sources of that world or none, never
 * sources of an earlier world beside it.
 */
function removeSourcesOfAnotherWorld(record: GenerationRecord, outDir: string, id: string, worldSha: string): void {
  for (const source of SOURCES) {
    if (record.files[source]?.inputs.world_state === worldSha) continue
    rmSync(join(outDir, `${id}_${source}.json`), { force: true })
    delete record.files[source]
  }
}

function fileSha(path: string): string | undefined {
  return existsSync(path) ? sha256(readFileSync(path)) : undefined
}

function serialize(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}

/**
 * Generates a scenario's world state (step 1) and six sources (step 2) into `outDir`, atomically, skipping each
 * file whose recorded input hash (scenario, prompt, schema, generator, model, seed, scale; for sources also the
 * world state) still matches and whose output exists. A reproducible generator's files (procedural) are also made
 * again and rewritten when their content differs, so a change to its code regenerates them. Every source is checked
 * against its schema before it is written; a new world state removes the sources made from an earlier one.
 */
export async function generateScenario(options: GenerateScenarioOptions): Promise<GenerateScenarioResult> {
  const scenario = loadInputScenario(options)
  const generatorName = options.generator ?? 'procedural'
  const seed = options.seed ?? DEFAULT_SEED
  const scale = options.scale ?? 1
  if (!Number.isInteger(seed)) throw new ConfigError(`Expected \`seed\` to be an integer, got ${seed}`, { hint: 'Pass --seed N with a whole number.' })
  if (!(scale > 0)) throw new ConfigError(`Expected \`scale\` to be a number above 0, got ${scale}`, { hint: 'Pass --scale N with N > 0.' })

  const promptConfigPath = options.promptConfigPath ?? join(repoRoot, 'prompt_config.json')
  const prompts = loadPromptConfig(promptConfigPath)
  const modelConfigPath = options.modelConfigPath ?? join(repoRoot, 'model_config.json')
  const modelId = generatorName === 'llm' ? (options.model?.id ?? loadModelConfig(modelConfigPath).data_generation_model) : undefined
  let chatModel = options.model
  const generator: Generator =
    generatorName === 'llm'
      ? new LlmGenerator({
          model: () => (chatModel ??= createModel(modelId as string)),
          modelId: modelId as string,
          seed,
          maxAttempts: options.maxAttempts ?? 3,
        })
      : new ProceduralGenerator({ seed, scale })

  const sourceSchemas = Object.fromEntries(SOURCES.map((s) => [s, loadSourceSchema(s)])) as Record<SourceName, Record<string, unknown>>
  const worldStateSchema = JSON.parse(readFileSync(worldStateSchemaPath, 'utf8')) as Record<string, unknown>
  const ctx: GenerationContext = { seed, scale, prompts, sourceSchemas, worldStateSchema, ...(options.signal === undefined ? {} : { signal: options.signal }) }

  const id = scenario.scenario_id
  const recordPath = generationRecordPath(options.outDir, id)
  const record = readRecord(recordPath, id)
  record.scenario_id = id
  const files: GenerateScenarioResult['files'] = []
  const common = { generator: generator.record, seed, scale: generatorName === 'procedural' ? scale : null, model: modelId ?? null }

  const worldPath = join(options.outDir, `${id}_world_state.json`)
  const worldInputs = {
    scenario: sha256(JSON.stringify(scenario)),
    prompt: generatorName === 'llm' ? sha256(JSON.stringify(prompts.generator.world_state)) : null,
    schema: sha256(JSON.stringify(worldStateSchema)),
    ...common,
  }
  let world: WorldState | undefined
  let worldText: string | undefined
  const worldFresh = isFresh(record, 'world_state', worldInputs, worldPath, options.force)
  if (!worldFresh || generator.reproducible) {
    world = parseWith(WorldStateSchema, await generator.worldState(scenario, ctx), 'generated world state', worldPath)
    world = { ...world, generator: generator.record }
    worldText = serialize(world)
  }
  if (worldFresh && (worldText === undefined || fileText(worldPath) === worldText)) {
    files.push({ name: 'world_state', path: worldPath, outcome: { kind: 'skipped' } })
  } else {
    const text = worldText as string
    writeFileAtomic(worldPath, text)
    record.files.world_state = fileRecord(worldPath, generator, worldInputs, text)
    removeSourcesOfAnotherWorld(record, options.outDir, id, sha256(text))
    writeJsonAtomic(recordPath, record)
    files.push({ name: 'world_state', path: worldPath, outcome: { kind: 'generated' } })
  }
  const worldSha = fileSha(worldPath) as string

  for (const source of SOURCES) {
    const path = join(options.outDir, `${id}_${source}.json`)
    const inputs = {
      world_state: worldSha,
      prompt: generatorName === 'llm' ? sha256(JSON.stringify(prompts.generator[source])) : null,
      schema: sha256(JSON.stringify(sourceSchemas[source])),
      ...common,
    }
    const fresh = isFresh(record, source, inputs, path, options.force)
    if (fresh && !generator.reproducible) {
      files.push({ name: source, path, outcome: { kind: 'skipped' } })
      continue
    }
    world ??= loadWorldState(worldPath)
    const data = await generator.source(source, scenario, world, ctx)
    const errors = sourceValidationErrors(source, data)
    if (errors.length > 0) {
      throw new InvalidFormatError(`The ${generatorName} generator made an invalid ${source} source for ${id}:\n  ${errors.slice(0, 5).join('\n  ')}`, {
        file: path,
        field: errors[0]?.split(': ')[0],
        hint: `This is a bug of the ${generatorName} generator or a schema change in schemas/${source}_schema.json; report it with the scenario file.`,
      })
    }
    const text = serialize(data)
    if (fresh && fileText(path) === text) {
      files.push({ name: source, path, outcome: { kind: 'skipped' } })
      continue
    }
    writeFileAtomic(path, text)
    record.files[source] = fileRecord(path, generator, inputs, text)
    writeJsonAtomic(recordPath, record)
    files.push({ name: source, path, outcome: { kind: 'generated' } })
  }
  const kind = files.every((f) => f.outcome.kind === 'skipped') ? 'skipped' : 'generated'
  return { scenarioId: id, kind, generator: generatorName, files }
}

function loadInputScenario(options: GenerateScenarioOptions): Scenario {
  if (options.scenario !== undefined) return parseWith(ScenarioSchema, options.scenario, 'scenario')
  if (options.scenarioPath !== undefined) return loadScenario(options.scenarioPath)
  throw new ConfigError('generateScenario needs `scenarioPath` or `scenario`', { hint: 'Pass the scenario file path or the parsed scenario.' })
}

function inputHash(inputs: Record<string, unknown>): string {
  return sha256(JSON.stringify(inputs))
}

function isFresh(record: GenerationRecord, name: string, inputs: Record<string, unknown>, path: string, force: boolean | undefined): boolean {
  if (force === true) return false
  const entry = record.files[name]
  return entry !== undefined && entry.input_sha256 === inputHash(inputs) && existsSync(path)
}

function fileRecord(path: string, generator: Generator, inputs: Record<string, unknown>, text: string): GenerationRecord['files'][string] {
  return {
    file: path.split(/[\\/]/).pop() as string,
    generator: generator.record,
    input_sha256: inputHash(inputs),
    inputs,
    output_sha256: sha256(text),
  }
}
