import { z } from 'zod'
import { ConfigError } from '../core/errors.ts'

type Env = Record<string, string | undefined>

const Flag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['', '0', '1', 'false', 'true', 'no', 'yes']))
  .transform((value) => value === '1' || value === 'true' || value === 'yes')

/** The MPCBench settings read from the environment (one zod schema, parsed once at the boundary). */
export const MpcbenchEnvSchema = z.object({
  /** `BENCH_RESUME=1`: reuse each finished run (answered or max-turns, every judge scored) found in the log folder. */
  BENCH_RESUME: Flag.default(false),
})

/** MPCBench run settings. */
export interface MpcbenchSettings {
  /** `BENCH_RESUME`: see {@link MpcbenchEnvSchema}. */
  resume: boolean
}

/** Reads {@link MpcbenchSettings} from `env`; a bad value is a `ConfigError` naming the variable. */
export function mpcbenchSettingsFromEnv(env: Env = process.env): MpcbenchSettings {
  const parsed = MpcbenchEnvSchema.safeParse({ BENCH_RESUME: env.BENCH_RESUME ?? '' })
  if (!parsed.success) {
    throw new ConfigError(`Invalid BENCH_RESUME=${JSON.stringify(env.BENCH_RESUME)}: expected 1 or 0.`, { hint: 'Set BENCH_RESUME=1 to resume, or unset it.' })
  }
  return { resume: parsed.data.BENCH_RESUME }
}
