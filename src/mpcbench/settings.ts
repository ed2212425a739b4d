import { z } from 'zod'
import { ConfigError } from '../core/errors.ts'
import { type HistorySettings, historySettingsFromEnv } from '../core/run-history.ts'

type Env = Record<string, string | undefined>

/** A whole number >= 1 written as text (an environment variable). */
const PositiveWholeText = z
  .string()
  .trim()
  .regex(/^\d+$/, 'expected a whole number >= 1')
  .transform(Number)
  .pipe(z.int().min(1, 'expected a whole number >= 1'))

/** The MPCBench settings read from the environment; empty variables count as unset. */
export const MpcbenchSettingsSchema = z.object({
  /** `BENCH_TRIALS`: runs per task × agent (default 1); with more, tests are named `... [trial=j]`. */
  BENCH_TRIALS: PositiveWholeText.optional(),
})

/** MPCBench run settings. */
export interface MpcbenchSettings {
  /** `BENCH_TRIALS`: runs per task × agent. */
  trials: number
}

/** Reads {@link MpcbenchSettings} from `env`; a bad value is a `ConfigError` naming the variable and the fix. */
export function mpcbenchSettingsFromEnv(env: Env = process.env): MpcbenchSettings {
  const present = Object.fromEntries(Object.entries(env).filter(([key, value]) => key in MpcbenchSettingsSchema.shape && value?.trim() !== ''))
  const result = MpcbenchSettingsSchema.safeParse(present)
  if (!result.success) {
    const issue = result.error.issues[0]
    const name = String(issue?.path[0] ?? 'BENCH_TRIALS')
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: ${issue?.message ?? 'invalid value'}.`, {
      hint: `Set ${name} to a whole number >= 1, or unset it for the default (1).`,
      cause: result.error,
    })
  }
  return { trials: result.data.BENCH_TRIALS ?? 1 }
}

/** File name of an MPCBench run's summary in its history folder (`evaluation/history/{run id}/`). */
export const MPCBENCH_HISTORY_FILE = 'mpcbench-summary.json'

/** `BENCH_HISTORY_DIR` (default `evaluation/history`, relative to `root`) and `BENCH_HISTORY_KEEP` (default 20, 0 = off). */
export function mpcbenchHistorySettings(env: Env = process.env, root = process.cwd()): HistorySettings {
  return historySettingsFromEnv(env, root)
}

/**
 * The trial numbers of one task × agent: `[undefined]` for one trial (plain test names), else `[1, ..., k]`
 * (tests named `... [trial=j]`).
 */
export function trialNumbers(trials: number): Array<number | undefined> {
  return trials <= 1 ? [undefined] : Array.from({ length: trials }, (_, i) => i + 1)
}
