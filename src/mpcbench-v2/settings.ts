import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { ConfigError } from '../core/errors.ts'
import { packageRoot } from '../core/package-root.ts'
import { wholeNumberText } from '../core/whole-number.ts'
import { defaultAgentModel } from '../llm/default-model.ts'
import type { Level } from './data/schemas.ts'

/** Where upstream's v2 data is beside a checkout: `../shared` (developers and CI have it; a user's clone does not). */
export const DEFAULT_DATA_DIR = resolve(packageRoot, '..', 'shared', 'data', 'mpcbench', 'v2_e398410', 'generate', 'output')

/** The variables MPCBench v2 reads (the `mpcbench-v2` command writes its flags into them). */
export const MpcbenchV2EnvSchema = z.object({
  MPCBENCH_V2_DATA_DIR: z.string().optional(),
  MPCBENCH_V2_SUFFIX: z
    .string()
    .regex(/^[A-Za-z0-9]+$/, 'expected a file suffix such as exp1 or test')
    .default('exp1'),
  MPCBENCH_V2_WORLD: z.string().optional(),
  MPCBENCH_V2_INSTANCES: z.string().optional(),
  MPCBENCH_V2_ORACLE: z.string().optional(),
  MPCBENCH_V2_IDS: z.string().optional(),
  MPCBENCH_V2_MODEL: z.string().optional(),
  MPCBENCH_V2_OUTPUT: z.string().optional(),
  MPCBENCH_V2_MAX_TURNS: wholeNumberText(1).optional(),
  BENCH_TRIALS: wholeNumberText(1).default(1),
})

/** The files of one level's run. */
export interface LevelFiles {
  world: string
  instances: string
  oracle: string
}

/** MPCBench v2's settings, read once from the environment (the `mpcbench-v2` command writes its flags there). */
export interface MpcbenchV2Settings {
  /**
   * The files of a level: `MPCBENCH_V2_WORLD`, `_INSTANCES`, `_ORACLE` when set (all three, for the level of the
   * world), else `world_level<N>_<suffix>.json` etc. in `MPCBENCH_V2_DATA_DIR` (default {@link DEFAULT_DATA_DIR}).
   */
  files: (level: Level) => LevelFiles
  /** Whether the files were named explicitly (then only the world's level runs). */
  explicitFiles: boolean
  /** `MPCBENCH_V2_IDS`: the instances to run, comma-separated; all when unset. */
  ids: ReadonlySet<string> | undefined
  /** `MPCBENCH_V2_MODEL`, else the default agent model (`BENCH_AGENT_MODEL`, a key's model, else `baseline`). */
  model: string
  /** `MPCBENCH_V2_OUTPUT`: the results rows file (upstream's format) the reporter writes for a one-level, one-model run. */
  output: string | undefined
  /** `MPCBENCH_V2_MAX_TURNS`: requests per instance, default upstream's 15. */
  maxTurns: number | undefined
  /** `BENCH_TRIALS`: runs per instance. */
  trials: number
}

const HINTS: Record<string, string> = {
  MPCBENCH_V2_SUFFIX: 'Set MPCBENCH_V2_SUFFIX to the suffix of the data files (exp1 or test), or unset it.',
  MPCBENCH_V2_MAX_TURNS: "Set MPCBENCH_V2_MAX_TURNS to a whole number >= 1, or unset it for upstream's 15.",
  BENCH_TRIALS: 'Set BENCH_TRIALS to a whole number >= 1, or unset it for the default (1).',
}

/**
 * Reads the settings from `env`; a bad value is a {@link ConfigError} naming the variable and the fix. A variable set
 * to blank (`BENCH_TRIALS=` in a `.env`) counts as unset, as the other benchmarks read it.
 */
export function mpcbenchV2Settings(env: Record<string, string | undefined> = process.env): MpcbenchV2Settings {
  const set = Object.fromEntries(Object.keys(MpcbenchV2EnvSchema.shape).flatMap((name) => (env[name]?.trim() ? [[name, env[name]]] : [])))
  const parsed = MpcbenchV2EnvSchema.safeParse(set)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const variable = String(issue?.path[0] ?? '')
    throw new ConfigError(`${variable}=${env[variable] ?? ''} is not valid: ${issue?.message ?? ''}`, { hint: HINTS[variable] ?? `Fix or unset ${variable}.` })
  }
  const s = parsed.data
  const named = [s.MPCBENCH_V2_WORLD, s.MPCBENCH_V2_INSTANCES, s.MPCBENCH_V2_ORACLE].filter((value) => value !== undefined && value.trim() !== '')
  if (named.length !== 0 && named.length !== 3) {
    throw new ConfigError('MPCBENCH_V2_WORLD, MPCBENCH_V2_INSTANCES and MPCBENCH_V2_ORACLE must be set together', {
      hint: 'Set all three (a world file and its instances and oracle files), or none to use MPCBENCH_V2_DATA_DIR.',
    })
  }
  const dir = resolve(s.MPCBENCH_V2_DATA_DIR ?? DEFAULT_DATA_DIR)
  const files = (level: Level): LevelFiles =>
    named.length === 3
      ? {
          world: resolve(s.MPCBENCH_V2_WORLD as string),
          instances: resolve(s.MPCBENCH_V2_INSTANCES as string),
          oracle: resolve(s.MPCBENCH_V2_ORACLE as string),
        }
      : {
          world: join(dir, `world_level${level}_${s.MPCBENCH_V2_SUFFIX}.json`),
          instances: join(dir, `instances_level${level}_${s.MPCBENCH_V2_SUFFIX}.jsonl`),
          oracle: join(dir, `oracle_level${level}_${s.MPCBENCH_V2_SUFFIX}.jsonl`),
        }
  const ids = s.MPCBENCH_V2_IDS?.split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
  return {
    files,
    explicitFiles: named.length === 3,
    ids: ids === undefined || ids.length === 0 ? undefined : new Set(ids),
    model: s.MPCBENCH_V2_MODEL?.trim() || defaultAgentModel(env),
    output: s.MPCBENCH_V2_OUTPUT,
    maxTurns: s.MPCBENCH_V2_MAX_TURNS,
    trials: s.BENCH_TRIALS,
  }
}

/** Why a level's data is missing (for the skip message), or `undefined` when its three files exist. */
export function missingData(files: LevelFiles): string | undefined {
  const missing = Object.values(files).filter((file) => !existsSync(file))
  if (missing.length === 0) return undefined
  return `MPCBench v2 data not found (${missing.join(', ')}). Upstream publishes no license, so its data is not shipped; pass your copy with agent-bench mpcbench-v2 --world --instances --oracle or MPCBENCH_V2_DATA_DIR`
}
