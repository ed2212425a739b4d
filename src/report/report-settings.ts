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
  /** `GITHUB_STEP_SUMMARY`: the GitHub Actions job summary file (set by the runner). */
  GITHUB_STEP_SUMMARY: z.string().trim().min(1).optional(),
})

/** Report settings from the environment. */
export interface ReportSettings {
  /** The page to write (absolute), or `false` when `BENCH_REPORT=off`. */
  file: string | false
  /** The GitHub Actions job summary to append to, when running in GitHub Actions. */
  stepSummaryFile: string | undefined
}

/** Reads {@link ReportSettings}: `BENCH_REPORT` (a path, relative to `cwd`, or `off`), default {@link DEFAULT_REPORT_FILE}; `GITHUB_STEP_SUMMARY`. */
export function reportSettingsFromEnv(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): ReportSettings {
  const blank = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value)
  const parsed = parseWith(ReportEnvSchema, { BENCH_REPORT: blank(env.BENCH_REPORT), GITHUB_STEP_SUMMARY: blank(env.GITHUB_STEP_SUMMARY) }, 'report settings', 'environment')
  const value = parsed.BENCH_REPORT
  const stepSummaryFile = parsed.GITHUB_STEP_SUMMARY
  if (value !== undefined && value.toLowerCase() === 'off') return { file: false, stepSummaryFile }
  return { file: resolve(cwd, value ?? DEFAULT_REPORT_FILE), stepSummaryFile }
}
