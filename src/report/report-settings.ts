import { resolve } from 'node:path'
import { z } from 'zod'
import { parseWith } from '../core/parse.ts'

/** Default location of the report page, relative to the project root. */
export const DEFAULT_REPORT_FILE = 'evaluation/report/index.html'

const ReportEnvSchema = z.object({
  /** `BENCH_REPORT`: where the HTML report goes, or `off` for none. */
  BENCH_REPORT: z
    .string()
    .trim()
    .min(1, 'expected a file path or `off`')
    .optional(),
})

/** Report settings from the environment. */
export interface ReportSettings {
  /** The page to write (absolute), or `false` when `BENCH_REPORT=off`. */
  file: string | false
}

/** Reads {@link ReportSettings}: `BENCH_REPORT` (a path, relative to `cwd`, or `off`), default {@link DEFAULT_REPORT_FILE}. */
export function reportSettingsFromEnv(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): ReportSettings {
  const parsed = parseWith(ReportEnvSchema, { BENCH_REPORT: env.BENCH_REPORT === '' ? undefined : env.BENCH_REPORT }, 'report settings', 'environment')
  const value = parsed.BENCH_REPORT
  if (value !== undefined && value.toLowerCase() === 'off') return { file: false }
  return { file: resolve(cwd, value ?? DEFAULT_REPORT_FILE) }
}
