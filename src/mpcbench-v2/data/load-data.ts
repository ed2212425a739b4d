import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { InvalidFormatError } from '../../core/errors.ts'
import { describeJsonSyntaxError, parseWith, readJsonFile } from '../../core/parse.ts'
import { type Instance, InstanceSchema, type Level, type OracleRow, OracleRowSchema, type World, WorldSchema } from './schemas.ts'

/** Reads `world_level*.json` (the file's own value, keys in file order, validated by {@link WorldSchema}); a bad file throws an {@link InvalidFormatError} naming the file and field. */
export function loadWorld(file: string): World {
  const raw = readJsonFile(z.unknown(), file, 'MPCBench v2 world')
  parseWith(WorldSchema, raw, 'MPCBench v2 world', file)
  return raw as World
}

/** The JSON value of each non-blank line of a JSONL file, with its 1-based line number. */
function readJsonLines(file: string, label: string): Array<{ line: number; value: unknown }> {
  let text: string
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '')
  } catch (error) {
    throw new InvalidFormatError(`Cannot read ${label} file ${file}: ${(error as Error).message}`, {
      file,
      hint: `Make sure ${file} exists and holds one JSON object per line.`,
      cause: error,
    })
  }
  const rows: Array<{ line: number; value: unknown }> = []
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index += 1) {
    const lineText = (lines[index] ?? '').trim()
    if (lineText === '') continue
    try {
      rows.push({ line: index + 1, value: JSON.parse(lineText) })
    } catch (error) {
      const { summary } = describeJsonSyntaxError(lineText, error, { lineNumber: index + 1 })
      throw new InvalidFormatError(`Cannot read ${label} ${file}:${index + 1}: ${summary}`, {
        file,
        hint: `Fix the JSON on line ${index + 1} of ${file} (one JSON object per line).`,
        cause: error,
      })
    }
  }
  return rows
}

function readRows<T>(file: string, schema: z.ZodType, label: string): T[] {
  const seen = new Map<string, number>()
  return readJsonLines(file, label).map(({ line, value }) => {
    const row = parseWith(schema, value, label, `${file}:${line}`) as { instance_id: string }
    const first = seen.get(row.instance_id)
    if (first !== undefined) {
      throw new InvalidFormatError(`Duplicate instance_id ${JSON.stringify(row.instance_id)} in ${file} (lines ${first} and ${line})`, {
        file,
        field: 'instance_id',
        hint: 'Give every row of the file its own instance_id.',
      })
    }
    seen.set(row.instance_id, line)
    return value as T
  })
}

/** Reads `instances_level*.jsonl` (one task per line, ids unique); errors name `file:line` and the field. */
export function loadInstances(file: string): Instance[] {
  return readRows<Instance>(file, InstanceSchema, 'MPCBench v2 instance')
}

/** Reads `oracle_level*.jsonl` (gold candidates per instance, ids unique); errors name `file:line` and the field. */
export function loadOracle(file: string): OracleRow[] {
  return readRows<OracleRow>(file, OracleRowSchema, 'MPCBench v2 oracle row')
}

/** One level's data: its world, its instances in file order, and the oracle row of each instance that has one. */
export interface LevelData {
  level: Level
  world: World
  instances: Instance[]
  /** Oracle rows by instance id. */
  oracle: ReadonlyMap<string, OracleRow>
  /**
   * Instances without an oracle row. Upstream scores them against an empty gold list (`run_eval.py` merges the
   * oracle when present), so a model that answers anything gets F1 0; they are listed so a caller can warn.
   */
  withoutOracle: string[]
}

/** Where a level's files are. */
export interface LevelFiles {
  world: string
  instances: string
  oracle: string
}

/**
 * Loads a level: the world, its instances and oracle rows, and checks they belong together (every instance of the
 * world's level and world id, every oracle row naming a loaded instance).
 */
export function loadLevel(files: LevelFiles): LevelData {
  const world = loadWorld(files.world)
  const instances = loadInstances(files.instances)
  const rows = loadOracle(files.oracle)
  for (const instance of instances) {
    if (instance.level !== world.level) {
      throw new InvalidFormatError(
        `Instance ${instance.instance_id} in ${files.instances} is level ${instance.level}, but the world ${files.world} is level ${world.level}`,
        {
          file: files.instances,
          field: 'level',
          hint: 'Pass the world file of the same level as the instances (world_level<N>_*.json with instances_level<N>_*.jsonl).',
        },
      )
    }
    if (instance.sources_ref.world_id !== world.world_id) {
      throw new InvalidFormatError(
        `Instance ${instance.instance_id} in ${files.instances} refers to world ${JSON.stringify(instance.sources_ref.world_id)}, but ${files.world} is ${JSON.stringify(world.world_id)}`,
        {
          file: files.instances,
          field: 'sources_ref.world_id',
          hint: 'Pass the world file the instances were generated for (same suffix, e.g. _exp1 with _exp1).',
        },
      )
    }
  }
  const ids = new Set(instances.map((instance) => instance.instance_id))
  const oracle = new Map<string, OracleRow>()
  for (const row of rows) {
    if (!ids.has(row.instance_id)) {
      throw new InvalidFormatError(`Oracle row ${row.instance_id} in ${files.oracle} has no instance in ${files.instances}`, {
        file: files.oracle,
        field: 'instance_id',
        hint: 'Pass the oracle file generated with these instances (same level and suffix).',
      })
    }
    oracle.set(row.instance_id, row)
  }
  const withoutOracle = instances.filter((instance) => !oracle.has(instance.instance_id)).map((instance) => instance.instance_id)
  return { level: world.level, world, instances, oracle, withoutOracle }
}
