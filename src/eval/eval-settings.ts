import { z } from 'zod'
import { ConfigError } from '../core/errors.ts'
import { evalOutputDir } from '../results/eval-results.ts'

/**
 * The environment `describeEval` and the eval reporter read:
 * - `BENCH_TRIALS`: runs per case (default 1), unless the eval's `trials` option says;
 * - `BENCH_RESUME=1`: a case with a finished result for the same trial in the eval's previous results file is not run
 *   again (its result is kept);
 * - `EVAL_OUTPUT_DIR`: the folder of the results files (default `evaluation/evals`, relative to the folder Vitest runs in).
 */
export const EvalEnvSchema = z.object({
  BENCH_TRIALS: z
    .string()
    .trim()
    .regex(/^[1-9]\d*$/, 'expected a whole number >= 1')
    .transform(Number)
    .optional(),
  BENCH_RESUME: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['', '0', '1', 'false', 'true', 'no', 'yes'], { error: 'expected 1 or 0' }))
    .transform((text) => text === '1' || text === 'true' || text === 'yes')
    .optional(),
  EVAL_OUTPUT_DIR: z.string().optional(),
})

/** The eval settings, parsed. */
export interface EvalSettings {
  /** `BENCH_TRIALS`, or `undefined` when unset. */
  trials: number | undefined
  /** `BENCH_RESUME`. */
  resume: boolean
  /** `EVAL_OUTPUT_DIR`, absolute. */
  outputDir: string
}

const HINTS: Record<string, string> = {
  BENCH_TRIALS: 'Set BENCH_TRIALS to a whole number >= 1 (runs per case), or unset it for 1.',
  BENCH_RESUME: 'Set BENCH_RESUME=1 to resume, or unset it.',
}

/** Reads {@link EvalSettings} from `env`; a bad value is a {@link ConfigError} naming the variable and the fix. */
export function evalSettings(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): EvalSettings {
  const empty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value)
  const parsed = EvalEnvSchema.safeParse({ BENCH_TRIALS: empty(env.BENCH_TRIALS), BENCH_RESUME: empty(env.BENCH_RESUME), EVAL_OUTPUT_DIR: env.EVAL_OUTPUT_DIR })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const name = String(issue?.path[0] ?? 'BENCH_TRIALS')
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: ${issue?.message ?? 'not valid'}.`, { hint: HINTS[name] ?? `Fix ${name}.` })
  }
  return { trials: parsed.data.BENCH_TRIALS, resume: parsed.data.BENCH_RESUME ?? false, outputDir: evalOutputDir(env, cwd) }
}
